/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counts.h - the counters behind a row, shared by the groupings of
 * src/stats/ (CPUs and VPs in stats.c, tasks and cgroups in task.c).
 */
#ifndef DTL_COUNTS_H
#define DTL_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

struct counts {
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

/* One entry into the counters every grouping keeps: reasons, waits, latency. */
static inline void dtl_counts__entry(struct counts *c, const struct dtl_rec *r)
{
	unsigned int p = r->preempt_reason < DTL_N_PREEMPT ? r->preempt_reason : DTL_N_PREEMPT;
	unsigned int d = r->dispatch_reason < DTL_N_DISPATCH ? r->dispatch_reason : DTL_N_DISPATCH;
	uint64_t steal = (uint64_t)r->enqueue_to_dispatch + r->ready_to_enqueue;

	c->dispatches++;
	c->preempt[p]++;
	c->dispatch[d]++;
	c->involuntary += (DTL_PREEMPT_INVOLUNTARY_MASK >> p) & 1;
	c->faults += (DTL_PREEMPT_FAULT_MASK >> p) & 1;
	c->steal_ticks += steal;
	/* branch-free: cedes and preempts interleave as the guest's load does */
	c->wake_ticks += steal & -(uint64_t)((DTL_PREEMPT_CEDE_MASK >> p) & 1);
	c->steal_raw += steal;
	c->e2d_raw += r->enqueue_to_dispatch;
	c->w2r_raw += r->waiting_to_ready;
	c->idle_ticks += r->waiting_to_ready;
	c->hist[dtl_hist__bucket(r->enqueue_to_dispatch)]++;
	if (r->enqueue_to_dispatch > c->lat_max)
		c->lat_max = r->enqueue_to_dispatch;
}

void dtl_counts__add(struct counts *to, const struct counts *c);
/*
 * A row from counts: shares of span_ticks (never less than interval_s) per
 * vCPU folded in; summaries: told by counters, no DTL entries behind it.
 */
void dtl_counts__row(const struct counts *c, uint64_t tb_freq, bool summaries, int cpu,
		     double interval_s, uint64_t span_ticks, unsigned int mask,
		     unsigned int nr_vcpus, uint64_t spans, struct dtl_row *row);

#endif
