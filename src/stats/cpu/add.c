/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * add.c - fold DTL entries into per-vCPU counters: the hot path.
 *
 * The trick: entries only touch the current interval's counters; totals are
 * summed once per interval, so the hot path never writes two copies.
 */
#include "internal.h"

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
