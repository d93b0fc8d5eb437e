/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - the CPU grouping's state, shared by the files of src/stats/cpu/
 * and by nothing else: the rest of dtltop sees struct dtl_stats through
 * stats.h only.
 */
#ifndef DTL_STATS_CPU_INTERNAL_H
#define DTL_STATS_CPU_INTERNAL_H

#include "../counts.h"
#include "../stats.h"

struct vcpu {
	struct dtl_counts cur;
	/* Wait that fell before the interval's start: the totals', not the interval's. */
	uint64_t carry_steal, carry_idle;
	struct dtl_counts total;
	struct dtl_row last;	/* rows of the last completed interval */
	/*
	 * Physical processors since start: a slot per processor id mod 16,
	 * exact until two ids share a slot, then the later one counts as other.
	 */
	uint64_t proc_other;
	uint64_t last_tb;
	uint32_t last_proc;	/* UINT32_MAX: no entry seen yet */
	/*
	 * Physical processors since start, sampled one dispatch in 8: a slot
	 * per id mod 8, the id in the high half, the samples in the low; a
	 * second id in a taken slot counts as other.
	 */
	uint64_t procs[8];
	bool online;
};

struct dtl_stats {
	unsigned int nr_cpus;
	unsigned int nr_online;
	uint64_t tb_freq;
	uint64_t intervals;
	uint64_t total_n;	/* intervals in the since-start totals */
	double total_s;
	uint64_t win_start;	/* timebase the current interval began at; 0 unknown */
	uint64_t origin;	/* where the since-start totals begin; 0 unknown */
	uint64_t win_end;	/* the source's timebase at its end, if it said */
	uint64_t seen_tb;	/* the latest entry of the interval */
	uint64_t total_ticks;	/* the since-start windows, added up */
	unsigned int mask, cur_mask, total_mask;
	struct dtl_row last_all;
	struct vcpu *v;
	unsigned int core_shift;	/* log2 of the hardware threads per physical core */
	/* VPs, when set: each CPU's first sibling, and the next sibling (or UINT32_MAX) */
	uint32_t *vp, *next;
	uint32_t *vp_ord;		/* by CPU: its VP's number, 0..N-1 in CPU order */
	struct dtl_row *vp_last;	/* by the VP's first CPU */
	bool summaries;			/* fed counters, not entries */
	uint64_t ended_at;		/* the last ended interval's b */
	struct kept *kept;		/* by CPU, for a summary recording; NULL: not kept */
};

/* A CPU's last interval for a summary, and its processors' samples as they stood before it. */
struct kept {
	struct dtl_interval_cpu k;
	uint64_t procs[8], proc_other;
};

/* A CPU's counters at the interval's end, kept for a summary (keep.c). */
void stats_keep_cpu(struct dtl_stats *s, unsigned int cpu);
/* A VP's steal and idle as the core's, into row (interval.c). */
void stats_vp_times(const struct dtl_stats *s, uint32_t vp, bool total, double interval_s,
		    uint64_t span_ticks, struct dtl_row *row);

static inline void make_row(const struct dtl_stats *s, const struct dtl_counts *c, int cpu,
		     double interval_s, uint64_t span_ticks, unsigned int mask,
		     unsigned int nr_vcpus, uint64_t spans, struct dtl_row *row)
{
	dtl_counts__row(c, s->tb_freq, s->summaries, cpu, interval_s, span_ticks, mask, nr_vcpus,
			spans, row);
}

#endif
