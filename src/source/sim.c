/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.c - a simulated shared-processor pool that writes DTL entries.
 *
 * Each vCPU runs its own timeline (busy bursts cut into time slices, H_CEDE
 * when idle, the odd fault or confer) from its own seeded generator, so what
 * a vCPU logs depends only on the seed, the parameters and the mask, never on
 * how fast we are asked. Contention comes from the demand on the pool: ours
 * (vcpus * load) plus other partitions', against the pool's processors; use
 * beyond the entitlement is served last and waits longer.
 */
#include "sim.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../dtl/dtl.h"
#include "backend.h"

#define SIM_TB0 (1ull << 40)	/* an arbitrary timebase at simulated boot */

struct simcpu {
	uint64_t rng;
	uint64_t t;		/* timebase of the pending dispatch */
	uint64_t busy_left;	/* ticks of work left in the current burst */
	uint64_t window_end;	/* end of the drain window being generated */
	struct dtl_rec pending;
	uint64_t run;		/* ticks running, up to the pending dispatch */
	uint64_t cycles;	/* preempt/dispatch cycles, traced or not */
	uint64_t lp_run;	/* run at the last lparcfg */
	/* the VPA's counters, up to the last dispatch handed out */
	uint64_t vpa_cycles, vpa_written, vpa_e2d, vpa_r2e, vpa_w2r;
	/* tasks=: the guest's scheduler, on its own generator so the DTL stream stays as it was */
	uint64_t trng;
	int task, pend_task;	/* running now; running at the pending entry's preempt */
	uint64_t tick_at;	/* the guest scheduler's next tick */
	struct dtl_switch *sw;	/* switches not yet handed out, then those handed out */
	size_t nsw, swcap, sw_given;
};

struct sim {
	struct dtl_sim_params p;
	uint64_t horizon;	/* simulated up to here (ticks since SIM_TB0) */
	double last_interval_s;
	unsigned int next_cpu;	/* read() resumes its sweep here */
	uint64_t seed;
	uint64_t wheel, budget;	/* the 10 ms dispatch wheel; a capped VP's share of it */
	double p_preempt;	/* chance a VP is preempted at a time-slice boundary */
	double wait_ticks;	/* mean queue wait when preempted */
	uint64_t slice, poll, busy;
	double idle_ticks, fault_per_tick;
	/* the lparcfg an LPAR would show, as of lp_tb */
	char lparcfg[1024];
	uint64_t lp_tb, lp_purr, lp_pool_idle;	/* the counters, as of lp_tb */
	struct simcpu *v;
	struct dtl_sim_truth *truth;	/* by task: tasks=, the idle task, kworker */
	bool *announced;		/* a task's comm and cgroup go with its first switch */
	uint64_t gtick;
	int16_t ring_task[DTL_RING_ENTRIES];
	uint8_t ring[DTL_RING_ENTRIES][DTL_ENTRY_SIZE];
	uint8_t out[DTL_RING_ENTRIES][DTL_ENTRY_SIZE];
};

/* The simulator's --sim keys: the parser, --sim=help and the man-page check read this. */
static int parse_tasks(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		       size_t errlen);

static const char *const clocks[] = { "wall", "virtual", NULL };
static const char *const yesno[] = { "0", "1", NULL };
static const char *const profiles[] = { "busy", "idle", NULL };
static const struct simkey {
	const char *key;
	size_t off;
	double min, max;
	bool integer;
	const char *const *words;	/* a choice of words, stored as its index in a bool */
	const char *help;
	/* a value that is a list, parsed by its own function */
	int (*parse)(const char *v, size_t n, struct dtl_sim_params *p, char *err, size_t errlen);
} keys[] = {
	{ "vcpus", offsetof(struct dtl_sim_params, vcpus), 1, DTL_MAX_CPUS, true, NULL,
	  "logical CPUs (SMT threads) of the partition (default 16)", NULL },
	{ "vps", offsetof(struct dtl_sim_params, vps), 1, DTL_MAX_CPUS, true, NULL,
	  "virtual processors (cores): vcpus = vps x smt", NULL },
	{ "ent", offsetof(struct dtl_sim_params, ent), 0.05, DTL_MAX_CPUS, false, NULL,
	  "entitled capacity in processor units, 0.05 to 1 per VP (default vps/2)", NULL },
	{ "pool", offsetof(struct dtl_sim_params, pool), 1, 4096, true, NULL,
	  "physical processors in the shared pool (default 2 x ent)", NULL },
	{ "capped", offsetof(struct dtl_sim_params, capped), 0, 1, true, yesno,
	  "0 uncapped (default), 1 capped: ent per 10 ms dispatch wheel at most", NULL },
	{ "profile", offsetof(struct dtl_sim_params, idle), 0, 1, true, profiles,
	  "busy (default: modelled), or idle: an idle LPAR shaped on real entries (see below)", NULL },
	{ "dedicated", offsetof(struct dtl_sim_params, dedicated), 0, 1, true, yesno,
	  "1: dedicated processors, no pool (pool, other, capped, ent do not apply)", NULL },
	{ "donating", offsetof(struct dtl_sim_params, donating), 0, 1, true, yesno,
	  "1: dedicated, donating idle cycles to the pool (wake-ups wait a little)", NULL },
	{ "weight", offsetof(struct dtl_sim_params, weight), 0, 255, true, NULL,
	  "uncapped weight, the share of idle pool capacity (default 128)", NULL },
	{ "load", offsetof(struct dtl_sim_params, load), 0.01, 0.99, false, NULL,
	  "share of time each vCPU wants to run (default 0.5)", NULL },
	{ "other", offsetof(struct dtl_sim_params, other), 0, 65536, false, NULL,
	  "processor units other partitions want (default 0.4 x pool)", NULL },
	{ "busy", offsetof(struct dtl_sim_params, busy_ms), 0.01, 10000, false, NULL,
	  "mean busy burst in ms (default 5)", NULL },
	{ "slice", offsetof(struct dtl_sim_params, slice_ms), 0.1, 1000, false, NULL,
	  "hypervisor time slice in ms (default 10)", NULL },
	{ "faults", offsetof(struct dtl_sim_params, faults), 0, 100000, false, NULL,
	  "page faults per busy second per vCPU (default 1)", NULL },
	{ "poll", offsetof(struct dtl_sim_params, poll_ms), 0.1, 10000, false, NULL,
	  "how often the OS drains the 85-entry ring, ms (default 10)", NULL },
	{ "smt", offsetof(struct dtl_sim_params, smt), 1, 8, true, NULL,
	  "threads per VP and per physical core: 1, 2, 4 or 8 (default 8)", NULL },
	{ "clock", offsetof(struct dtl_sim_params, virtual_clock), 0, 1, true, clocks,
	  "wall, or virtual: no sleeping, simulated time stamps", NULL },
	{ "tasks", 0, 0, 0, false, NULL, "the guest's workloads, '+' between them, each "
	  "NAME[:WEIGHT][:CGROUP][:cpuN] (see below)", parse_tasks },
};

#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

void dtl_sim__keys(FILE *f)
{
	for (size_t i = 0; i < NR_KEYS; i++) {
		char range[48];

		if (keys[i].parse)
			snprintf(range, sizeof(range), "list");
		else if (keys[i].words)
			snprintf(range, sizeof(range), "%s|%s", keys[i].words[0], keys[i].words[1]);
		else
			snprintf(range, sizeof(range), "%g..%g", keys[i].min, keys[i].max);
		fprintf(f, "%-9s %-14s %s\n", keys[i].key, range, keys[i].help);
	}
	fputs("\nFrom real data (profile=idle): the wake-up reasons (60 % priv_doorbell, 40 %\n"
	      "decrementer_interrupt), their ready-to-enqueue and enqueue-to-dispatch times, the\n"
	      "sleeps near 10 ms and 30 ms, all preempts H_CEDE, 53 % back on the same core:\n"
	      "the upstream vpa-dtl documentation's and perf patches' entries of idle LPARs and\n"
	      "a vcpudispatch_stats sample. Modelled (profile=busy and everything else): time\n"
	      "slices, the pool's contention, caps, faults, confers; the home node (99.7 % in\n"
	      "that sample) is not modelled, the simulator has no nodes.\n"
	      "\ntasks= names the processes the guest runs, e.g.\n"
	      "  tasks=db:3:/system.slice/db.service+web:2+batch:1:/batch.slice:cpu1\n"
	      "each busy burst runs one, picked by weight among those allowed on the CPU (cpuN:\n"
	      "that CPU only) and picked again at each 4 ms tick; the CPU runs the idle task\n"
	      "between bursts (its cedes are idle's), and kworker where no task may run.\n"
	      "Without tasks= there is no switch stream, as on a source without one.\n", f);
}

static void key_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_KEYS && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", keys[i].key);
}

/* One "key=value" of n bytes at s; -1 with err naming it. */
static int set_key(const char *s, size_t n, struct dtl_sim_params *p, unsigned int *given,
		   char *err, size_t errlen)
{
	size_t kl = strcspn(s, "=,"), i;
	char buf[64], *end, names[128];
	double v;

	for (i = 0; i < NR_KEYS; i++)
		if (strlen(keys[i].key) == kl && strncmp(s, keys[i].key, kl) == 0)
			break;
	if (i < NR_KEYS && keys[i].parse && kl < n && s[kl] == '=') {
		*given |= 1u << i;
		return keys[i].parse(s + kl + 1, n - kl - 1, p, err, errlen);
	}
	if (i == NR_KEYS || kl >= n || s[kl] != '=' || n - kl - 1 >= sizeof(buf)) {
		key_names(names, sizeof(names));
		snprintf(err, errlen, "bad --sim parameter '%.*s' (keys: %s; --sim=help explains)",
			 (int)n, s, names);
		return -1;
	}
	memcpy(buf, s + kl + 1, n - kl - 1);
	buf[n - kl - 1] = '\0';
	*given |= 1u << i;
	if (keys[i].words) {
		for (size_t w = 0; keys[i].words[w]; w++)
			if (strcmp(buf, keys[i].words[w]) == 0) {
				*(bool *)(void *)((char *)p + keys[i].off) = w;
				return 0;
			}
		snprintf(err, errlen, "bad --sim value '%.*s' (%s must be %s or %s)", (int)n, s,
			 keys[i].key, keys[i].words[0], keys[i].words[1]);
		return -1;
	}
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || *end || !(v >= keys[i].min && v <= keys[i].max) ||
	    (keys[i].integer && v != floor(v))) {
		snprintf(err, errlen, "bad --sim value '%.*s' (%s must be %s%g..%g)", (int)n, s,
			 keys[i].key, keys[i].integer ? "an integer " : "", keys[i].min, keys[i].max);
		return -1;
	}
	if (keys[i].integer)
		*(unsigned int *)(void *)((char *)p + keys[i].off) = (unsigned int)v;
	else
		*(double *)(void *)((char *)p + keys[i].off) = v;
	return 0;
}

/* One workload, NAME[:WEIGHT][:CGROUP][:cpuN], of n bytes at v. */
static int parse_task(const char *v, size_t n, struct dtl_sim_task *k, char *err, size_t errlen)
{
	char buf[160], *f, *save = NULL, *end;
	int field = 0;

	if (n >= sizeof(buf))
		goto bad;
	memcpy(buf, v, n);
	buf[n] = '\0';
	k->weight = 1;
	k->pin = -1;
	snprintf(k->cgroup, sizeof(k->cgroup), "/");
	for (f = strtok_r(buf, ":", &save); f; f = strtok_r(NULL, ":", &save), field++) {
		if (field == 0) {
			if (!*f || strlen(f) >= sizeof(k->name))
				goto bad;
			for (const char *c = f; *c; c++)
				if (!isgraph((unsigned char)*c))
					goto bad;
			snprintf(k->name, sizeof(k->name), "%s", f);
		} else if (f[0] == '/') {
			if (strlen(f) >= sizeof(k->cgroup))
				goto bad;
			snprintf(k->cgroup, sizeof(k->cgroup), "%s", f);
		} else if (strncmp(f, "cpu", 3) == 0) {
			errno = 0;
			long c = strtol(f + 3, &end, 10);

			if (errno || end == f + 3 || *end || c < 0 || c >= DTL_MAX_CPUS)
				goto bad;
			k->pin = (int)c;
		} else {
			errno = 0;
			k->weight = strtod(f, &end);
			if (errno || end == f || *end || !(k->weight > 0 && k->weight <= 1000))
				goto bad;
		}
	}
	if (field == 0)
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "bad --sim task '%.*s' (want NAME[:WEIGHT][:/CGROUP][:cpuN], a name "
		 "of up to 15 characters, a weight 0..1000)", (int)(n > 80 ? 80 : n), v);
	return -1;
}

static int parse_tasks(const char *v, size_t n, struct dtl_sim_params *p, char *err,
		       size_t errlen)
{
	p->ntasks = 0;
	while (n) {
		size_t k = 0;

		while (k < n && v[k] != '+')
			k++;
		if (p->ntasks == DTL_SIM_TASKS) {
			snprintf(err, errlen, "bad --sim: tasks= names more than %d tasks",
				 DTL_SIM_TASKS);
			return -1;
		}
		if (parse_task(v, k, &p->tasks[p->ntasks], err, errlen))
			return -1;
		p->tasks[p->ntasks].pid = 1000 + 100 * (int)p->ntasks;
		p->ntasks++;
		v += k + (k < n);
		n -= k + (k < n);
	}
	if (!p->ntasks) {
		snprintf(err, errlen, "bad --sim: tasks= names no task");
		return -1;
	}
	return 0;
}

static bool given_key(unsigned int given, const char *key)
{
	for (size_t i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].key, key) == 0)
			return given & (1u << i);
	return false;
}

int dtl_sim__parse(const char *s, struct dtl_sim_params *p, char *err, size_t errlen)
{
	unsigned int given = 0;

	memset(p, 0, sizeof(*p));
	p->vcpus = 16;
	p->load = 0.5;
	p->busy_ms = 5;
	p->slice_ms = 10;
	p->faults = 1;
	p->poll_ms = 10;
	p->smt = 8;
	p->weight = 128;
	while (s && *s) {
		size_t n = strcspn(s, ",");

		if (set_key(s, n, p, &given, err, errlen))
			return -1;
		s += n;
		s += *s == ',';
	}
	if (p->smt & (p->smt - 1)) {
		snprintf(err, errlen, "bad --sim: smt=%u (want 1, 2, 4 or 8)", p->smt);
		return -1;
	}
	if (given_key(given, "vps")) {
		if (given_key(given, "vcpus") && p->vcpus != p->vps * p->smt) {
			snprintf(err, errlen, "bad --sim: vcpus=%u is not vps=%u x smt=%u (give one)",
				 p->vcpus, p->vps, p->smt);
			return -1;
		}
		if (p->vps * p->smt > DTL_MAX_CPUS) {
			snprintf(err, errlen, "bad --sim: vps=%u x smt=%u exceeds %u CPUs", p->vps,
				 p->smt, DTL_MAX_CPUS);
			return -1;
		}
		p->vcpus = p->vps * p->smt;
	}
	p->vps = (p->vcpus + p->smt - 1) / p->smt;
	if (p->idle) {
		/* the light end: short wake-ups, nothing but cedes unless asked */
		if (!given_key(given, "load"))
			p->load = 0.01;
		if (!given_key(given, "busy"))
			p->busy_ms = 0.2;
		if (!given_key(given, "faults"))
			p->faults = 0;
	}
	p->dedicated |= p->donating;
	if (p->dedicated) {
		/* its own processors: nothing to share, cap or be entitled to */
		static const char *const shared_only[] = { "ent", "pool", "other", "capped", "weight" };

		for (size_t i = 0; i < sizeof(shared_only) / sizeof(shared_only[0]); i++)
			if (given_key(given, shared_only[i])) {
				snprintf(err, errlen, "bad --sim: %s= is for shared processors, not "
					 "with dedicated=1", shared_only[i]);
				return -1;
			}
		p->ent = p->vps;
		p->pool = p->vps;
		p->other = 0;
		return 0;
	}
	if (!given_key(given, "ent"))
		p->ent = p->vps / 2.0;
	if (!given_key(given, "pool"))
		p->pool = (unsigned int)ceil(p->ent * 2);
	if (!given_key(given, "other"))
		p->other = p->pool * 0.4;
	/* PowerVM: a VP is at most a whole processor, and gets at least 0.05 of one */
	if (p->ent > p->vps || p->ent < 0.05 * p->vps - 1e-9) {
		snprintf(err, errlen, "bad --sim: ent=%g must be 0.05 to 1 per VP (vps=%u)", p->ent,
			 p->vps);
		return -1;
	}
	return 0;
}

/* splitmix64: tiny, fast, and good enough for a workload model. */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rnd01(uint64_t *s)
{
	return (double)(rnd(s) >> 11) * (1.0 / 9007199254740992.0);
}

static uint64_t rnd_exp(uint64_t *s, double mean)
{
	double v = -mean * log(1.0 - rnd01(s));

	return v > 4e9 ? 4000000000ull : (uint64_t)v;
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* A thread's processor: a hardware thread of core (the VP's), at the thread's own place in it. */
static uint16_t on_core(const struct sim *s, unsigned int core, unsigned int cpu)
{
	return (uint16_t)(core % s->p.pool * s->p.smt + cpu % s->p.smt);
}

/* The VP's own core, where it is dispatched unless the pool is busy. */
static unsigned int home_core(const struct sim *s, unsigned int cpu)
{
	return cpu / s->p.smt % s->p.pool;
}

/* After a cede: mostly the home core, more often elsewhere the busier the pool. */
static uint16_t pick_proc(struct sim *s, struct simcpu *v, unsigned int cpu)
{
	if (rnd01(&v->rng) < 0.9 - 0.5 * s->p_preempt)
		return on_core(s, home_core(s, cpu), cpu);
	return on_core(s, (unsigned int)(rnd(&v->rng) % s->p.pool), cpu);
}

/*
 * The VP's fate at time-slice boundary j, the same for each of its threads
 * (PowerVM dispatches a VP's threads together): preempted or not, for how
 * long, and on which core it comes back.
 */
static bool vp_preempted(const struct sim *s, unsigned int cpu, uint64_t j, uint64_t *wait,
			 unsigned int *core)
{
	uint64_t h = s->seed * 0xd1342543de82ef95ull ^ (cpu / s->p.smt + 1) * 0x2545f4914f6cdd1dull ^
		     j * 0x9e3779b97f4a7c15ull;

	if (rnd01(&h) >= s->p_preempt)
		return false;
	*wait = rnd_exp(&h, s->wait_ticks) + 1;
	*core = rnd01(&h) < 0.9 ? home_core(s, cpu) : (unsigned int)(rnd(&h) % s->p.pool);
	return true;
}

/*
 * The first time in (t, end) the VP stops running: its capped share of the
 * wheel spent, or the pool's preempt at a slice boundary. UINT64_MAX if none.
 */
static uint64_t vp_stop(const struct sim *s, unsigned int cpu, uint64_t t, uint64_t end,
			uint64_t *wait, unsigned int *core)
{
	uint64_t stop = UINT64_MAX, w;
	unsigned int c;

	if (s->budget < s->wheel) {
		uint64_t cap = t / s->wheel * s->wheel + s->budget;

		if (cap <= t)
			cap += s->wheel;
		if (cap < end) {
			stop = cap;
			*wait = s->wheel - s->budget;	/* until the next wheel */
			*core = home_core(s, cpu);
		}
	}
	for (uint64_t j = t / s->slice + 1; j * s->slice < end && j * s->slice < stop; j++)
		if (vp_preempted(s, cpu, j, &w, &c)) {
			stop = j * s->slice;
			*wait = w;
			*core = c;
			break;
		}
	return stop;
}

/* A capped VP dispatched in the spent part of a wheel waits for the next one. */
static uint64_t wheel_wait(const struct sim *s, uint64_t at)
{
	uint64_t into = at % s->wheel;

	return s->budget < s->wheel && into >= s->budget ? s->wheel - into : 0;
}

/*
 * profile=idle: a wake-up from H_CEDE as the only public entries of real
 * LPARs show it (the upstream vpa-dtl documentation and the perf patches'
 * commit messages, idle LPARs at 512 MHz): ~60 % privileged doorbell with
 * no ready-to-enqueue and 0.3-1 us to dispatch, ~40 % decrementer with
 * 0.3-0.45 us and 9-14 us; asleep ~10 ms or ~30 ms.
 */
static void idle_wake(struct simcpu *v, uint64_t tb_us, uint8_t *disp, uint64_t *w2r,
		      uint64_t *r2e, uint64_t *e2d)
{
	double us = (double)tb_us, mode = rnd01(&v->rng) < 0.5 ? 10000 : 30000;

	if (rnd01(&v->rng) < 0.6) {
		*disp = 10;	/* priv_doorbell */
		*r2e = 0;
		*e2d = (uint64_t)((0.3 + 0.7 * rnd01(&v->rng)) * us);
	} else {
		*disp = 3;	/* decrementer_interrupt */
		*r2e = (uint64_t)((0.3 + 0.15 * rnd01(&v->rng)) * us);
		*e2d = (uint64_t)((9 + 5 * rnd01(&v->rng)) * us);
	}
	*w2r = (uint64_t)(mode * (0.9 + 0.2 * rnd01(&v->rng)) * us);
}

/* profile=idle: back on the same core 53 % of the time, as a real vcpudispatch_stats shows. */
static uint16_t idle_proc(struct sim *s, struct simcpu *v, unsigned int cpu)
{
	if (rnd01(&v->rng) < 0.53)
		return on_core(s, home_core(s, cpu), cpu);
	return on_core(s, (home_core(s, cpu) + 1 + (unsigned int)(rnd(&v->rng) %
			(s->p.pool > 1 ? s->p.pool - 1 : 1))) % s->p.pool, cpu);
}

#define SIM_IDLE(s) ((int)(s)->p.ntasks)	/* the idle task's index in truth[] */
#define SIM_KWORKER(s) ((int)(s)->p.ntasks + 1)	/* where no task of tasks= may run */
#define SIM_NTRUTH(s) ((s)->p.ntasks + 2)

static void push_switch(struct sim *s, struct simcpu *v, unsigned int cpu, uint64_t t, int task)
{
	static const char kworker[] = "kworker", root[] = "/";
	bool *seen = &s->announced[(size_t)cpu * SIM_NTRUTH(s) + (size_t)task];
	struct dtl_switch *w;

	if (v->nsw == v->swcap) {
		size_t cap = v->swcap ? 2 * v->swcap : 64;
		struct dtl_switch *n = realloc(v->sw, cap * sizeof(*n));

		if (!n)
			return;
		v->sw = n;
		v->swcap = cap;
	}
	w = &v->sw[v->nsw++];
	w->tb = SIM_TB0 + t;
	w->pid = task == SIM_IDLE(s) ? 0 : task == SIM_KWORKER(s) ? 2 : s->p.tasks[task].pid;
	w->comm = w->cgroup = NULL;
	/* names come once per CPU, as a comm record does before a task's first switch */
	if (!*seen && task != SIM_IDLE(s)) {
		w->comm = task == SIM_KWORKER(s) ? kworker : s->p.tasks[task].name;
		w->cgroup = task == SIM_KWORKER(s) ? root : s->p.tasks[task].cgroup;
	}
	*seen = true;
}

static int pick_task(struct sim *s, struct simcpu *v, unsigned int cpu)
{
	double sum = 0, u;
	int last = SIM_KWORKER(s);

	for (unsigned int i = 0; i < s->p.ntasks; i++)
		if (s->p.tasks[i].pin < 0 || s->p.tasks[i].pin == (int)cpu)
			sum += s->p.tasks[i].weight;
	if (sum <= 0)
		return SIM_KWORKER(s);
	u = rnd01(&v->trng) * sum;
	for (unsigned int i = 0; i < s->p.ntasks; i++)
		if (s->p.tasks[i].pin < 0 || s->p.tasks[i].pin == (int)cpu) {
			last = (int)i;
			u -= s->p.tasks[i].weight;
			if (u < 0)
				break;
		}
	return last;
}

/*
 * The simulated guest kernel's functions (its /proc/kallsyms), and where a
 * task's involuntary preempts land: each task spends its kernel time in a
 * few of them, the rest in user space (MSR[PR] set).
 */
static const char sim_kallsyms[] =
	"c000000000000000 T _stext\n"
	"c000000000100000 T copy_page\n"
	"c000000000100400 T __memcpy_power7\n"
	"c000000000101000 T tcp_sendmsg\n"
	"c000000000102000 T ext4_file_write_iter\n"
	"c000000000103000 T __schedule\n"
	"c000000000104000 T _raw_spin_lock\n"
	"c000000000105000 T clear_user_page\n"
	"c000000000106000 T do_syscall_trace_enter\n"
	"c000000000107000 T memset\n";
static const uint64_t sim_hot[] = {
	0xc000000000100000ull, 0xc000000000100400ull, 0xc000000000101000ull,
	0xc000000000102000ull, 0xc000000000104000ull, 0xc000000000105000ull,
	0xc000000000107000ull,
};

static void task_pc(struct sim *s, struct simcpu *v, struct dtl_rec *r)
{
	int task = v->pend_task;
	uint64_t u = rnd(&v->trng);

	if (task >= (int)s->p.ntasks || !((DTL_PREEMPT_INVOLUNTARY_MASK >> r->preempt_reason) & 1))
		return;
	if (u % 100 < 30u + 10u * (unsigned int)(task % 4)) {
		r->srr0 = 0x10000000ull + 0x1000ull * (unsigned int)task + (u >> 32 & 0x7c);
		r->srr1 = 0x800000000000d033ull;	/* MSR[PR]: user space */
		return;
	}
	/* three functions per task, the first twice as often as the others */
	u >>= 8;
	r->srr0 = sim_hot[((unsigned int)task + (u % 4 ? u % 4 - 1 : 0)) %
			  (sizeof(sim_hot) / sizeof(sim_hot[0]))] + 4 * (u >> 8 & 0x1f);
}

/*
 * The guest's scheduler over a run from t0 to the preempt at t: a burst
 * starts with a pick, each tick while the vCPU runs may pick another, and
 * a cede (or confer) at the burst's end is the idle task's.
 */
static void sched_tasks(struct sim *s, struct simcpu *v, unsigned int cpu, uint64_t t0,
			uint64_t t, bool start, bool cede)
{
	if (start || v->task == SIM_IDLE(s)) {
		int n = pick_task(s, v, cpu);

		if (n != v->task)
			push_switch(s, v, cpu, t0, n);
		v->task = n;
		v->tick_at = t0 + s->gtick;
	}
	if (v->tick_at < t0)
		v->tick_at = t0;	/* no tick while the hypervisor held the vCPU */
	while (v->tick_at <= t) {
		int n = pick_task(s, v, cpu);

		if (n != v->task)
			push_switch(s, v, cpu, v->tick_at, n);
		v->task = n;
		v->tick_at += s->gtick;
	}
	if (cede) {
		push_switch(s, v, cpu, t, SIM_IDLE(s));
		v->task = SIM_IDLE(s);
	}
	v->pend_task = v->task;
}

/* Run the vCPU from its pending dispatch to the next one and log that. */
static void sim_next(struct sim *s, struct simcpu *v, unsigned int cpu)
{
	struct dtl_rec *r = &v->pending;
	uint64_t tb_us = s->slice / (uint64_t)(s->p.slice_ms * 1000);
	uint64_t t = v->t, t0 = v->t, e2d, r2e = 0, w2r = 0, end, stop, wait = 0, first;
	unsigned int core = home_core(s, cpu);
	bool vp_core = false, start = !v->busy_left;
	uint8_t pre, disp;

	if (!tb_us)
		tb_us = 1;
	if (!v->busy_left)
		v->busy_left = rnd_exp(&v->rng, (double)s->busy) + 1;
	end = t + v->busy_left;
	stop = vp_stop(s, cpu, t, end, &wait, &core);
	/* this thread's own: a page fault, or (rarely) firmware, within the burst */
	first = t + (uint64_t)(rnd01(&v->rng) * (double)(end - t)) + 1;
	if (rnd01(&v->rng) < s->fault_per_tick * (double)(end - t) && first < stop) {
		v->busy_left -= first - t < v->busy_left ? first - t : v->busy_left;
		t = first;
		pre = 6;
		disp = 8;
		w2r = rnd_exp(&v->rng, 50.0 * (double)tb_us);
		r2e = rnd_exp(&v->rng, 1.0 * (double)tb_us);
		e2d = rnd_exp(&v->rng, 3.0 * (double)tb_us);
	} else if (!s->p.idle && rnd01(&v->rng) < 0.001 * (double)(end - t) / (double)s->slice &&
		   first < stop) {
		v->busy_left -= first - t < v->busy_left ? first - t : v->busy_left;
		t = first;
		pre = 1;
		disp = 1;
		e2d = rnd_exp(&v->rng, 20.0 * (double)tb_us);
	} else if (stop < end) {
		/* the VP preempted at stop: every busy thread of it logs the same dispatch */
		v->busy_left -= stop - t;
		t = stop;
		pre = 4;
		disp = 7;
		e2d = wait;
		vp_core = true;
	} else if (s->p.idle) {
		t = end;
		v->busy_left = 0;
		idle_wake(v, tb_us, &disp, &w2r, &r2e, &e2d);
		pre = 2;
	} else {
		t = end;
		v->busy_left = 0;
		if (rnd01(&v->rng) < 0.02) {
			pre = 3;
			disp = 6;
			w2r = rnd_exp(&v->rng, 10.0 * (double)tb_us);
		} else {
			double u = rnd01(&v->rng);

			pre = 2;
			disp = u < 0.30 ? 0 : u < 0.60 ? 3 : u < 0.95 ? 10 : 2;
			w2r = rnd_exp(&v->rng, s->idle_ticks);
		}
		r2e = rnd_exp(&v->rng, 1.0 * (double)tb_us);
		e2d = rnd_exp(&v->rng, 3.0 * (double)tb_us);
		if (rnd01(&v->rng) < s->p_preempt)
			e2d += rnd_exp(&v->rng, s->wait_ticks / 2);
		e2d += wheel_wait(s, t + w2r + r2e + e2d);
		/* a donated processor may be running another partition when we wake */
		if (s->p.donating && pre == 2)
			e2d += rnd_exp(&v->rng, 20.0 * (double)tb_us);
	}
	if (s->p.ntasks)
		sched_tasks(s, v, cpu, t0, t, start, pre == 2 || pre == 3);
	v->run += t - t0;
	v->cycles++;
	r->dispatch_reason = disp;
	r->preempt_reason = pre;
	r->enqueue_to_dispatch = clamp32(e2d);
	r->ready_to_enqueue = clamp32(r2e);
	r->waiting_to_ready = clamp32(w2r);
	v->t = t + w2r + r2e + e2d;
	r->timebase = SIM_TB0 + v->t;
	r->processor_id = vp_core ? on_core(s, core, cpu) : s->p.idle ? idle_proc(s, v, cpu) :
			  pick_proc(s, v, cpu);
	r->fault_addr = pre == 6 ? (rnd(&v->rng) & 0x00000fffffff0000ull) : 0;
	/* A vCPU cedes and confers from the hcall stub; elsewhere it was running. */
	r->srr0 = pre == 2 || pre == 3 ? 0xc0000000000fcd28ull :
		  0xc000000000100000ull + (rnd(&v->rng) & 0xfffc);
	r->srr1 = 0x8000000000001033ull;
	if (s->p.ntasks)
		task_pc(s, v, r);
}

/*
 * What /proc/powerpc/lparcfg would say now, from the model: a core is
 * dispatched while any of its threads runs (PURR adds up to the core's
 * time), yield_count moves twice per cycle, and the pool's idle time is
 * what neither we nor the other partitions used.
 */
static void sim_lparcfg(struct dtl_source *src, struct sim *s)
{
	uint64_t cycles = 0, tb = SIM_TB0 + s->horizon, dt = s->lp_tb ? tb - s->lp_tb : 0;
	double core = 0, prod = 1;

	for (unsigned int cpu = 0; cpu < s->p.vcpus; cpu++) {
		struct simcpu *v = &s->v[cpu];
		double share = dt ? (double)(v->run - v->lp_run) / (double)dt : 0;

		prod *= 1 - (share < 1 ? share : 1);
		if (cpu % s->p.smt == s->p.smt - 1 || cpu + 1 == s->p.vcpus) {
			double vp = 1 - prod;	/* the VP's core, its threads independent */

			/* capped: never past its share of each wheel */
			core += vp < (double)s->budget / (double)s->wheel ? vp :
				(double)s->budget / (double)s->wheel;
			prod = 1;
		}
		v->lp_run = v->run;
		cycles += v->cycles;
	}
	if (dt) {
		double used, idle;

		/* an exhausted pool is shared out in proportion to what is wanted */
		if (core + s->p.other > s->p.pool)
			core = s->p.pool * core / (core + s->p.other);
		used = core + s->p.other;
		idle = used < s->p.pool ? s->p.pool - used : 0;

		s->lp_purr += (uint64_t)(core * (double)dt);
		s->lp_pool_idle += (uint64_t)(idle * (double)dt);
	}
	s->lp_tb = tb;
	if (s->p.dedicated) {
		/* what pseries' lparcfg.c writes without SPLPAR: no pool, no weight */
		snprintf(s->lparcfg, sizeof(s->lparcfg),
			 "lparcfg 1.9\nserial_number=SIM\nsystem_type=IBM,9080-SIM\npartition_id=1\n"
			 "DedDonMode=%d\npartition_entitled_capacity=%u\ncapped=0\ndispatches=%" PRIu64
			 "\npurr=%" PRIu64 "\npartition_active_processors=%u\n"
			 "partition_potential_processors=%u\nshared_processor_mode=0\ntbr=%" PRIu64
			 "\n", s->p.donating, s->p.vps * 100, 2 * cycles, s->lp_purr, s->p.vps,
			 s->p.vps, tb);
		src->lparcfg = s->lparcfg;
		return;
	}
	snprintf(s->lparcfg, sizeof(s->lparcfg),
		 "lparcfg 1.9\nserial_number=SIM\nsystem_type=IBM,9080-SIM\npartition_id=1\n"
		 "partition_entitled_capacity=%u\npool=0\npool_capacity=%u\nunallocated_capacity_weight=0\n"
		 "capacity_weight=%u\ncapped=%d\ndispatches=%" PRIu64 "\npurr=%" PRIu64 "\n"
		 "partition_active_processors=%u\npartition_potential_processors=%u\n"
		 "shared_processor_mode=1\ntbr=%" PRIu64 "\npool_idle_time=%" PRIu64 "\n"
		 "pool_num_procs=%u\n", (unsigned int)(s->p.ent * 100 + 0.5), s->p.pool * 100,
		 s->p.weight, s->p.capped, 2 * cycles, s->lp_purr, s->p.vps, s->p.vps, tb,
		 s->lp_pool_idle, s->p.pool);
	src->lparcfg = s->lparcfg;
}

static int sim_open(struct dtl_source *src, const struct dtl_source_opts *o,
		    char *err, size_t errlen)
{
	struct sim *s = calloc(1, sizeof(*s));
	double own, demand, overent;
	unsigned int cpu;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (dtl_sim__parse(o->sim_params, &s->p, err, errlen))
		goto fail;
	s->v = calloc(s->p.vcpus, sizeof(*s->v));
	if (!s->v) {
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
	src->tb_freq = DTL_DEFAULT_TB_FREQ;
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

	s->slice = (uint64_t)(s->p.slice_ms * 1e-3 * (double)src->tb_freq);
	s->poll = (uint64_t)(s->p.poll_ms * 1e-3 * (double)src->tb_freq);
	s->busy = (uint64_t)(s->p.busy_ms * 1e-3 * (double)src->tb_freq);
	s->idle_ticks = (double)s->busy * (1 - s->p.load) / s->p.load;
	s->fault_per_tick = s->p.faults / (double)src->tb_freq;
	/* a VP needs its core while any of its threads runs */
	own = s->p.vps * (1 - pow(1 - s->p.load, s->p.smt));
	demand = own + s->p.other;
	overent = own > s->p.ent ? 1 - s->p.ent / own : 0;
	s->p_preempt = demand > s->p.pool ? 1 - s->p.pool / demand : 0;
	/*
	 * Past the entitlement a capped VP stops for the rest of each wheel; an
	 * uncapped one competes for idle capacity, the harder the lower its weight.
	 */
	s->seed = o->seed;
	s->gtick = (uint64_t)(0.004 * (double)src->tb_freq);	/* the guest scheduler's tick */
	s->wheel = (uint64_t)(0.010 * (double)src->tb_freq);
	s->budget = s->p.capped ? (uint64_t)(s->p.ent / s->p.vps * (double)s->wheel) : s->wheel;
	if (!s->p.capped) {
		double w = s->p.weight ? 128.0 / s->p.weight : 2;

		s->p_preempt += (1 - s->p_preempt) * overent * 0.3 * (w < 0.5 ? 0.5 : w > 2 ? 2 : w);
	}
	if (s->p_preempt > 0.9)
		s->p_preempt = 0.9;
	s->wait_ticks = (double)s->slice * (0.05 + s->p_preempt / (1 - s->p_preempt));

	for (cpu = 0; cpu < s->p.vcpus; cpu++) {	/* every CPU, shown (-C) or not */
		struct simcpu *v = &s->v[cpu];

		v->rng = o->seed * 0x2545f4914f6cdd1dull ^ (cpu + 1) * 0x9e3779b97f4a7c15ull;
		v->trng = v->rng ^ 0xd1b54a32d192ed03ull;
		v->task = v->pend_task = SIM_IDLE(s);
		v->t = rnd(&v->rng) % (s->busy + s->slice);
		sim_next(s, v, cpu);
	}
	snprintf(src->detail, sizeof(src->detail),
		 "vcpus=%u ent=%.2f pool=%u load=%.2f other=%.2f seed=%llu%s",
		 s->p.vcpus, s->p.ent, s->p.pool, s->p.load, s->p.other,
		 (unsigned long long)o->seed, s->p.virtual_clock ? " clock=virtual" : "");
	src->priv = s;
	sim_lparcfg(src, s);	/* at start, so the first interval has figures */
	if (s->p.ntasks)
		src->kallsyms = sim_kallsyms;
	return 0;
fail:
	free(s->truth);
	free(s->announced);
	free(s->v);
	free(s);
	return -1;
}

static void sim_close(struct dtl_source *src)
{
	struct sim *s = src->priv;

	for (unsigned int c = 0; c < s->p.vcpus; c++)
		free(s->v[c].sw);
	free(s->truth);
	free(s->announced);
	free(s->v);
	free(s);
}

extern const struct dtl_source_ops dtl_sim_ops;

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

/* Generate one drain window of one vCPU; the ring keeps what PHYP's would. */
static size_t sim_window(struct sim *s, struct simcpu *v, unsigned int cpu,
			 unsigned int mask, uint64_t *lost)
{
	uint64_t end = v->window_end + s->poll;
	size_t n = 0, keep, first;

	if (v->sw_given) {	/* what the last chunk handed out is gone */
		memmove(v->sw, v->sw + v->sw_given, (v->nsw - v->sw_given) * sizeof(*v->sw));
		v->nsw -= v->sw_given;
		v->sw_given = 0;
	}

	end -= end % s->poll;
	if (end > s->horizon)
		end = s->horizon;
	while (v->t < end) {
		/* the hypervisor's own accounting sees every cycle, traced or not */
		v->vpa_cycles++;
		v->vpa_e2d += v->pending.enqueue_to_dispatch;
		v->vpa_r2e += v->pending.ready_to_enqueue;
		v->vpa_w2r += v->pending.waiting_to_ready;
		if (mask & dtl_preempt__mask_bit(v->pending.preempt_reason)) {
			s->ring_task[n % DTL_RING_ENTRIES] = (int16_t)v->pend_task;
			dtl_rec__encode(&v->pending, s->ring[n++ % DTL_RING_ENTRIES]);
			v->vpa_written++;
		}
		sim_next(s, v, cpu);
	}
	v->window_end = end;
	/* A reader that finds the ring lapped keeps the newest 84, as dtl.c does. */
	keep = n >= DTL_RING_ENTRIES ? DTL_RING_ENTRIES - 1 : n;
	*lost = n - keep;
	first = n - keep;
	for (size_t i = 0; i < keep; i++)
		memcpy(s->out[i], s->ring[(first + i) % DTL_RING_ENTRIES], DTL_ENTRY_SIZE);
	for (size_t i = 0; s->p.ntasks && i < keep; i++) {
		struct dtl_sim_truth *g = &s->truth[s->ring_task[(first + i) % DTL_RING_ENTRIES]];
		struct dtl_rec r;

		dtl_rec__decode(&r, s->out[i]);
		g->dispatches++;
		g->involuntary += (DTL_PREEMPT_INVOLUNTARY_MASK >> r.preempt_reason) & 1;
		g->steal_ticks += (uint64_t)r.enqueue_to_dispatch + r.ready_to_enqueue;
		g->idle_ticks += r.waiting_to_ready;
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

			sim_window(s, v, cpu, src->mask, &lost);
			v->sw_given = v->nsw;
			continue;
		}
		c->cpu = cpu;
		c->n = sim_window(s, v, cpu, src->mask, &c->lost);
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
