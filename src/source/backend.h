/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend.h - what a source backend implements, and the helpers they share.
 *
 * A new backend is one file defining a struct dtl_source_ops and one line
 * in registry.c; its options, if any, come with it (ops->opts).
 */
#ifndef DTL_BACKEND_H
#define DTL_BACKEND_H

#include "../platform/topo.h"
#include "../platform/vpa.h"
#include "source.h"

/* One command-line option a backend brings; dtltop's option table takes it in. */
struct dtl_source_opt {
	const char *name;
	int letter;		/* the short option, or 0 */
	int has_arg;		/* getopt_long's no_argument, ... */
	const char *arg;	/* its value in --help */
	const char *help;
	/* 0 ok, -1 with err, 1 when it printed what was asked and dtltop should exit */
	int (*parse)(struct dtl_source_opts *o, const char *arg, char *err, size_t errlen);
};

struct dtl_source_ops {
	const char *name;
	const char *help;		/* for --source; NULL: chosen by its own option */
	/* For --source=auto, in registry order: can it run under root? */
	bool (*probe)(const char *root, char *why, size_t whylen);
	const struct dtl_source_opt *opts;	/* ends with a row without a name */
	bool counts_lost;		/* it knows every entry it lost (the ring's, the driver's) */
	/* a kernel copies the DTL on its own clock (the PMU's poll): the VPA runs ahead of the drain */
	bool copies_later;
	/* The longest it may go undrained before a ring laps; 0: its poll wakes dtltop in time. */
	int drain_ms;
	int (*open)(struct dtl_source *src, const struct dtl_source_opts *o,
		    char *err, size_t errlen);
	void (*close)(struct dtl_source *src);
	int (*poll)(struct dtl_source *src, int timeout_ms);
	int (*read)(struct dtl_source *src, struct dtl_chunk *c);
	void (*tick)(struct dtl_source *src, uint64_t interval_ns);
	int (*set_mask)(struct dtl_source *src, unsigned int mask, char *err, size_t errlen);
	/* Attached: the mask asked of the service whose intervals these are; NULL: none to ask */
	int (*ask_mask)(struct dtl_source *src, unsigned int mask, char *err, size_t errlen);
	bool (*clock)(const struct dtl_source *src, uint64_t *ns);
	bool (*tb)(const struct dtl_source *src, uint64_t *tb);
	double (*interval)(const struct dtl_source *src);
	bool (*ended)(const struct dtl_source *src, const char **warning);
	int (*rewind)(struct dtl_source *src, char *err, size_t errlen);
	/* NULL: always; a recording followed as it grows: its next interval is written */
	bool (*ready)(struct dtl_source *src);
	/* A recording's entries passed over, or no longer, from its next interval on; NULL: never */
	void (*skim)(struct dtl_source *src, bool on);
	/* Ahead to a recording's last mark within the bounds (see dtl_source__seek); NULL: none */
	int (*seek)(struct dtl_source *src, uint64_t iv_max, uint64_t ns_max, uint64_t *iv_at,
		    char *err, size_t errlen);
	/* A recording's last interval's end (its clock), without replaying it; NULL: unknown */
	bool (*end_clock)(const struct dtl_source *src, uint64_t *ns);
	/* Its own VPA counters for the witness (the simulator's), in step with what it handed out. */
	int (*vpa)(const struct dtl_source *src, unsigned int cpu, struct dtl_vpa *v);
	/* The VPA's dtl_idx when this source registered cpu's DTL (debugfs): 0, or -1 unknown. */
	int (*reg_idx)(const struct dtl_source *src, unsigned int cpu, uint64_t *idx);
};

struct dtl_source {
	const struct dtl_source_ops *ops;
	void *priv;
	unsigned int mask;
	unsigned int hv_mask;		/* what the hypervisor logs, when more than mask; else 0 */
	uint64_t tb_freq;
	unsigned int nr_cpus;
	struct dtl_cpuset cpus;
	const char *lparcfg;
	const char *kallsyms;		/* its own kernel's symbols (the simulator's, a replay's), or NULL */
	const char *kallsyms_none;	/* with none of its own: why not this machine's either, or NULL */
	double recorded_interval_s;	/* a recording's -d, for pacing a replay */
	bool summary;			/* a summary recording: intervals as counts, no entries */
	uint64_t dropped;		/* an attached viewer's intervals the service dropped */
	uint64_t restart_tb;		/* after drops: where the next interval begins; 0 none */
	char incident[600];		/* a summary's incident read since last asked: "why\tFILE", or "" */
	char detail[512];
	struct dtl_topo topo;		/* set by the backend; live ones get sysfs' */
	unsigned int core_threads;	/* hardware threads of a physical core (8) */
	char note[640];			/* for the status line at start, or "" */
	char host[256];			/* where the entries were captured, if not here */
	char partition_name[64];	/* the device tree's ibm,partition-name, or "" */
	bool lost_unknown;		/* this instance's driver does not count what ops->counts_lost says */
};

/* For the live backends: the timebase register where there is one (POWER). */
bool dtl_source__hw_tb(const struct dtl_source *src, uint64_t *tb);
/* For .probe: whether root has rel, and "<root>/<rel> (what)" in why either way. */
bool dtl_source__probe(const char *root, const char *rel, const char *what, char *why,
		       size_t whylen);
/* For the backends without a descriptor to poll: just wait. */
void dtl_source__sleep(int ms);
/* For the backends: CPUs online under root, within filter when it is not NULL. */
int dtl_source__online_cpus(const char *root, const struct dtl_cpuset *filter,
			    struct dtl_cpuset *set, char *err, size_t errlen);
/*
 * Bring src->cpus to want, as a DLPAR change asks: remove the CPUs that
 * left, add those that came (a failed add is retried next time).
 */
void dtl_source__follow(struct dtl_source *src, const struct dtl_cpuset *want,
			int (*add)(struct dtl_source *src, unsigned int cpu),
			void (*remove)(struct dtl_source *src, unsigned int cpu));

/* The registry (registry.c): the backends, in --source=auto's order of preference. */
const struct dtl_source_ops *const *dtl_backends(size_t *n);
const struct dtl_source_ops *dtl_backends__find(const char *name);
/* Open with a given backend (the tests' fakes use this too); errno EBUSY: held by another. */
struct dtl_source *dtl_source__open_with(const struct dtl_source_ops *ops,
					 const struct dtl_source_opts *o, char *err, size_t errlen);

#define DTL_PMU_DIR "sys/bus/event_source/devices/vpa_dtl"
#define DTL_DEBUGFS_DIR "sys/kernel/debug/powerpc/dtl"

#endif
