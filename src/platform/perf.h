/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf.h - the vpa_dtl perf PMU source's parts that tests drive directly:
 * discovery on a --root tree, and per-CPU events of any type, so the libperf
 * plumbing runs for real on a software event where no vpa_dtl PMU exists.
 */
#ifndef DTL_PERF_H
#define DTL_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"
#include "../dtl/aux.h"
#include "../dtl/sideband.h"

struct dtl_pmu {
	int type;		/* perf_event_attr.type */
};

/* Reads <root>/sys/bus/event_source/devices/vpa_dtl; -1 with a one-line reason. */
int dtl_pmu__discover(const char *root, struct dtl_pmu *pmu, char *err, size_t errlen);

/* The masks the 6.18 driver (and the fixes series) accepts; the features series any subset. */
bool dtl_pmu__upstream_mask(unsigned int mask);
/*
 * Whether the driver takes any subset of the mask (kernel/upstream/features/),
 * asked by opening and closing an event of mask 0x3 on cpu: 1 yes, 0 no
 * (EINVAL, before the driver allocates or locks anything), -1 cannot tell.
 * Needs CAP_PERFMON raised. No sysfs file says it.
 */
int dtl_pmu__takes_any_mask(const struct dtl_pmu *pmu, int cpu);

/* An errno from perf_event_open or mmap, explained for an LPAR admin (cpu -1: none). */
void dtl_perf__explain(int err, const char *root, int cpu, char *buf, size_t len);

struct dtl_perf_cpus;

struct dtl_perf_opts {
	uint32_t type;		/* PMU type (a software type in tests) */
	uint64_t config;
	uint64_t period_ns;
	bool aux;		/* map an AUX area (vpa_dtl); false for software events */
	size_t aux_bytes;
	bool switches;		/* and a switch stream per CPU (who pays) */
	bool stream_only;	/* only the switch stream: the DTL comes another way */
	bool raw_clock;		/* stamped with DTL_TBCLOCK_ID (tbclock.h), not sched_clock */
};

/* One sampling event per CPU in set, opened through libperf and mapped. */
struct dtl_perf_cpus *dtl_perf_cpus__open(const struct dtl_perf_opts *o,
					  const struct dtl_cpuset *set,
					  const char *root, char *err, size_t errlen);
void dtl_perf_cpus__close(struct dtl_perf_cpus *p);
/* Open or close single CPUs (hotplug); -1 with err if an open fails. */
int dtl_perf_cpus__add(struct dtl_perf_cpus *p, unsigned int cpu, char *err, size_t errlen);
void dtl_perf_cpus__remove(struct dtl_perf_cpus *p, unsigned int cpu);
bool dtl_perf_cpus__has(const struct dtl_perf_cpus *p, unsigned int cpu);
/*
 * Wait up to timeout_ms for the kernel to wake any event (a watermark was
 * reached); sets ready[cpu] for each that did. Returns how many woke, -1.
 */
int dtl_perf_cpus__poll(struct dtl_perf_cpus *p, int timeout_ms, uint8_t *ready);

struct dtl_perf_news {
	const uint8_t *data;	/* n entries, in place in the AUX area */
	size_t n;
	bool more;		/* entries are left: drain again */
	uint64_t lost;		/* the driver's count went up by this */
	uint64_t junk;		/* bytes skipped in the AUX area */
	uint64_t records;	/* main-ring records seen (any type) */
	uint64_t truncated, partial, collision;
	bool reenabled;		/* the kernel had disabled it (AUX full) */
};

/*
 * Drain one CPU's rings: the next run of at most max entries, in place (valid
 * until dtl_perf_cpus__release() of the CPU), the rest in news. The driver's
 * loss count is read when a record was flagged, or when count says so and
 * the CPU has nothing more to drain.
 */
int dtl_perf_cpus__drain(struct dtl_perf_cpus *p, unsigned int cpu, size_t max, bool count,
			 struct dtl_perf_news *news);
/* The entries drained from cpu are used: the kernel may write over them. */
void dtl_perf_cpus__release(struct dtl_perf_cpus *p, unsigned int cpu);

/*
 * The CPU's switch stream since the last call: up to max records into out
 * (*n of them; malformed ones counted in *bad). True when more are left.
 */
bool dtl_perf_cpus__sideband(struct dtl_perf_cpus *p, unsigned int cpu, struct dtl_sb *out,
			     size_t max, size_t *n, uint64_t *bad);
/* Which driver wrote the AUX areas, once any CPU's has told (aux.h). */
enum dtl_aux_layout dtl_perf_cpus__layout(const struct dtl_perf_cpus *p);
/* Why a CPU's switch stream failed to open (the last reason), or NULL. */
const char *dtl_perf_cpus__sideband_why(const struct dtl_perf_cpus *p);
/* The AUX header of cpu (boot_tb, tb_freq): false until it came. */
bool dtl_perf_cpus__clock(const struct dtl_perf_cpus *p, unsigned int cpu, uint64_t *boot_tb,
			  uint64_t *tb_freq);

#endif
