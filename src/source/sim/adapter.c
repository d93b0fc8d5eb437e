/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * adapter.c - the simulator as a DTL source: --sim and --seed, each CPU's
 * drain windows (its 85-entry ring, lapped as PHYP's is), the VPA's
 * counters, the lparcfg PowerVM would show, and the ground truth for tests
 * (what each task paid, why the partition waited).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../backend.h"
#include "internal.h"

/*
 * What /proc/powerpc/lparcfg would say now: PURR is the VPs' dispatched
 * time, yield_count moves twice per cycle, and the pool's idle time is what
 * neither we nor the other partitions used (theirs by the same rules).
 */
static void sim_lparcfg(struct dtl_source *src, struct sim *s)
{
	uint64_t cycles = 0, tb = SIM_TB0 + s->horizon, t0 = s->lp_tb ? s->lp_tb - SIM_TB0 : 0;
	double other = 0;

	for (unsigned int cpu = 0; cpu < s->p.vcpus; cpu++)
		cycles += s->v[cpu].vpa_cycles;	/* the cycles handed out */
	/* the others' use, wheel by wheel over (t0, horizon] */
	for (uint64_t k = t0 / s->wheel_ticks; s->lp_tb && k * s->wheel_ticks < s->horizon; k++) {
		uint64_t a = k * s->wheel_ticks > t0 ? k * s->wheel_ticks : t0;
		uint64_t b = (k + 1) * s->wheel_ticks < s->horizon ? (k + 1) * s->wheel_ticks :
			     s->horizon;
		struct dtl_hv_share sh;

		sim_wheel_share(s, k, &sh);
		other += sh.other_use * (double)(b - a);
	}
	if (s->lp_tb) {
		double dt = (double)(s->horizon - t0), ours = (double)(s->causes.run - s->lp_purr);
		double idle = s->p.pool * dt - ours - other;

		s->lp_pool_idle += idle > 0 ? (uint64_t)idle : 0;
	}
	s->lp_purr = s->causes.run;
	s->lp_tb = tb;
	if (s->p.dedicated) {
		/* what pseries' lparcfg.c writes without SPLPAR: no pool, no weight */
		snprintf(s->lparcfg, sizeof(s->lparcfg),
			 "lparcfg 1.9\nserial_number=%s\nsystem_type=IBM,9080-SIM\npartition_id=%u\n"
			 "DedDonMode=%d\npartition_entitled_capacity=%u\ncapped=0\ndispatches=%" PRIu64
			 "\npurr=%" PRIu64 "\npartition_active_processors=%u\n"
			 "partition_potential_processors=%u\nshared_processor_mode=0\ntbr=%" PRIu64
			 "\n", s->p.serial, s->p.lpar_id, s->p.donating, s->p.vps * 100, 2 * cycles,
			 s->lp_purr, s->p.vps,
			 s->p.vps, tb);
		src->lparcfg = s->lparcfg;
		return;
	}
	snprintf(s->lparcfg, sizeof(s->lparcfg),
		 "lparcfg 1.9\nserial_number=%s\nsystem_type=IBM,9080-SIM\npartition_id=%u\n"
		 "partition_entitled_capacity=%u\npool=%u\npool_capacity=%u\nunallocated_capacity_weight=0\n"
		 "capacity_weight=%u\ncapped=%d\ndispatches=%" PRIu64 "\npurr=%" PRIu64 "\n"
		 "partition_active_processors=%u\npartition_potential_processors=%u\n"
		 "shared_processor_mode=1\ntbr=%" PRIu64 "\npool_idle_time=%" PRIu64 "\n"
		 "pool_num_procs=%u\n", s->p.serial, s->p.lpar_id,
		 (unsigned int)(s->p.ent * 100 + 0.5), s->p.pool_id, s->p.pool * 100,
		 s->p.weight, s->p.capped, 2 * cycles, s->lp_purr, s->p.vps, s->p.vps, tb,
		 s->lp_pool_idle, s->p.pool);
	src->lparcfg = s->lparcfg;
}

static int sim_open(struct dtl_source *src, const struct dtl_source_opts *o,
		    char *err, size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (dtl_sim__parse(o->sim_params, &s->p, err, errlen))
		goto fail;
	s->v = calloc(s->p.vcpus, sizeof(*s->v));
	s->vp = calloc(s->p.vps, sizeof(*s->vp));
	if (!s->v || !s->vp) {
		snprintf(err, errlen, "out of memory for %u simulated vCPUs", s->p.vcpus);
		goto fail;
	}
	for (unsigned int i = 0; i < s->p.ntasks; i++)
		if (s->p.tasks[i].pin >= (int)s->p.vcpus) {
			snprintf(err, errlen, "bad --sim: task %s pinned to cpu%d of %u vCPUs",
				 s->p.tasks[i].name, s->p.tasks[i].pin, s->p.vcpus);
			goto fail;
		}
	if (s->p.ntasks) {
		s->truth = calloc(SIM_NTRUTH(s), sizeof(*s->truth));
		s->announced = calloc((size_t)s->p.vcpus * SIM_NTRUTH(s), sizeof(*s->announced));
		if (!s->truth || !s->announced) {
			snprintf(err, errlen, "out of memory for the simulated tasks");
			goto fail;
		}
	}
	src->tb_freq = s->tb_freq = DTL_DEFAULT_TB_FREQ;
	src->nr_cpus = s->p.vcpus;
	dtl_cpuset__fill(&src->cpus, s->p.vcpus);
	dtl_topo__regular(&src->topo, s->p.smt);	/* CPUs 0..smt-1 are the first VP */
	src->core_threads = s->p.smt;
	if (o->have_cpus) {
		dtl_cpuset__and(&src->cpus, &o->cpus);
		if (!dtl_cpuset__count(&src->cpus)) {
			snprintf(err, errlen, "-C selects no CPU of the simulated %u", s->p.vcpus);
			goto fail;
		}
	}
	s->tb_us = s->tb_freq / 1000000;
	s->slice = (uint64_t)(s->p.slice_ms * 1e-3 * (double)s->tb_freq);
	s->poll = (uint64_t)(s->p.poll_ms * 1e-3 * (double)s->tb_freq);
	s->busy = (uint64_t)(s->p.busy_ms * 1e-3 * (double)s->tb_freq);
	s->fault_per_tick = s->p.faults / (double)s->tb_freq;
	/* the LPARs of a frame, each its own dtltop of one --seed, live different lives */
	s->seed = o->seed + (s->p.frame[0] ? (s->p.lpar_id - 1) * 0x9e3779b97f4a7c15ull : 0);
	s->gtick = (uint64_t)(0.004 * (double)s->tb_freq);	/* the guest scheduler's tick */
	s->wheel_ticks = (uint64_t)(0.010 * (double)s->tb_freq);	/* PowerVM's dispatch wheel */
	for (unsigned int cpu = 0; cpu < s->p.vcpus; cpu++) {	/* every CPU, shown (-C) or not */
		struct simcpu *v = &s->v[cpu];

		v->rng = s->seed * 0x2545f4914f6cdd1dull ^ (cpu + 1) * 0x9e3779b97f4a7c15ull;
		v->trng = v->rng ^ 0xd1b54a32d192ed03ull;
		v->drng = v->rng ^ 0x8bb84b93962eacc9ull;
		v->task = v->pend_task = SIM_IDLE(s);
	}
	for (unsigned int vp = 0; vp < s->p.vps; vp++)
		sim_vp_start(s, vp);
	if (s->p.frame[0])
		snprintf(src->detail, sizeof(src->detail),
			 "%s of a frame: vcpus=%u ent=%.2f pool=%u load=%.2f, %u other LPARs of "
			 "the pool want %.2f seed=%llu%s", s->p.name, s->p.vcpus, s->p.ent, s->p.pool,
			 s->p.load, s->p.npeers, s->p.other, (unsigned long long)o->seed,
			 s->p.virtual_clock ? " clock=virtual" : "");
	else
		snprintf(src->detail, sizeof(src->detail),
			 "vcpus=%u ent=%.2f pool=%u load=%.2f other=%.2f seed=%llu%s",
			 s->p.vcpus, s->p.ent, s->p.pool, s->p.load, s->p.other,
			 (unsigned long long)o->seed, s->p.virtual_clock ? " clock=virtual" : "");
	src->priv = s;
	sim_lparcfg(src, s);	/* at start, so the first interval has figures */
	if (s->p.ntasks)
		src->kallsyms = sim_kallsyms;
	snprintf(src->partition_name, sizeof(src->partition_name), "%s", s->p.name);
	return 0;
fail:
	free(s->truth);
	free(s->announced);
	free(s->v);
	free(s->vp);
	free(s);
	return -1;
}

static void sim_close(struct dtl_source *src)
{
	struct sim *s = src->priv;

	for (unsigned int c = 0; c < s->p.vcpus; c++) {
		free(s->v[c].sw);
		free(s->v[c].e);
	}
	free(s->vp);
	free(s->tally);
	free(s->truth);
	free(s->announced);
	free(s->v);
	free(s);
}

extern const struct dtl_source_ops dtl_sim_ops;

int dtl_sim__causes(const struct dtl_source *src, struct dtl_sim_causes *c)
{
	if (!src || src->ops != &dtl_sim_ops)
		return -1;
	*c = ((const struct sim *)src->priv)->causes;
	return 0;
}

int dtl_sim__truth(const struct dtl_source *src, unsigned int i, struct dtl_sim_truth *t)
{
	const struct sim *s;

	if (!src || src->ops != &dtl_sim_ops)
		return -1;
	s = src->priv;
	if (!s->p.ntasks || i >= SIM_NTRUTH(s))
		return -1;
	*t = s->truth[i];
	return 0;
}

static int sim_poll(struct dtl_source *src, int timeout_ms)
{
	struct sim *s = src->priv;

	if (!s->p.virtual_clock && timeout_ms > 0)
		dtl_source__sleep(timeout_ms);
	return 0;
}

/* The ground truth of a cycle handed out: why it waited. */
static void account(struct sim *s, const struct simentry *e)
{
	if (e->hold_cause == DTL_HV_HOLD_CAP)
		s->causes.cap += e->hold;
	else
		s->causes.pool += e->hold;
	s->causes.latency += e->latency;
	if (e->r.preempt_reason == 6)
		s->causes.guest += e->r.waiting_to_ready;
}

/* One drain window of one vCPU; the ring keeps what PHYP's would. */
static size_t sim_window(struct sim *s, unsigned int cpu, unsigned int mask, uint64_t *lost)
{
	struct simcpu *v = &s->v[cpu];
	uint64_t end = v->window_end + s->poll;
	size_t n = 0, keep, first, k = 0;

	if (v->sw_given) {	/* what the last chunk handed out is gone */
		memmove(v->sw, v->sw + v->sw_given, (v->nsw - v->sw_given) * sizeof(*v->sw));
		v->nsw -= v->sw_given;
		v->sw_given = 0;
	}
	end -= end % s->poll;
	if (end > s->horizon)
		end = s->horizon;
	sim_vp_run(s, cpu / s->p.smt, end);
	for (; k < v->ne && v->e[k].r.timebase < SIM_TB0 + end; k++) {
		const struct simentry *e = &v->e[k];

		/* the hypervisor's own accounting sees every cycle, traced or not */
		v->vpa_cycles++;
		v->vpa_e2d += e->r.enqueue_to_dispatch;
		v->vpa_r2e += e->r.ready_to_enqueue;
		v->vpa_w2r += e->r.waiting_to_ready;
		account(s, e);
		if (mask & dtl_preempt__mask_bit(e->r.preempt_reason)) {
			s->ring_task[n % DTL_RING_ENTRIES] = e->task;
			s->ring_woken[n % DTL_RING_ENTRIES] = e->woken;
			dtl_rec__encode(&e->r, s->ring[n++ % DTL_RING_ENTRIES]);
			v->vpa_written++;
		}
	}
	if (k && k < v->ne)
		memmove(v->e, v->e + k, (v->ne - k) * sizeof(*v->e));
	v->ne -= k;
	v->window_end = end;
	/* A reader that finds the ring lapped keeps the newest 84, as dtl.c does. */
	keep = n >= DTL_RING_ENTRIES ? DTL_RING_ENTRIES - 1 : n;
	*lost = n - keep;
	first = n - keep;
	for (size_t i = 0; i < keep; i++)
		memcpy(s->out[i], s->ring[(first + i) % DTL_RING_ENTRIES], DTL_ENTRY_SIZE);
	for (size_t i = 0; s->p.ntasks && i < keep; i++) {
		struct dtl_sim_truth *g = &s->truth[s->ring_task[(first + i) % DTL_RING_ENTRIES]];
		int w = s->ring_woken[(first + i) % DTL_RING_ENTRIES];
		struct dtl_sim_truth *payer = w >= 0 ? &s->truth[w] : g;
		struct dtl_rec r;
		uint64_t steal;

		dtl_rec__decode(&r, s->out[i]);
		steal = (uint64_t)r.enqueue_to_dispatch + r.ready_to_enqueue;
		g->dispatches++;
		g->involuntary += (DTL_PREEMPT_INVOLUNTARY_MASK >> r.preempt_reason) & 1;
		g->idle_ticks += r.waiting_to_ready;
		/* a cede's wait is the woken task's; the entry stays the idle task's */
		payer->steal_ticks += steal;
		if ((DTL_PREEMPT_CEDE_MASK >> r.preempt_reason) & 1)
			payer->wake_ticks += steal;
	}
	return keep;
}

static int sim_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct sim *s = src->priv;

	while (s->next_cpu < s->p.vcpus) {
		unsigned int cpu = s->next_cpu;
		struct simcpu *v = &s->v[cpu];

		if (v->window_end >= s->horizon) {
			s->next_cpu++;
			continue;
		}
		if (!dtl_cpuset__has(&src->cpus, cpu)) {
			/* -C picks what is shown: the partition runs on, its lparcfg whole */
			uint64_t lost;

			sim_window(s, cpu, src->mask, &lost);
			v->sw_given = v->nsw;
			continue;
		}
		c->cpu = cpu;
		c->n = sim_window(s, cpu, src->mask, &c->lost);
		c->data = s->out[0];
		c->bad = 0;
		c->switches = v->sw;
		c->nswitches = v->nsw;
		v->sw_given = v->nsw;
		if (c->n || c->lost || c->nswitches)
			return 1;
	}
	if (s->lp_tb != SIM_TB0 + s->horizon)
		sim_lparcfg(src, s);	/* every CPU is generated up to the horizon now */
	return 0;
}

static void sim_tick(struct dtl_source *src, uint64_t interval_ns)
{
	struct sim *s = src->priv;

	s->horizon += (uint64_t)((double)interval_ns * 1e-9 * (double)src->tb_freq);
	sim_tally_to(s, s->horizon);	/* out of memory: each VP on its own budget */
	s->last_interval_s = (double)interval_ns / 1e9;
	s->next_cpu = 0;
}

static int sim_vpa(const struct dtl_source *src, unsigned int cpu, struct dtl_vpa *v)
{
	const struct sim *s = src->priv;
	const struct simcpu *c;

	if (cpu >= s->p.vcpus)
		return -1;
	c = &s->v[cpu];
	memset(v, 0, sizeof(*v));
	v->dtl_enable_mask = (uint8_t)src->mask;
	v->yield_count = (uint32_t)(2 * c->vpa_cycles);
	v->enqueue_dispatch_tb = c->vpa_e2d;
	v->ready_enqueue_tb = c->vpa_r2e;
	v->wait_ready_tb = c->vpa_w2r;
	v->dtl_idx = c->vpa_written;
	return 0;
}

static int sim_set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	(void)src, (void)mask, (void)err, (void)errlen;
	return 0;
}

/* The simulator makes exactly the interval it is asked for. */
static double sim_interval(const struct dtl_source *src)
{
	const struct sim *s = src->priv;

	return s->last_interval_s;
}

static bool sim_clock(const struct dtl_source *src, uint64_t *ns)
{
	const struct sim *s = src->priv;

	if (!s->p.virtual_clock)
		return false;
	*ns = DTL_SIM_EPOCH_S * 1000000000ull +
	      (uint64_t)((double)s->horizon * 1e9 / (double)src->tb_freq);
	return true;
}

static bool sim_tb(const struct dtl_source *src, uint64_t *tb)
{
	const struct sim *s = src->priv;

	*tb = SIM_TB0 + s->horizon;
	return true;
}

static int opt_sim(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	struct dtl_sim_params p;

	if (a && strcmp(a, "help") == 0) {
		dtl_sim__keys(stdout);
		return 1;
	}
	o->backend = "sim";
	o->sim_params = a ? a : "";
	return dtl_sim__parse(o->sim_params, &p, err, errlen);
}

static int opt_seed(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	o->seed = strtoull(a, &end, 0);
	if (errno || end == a || *end || !isdigit((unsigned char)a[0])) {
		snprintf(err, errlen, "bad --seed '%s' (want an unsigned integer)", a);
		return -1;
	}
	return 0;
}

static const struct dtl_source_opt sim_opts[] = {
	{ "sim", 0, optional_argument, "k=v,...", "the simulated shared-processor pool; "
	  "--sim=help lists its keys", opt_sim },
	{ "seed", 0, required_argument, "N", "simulator seed (default 1)", opt_seed },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

const struct dtl_source_ops dtl_sim_ops = {
	.name = "sim",
	.help = "the simulated pool (--sim)",
	.counts_lost = true,
	.vpa = sim_vpa,
	.opts = sim_opts,
	.open = sim_open,
	.close = sim_close,
	.poll = sim_poll,
	.read = sim_read,
	.tick = sim_tick,
	.set_mask = sim_set_mask,
	.clock = sim_clock,
	.tb = sim_tb,
	.interval = sim_interval,
};
