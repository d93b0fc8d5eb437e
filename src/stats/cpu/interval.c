/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * interval.c - an interval's end: the window on the timebase, each CPU's and
 * VP's row, the partition's, and the counters moved into the totals.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * The interval's window [a, b] on the timebase: b is the source's clock at
 * the end (or, where it has none, the latest entry), moved on to any entry
 * read after it; a is the last window's end. Waits were clipped to a as
 * they came; a CPU's waits never overlap, so what is left fits the window.
 * Where a was unknown (the first interval of a source without a clock) the
 * clip is made here, from the oldest end of the wait: idle first.
 */
static uint64_t window(const struct dtl_stats *s, uint64_t len, uint64_t *a)
{
	uint64_t b = s->win_end;

	if (s->seen_tb > b)
		b = s->seen_tb;
	if (!b)
		b = s->win_start ? s->win_start + len : len;
	*a = s->win_start && s->win_start <= b ? s->win_start : (b > len ? b - len : 0);
	return b;
}

/*
 * Where the start was not known, what does not fit the interval began
 * before the capture did; with known starts this only catches waits that
 * overlap, which the hypervisor never writes. Either way it is no figure's.
 */
static void clamp_to(struct vcpu *v, uint64_t span)
{
	uint64_t over, d;

	if (v->cur.steal_ticks + v->cur.idle_ticks <= span)
		return;
	over = v->cur.steal_ticks + v->cur.idle_ticks - span;
	d = over < v->cur.idle_ticks ? over : v->cur.idle_ticks;
	v->cur.idle_ticks -= d;
	v->cur.steal_ticks -= over - d;
}

/*
 * A VP's times are the core's, as lparstat and the HMC count them, not the
 * sum of its threads': PowerVM preempts a VP whole, so each running thread
 * logs the same wait and the most-stolen thread's steal is the VP's (a
 * lower bound where threads waited at different times); the core idles
 * only while every thread cedes, so its idle is at most the least-idle
 * thread's. Each is a share of one core's time, never past the interval.
 */
void stats_vp_times(const struct dtl_stats *s, uint32_t vp, bool total, double interval_s,
		    uint64_t span_ticks, struct dtl_row *row)
{
	double span_s = (double)span_ticks / (double)s->tb_freq, us_per_tick = 1e6 / (double)s->tb_freq;
	uint64_t steal = 0, idle = UINT64_MAX;

	for (uint32_t c = vp; c != UINT32_MAX; c = s->next[c]) {
		const struct dtl_counts *k = total ? &s->v[c].total : &s->v[c].cur;

		if (!s->v[c].online)
			continue;
		steal = k->steal_ticks > steal ? k->steal_ticks : steal;
		idle = k->idle_ticks < idle ? k->idle_ticks : idle;
	}
	if (idle == UINT64_MAX)
		idle = 0;
	span_s = span_s > interval_s ? span_s : interval_s;
	row->steal_us = (double)steal * us_per_tick;
	row->idle_us = (double)idle * us_per_tick;
	row->steal_pct = span_s > 0 ? row->steal_us / span_s / 1e4 : 0;
	row->idle_pct = span_s > 0 ? row->idle_us / span_s / 1e4 : 0;
	row->run_pct = 100.0 - row->steal_pct - row->idle_pct;
	if (row->run_pct < 0)
		row->run_pct = 0;
}

/*
 * Each VP's online threads folded into one row; a VP with none gets threads
 * 0. Every CPU is a thread of one VP, so the VPs' sums add up to the
 * partition's (into all): 240 additions at 1920 CPUs instead of 1920.
 */
static void vp_rows(struct dtl_stats *s, struct dtl_counts *sum, double interval_s, uint64_t span,
		    unsigned int mask, struct dtl_counts *all)
{
	for (unsigned int h = 0; h < s->nr_cpus; h++) {
		unsigned int n = 0;

		if (s->vp[h] != h)
			continue;
		memset(sum, 0, sizeof(*sum));
		for (uint32_t c = h; c != UINT32_MAX; c = s->next[c])
			if (s->v[c].online) {
				dtl_counts__add(sum, &s->v[c].cur);
				n++;
			}
		make_row(s, sum, (int)h, interval_s, span, mask, n, 1, &s->vp_last[h]);
		if (n)
			dtl_counts__add(all, sum);
		stats_vp_times(s, h, false, interval_s, span, &s->vp_last[h]);
		s->vp_last[h].vp = (int)s->vp_ord[h];
		s->vp_last[h].is_vp = true;
		s->vp_last[h].threads = n;
	}
}

void dtl_stats__end_interval(struct dtl_stats *s, double interval_s)
{
	struct dtl_counts *all = calloc(2, sizeof(*all));
	uint64_t len = (uint64_t)(interval_s * (double)s->tb_freq);
	uint64_t a, b = window(s, len, &a), span = b - a;
	unsigned int mask = s->cur_mask;

	if (!s->origin)
		s->origin = a;
	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		struct vcpu *v = &s->v[i];

		clamp_to(v, span > len ? span : len);
		if (v->online) {
			make_row(s, &v->cur, (int)i, interval_s, span, mask, 1, 1, &v->last);
			if (all && !s->vp)
				dtl_counts__add(all, &v->cur);
		}
	}
	if (all && s->vp)
		vp_rows(s, all + 1, interval_s, span, mask, all);
	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		struct vcpu *v = &s->v[i];

		if (s->kept)
			stats_keep_cpu(s, i);
		dtl_counts__add(&v->total, &v->cur);
		v->total.steal_ticks += v->carry_steal;
		v->total.idle_ticks += v->carry_idle;
		v->carry_steal = v->carry_idle = 0;
		memset(&v->cur, 0, sizeof(v->cur));
	}
	if (all)
		make_row(s, all, DTL_ROW_ALL, interval_s, span, mask, s->nr_online, 1, &s->last_all);
	free(all);
	s->intervals++;
	s->total_n++;
	s->total_s += interval_s;
	s->total_ticks += span;
	s->total_mask &= mask;
	s->cur_mask = s->mask;
	s->win_start = s->ended_at = b;
	s->win_end = s->seen_tb = 0;
}

void dtl_stats__reset_totals(struct dtl_stats *s)
{
	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		memset(&s->v[i].total, 0, sizeof(s->v[i].total));
		memset(s->v[i].procs, 0, sizeof(s->v[i].procs));
		s->v[i].proc_other = 0;
		if (s->kept) {
			memset(s->kept[i].procs, 0, sizeof(s->kept[i].procs));
			s->kept[i].proc_other = 0;
		}
	}
	s->total_s = 0;
	s->total_n = 0;
	s->total_ticks = 0;
	s->total_mask = s->mask;
	s->origin = s->win_start;
}
