/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vp.c - a virtual processor's threads, run together as PowerVM dispatches
 * them: the VP is on a physical core while any of its threads wants to run
 * and it has budget left in the wheel (hv.c says how much); past it every
 * busy thread is preempted and waits, with the VP, for the next wheel. Each
 * thread alternates busy bursts and H_CEDE; each dispatch completes one DTL
 * entry, and each wait in it is known by its cause (the hold's, dispatch
 * latency, the guest's own). Time is in ticks since SIM_TB0; everything
 * depends only on the seed and the parameters, never on how it is read.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NEVER UINT64_MAX

uint64_t sim_rnd_exp(uint64_t *s, double mean)
{
	double v = -mean * log(1.0 - sim_rnd01(s));

	return v > 4e9 ? 4000000000ull : (uint64_t)v;
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void sim_wheel_share(const struct sim *s, uint64_t k, struct dtl_hv_share *out)
{
	double load = sim_load_at(s, k * s->wheel_ticks + s->wheel_ticks / 2);
	struct dtl_hv_pool p = { .vps = s->p.vps, .ent = s->p.ent, .capped = s->p.capped,
				 .weight = s->p.weight, .pool = s->p.pool, .other = s->p.other,
				 .other_ent = s->p.other_ent };

	/* a VP wants its core while any of its threads runs */
	p.want = s->p.vps * (1 - pow(1 - load, s->p.smt));
	if (s->p.dedicated) {
		/* its own processors: nothing to share, no one to wait for */
		out->budget = 1;
		out->ceiling = s->p.vps;
		out->reserve = 0;
		out->hold = DTL_HV_HOLD_CAP;
		out->other_use = 0;
		out->busy = 0;
		return;
	}
	if (s->p.frame[0]) {
		/* the pool's others one by one, their wants at the same instant as ours */
		struct dtl_hv_lpar l[DTL_HV_FRAME_MAX];
		double t_s = (double)(k * s->wheel_ticks + s->wheel_ticks / 2) / (double)s->tb_freq;
		unsigned int n = 1;

		l[0] = (struct dtl_hv_lpar){ .ent = s->p.ent, .want = p.want, .vps = s->p.vps,
					     .weight = s->p.weight, .capped = s->p.capped };
		for (unsigned int i = 0; i < s->p.npeers && n < DTL_HV_FRAME_MAX; i++, n++) {
			const struct dtl_sim_peer *o = &s->p.peers[i];
			double w = sim_schedule_at(o->loads, o->nloads, o->load, t_s);

			l[n] = (struct dtl_hv_lpar){ .ent = o->ent, .vps = o->vps, .weight = o->weight,
						     .capped = o->capped,
						     .want = o->vps * (1 - pow(1 - w, o->smt)) };
		}
		dtl_hv__frame(l, n, 0, s->p.pool, NULL, out);
		return;
	}
	dtl_hv__share(&p, out);
}

static const struct dtl_hv_share *share(struct sim *s, struct simvp *p)
{
	if (p->share_wheel != p->wheel + 1) {
		sim_wheel_share(s, p->wheel, &p->share);
		p->share_wheel = p->wheel + 1;
	}
	return &p->share;
}

/* The partition's dispatched ticks in wheel w, of the VPs simulated so far. */
static uint64_t *tally(struct sim *s, uint64_t w)
{
	return w >= s->tally_base && w - s->tally_base < s->tally_n ? &s->tally[w - s->tally_base] :
	       NULL;
}

/*
 * What VP vp may run in the current wheel: its own budget, and no more than
 * the partition's ceiling leaves after the VPs simulated before it (their
 * ticks counted) and those after it (their expected use of the entitlement
 * kept for them). So the partition never passes its ceiling in a wheel.
 */
static uint64_t budget_ticks(struct sim *s, struct simvp *p)
{
	const struct dtl_hv_share *sh = share(s, p);
	double w = (double)s->wheel_ticks, vp = (double)(p - s->vp);
	uint64_t own = (uint64_t)(sh->budget * w + 0.5), *t = tally(s, p->wheel);
	double others = t && *t > p->used ? (double)(*t - p->used) : 0;
	double left = sh->ceiling * w - others - (s->p.vps - 1 - vp) * sh->reserve * w;

	if (left <= 0)
		return 0;
	return (uint64_t)left < own ? (uint64_t)left : own;
}

/*
 * A dispatch's wait for a processor: around the mean, never past 1.75 times
 * it (the entitlement is served within the wheel: no long tail), so it is
 * never mistaken for a hold to the next wheel.
 */
static uint64_t latency(struct sim *s, struct simvp *p)
{
	double mean = dtl_hv__latency_s(share(s, p)->busy) * (double)s->tb_freq;

	return (uint64_t)(mean * (0.25 + 1.5 * sim_rnd01(&p->rng))) + 1;
}

static uint16_t on_core(const struct sim *s, unsigned int core, unsigned int cpu)
{
	return (uint16_t)(core % s->p.pool * s->p.smt + cpu % s->p.smt);
}

/* At a dispatch: mostly the VP's home core, more often elsewhere the busier the pool. */
static void pick_core(struct sim *s, struct simvp *p, unsigned int vp)
{
	double home = s->p.idle ? 0.53 : 0.9 - 0.5 * share(s, p)->busy;

	if (sim_rnd01(&p->rng) < home)
		p->core = vp % s->p.pool;
	else
		p->core = (vp + 1 + (unsigned int)(sim_rnd(&p->rng) % (s->p.pool > 1 ? s->p.pool - 1 :
								       1))) % s->p.pool;
}

static struct simentry *new_entry(struct simcpu *v)
{
	if (v->ne == v->ecap) {
		size_t cap = v->ecap ? 2 * v->ecap : 16;
		struct simentry *n = realloc(v->e, cap * sizeof(*n));

		if (!n)
			abort();	/* a few entries per CPU per drain window */
		v->e = n;
		v->ecap = cap;
	}
	return &v->e[v->ne++];
}

/*
 * A new burst and its own interruption (a page fault, or rarely firmware),
 * planned in work, not time, from the guest's generator alone: the guest's
 * work is the same whatever the hypervisor does to it.
 */
static void new_burst(struct sim *s, struct simcpu *v)
{
	v->fresh = true;
	v->burst = v->busy_left = sim_rnd_exp(&v->rng, (double)s->busy) + 1;
	v->own_left = NEVER;
	if (sim_rnd01(&v->rng) < s->fault_per_tick * (double)v->busy_left) {
		v->own = 6;
		v->own_left = 1 + (uint64_t)(sim_rnd01(&v->rng) * (double)v->busy_left);
	} else if (!s->p.idle && sim_rnd01(&v->rng) < 0.001 * (double)v->busy_left / (double)s->slice) {
		v->own = 1;
		v->own_left = 1 + (uint64_t)(sim_rnd01(&v->rng) * (double)v->busy_left);
	}
}

/* Thread cpu dispatched at t: its entry is complete, and it runs from t. */
static void dispatch(struct sim *s, struct simvp *p, unsigned int cpu, uint64_t t)
{
	struct simcpu *v = &s->v[cpu];
	struct dtl_rec *r = &v->next;
	uint64_t e2d = t > v->ready_at ? t - v->ready_at : 0;
	struct simentry *e;

	r->enqueue_to_dispatch = clamp32(e2d);
	r->timebase = SIM_TB0 + t;
	r->processor_id = on_core(s, p->core, cpu);
	r->fault_addr = r->preempt_reason == 6 ? (sim_rnd(&v->drng) & 0x00000fffffff0000ull) : 0;
	/* a vCPU cedes and confers from the hcall stub; elsewhere it was running */
	r->srr0 = r->preempt_reason == 2 || r->preempt_reason == 3 ? 0xc0000000000fcd28ull :
		  0xc000000000100000ull + (sim_rnd(&v->drng) & 0xfffc);
	r->srr1 = 0x8000000000001033ull;
	if (s->p.ntasks)
		sim_task_pc(s, v, r);
	e = new_entry(v);
	e->r = *r;
	e->task = (int16_t)v->pend_task;
	e->woken = -1;
	if (s->p.ntasks && v->task == SIM_IDLE(s)) {
		int n = sim_wake_task(s, v, cpu, t);

		/* who pays a cede's wait: the task that ran first after it (src/stats/task/charge.c) */
		if (v->pend_task == SIM_IDLE(s) && ((DTL_PREEMPT_CEDE_MASK >> r->preempt_reason) & 1))
			e->woken = (int16_t)n;
	}
	e->hold = clamp32(v->hold < e2d ? v->hold : e2d);
	e->latency = clamp32(e2d - e->hold + r->ready_to_enqueue);
	e->hold_cause = (uint8_t)p->share.hold;
	v->hold = 0;
	v->phase = SIM_RUN;
	v->run_from = t;
	v->fresh = false;
	if (!v->busy_left)
		new_burst(s, v);
	v->own_at = v->own_left < v->busy_left ? t + v->own_left : NEVER;
}

/* Running thread cpu stops at t, for reason pre (its entry's first half). */
static void stop(struct sim *s, unsigned int cpu, uint64_t t, uint8_t pre)
{
	struct simcpu *v = &s->v[cpu];
	uint64_t from = v->run_from < t ? v->run_from : t, end = v->run_from + v->busy_left;

	if (s->p.ntasks)
		sim_sched_tasks(s, v, cpu, from, t, v->fresh, pre == 2 || pre == 3);
	v->fresh = false;
	v->busy_left = end > t ? end - t : 0;
	v->own_left = v->own_left == NEVER ? NEVER : v->own_left > t - from ?
		      v->own_left - (t - from) : 0;
	memset(&v->next, 0, sizeof(v->next));
	v->next.preempt_reason = pre;
	v->next.dispatch_reason = 7;
	v->wake_e2d = 0;
}

/* What the guest does between two bursts, drawn from its generator alone. */
struct gap {
	uint8_t pre, disp;
	uint32_t r2e;
	uint64_t w2r, wake_e2d;
};

static void plan_gap(struct sim *s, struct simcpu *v, uint64_t t, struct gap *g)
{
	double load = sim_load_at(s, t), idle = (double)s->busy * (1 - load) / load;

	memset(g, 0, sizeof(*g));
	g->pre = 2;
	if (s->p.idle) {
		double us = (double)s->tb_us, mode = sim_rnd01(&v->rng) < 0.5 ? 10000 : 30000;

		/* wake-ups as real idle LPARs' entries show them (see --sim=help) */
		if (sim_rnd01(&v->rng) < 0.6) {
			g->disp = 10;	/* priv_doorbell */
			g->wake_e2d = (uint64_t)((0.3 + 0.7 * sim_rnd01(&v->rng)) * us) + 1;
		} else {
			g->disp = 3;	/* decrementer_interrupt */
			g->r2e = (uint32_t)((0.3 + 0.15 * sim_rnd01(&v->rng)) * us);
			g->wake_e2d = (uint64_t)((9 + 5 * sim_rnd01(&v->rng)) * us);
		}
		g->w2r = (uint64_t)(mode * (0.9 + 0.2 * sim_rnd01(&v->rng)) * us);
	} else if (sim_rnd01(&v->rng) < 0.02) {
		g->pre = 3;
		g->disp = 6;
		g->w2r = sim_rnd_exp(&v->rng, 10.0 * (double)s->tb_us);
	} else {
		double u = sim_rnd01(&v->rng);

		g->disp = u < 0.30 ? 0 : u < 0.60 ? 3 : u < 0.95 ? 10 : 2;
		g->w2r = sim_rnd_exp(&v->rng, idle);
	}
}

/*
 * The burst is done. Its next work comes when the guest's schedule says,
 * however late this one ran: a thread behind it goes straight on (no cede,
 * no entry); one on time cedes (or now and then confers) until then.
 */
static void burst_end(struct sim *s, unsigned int cpu, uint64_t t)
{
	struct simcpu *v = &s->v[cpu];
	struct gap g;
	uint64_t next;

	plan_gap(s, v, t, &g);
	/* profile=idle: a timer's sleep from now, as the real entries' 10 and 30 ms show */
	next = s->p.idle ? t + g.w2r : v->arrival + v->burst + g.w2r;
	v->arrival = next;
	if (next <= t) {
		if (s->p.ntasks)
			sim_sched_tasks(s, v, cpu, v->run_from < t ? v->run_from : t, t, v->fresh,
					false);
		v->run_from = t;
		v->busy_left = 0;
		new_burst(s, v);
		v->own_at = v->own_left < v->busy_left ? t + v->own_left : NEVER;
		return;
	}
	stop(s, cpu, t, g.pre);
	v->next.dispatch_reason = g.disp;
	v->next.ready_to_enqueue = s->p.idle ? g.r2e :
				   (uint32_t)sim_rnd_exp(&v->drng, 1.0 * (double)s->tb_us);
	v->wake_e2d = g.wake_e2d;
	v->next.waiting_to_ready = clamp32(next - t);
	v->phase = SIM_SLEEP;
	v->wake_at = next;
}

/* Its own interruption: a page fault served by the hypervisor, or firmware's work. */
static void own(struct sim *s, unsigned int cpu, uint64_t t)
{
	struct simcpu *v = &s->v[cpu];
	uint8_t kind = v->own;
	uint64_t w2r = 0;

	stop(s, cpu, t, kind);
	v->own_left = NEVER;
	if (kind == 6) {
		v->next.dispatch_reason = 8;
		w2r = sim_rnd_exp(&v->rng, 50.0 * (double)s->tb_us);
		v->next.ready_to_enqueue = (uint32_t)sim_rnd_exp(&v->drng, 1.0 * (double)s->tb_us);
	} else {
		v->next.dispatch_reason = 1;
	}
	v->next.waiting_to_ready = clamp32(w2r);
	v->phase = SIM_SLEEP;
	v->wake_at = t + w2r;
}

static bool any_running(const struct sim *s, unsigned int first, unsigned int n)
{
	for (unsigned int c = first; c < first + n; c++)
		if (s->v[c].phase == SIM_RUN)
			return true;
	return false;
}

/* Every running thread of the VP preempted at t (a hold, or a time slice's end). */
static void preempt_all(struct sim *s, unsigned int first, unsigned int n, uint64_t t)
{
	for (unsigned int c = first; c < first + n; c++)
		if (s->v[c].phase == SIM_RUN) {
			stop(s, c, t, 4);
			s->v[c].phase = SIM_READY;
			s->v[c].ready_at = t;
		}
}

/* The VP dispatched at t with every ready thread. */
static void vp_dispatch(struct sim *s, struct simvp *p, unsigned int vp, unsigned int first,
			unsigned int n, uint64_t t)
{
	pick_core(s, p, vp);
	p->state = VP_DISP;
	p->slice_j = t / s->slice + 1;
	for (unsigned int c = first; c < first + n; c++)
		if (s->v[c].phase == SIM_READY)
			dispatch(s, p, c, t);
}

/* Thread cpu wakes at t and wants to run. */
static void wake(struct sim *s, struct simvp *p, unsigned int cpu, uint64_t t)
{
	struct simcpu *v = &s->v[cpu];
	uint64_t ready = t + v->next.ready_to_enqueue;

	v->phase = SIM_READY;
	v->ready_at = ready;
	if (p->state == VP_DISP) {
		/* a sibling holds the core: a doorbell away */
		dispatch(s, p, cpu, ready + (v->wake_e2d ? v->wake_e2d :
					     sim_rnd_exp(&p->rng, 3.0 * (double)s->tb_us) + 1));
	} else if (p->state == VP_OFF) {
		if (p->used >= budget_ticks(s, p)) {
			p->state = VP_HELD;	/* its share of this wheel is spent */
			p->held_since = ready;
		} else {
			p->state = VP_PENDING;
			p->dispatch_at = ready + (v->wake_e2d ? v->wake_e2d : latency(s, p));
			if (s->p.donating)	/* the donated core may be running someone else */
				p->dispatch_at += sim_rnd_exp(&p->rng, 20.0 * (double)s->tb_us);
		}
	} else if (p->state == VP_PENDING && p->dispatch_at < ready) {
		p->dispatch_at = ready;
	}
}

/* A new wheel: the budget is whole again; a held VP is dispatched. */
static void new_wheel(struct sim *s, struct simvp *p, unsigned int first, unsigned int n,
		      uint64_t t)
{
	p->wheel = t / s->wheel_ticks;
	p->used = 0;
	if (p->state != VP_HELD)
		return;
	for (unsigned int c = first; c < first + n; c++)
		if (s->v[c].phase == SIM_READY) {
			uint64_t since = s->v[c].ready_at > p->held_since ? s->v[c].ready_at :
					 p->held_since;

			s->v[c].hold += t > since ? t - since : 0;
		}
	p->state = VP_PENDING;
	p->dispatch_at = t + latency(s, p);
}

/* The first event after now (or at it), before end. */
static uint64_t next_event(struct sim *s, struct simvp *p, unsigned int first, unsigned int n,
			   uint64_t end)
{
	uint64_t t = (p->wheel + 1) * s->wheel_ticks;

	if (end < t)
		t = end;
	if (p->state == VP_PENDING && p->dispatch_at < t)
		t = p->dispatch_at;
	if (p->state == VP_DISP) {
		uint64_t b = budget_ticks(s, p), at = p->now + (b > p->used ? b - p->used : 0);

		if (at < t)
			t = at;
		if (p->slice_j * s->slice < t)
			t = p->slice_j * s->slice;
	}
	for (unsigned int c = first; c < first + n; c++) {
		const struct simcpu *v = &s->v[c];
		uint64_t at = v->phase == SIM_SLEEP ? v->wake_at : v->phase == SIM_RUN ?
			      v->run_from + v->busy_left : NEVER;

		if (v->phase == SIM_RUN && v->own_at < at)
			at = v->own_at;
		if (at < t)
			t = at;
	}
	return t < p->now ? p->now : t;
}

/* Whatever happens at p->now, in a fixed order; true if anything did. */
static bool handle(struct sim *s, struct simvp *p, unsigned int vp, unsigned int first,
		   unsigned int n)
{
	uint64_t t = p->now;

	if (t >= (p->wheel + 1) * s->wheel_ticks) {
		new_wheel(s, p, first, n, t);
		return true;
	}
	if (p->state == VP_PENDING && p->dispatch_at <= t) {
		vp_dispatch(s, p, vp, first, n, t);
		return true;
	}
	for (unsigned int c = first; c < first + n; c++) {
		struct simcpu *v = &s->v[c];

		if (v->phase == SIM_RUN && v->own_at <= t && v->own_at < v->run_from + v->busy_left) {
			own(s, c, t);
			return true;
		}
		if (v->phase == SIM_RUN && v->run_from + v->busy_left <= t) {
			burst_end(s, c, t);
			return true;
		}
		if (v->phase == SIM_SLEEP && v->wake_at <= t) {
			wake(s, p, c, t);
			return true;
		}
	}
	if (p->state == VP_DISP && !any_running(s, first, n)) {
		p->state = VP_OFF;	/* every thread ceded: the core goes back to the pool */
		return true;
	}
	if (p->state == VP_DISP && p->used >= budget_ticks(s, p)) {
		preempt_all(s, first, n, t);	/* past its share of the wheel: held */
		p->state = VP_HELD;
		p->held_since = t;
		return true;
	}
	if (p->state == VP_DISP && p->slice_j * s->slice <= t) {
		uint64_t h = s->seed * 0xd1342543de82ef95ull ^ (vp + 1) * 0x2545f4914f6cdd1dull ^
			     p->slice_j * 0x9e3779b97f4a7c15ull;

		p->slice_j++;
		/* with idle processors it runs on; a nearly full pool takes the core a while */
		if (sim_rnd01(&h) < dtl_hv__slice_preempt(share(s, p)->busy)) {
			preempt_all(s, first, n, t);
			p->state = VP_PENDING;
			p->dispatch_at = t + latency(s, p);
		}
		return true;
	}
	return false;
}

void sim_vp_run(struct sim *s, unsigned int vp, uint64_t end)
{
	struct simvp *p = &s->vp[vp];
	unsigned int first = vp * s->p.smt, n = s->p.vcpus - first < s->p.smt ?
					       s->p.vcpus - first : s->p.smt;

	while (p->now < end) {
		uint64_t t = next_event(s, p, first, n, end), dt = t - p->now;

		if (p->state == VP_DISP) {
			uint64_t *w = tally(s, p->wheel);

			p->used += dt;
			if (w)
				*w += dt;
			s->causes.run += dt;
			for (unsigned int c = first; c < first + n; c++)
				if (s->v[c].phase == SIM_RUN && s->v[c].run_from < t)
					s->causes.threads_run += t - (s->v[c].run_from > p->now ?
								      s->v[c].run_from : p->now);
		}
		if (p->state != VP_OFF)
			s->causes.want += dt;
		s->causes.vp += dt;
		p->now = t;
		if (t >= end)
			break;
		while (handle(s, p, vp, first, n))
			;
	}
}

int sim_tally_to(struct sim *s, uint64_t end)
{
	uint64_t base = s->vp[0].now / s->wheel_ticks, last = end / s->wheel_ticks;
	size_t n = (size_t)(last - base + 1);
	uint64_t *t = calloc(n, sizeof(*t)), *keep = tally(s, base);

	if (!t) {
		free(s->tally);
		s->tally = NULL;
		s->tally_n = 0;
		return -1;
	}
	if (keep)	/* the wheel the last interval ended in goes on */
		t[0] = *keep;
	free(s->tally);
	s->tally = t;
	s->tally_base = base;
	s->tally_n = n;
	return 0;
}

/* Before its first window: every thread asleep, waking at a random point of the first burst. */
void sim_vp_start(struct sim *s, unsigned int vp)
{
	struct simvp *p = &s->vp[vp];
	unsigned int first = vp * s->p.smt;

	p->rng = s->seed * 0x9e3779b97f4a7c15ull ^ (vp + 1) * 0xd1342543de82ef95ull;
	p->core = vp % s->p.pool;
	for (unsigned int c = first; c < first + s->p.smt && c < s->p.vcpus; c++) {
		struct simcpu *v = &s->v[c];
		struct gap g;

		/* as if it ceded at 0: its first wake-up is like every other */
		plan_gap(s, v, 0, &g);
		if (!s->p.idle)
			g.w2r = sim_rnd(&v->rng) % (s->busy + s->slice);
		v->phase = SIM_SLEEP;
		v->own_left = NEVER;
		v->wake_at = v->arrival = g.w2r;
		v->next.preempt_reason = g.pre;
		v->next.dispatch_reason = g.disp;
		v->next.ready_to_enqueue = s->p.idle ? g.r2e : 0;
		v->wake_e2d = g.wake_e2d;
		v->next.waiting_to_ready = clamp32(g.w2r);
		if (s->p.ntasks)
			sim_tasks_begin(s, v, c);
	}
}
