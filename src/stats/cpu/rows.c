/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rows.c - rows since start, by CPU, VP or the partition, and what a detail
 * pane reads of them: the latency histogram and the physical processors.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int dtl_stats__row(const struct dtl_stats *s, int cpu, enum dtl_span span,
		   struct dtl_row *row)
{
	if (cpu != DTL_ROW_ALL && (cpu < 0 || (unsigned int)cpu >= s->nr_cpus ||
				   !s->v[cpu].online))
		return -1;
	if (span == DTL_SPAN_INTERVAL) {
		*row = cpu == DTL_ROW_ALL ? s->last_all : s->v[cpu].last;
		return 0;
	}
	if (cpu != DTL_ROW_ALL) {
		make_row(s, &s->v[cpu].total, cpu, s->total_s, s->total_ticks, s->total_mask, 1,
			 s->total_n, row);
		return 0;
	}
	struct dtl_counts *all = calloc(1, sizeof(*all));

	if (!all)
		return -1;
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		if (s->v[i].online)
			dtl_counts__add(all, &s->v[i].total);
	make_row(s, all, DTL_ROW_ALL, s->total_s, s->total_ticks, s->total_mask, s->nr_online,
		 s->total_n, row);
	free(all);
	return 0;
}

int dtl_stats__vp_row(const struct dtl_stats *s, int vp, enum dtl_span span, struct dtl_row *row)
{
	struct dtl_counts *sum;
	unsigned int n = 0;

	if (!s->vp || vp < 0 || (unsigned int)vp >= s->nr_cpus || s->vp[vp] != (uint32_t)vp)
		return -1;
	if (span == DTL_SPAN_INTERVAL) {
		*row = s->vp_last[vp];
		return row->threads ? 0 : -1;
	}
	sum = calloc(1, sizeof(*sum));
	if (!sum)
		return -1;
	for (uint32_t c = (uint32_t)vp; c != UINT32_MAX; c = s->next[c])
		if (s->v[c].online) {
			dtl_counts__add(sum, &s->v[c].total);
			n++;
		}
	if (n) {
		make_row(s, sum, vp, s->total_s, s->total_ticks, s->total_mask, n, s->total_n, row);
		stats_vp_times(s, (uint32_t)vp, true, s->total_s, s->total_ticks, row);
		row->vp = (int)s->vp_ord[vp];
		row->is_vp = true;
	}
	free(sum);
	return n ? 0 : -1;
}

/* The CPUs a row folds: every one (DTL_ROW_ALL), one CPU, or a VP's threads by their chain. */
static uint32_t row_first(const struct dtl_stats *s, int id, bool vp)
{
	if (id == DTL_ROW_ALL)
		return vp || !s->nr_cpus ? UINT32_MAX : 0;
	if (id < 0 || (unsigned int)id >= s->nr_cpus ||
	    (vp && (!s->vp || s->vp[id] != (uint32_t)id)))
		return UINT32_MAX;
	return (uint32_t)id;
}

static uint32_t row_next(const struct dtl_stats *s, uint32_t c, int id, bool vp)
{
	if (id == DTL_ROW_ALL)
		return c + 1 < s->nr_cpus ? c + 1 : UINT32_MAX;
	return vp ? s->next[c] : UINT32_MAX;
}

int dtl_stats__hist(const struct dtl_stats *s, int id, bool vp, uint64_t *hist)
{
	bool any = false;

	memset(hist, 0, DTL_HIST_BUCKETS * sizeof(*hist));
	for (uint32_t c = row_first(s, id, vp); c != UINT32_MAX; c = row_next(s, c, id, vp)) {
		const struct vcpu *v = &s->v[c];

		if (!v->online)
			continue;
		for (unsigned int b = 0; b < DTL_HIST_BUCKETS; b++)
			hist[b] += v->total.hist[b];
		any = true;
	}
	return any ? 0 : -1;
}

int dtl_stats__procs(const struct dtl_stats *s, int id, bool vp, struct dtl_proc_count *out,
		     int max, uint64_t *other)
{
	struct dtl_proc_count all[8 * 8];
	int n = 0, k = 0;

	*other = 0;
	for (uint32_t c = row_first(s, id, vp); c != UINT32_MAX; c = row_next(s, c, id, vp)) {
		const struct vcpu *v = &s->v[c];

		if (!v->online)
			continue;
		*other += v->proc_other;
		for (int j = 0; j < 8; j++) {
			uint32_t pid = (uint32_t)(v->procs[j] >> 32), cnt = (uint32_t)v->procs[j];
			int m;

			if (!cnt)
				continue;
			for (m = 0; m < n && all[m].proc != pid; m++)
				;
			if (m == n) {
				if (n == (int)(sizeof(all) / sizeof(all[0]))) {
					*other += cnt;
					continue;
				}
				all[n++] = (struct dtl_proc_count){ pid, 0 };
			}
			all[m].n += cnt;
		}
	}
	/* the max largest, in order; the rest are others */
	for (k = 0; k < max && k < n; k++) {
		int best = k;

		for (int m = k + 1; m < n; m++)
			if (all[m].n > all[best].n || (all[m].n == all[best].n && all[m].proc < all[best].proc))
				best = m;
		out[k] = all[best];
		all[best] = all[k];
	}
	for (int m = k; m < n; m++)
		*other += all[m].n;
	return k;
}
