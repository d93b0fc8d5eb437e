/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counts.c - the counters every grouping keeps (counts.h), added up and
 * made into a row. Latency is a log-linear histogram (8 sub-buckets per
 * power of two, at most 6.25% error at the bucket midpoint), so percentiles
 * never sort.
 */
#include "counts.h"

#include <string.h>

void dtl_counts__add(struct dtl_counts *to, const struct dtl_counts *c)
{
	/*
	 * Only entries fill the histogram, and lat_max is their largest wait:
	 * no bucket past its one holds anything. At 1920 CPUs the interval's
	 * end adds three counts a CPU, and the empty buckets were most of a
	 * replay's memory traffic.
	 */
	unsigned int top = c->dispatches ? dtl_hist__bucket((uint32_t)c->lat_max) + 1 : 0;

	to->dispatches += c->dispatches;
	to->gaps += c->gaps;
	to->involuntary += c->involuntary;
	to->steal_ticks += c->steal_ticks;
	to->wake_ticks += c->wake_ticks;
	to->idle_ticks += c->idle_ticks;
	to->migrations += c->migrations;
	to->migr_core += c->migr_core;
	to->vpa_steal += c->vpa_steal;
	to->steal_raw += c->steal_raw;
	to->e2d_raw += c->e2d_raw;
	to->w2r_raw += c->w2r_raw;
	to->vpa_cpus += c->vpa_cpus;
	to->stat_steal += c->stat_steal;
	to->stat_cpus += c->stat_cpus;
	to->faults += c->faults;
	to->lost += c->lost;
	to->bad += c->bad;
	if (c->lat_max > to->lat_max)
		to->lat_max = c->lat_max;
	for (int i = 0; i <= DTL_N_PREEMPT; i++)
		to->preempt[i] += c->preempt[i];
	for (int i = 0; i <= DTL_N_DISPATCH; i++)
		to->dispatch[i] += c->dispatch[i];
	for (unsigned int i = 0; i < top; i++)
		to->hist[i] += c->hist[i];
}

/* Nearest-rank percentile: the smallest bucket holding ceil(q * n) entries. */
static uint64_t hist_quantile(const struct dtl_counts *c, double q)
{
	uint64_t rank = (uint64_t)(q * (double)c->dispatches + 0.999999);
	uint64_t seen = 0, v;

	if (!c->dispatches)
		return 0;
	if (rank < 1)
		rank = 1;
	for (unsigned int b = 0; b < DTL_HIST_BUCKETS; b++) {
		seen += c->hist[b];
		if (seen >= rank) {
			v = dtl_hist__value(b);
			return v < c->lat_max ? v : c->lat_max;
		}
	}
	return c->lat_max;
}

void dtl_counts__row(const struct dtl_counts *c, uint64_t tb_freq, bool summaries, int cpu,
		     double interval_s, uint64_t span_ticks, unsigned int mask,
		     unsigned int nr_vcpus, uint64_t spans, struct dtl_row *row)
{
	double us_per_tick = 1e6 / (double)tb_freq;
	/* Shares are of the window the waits were clipped to, never less than the interval. */
	double span_s = (double)span_ticks / (double)tb_freq;
	double span_us = (span_s > interval_s ? span_s : interval_s) * 1e6 *
			 (nr_vcpus ? nr_vcpus : 1);

	memset(row, 0, sizeof(*row));
	row->cpu = cpu;
	row->interval_s = interval_s;
	row->dispatches = c->dispatches;
	row->dispatch_per_s = interval_s > 0 ? (double)c->dispatches / interval_s : 0;
	row->preempt_ratio = c->dispatches ? (double)c->involuntary / (double)c->dispatches : 0;
	row->steal_us = (double)c->steal_ticks * us_per_tick;
	row->wake_us = (double)c->wake_ticks * us_per_tick;
	row->steal_pct = span_us > 0 ? 100.0 * row->steal_us / span_us : 0;
	row->idle_us = (double)c->idle_ticks * us_per_tick;
	row->idle_pct = span_us > 0 ? 100.0 * row->idle_us / span_us : 0;
	row->gaps = c->gaps;
	row->mask = mask;
	row->lat_p50_us = (double)hist_quantile(c, 0.50) * us_per_tick;
	row->lat_p99_us = (double)hist_quantile(c, 0.99) * us_per_tick;
	row->lat_max_us = (double)c->lat_max * us_per_tick;
	row->migrations = c->migrations;
	row->migr_core = c->migr_core;
	row->migr_other = c->migrations - c->migr_core;
	row->threads = nr_vcpus ? nr_vcpus : 1;
	if (!summaries)
		row->known |= DTL_KNOWN_DTL;
	/* the witness counts only where every CPU of the row had one, each interval of the span */
	if (c->vpa_cpus && c->vpa_cpus == row->threads * spans &&
	    c->vpa_steal) {
		row->steal_vpa_us = (double)c->vpa_steal * us_per_tick;
		/* both whole at the dispatch: no split at the interval's edges on either side */
		row->steal_vpa_diff_pct = 100.0 * ((double)c->steal_raw - (double)c->vpa_steal) /
					  (double)c->vpa_steal;
		row->known |= DTL_KNOWN_VPA;
	}
	if (c->stat_cpus && c->stat_cpus == row->threads * spans && c->stat_steal) {
		row->steal_stat_diff_pct = 100.0 * ((double)c->steal_raw - (double)c->stat_steal) /
					   (double)c->stat_steal;
		row->known |= DTL_KNOWN_STAT;
	}
	row->e2d_s = (double)c->e2d_raw / (double)tb_freq;
	row->r2e_s = (double)(c->steal_raw - c->e2d_raw) / (double)tb_freq;
	row->w2r_s = (double)c->w2r_raw / (double)tb_freq;
	row->samples = summaries ? 0 : c->dispatches;
	row->run_pct = 100.0 - row->steal_pct - row->idle_pct;
	if (row->run_pct < 0)
		row->run_pct = 0;
	row->faults = c->faults;
	row->lost = c->lost;
	row->bad = c->bad;
	memcpy(row->preempt, c->preempt, sizeof(row->preempt));
	memcpy(row->dispatch, c->dispatch, sizeof(row->dispatch));
}
