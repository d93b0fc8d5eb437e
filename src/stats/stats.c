/*
 * stats.c - fold DTL entries into per-vCPU counters; turn counters into rows.
 *
 * The trick: entries only touch the current interval's counters; totals are
 * summed once per interval, so the hot path never writes two copies.
 * Latency is a log-linear histogram (8 sub-buckets per power of two, at most
 * 6.25% error at the bucket midpoint), so percentiles never sort.
 */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

struct counts {
	uint64_t dispatches;
	uint64_t involuntary;
	uint64_t steal_ticks;
	uint64_t idle_ticks;
	uint64_t migrations;
	uint64_t faults;
	uint64_t lost;
	uint64_t bad;
	uint64_t lat_max;
	uint64_t preempt[DTL_N_PREEMPT + 1];
	uint64_t dispatch[DTL_N_DISPATCH + 1];
	uint64_t hist[DTL_HIST_BUCKETS];
};

struct vcpu {
	struct counts cur;
	struct counts total;
	struct dtl_row last;	/* rows of the last completed interval */
	uint64_t last_tb;
	uint32_t last_proc;	/* UINT32_MAX: no entry seen yet */
	bool online;
};

struct dtl_stats {
	unsigned int nr_cpus;
	unsigned int nr_online;
	uint64_t tb_freq;
	uint64_t intervals;
	double total_s;
	struct dtl_row last_all;
	struct vcpu *v;
};

struct dtl_stats *dtl_stats__new(unsigned int nr_cpus, uint64_t tb_freq)
{
	struct dtl_stats *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->v = calloc(nr_cpus ? nr_cpus : 1, sizeof(*s->v));
	if (!s->v) {
		free(s);
		return NULL;
	}
	s->nr_cpus = nr_cpus;
	s->tb_freq = tb_freq ? tb_freq : DTL_DEFAULT_TB_FREQ;
	for (unsigned int i = 0; i < nr_cpus; i++) {
		s->v[i].last_proc = UINT32_MAX;
		s->v[i].last.cpu = (int)i;
	}
	s->last_all.cpu = DTL_ROW_ALL;
	return s;
}

void dtl_stats__delete(struct dtl_stats *s)
{
	if (!s)
		return;
	free(s->v);
	free(s);
}

unsigned int dtl_stats__nr_cpus(const struct dtl_stats *s)
{
	return s->nr_cpus;
}

void dtl_stats__set_online(struct dtl_stats *s, unsigned int cpu, bool online)
{
	if (cpu >= s->nr_cpus || s->v[cpu].online == online)
		return;
	s->v[cpu].online = online;
	s->nr_online += online ? 1 : -1u;
}

bool dtl_stats__online(const struct dtl_stats *s, unsigned int cpu)
{
	return cpu < s->nr_cpus && s->v[cpu].online;
}

unsigned int dtl_stats__nr_online(const struct dtl_stats *s)
{
	return s->nr_online;
}

unsigned int dtl_hist__bucket(uint32_t ticks)
{
	unsigned int e;

	if (ticks < 8)
		return ticks;
	e = 31u - (unsigned int)__builtin_clz(ticks);
	return 8 + (e - 3) * 8 + ((ticks >> (e - 3)) & 7);
}

uint64_t dtl_hist__value(unsigned int bucket)
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

static inline void add_one(struct vcpu *v, const struct dtl_rec *r)
{
	struct counts *c = &v->cur;
	unsigned int p = r->preempt_reason < DTL_N_PREEMPT ? r->preempt_reason : DTL_N_PREEMPT;
	unsigned int d = r->dispatch_reason < DTL_N_DISPATCH ? r->dispatch_reason : DTL_N_DISPATCH;

	/* Timebase 0 is the AUX header's marker, never a dispatch. */
	if (__builtin_expect(r->timebase == 0, 0)) {
		c->bad++;
		return;
	}
	c->bad += r->timebase < v->last_tb;
	v->last_tb = r->timebase;

	c->dispatches++;
	c->preempt[p]++;
	c->dispatch[d]++;
	c->involuntary += (DTL_PREEMPT_INVOLUNTARY_MASK >> p) & 1;
	c->faults += (DTL_PREEMPT_FAULT_MASK >> p) & 1;
	c->steal_ticks += (uint64_t)r->enqueue_to_dispatch + r->ready_to_enqueue;
	c->idle_ticks += r->waiting_to_ready;
	c->hist[dtl_hist__bucket(r->enqueue_to_dispatch)]++;
	if (r->enqueue_to_dispatch > c->lat_max)
		c->lat_max = r->enqueue_to_dispatch;
	c->migrations += v->last_proc != UINT32_MAX && v->last_proc != r->processor_id;
	v->last_proc = r->processor_id;
}

void dtl_stats__add(struct dtl_stats *s, unsigned int cpu, const struct dtl_rec *r)
{
	if (cpu < s->nr_cpus)
		add_one(&s->v[cpu], r);
}

void dtl_stats__add_entries(struct dtl_stats *s, unsigned int cpu,
			    const uint8_t *entries, size_t n)
{
	struct dtl_rec r;
	struct vcpu *v;

	if (cpu >= s->nr_cpus)
		return;
	v = &s->v[cpu];
	for (size_t i = 0; i < n; i++, entries += DTL_ENTRY_SIZE) {
		dtl_rec__decode(&r, entries);
		add_one(v, &r);
	}
}

void dtl_stats__add_lost(struct dtl_stats *s, unsigned int cpu, uint64_t n)
{
	if (cpu < s->nr_cpus)
		s->v[cpu].cur.lost += n;
}

void dtl_stats__add_bad(struct dtl_stats *s, unsigned int cpu, uint64_t n)
{
	if (cpu < s->nr_cpus)
		s->v[cpu].cur.bad += n;
}

static void counts_add(struct counts *to, const struct counts *c)
{
	to->dispatches += c->dispatches;
	to->involuntary += c->involuntary;
	to->steal_ticks += c->steal_ticks;
	to->idle_ticks += c->idle_ticks;
	to->migrations += c->migrations;
	to->faults += c->faults;
	to->lost += c->lost;
	to->bad += c->bad;
	if (c->lat_max > to->lat_max)
		to->lat_max = c->lat_max;
	for (int i = 0; i <= DTL_N_PREEMPT; i++)
		to->preempt[i] += c->preempt[i];
	for (int i = 0; i <= DTL_N_DISPATCH; i++)
		to->dispatch[i] += c->dispatch[i];
	for (int i = 0; i < DTL_HIST_BUCKETS; i++)
		to->hist[i] += c->hist[i];
}

/* Nearest-rank percentile: the smallest bucket holding ceil(q * n) entries. */
static uint64_t hist_quantile(const struct counts *c, double q)
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

static void make_row(const struct dtl_stats *s, const struct counts *c, int cpu,
		     double interval_s, unsigned int nr_vcpus, struct dtl_row *row)
{
	double us_per_tick = 1e6 / (double)s->tb_freq;
	double span_us = interval_s * 1e6 * (nr_vcpus ? nr_vcpus : 1);

	memset(row, 0, sizeof(*row));
	row->cpu = cpu;
	row->interval_s = interval_s;
	row->dispatches = c->dispatches;
	row->dispatch_per_s = interval_s > 0 ? (double)c->dispatches / interval_s : 0;
	row->preempt_ratio = c->dispatches ? (double)c->involuntary / (double)c->dispatches : 0;
	row->steal_us = (double)c->steal_ticks * us_per_tick;
	row->steal_pct = span_us > 0 ? 100.0 * row->steal_us / span_us : 0;
	row->idle_us = (double)c->idle_ticks * us_per_tick;
	row->lat_p50_us = (double)hist_quantile(c, 0.50) * us_per_tick;
	row->lat_p99_us = (double)hist_quantile(c, 0.99) * us_per_tick;
	row->lat_max_us = (double)c->lat_max * us_per_tick;
	row->migrations = c->migrations;
	row->faults = c->faults;
	row->lost = c->lost;
	row->bad = c->bad;
	memcpy(row->preempt, c->preempt, sizeof(row->preempt));
	memcpy(row->dispatch, c->dispatch, sizeof(row->dispatch));
}

void dtl_stats__end_interval(struct dtl_stats *s, double interval_s)
{
	struct counts *all = calloc(1, sizeof(*all));

	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		struct vcpu *v = &s->v[i];

		if (v->online) {
			make_row(s, &v->cur, (int)i, interval_s, 1, &v->last);
			if (all)
				counts_add(all, &v->cur);
		}
		counts_add(&v->total, &v->cur);
		memset(&v->cur, 0, sizeof(v->cur));
	}
	if (all)
		make_row(s, all, DTL_ROW_ALL, interval_s, s->nr_online, &s->last_all);
	free(all);
	s->intervals++;
	s->total_s += interval_s;
}

void dtl_stats__reset_totals(struct dtl_stats *s)
{
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		memset(&s->v[i].total, 0, sizeof(s->v[i].total));
	s->total_s = 0;
}

uint64_t dtl_stats__intervals(const struct dtl_stats *s)
{
	return s->intervals;
}

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
		make_row(s, &s->v[cpu].total, cpu, s->total_s, 1, row);
		return 0;
	}
	struct counts *all = calloc(1, sizeof(*all));

	if (!all)
		return -1;
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		if (s->v[i].online)
			counts_add(all, &s->v[i].total);
	make_row(s, all, DTL_ROW_ALL, s->total_s, s->nr_online, row);
	free(all);
	return 0;
}
