/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counts.h - the counters behind a row, shared by the groupings of
 * src/stats/ (CPUs and VPs in cpu/, tasks and cgroups in task/), added up
 * and made into rows by counts.c.
 */
#ifndef DTL_COUNTS_H
#define DTL_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../dtl/counts.h"
#include "stats.h"


/* One entry into the counters every grouping keeps: reasons, waits, latency. */
static inline void dtl_counts__entry(struct dtl_counts *c, const struct dtl_rec *r)
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

void dtl_counts__add(struct dtl_counts *to, const struct dtl_counts *c);
/*
 * A row from counts: shares of span_ticks (never less than interval_s) per
 * vCPU folded in; summaries: told by counters, no DTL entries behind it.
 */
void dtl_counts__row(const struct dtl_counts *c, uint64_t tb_freq, bool summaries, int cpu,
		     double interval_s, uint64_t span_ticks, unsigned int mask,
		     unsigned int nr_vcpus, uint64_t spans, struct dtl_row *row);

#endif
