/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source.h - where DTL entries come from: one interface, several backends.
 *
 * A source hands out chunks of raw big-endian entries per CPU, exactly as the
 * hypervisor wrote them, so every backend feeds the same decoder and a
 * recorder can store them untouched.
 */
#ifndef DTL_SOURCE_H
#define DTL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dtl/counts.h"
#include "../dtl/switch.h"
#include "../platform/cpuset.h"
#include "../platform/topo.h"

struct dtl_source;

struct dtl_source_opts {
	const char *backend;		/* a backend's name, or "auto" */
	const char *root;		/* stands in for "/" */
	unsigned int mask;		/* DTL_MASK_* */
	bool have_cpus;
	struct dtl_cpuset cpus;		/* -C filter, if have_cpus */
	const char *sim_params;		/* "vcpus=64,ent=8,..." */
	uint64_t seed;
	const char *replay;		/* -r FILE */
	double speed;			/* replay speed; 0 = as fast as possible */
	bool have_speed;
	bool replay_follow;		/* --follow: a recording played as it is written */
	bool attach;			/* --attach: replay is a service's socket (--serve) */
	const char *kallsyms;		/* --kallsyms FILE: a replay's kernel symbols */
	double replay_interval_s;	/* -d, for cutting a perf.data into intervals */
	bool no_tasks;			/* --no-tasks: no switch stream (perf, debugfs) */
};

/* What a source without entries knows of a CPU's interval (--source=vpa). */
struct dtl_summary {
	uint64_t dispatches;		/* preempt/dispatch cycles */
	uint64_t steal_ticks, idle_ticks;
	uint64_t dispersions;		/* dispatches on another processor */
};

struct dtl_chunk {
	unsigned int cpu;
	const uint8_t *data;		/* n * DTL_ENTRY_SIZE bytes */
	size_t n;
	uint64_t lost;			/* entries known lost before these */
	uint64_t bad;			/* malformed input (e.g. a partial entry) */
	uint64_t gaps;			/* losses of unknown size (flagged AUX records) */
	uint64_t filtered;		/* read, then dropped by a mask applied here: not lost */
	const struct dtl_summary *summary;	/* instead of entries (no DTL), or NULL */
	/* a summary recording's interval of the CPU, instead of entries, or NULL */
	const struct dtl_interval_cpu *counts;
	bool told;			/* counts told by counters, not entries (DTL_SUM_TOLD) */
	const struct dtl_task_interval *task;	/* a summary's task interval, or NULL */
	bool have_vpa_steal;		/* a recorded witness: the VPA's steal of the interval */
	uint64_t vpa_steal;
	bool have_stat_steal;		/* and /proc/stat's */
	uint64_t stat_steal;
	/* The CPU's task switches up to (and maybe past) these entries, in time order. */
	const struct dtl_switch *switches;
	size_t nswitches;
};

/* NULL on failure, with a one-line reason in err. */
struct dtl_source *dtl_source__open(const struct dtl_source_opts *o, char *err, size_t errlen);
void dtl_source__close(struct dtl_source *src);

/* Waits up to timeout_ms for data; 1 maybe data, 0 nothing, -1 error. */
int dtl_source__poll(struct dtl_source *src, int timeout_ms);
/* How often dtltop must drain it at least, in ms; 0 when nothing laps unseen. */
int dtl_source__drain_ms(const struct dtl_source *src);
/* Next chunk; 1 got one, 0 drained for now. The chunk lives until the next call. */
int dtl_source__read(struct dtl_source *src, struct dtl_chunk *c);
/*
 * An interval of interval_ns has ended. The simulator generates exactly that
 * much simulated time, so its output never depends on wall-clock jitter; real
 * sources pick up CPU hotplug here.
 */
void dtl_source__tick(struct dtl_source *src, uint64_t interval_ns);
/* Apply a new event mask; -1 with err, keeping the old mask, on failure. */
int dtl_source__set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen);

unsigned int dtl_source__mask(const struct dtl_source *src);
/* What the hypervisor logs: the mask, or more while the source filters in user space. */
unsigned int dtl_source__hv_mask(const struct dtl_source *src);
const char *dtl_source__name(const struct dtl_source *src);
const char *dtl_source__detail(const struct dtl_source *src);
uint64_t dtl_source__tb_freq(const struct dtl_source *src);
/* Highest CPU number + 1 the source may ever report. */
unsigned int dtl_source__nr_cpus(const struct dtl_source *src);
/* CPUs being captured now. */
const struct dtl_cpuset *dtl_source__cpus(const struct dtl_source *src);
/* True when the source has its own clock; *ns is its time since the epoch. */
bool dtl_source__clock(const struct dtl_source *src, uint64_t *ns);
/*
 * The timebase now, in the entries' own terms, when the source can tell:
 * right after open, the capture's start; after a tick, the interval's end.
 */
bool dtl_source__tb(const struct dtl_source *src, uint64_t *tb);
/* The length of the interval just ticked when the source knows it, else 0. */
double dtl_source__interval(const struct dtl_source *src);
/* A recording that has no more intervals; *warning says why if damaged. */
bool dtl_source__ended(const struct dtl_source *src, const char **warning);
/* Replays pause with the display; live sources keep capturing. */
bool dtl_source__recorded(const struct dtl_source *src);
/* --attach: the event mask asked of the service (its intervals then say it); -1 with err. */
int dtl_source__ask_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen);
/* --attach: intervals the service dropped because this viewer was slow, so far. */
uint64_t dtl_source__dropped(const struct dtl_source *src);
/* After drops: where the next interval begins, once (its window starts there). */
bool dtl_source__restart(struct dtl_source *src, uint64_t *tb);
/* A summary's incident read since the last call ("why<TAB>FILE" into buf), else NULL. */
const char *dtl_source__incident(struct dtl_source *src, char *buf, size_t len);
/* A summary recording's replay: intervals come as counts (dtl_chunk.counts), never entries. */
bool dtl_source__summary(const struct dtl_source *src);
/*
 * The next interval can be read whole now: always, but for a recording
 * still being written (--follow), whose next interval may not be yet.
 */
bool dtl_source__ready(struct dtl_source *src);
/*
 * A recording's intervals read without their entries (a window's start
 * sought: every other record still comes), or with them again; a no-op for
 * other sources, which have no entries to pass over.
 */
void dtl_source__skim(struct dtl_source *src, bool on);
/*
 * A recording read on from a mark it kept as it was read (a chunk, and what
 * carries on to it), ahead of where it is and at or before the bounds: its
 * interval iv_max (0: any), its clock ns_max (0: any). 0 with *iv_at the
 * intervals then behind it, as skimmed to there; 1 where there is none (read
 * on); -1 with err (the recording is then at no known place: rewind).
 */
int dtl_source__seek(struct dtl_source *src, uint64_t iv_max, uint64_t ns_max, uint64_t *iv_at,
		     char *err, size_t errlen);
/* Where a recording's last interval ends (its clock); false where it cannot be known. */
bool dtl_source__end_clock(const struct dtl_source *src, uint64_t *ns);
/* Back to a recording's first interval, as just opened; -1 if not a recording. */
int dtl_source__rewind(struct dtl_source *src, char *err, size_t errlen);
/* A recording's -d, for pacing its replay. */
double dtl_source__recorded_interval(const struct dtl_source *src);
/* Which CPUs are threads of one VP (known false: nobody said). */
const struct dtl_topo *dtl_source__topo(const struct dtl_source *src);
/* The source's own VPA counters for cpu (the simulator's): 0, or -1 when it has none. */
struct dtl_vpa;
int dtl_source__vpa(const struct dtl_source *src, unsigned int cpu, struct dtl_vpa *v);
/*
 * Where the VPA's dtl_idx stood when the source registered cpu's DTL, so
 * that entries lapped before anyone else looked are counted lost too:
 * 0, or -1 when the source does not know.
 */
int dtl_source__reg_idx(const struct dtl_source *src, unsigned int cpu, uint64_t *idx);
/* The source counts its own losses; else the VPA's dtl_idx does (debugfs). */
bool dtl_source__counts_lost(const struct dtl_source *src);
bool dtl_source__copies_later(const struct dtl_source *src);
/* Hardware threads of a physical core: a migration within one is not to another. */
unsigned int dtl_source__core_threads(const struct dtl_source *src);
/* The partition's name (the HMC's), from the device tree or a recording; NULL unknown. */
const char *dtl_source__partition_name(const struct dtl_source *src);
/* The host a recording was made on, or NULL for this one. */
const char *dtl_source__host(const struct dtl_source *src);
/* Something to say at start (auto fell back to another backend), or NULL. */
const char *dtl_source__note(const struct dtl_source *src);
/* The source's own /proc/kallsyms text (the simulator's kernel), or NULL: the machine's. */
const char *dtl_source__kallsyms(const struct dtl_source *src, const char **none);
/* The source's own /proc/powerpc/lparcfg text (a recording's), or NULL. */
const char *dtl_source__lparcfg(const struct dtl_source *src);

#endif
