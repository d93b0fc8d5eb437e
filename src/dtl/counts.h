/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counts.h - what an interval of one CPU's DTL comes to: the counters behind
 * every row (src/stats/) and what a summary recording keeps of an interval
 * (src/format/summary.c), so a summary replays to the same rows.
 */
#ifndef DTL_DTL_COUNTS_H
#define DTL_DTL_COUNTS_H

#include <stdint.h>

#include "dtl.h"

/* The latency histogram: 8 sub-buckets per power of two of ticks, at most 6.25 % off at a midpoint. */
#define DTL_HIST_BUCKETS 240

static inline unsigned int dtl_hist__bucket(uint32_t ticks)
{
	unsigned int e;

	if (ticks < 8)
		return ticks;
	e = 31u - (unsigned int)__builtin_clz(ticks);
	return 8 + (e - 3) * 8 + ((ticks >> (e - 3)) & 7);
}

/* a bucket's midpoint, in ticks */
static inline uint64_t dtl_hist__value(unsigned int bucket)
{
	unsigned int e, sub;
	uint64_t width;

	if (bucket < 8)
		return bucket;
	e = (bucket - 8) / 8 + 3;
	sub = (bucket - 8) % 8;
	width = 1ull << (e - 3);
	return (8 + sub) * width + width / 2;
}

struct dtl_counts {
	uint64_t dispatches;
	uint64_t gaps;
	uint64_t involuntary;
	uint64_t steal_ticks;
	uint64_t wake_ticks;	/* of steal, after a cede: whole at its dispatch */
	uint64_t idle_ticks;
	uint64_t migrations;
	uint64_t migr_core;	/* of them, to a thread of the same physical core */
	uint64_t steal_raw;	/* steal whole at its dispatch, as the VPA counts it */
	uint64_t e2d_raw, w2r_raw;	/* two of the three phases, also whole at the dispatch */
	uint64_t vpa_steal;	/* the VPA's steal, in ticks */
	uint64_t vpa_cpus;	/* CPUs whose VPA was read */
	uint64_t stat_steal, stat_cpus;	/* the same from /proc/stat */
	uint64_t faults;
	uint64_t lost;
	uint64_t bad;
	uint64_t lat_max;
	uint64_t preempt[DTL_N_PREEMPT + 1];
	uint64_t dispatch[DTL_N_DISPATCH + 1];
	uint64_t hist[DTL_HIST_BUCKETS];
};

/* A CPU's interval as a summary keeps it: its counters and what goes only to the totals. */
struct dtl_interval_cpu {
	struct dtl_counts c;
	uint64_t carry_steal, carry_idle;	/* waits begun before the interval: the totals' */
	/* physical processors sampled in the interval (one dispatch in 8): id, count */
	uint32_t proc_id[8];
	uint64_t proc_n[8];
	uint64_t proc_other;
};

struct dtl_task_pc {
	uint64_t pc;		/* srr0 */
	uint64_t n;
};

/*
 * A summary recording's task: its row's counters over one interval, and
 * where its involuntary preempts hit in it (srr0s that were counted).
 */
struct dtl_task_interval {
	int32_t pid;
	const char *name;		/* the row's, "db[1234]" */
	const char *cgroup;		/* its path, or NULL */
	struct dtl_counts c;
	uint64_t run;			/* ticks on its CPUs */
	uint64_t user, invol;		/* involuntary preempts in user space, and all */
	const struct dtl_task_pc *pcs;
	size_t npcs;
};

#endif
