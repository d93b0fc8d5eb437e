/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.c - fold DTL entries into per-vCPU counters; turn counters into rows.
 *
 * The trick: entries only touch the current interval's counters; totals are
 * summed once per interval, so the hot path never writes two copies.
 * Latency is a log-linear histogram (8 sub-buckets per power of two, at most
 * 6.25% error at the bucket midpoint), so percentiles never sort.
 */
#include "stats.h"

#include "counts.h"

#include <stdlib.h>
#include <string.h>

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
	s->mask = s->cur_mask = s->total_mask = DTL_MASK_ALL;
	s->core_shift = 3;	/* 8 threads */
	return s;
}

void dtl_stats__delete(struct dtl_stats *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->vp);
	free(s->next);
	free(s->vp_last);
	free(s->vp_ord);
	free(s->kept);
	free(s);
}

int dtl_stats__set_vps(struct dtl_stats *s, const uint16_t *vp, unsigned int core_threads)
{
	if (!s->vp) {
		s->vp = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->vp));
		s->next = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->next));
		s->vp_last = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->vp_last));
		s->vp_ord = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->vp_ord));
		if (!s->vp || !s->next || !s->vp_last || !s->vp_ord) {
			free(s->vp), free(s->next), free(s->vp_last), free(s->vp_ord);
			s->vp = s->next = s->vp_ord = NULL;
			s->vp_last = NULL;
			return -1;
		}
	}
	/* cores have 1, 2, 4 or 8 threads: a shift, not a division, per migration */
	s->core_shift = 0;
	while (core_threads >> (s->core_shift + 1))
		s->core_shift++;
	/* a VP is named by its first CPU: anything else stands alone */
	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		s->vp[i] = vp[i] <= i && (vp[i] == i || vp[vp[i]] == vp[i]) ? vp[i] : i;
		s->next[i] = UINT32_MAX;
	}
	for (unsigned int i = s->nr_cpus; i-- > 0;) {
		unsigned int head = s->vp[i];

		if (head != i) {	/* i after head: link it in after the head */
			s->next[i] = s->next[head];
			s->next[head] = i;
		}
	}
	/* numbered as lparstat numbers them: 0..N-1 in the order of their first CPUs */
	for (unsigned int i = 0, n = 0; i < s->nr_cpus; i++)
		s->vp_ord[i] = s->vp[i] == i ? n++ : s->vp_ord[s->vp[i]];
	return 0;
}

int dtl_stats__vp_index(const struct dtl_stats *s, unsigned int cpu)
{
	if (cpu >= s->nr_cpus)
		return -1;
	return s->vp ? (int)s->vp_ord[cpu] : (int)cpu;
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

/* How much of a wait of len ending at t lies before x (no overflow on any input). */
static inline uint64_t wait_before(uint64_t t, uint64_t len, uint64_t x)
{
	if (t <= x)
		return len;
	return len > t - x ? len - (t - x) : 0;
}

/*
 * A wait ends at the entry's timebase: steal (ready_to_enqueue, then
 * enqueue_to_dispatch) just before it, idle (waiting_to_ready) before that.
 * Whatever began before the interval's start a belongs to earlier intervals
 * (the totals keep it); before the origin o, to no figure of ours at all.
 */
static void split_wait(struct vcpu *v, const struct dtl_rec *r, uint64_t a, uint64_t o)
{
	uint64_t steal = (uint64_t)r->enqueue_to_dispatch + r->ready_to_enqueue;
	uint64_t idle = r->waiting_to_ready, wait = steal + idle;
	uint64_t before = wait_before(r->timebase, wait, a);
	uint64_t lost = o ? wait_before(r->timebase, wait, o) : 0;
	uint64_t d, g;

	lost = lost < before ? lost : before;
	d = before < idle ? before : idle;
	g = lost < idle ? lost : idle;
	v->cur.idle_ticks -= d;
	v->carry_idle += d - g;
	d = before - d;
	g = lost - g;
	v->cur.steal_ticks -= d;
	v->carry_steal += d - g;
}

static inline void add_one(struct vcpu *v, const struct dtl_rec *r, uint64_t a, uint64_t o,
			   unsigned int core_shift)
{
	struct dtl_counts *c = &v->cur;
	uint64_t steal = (uint64_t)r->enqueue_to_dispatch + r->ready_to_enqueue, moved;

	/* Timebase 0 is the AUX header's marker, never a dispatch. */
	if (__builtin_expect(r->timebase == 0, 0)) {
		c->bad++;
		return;
	}
	c->bad += r->timebase < v->last_tb;
	v->last_tb = r->timebase;

	dtl_counts__entry(c, r);
	/* a wait that began before the interval's start: that part is the totals' */
	if (__builtin_expect(a && wait_before(r->timebase, steal + r->waiting_to_ready, a), 0))
		split_wait(v, r, a, o);
	/* branch-free: migrations are as random as the hypervisor's placement */
	moved = v->last_proc != UINT32_MAX && v->last_proc != r->processor_id;
	c->migrations += moved;
	c->migr_core += moved & ((v->last_proc ^ r->processor_id) >> core_shift == 0);
	v->last_proc = r->processor_id;
	/*
	 * One dispatch in 8 (a pattern the branch predictor learns): a slot
	 * updated on every entry chains each to the last through memory and
	 * cost a third of the stats' time.
	 */
	if ((c->dispatches & 7) == 0) {
		uint64_t *slot = &v->procs[r->processor_id & 7];
		uint64_t mine = (*slot >> 32) == r->processor_id || !(uint32_t)*slot;

		*slot = mine ? ((uint64_t)r->processor_id << 32 | (uint32_t)(*slot + 1)) : *slot;
		v->proc_other += mine ^ 1;
	}
}

void dtl_stats__add(struct dtl_stats *s, unsigned int cpu, const struct dtl_rec *r)
{
	if (cpu < s->nr_cpus) {
		add_one(&s->v[cpu], r, s->win_start, s->origin, s->core_shift);
		if (r->timebase > s->seen_tb)
			s->seen_tb = r->timebase;
	}
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
		/* a run lent from a cold AUX area: ask for it before it is needed */
		__builtin_prefetch(entries + 8 * DTL_ENTRY_SIZE);
		dtl_rec__decode(&r, entries);
		add_one(v, &r, s->win_start, s->origin, s->core_shift);
	}
	/* A CPU's entries only grow: its last is its latest. */
	if (n) {
		uint64_t tb = v->last_tb;

		if (tb > s->seen_tb)
			s->seen_tb = tb;
	}
}

void dtl_stats__add_witness(struct dtl_stats *s, unsigned int cpu, uint64_t steal_ticks)
{
	if (cpu < s->nr_cpus) {
		s->v[cpu].cur.vpa_steal += steal_ticks;
		s->v[cpu].cur.vpa_cpus = 1;
	}
}

void dtl_stats__add_summary(struct dtl_stats *s, unsigned int cpu, uint64_t dispatches,
			    uint64_t steal_ticks, uint64_t idle_ticks, uint64_t dispersions)
{
	struct dtl_counts *c;

	if (cpu >= s->nr_cpus)
		return;
	c = &s->v[cpu].cur;
	s->summaries = true;
	c->dispatches += dispatches;
	c->steal_ticks += steal_ticks;
	c->idle_ticks += idle_ticks;
	c->migrations += dispersions;
}

void dtl_stats__add_interval(struct dtl_stats *s, unsigned int cpu,
			     const struct dtl_interval_cpu *k, bool told)
{
	struct vcpu *v;

	if (cpu >= s->nr_cpus)
		return;
	v = &s->v[cpu];
	dtl_counts__add(&v->cur, &k->c);
	v->carry_steal += k->carry_steal;
	v->carry_idle += k->carry_idle;
	v->proc_other += k->proc_other;
	/* a slot goes to the first processor sampled in it, as add_one() gives it */
	for (int j = 0; j < 8; j++) {
		uint64_t *slot = &v->procs[k->proc_id[j] & 7];

		if (!k->proc_n[j])
			continue;
		if ((*slot >> 32) == k->proc_id[j] || !(uint32_t)*slot)
			*slot = (uint64_t)k->proc_id[j] << 32 | (uint32_t)(*slot + k->proc_n[j]);
		else
			v->proc_other += k->proc_n[j];
	}
	s->summaries |= told;
}

int dtl_stats__keep(struct dtl_stats *s)
{
	if (!s->kept)
		s->kept = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->kept));
	return s->kept ? 0 : -1;
}

const struct dtl_interval_cpu *dtl_stats__kept(const struct dtl_stats *s, unsigned int cpu)
{
	return s->kept && cpu < s->nr_cpus ? &s->kept[cpu].k : NULL;
}

uint64_t dtl_stats__ended_at(const struct dtl_stats *s)
{
	return s->ended_at;
}

bool dtl_stats__told(const struct dtl_stats *s)
{
	return s->summaries;
}

/* What a CPU's interval came to, before it goes into the totals: the processors as a difference. */
static void keep(struct dtl_stats *s, unsigned int cpu)
{
	const struct vcpu *v = &s->v[cpu];
	struct kept *k = &s->kept[cpu];

	k->k.c = v->cur;
	k->k.carry_steal = v->carry_steal;
	k->k.carry_idle = v->carry_idle;
	k->k.proc_other = v->proc_other - k->proc_other;
	k->proc_other = v->proc_other;
	for (int j = 0; j < 8; j++) {
		k->k.proc_id[j] = (uint32_t)(v->procs[j] >> 32);
		k->k.proc_n[j] = (uint32_t)((uint32_t)v->procs[j] - (uint32_t)k->procs[j]);
		k->procs[j] = v->procs[j];
	}
}

void dtl_stats__add_stat_steal(struct dtl_stats *s, unsigned int cpu, uint64_t steal_ticks)
{
	if (cpu < s->nr_cpus) {
		s->v[cpu].cur.stat_steal += steal_ticks;
		s->v[cpu].cur.stat_cpus = 1;
	}
}

void dtl_stats__add_gaps(struct dtl_stats *s, unsigned int cpu, uint64_t n)
{
	if (cpu < s->nr_cpus)
		s->v[cpu].cur.gaps += n;
}

void dtl_stats__set_mask(struct dtl_stats *s, unsigned int mask)
{
	s->mask = mask;
	s->cur_mask &= mask;
}

void dtl_stats__start_at(struct dtl_stats *s, uint64_t tb)
{
	s->win_start = s->origin = tb;
}

void dtl_stats__restart_at(struct dtl_stats *s, uint64_t tb)
{
	s->win_start = tb;
}

void dtl_stats__end_at(struct dtl_stats *s, uint64_t tb)
{
	s->win_end = tb;
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

static void make_row(const struct dtl_stats *s, const struct dtl_counts *c, int cpu,
		     double interval_s, uint64_t span_ticks, unsigned int mask,
		     unsigned int nr_vcpus, uint64_t spans, struct dtl_row *row)
{
	dtl_counts__row(c, s->tb_freq, s->summaries, cpu, interval_s, span_ticks, mask, nr_vcpus,
			spans, row);
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
static void vp_times(const struct dtl_stats *s, uint32_t vp, bool total, double interval_s,
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
		vp_times(s, h, false, interval_s, span, &s->vp_last[h]);
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
			keep(s, i);
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
		vp_times(s, (uint32_t)vp, true, s->total_s, s->total_ticks, row);
		row->vp = (int)s->vp_ord[vp];
		row->is_vp = true;
	}
	free(sum);
	return n ? 0 : -1;
}

uint64_t dtl_stats__tb_freq(const struct dtl_stats *s)
{
	return s->tb_freq;
}

int dtl_stats__vp_of(const struct dtl_stats *s, unsigned int cpu)
{
	if (cpu >= s->nr_cpus)
		return -1;
	return s->vp ? (int)s->vp[cpu] : (int)cpu;
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
