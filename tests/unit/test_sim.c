/* SPDX-License-Identifier: GPL-2.0-only */
/* The simulator: parameters, determinism, the event mask, ring overflow. */
#include "t.h"

#include <stdbool.h>
#include <stdlib.h>

#include "dtl/dtl.h"
#include "source/sim.h"
#include "source/source.h"

static struct dtl_source *sim(const char *params, uint64_t seed, unsigned int mask)
{
	struct dtl_source_opts o = { 0 };
	char err[512];
	struct dtl_source *s;

	o.backend = "sim";
	o.sim_params = params;
	o.seed = seed;
	o.mask = mask;
	s = dtl_source__open(&o, err, sizeof(err));
	if (!s)
		T_FAIL("sim open: %s", err);
	return s;
}

/* Collect every entry of `ticks` intervals of `ns` into a malloc'd buffer. */
static uint8_t *collect(struct dtl_source *s, int ticks, uint64_t ns, size_t *n, uint64_t *lost)
{
	size_t cap = 1 << 16;
	uint8_t *buf = malloc(cap * 48);
	struct dtl_chunk c;

	*n = 0;
	*lost = 0;
	for (int i = 0; i < ticks; i++) {
		dtl_source__tick(s, ns);
		while (dtl_source__read(s, &c) > 0) {
			CHECK(c.n < DTL_RING_ENTRIES);
			while (*n + c.n + 1 > cap)
				buf = realloc(buf, (cap *= 2) * 48);
			/* prefix each chunk's entries with its cpu in a spare slot */
			memset(buf + *n * 48, 0xff, 48);
			buf[*n * 48] = (uint8_t)c.cpu;
			memcpy(buf + (*n + 1) * 48, c.data, c.n * 48);
			*n += c.n + 1;
			*lost += c.lost;
		}
	}
	return buf;
}

TEST(sim_params_parse_with_defaults)
{
	struct dtl_sim_params p;
	char err[256];

	CHECK_EQ(dtl_sim__parse("", &p, err, sizeof(err)), 0);
	CHECK_EQ(p.vcpus, 16);
	CHECK_EQ(p.vps, 2);		/* SMT8 */
	CHECK_NEAR(p.ent, 1, 1e-12);	/* half a processor per VP */
	CHECK_EQ(p.pool, 2);
	CHECK(!p.capped);
	CHECK_EQ(p.weight, 128);
	CHECK(!p.virtual_clock);
	CHECK_EQ(dtl_sim__parse("vcpus=64,ent=8,pool=16,load=0.7,clock=virtual", &p, err, sizeof(err)), 0);
	CHECK_EQ(p.vcpus, 64);
	CHECK_NEAR(p.ent, 8, 1e-12);
	CHECK_EQ(p.pool, 16);
	CHECK_NEAR(p.load, 0.7, 1e-12);
	CHECK(p.virtual_clock);
	CHECK_EQ(dtl_sim__parse("vcpus=1920", &p, err, sizeof(err)), 0);
}

TEST(sim_params_reject_bad_values_naming_them)
{
	static const char *const bad[] = { "vcpus=0", "vcpus=1.5", "vcpus=x", "load=2", "bogus=1",
					   "vcpus", "clock=fast", "ent=9,vcpus=4", "pool=-1",
					   "load=nan", "vcpus=99999",
					   /* a value past the parser's buffer, however valid it reads */
					   "ent=0000000000000000000000000000000000000000000000000000000000"
					   "0000000000000000000001" };
	struct dtl_sim_params p;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (dtl_sim__parse(bad[i], &p, err, sizeof(err)) == 0)
			T_FAIL("--sim=%s accepted", bad[i]);
		CHECK(strstr(err, "--sim") != NULL);
	}
	dtl_sim__parse("vcpus=4,load=7", &p, err, sizeof(err));
	CHECK_CONTAINS(err, "load=7");
	/* a choice of words names both */
	dtl_sim__parse("clock=fast", &p, err, sizeof(err));
	CHECK_CONTAINS(err, "clock must be wall or virtual");
}

TEST(sim_same_seed_same_entries_other_seed_different)
{
	struct dtl_source *a = sim("vcpus=8", 42, 7), *b = sim("vcpus=8", 42, 7),
			  *c = sim("vcpus=8", 43, 7);
	size_t na, nb, nc;
	uint64_t la, lb, lc;
	uint8_t *ea = collect(a, 3, 500000000, &na, &la), *eb = collect(b, 3, 500000000, &nb, &lb),
		*ec = collect(c, 3, 500000000, &nc, &lc);

	CHECK(na > 100);
	CHECK_EQ(na, nb);
	CHECK(na == nb && memcmp(ea, eb, na * 48) == 0);
	CHECK(na != nc || memcmp(ea, ec, na * 48) != 0);
	free(ea), free(eb), free(ec);
	dtl_source__close(a), dtl_source__close(b), dtl_source__close(c);
}

/* The entries of one CPU, in order, without the chunk markers. */
static size_t cpu_stream(const uint8_t *buf, size_t n, unsigned int cpu, uint8_t *out)
{
	size_t k = 0;
	bool mine = false;

	for (size_t i = 0; i < n; i++) {
		const uint8_t *e = buf + i * 48;

		if (e[1] == 0xff && e[2] == 0xff) {
			mine = e[0] == cpu;
			continue;
		}
		if (mine)
			memcpy(out + 48 * k++, e, 48);
	}
	return k;
}

TEST(sim_output_does_not_depend_on_how_time_is_chunked)
{
	struct dtl_source *a = sim("vcpus=4", 7, 7), *b = sim("vcpus=4", 7, 7);
	size_t na, nb, total = 0;
	uint64_t la, lb;
	uint8_t *ea = collect(a, 1, 2000000000, &na, &la), *eb = collect(b, 4, 500000000, &nb, &lb);
	uint8_t *sa = malloc(na * 48 + 48), *sb = malloc(nb * 48 + 48);

	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		size_t ka = cpu_stream(ea, na, cpu, sa), kb = cpu_stream(eb, nb, cpu, sb);

		CHECK(ka > 20);
		CHECK_EQ(ka, kb);
		CHECK(ka == kb && memcmp(sa, sb, ka * 48) == 0);
		total += ka;
	}
	CHECK(total > 100);
	CHECK_EQ(la, lb);
	free(ea), free(eb), free(sa), free(sb);
	dtl_source__close(a), dtl_source__close(b);
}

/* dtl-abi.md 2.1 and 6.2, written out here rather than asking dtl.c. */
static unsigned int kind_of(unsigned int preempt)
{
	switch (preempt) {
	case 2: case 3: case 7: case 8:		/* H_CEDE, H_CONFER, their adjuncts */
		return DTL_MASK_CEDE;
	case 5: case 6:				/* the two page faults */
		return DTL_MASK_FAULT;
	default:
		return DTL_MASK_PREEMPT;
	}
}

static void count_kinds(const uint8_t *e, size_t n, size_t counts[8])
{
	struct dtl_rec r;

	memset(counts, 0, 8 * sizeof(counts[0]));
	for (size_t i = 0; i < n; i++) {
		if (e[i * 48 + 1] == 0xff && e[i * 48 + 2] == 0xff)
			continue;
		dtl_rec__decode(&r, e + i * 48);
		counts[kind_of(r.preempt_reason)]++;
	}
}

TEST(sim_logs_only_what_the_event_mask_selects)
{
	struct dtl_source *all = sim("vcpus=16,load=0.9,other=20,faults=50", 3, 7),
			  *cede = sim("vcpus=16,load=0.9,other=20,faults=50", 3, DTL_MASK_CEDE),
			  *pf = sim("vcpus=16,load=0.9,other=20,faults=50", 3,
				    DTL_MASK_PREEMPT | DTL_MASK_FAULT);
	size_t na, nc, np, ka[8], kc[8], kp[8];
	uint64_t l;
	uint8_t *ea = collect(all, 2, 500000000, &na, &l), *ec = collect(cede, 2, 500000000, &nc, &l),
		*ep = collect(pf, 2, 500000000, &np, &l);

	count_kinds(ea, na, ka);
	count_kinds(ec, nc, kc);
	count_kinds(ep, np, kp);
	CHECK(ka[DTL_MASK_CEDE] > 0 && ka[DTL_MASK_PREEMPT] > 0 && ka[DTL_MASK_FAULT] > 0);
	CHECK_EQ(kc[DTL_MASK_CEDE], ka[DTL_MASK_CEDE]);
	CHECK_EQ(kc[DTL_MASK_PREEMPT] + kc[DTL_MASK_FAULT], 0);
	CHECK_EQ(kp[DTL_MASK_CEDE], 0);
	CHECK_EQ(kp[DTL_MASK_PREEMPT], ka[DTL_MASK_PREEMPT]);
	CHECK_EQ(kp[DTL_MASK_FAULT], ka[DTL_MASK_FAULT]);
	free(ea), free(ec), free(ep);
	dtl_source__close(all), dtl_source__close(cede), dtl_source__close(pf);
}

TEST(sim_counts_entries_lost_when_the_ring_laps)
{
	/*
	 * ~20k dispatches/s per vCPU against a 100 ms drain: the ring laps.
	 * What a vCPU logs does not depend on the drain, so a 0.1 ms drain of
	 * the same pool sees every entry: kept + lost must be exactly that.
	 */
	struct dtl_source *s = sim("vcpus=2,busy=0.02,load=0.5,poll=100,pool=8,other=0", 1, 7);
	struct dtl_source *all = sim("vcpus=2,busy=0.02,load=0.5,poll=0.1,pool=8,other=0", 1, 7);
	size_t n, n_all;
	uint64_t lost, lost_all;
	uint8_t *e = collect(s, 1, 1000000000, &n, &lost);
	uint8_t *e_all = collect(all, 1, 1000000000, &n_all, &lost_all);

	size_t kept = 0, every = 0, k[8];

	count_kinds(e, n, k);
	for (int i = 0; i < 8; i++)
		kept += k[i];
	count_kinds(e_all, n_all, k);
	for (int i = 0; i < 8; i++)
		every += k[i];
	CHECK_EQ(lost_all, 0);
	CHECK(lost > 0);
	CHECK_EQ(kept + lost, every);
	/* each 100 ms drain keeps the newest 84 of a CPU: 2 CPUs x 10 drains */
	CHECK_EQ(kept, 2 * 10 * (DTL_RING_ENTRIES - 1));
	free(e), free(e_all);
	dtl_source__close(s), dtl_source__close(all);
}

TEST(sim_cpu_filter_limits_the_cpus)
{
	struct dtl_source_opts o = { 0 };
	char err[512];
	struct dtl_source *s;
	struct dtl_chunk c;

	o.backend = "sim";
	o.sim_params = "vcpus=8";
	o.have_cpus = true;
	dtl_cpuset__parse(&o.cpus, "2,5,100", err, sizeof(err));
	s = dtl_source__open(&o, err, sizeof(err));
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(dtl_cpuset__count(dtl_source__cpus(s)), 2);
	dtl_source__tick(s, 100000000);
	while (dtl_source__read(s, &c) > 0)
		CHECK(c.cpu == 2 || c.cpu == 5);
	dtl_source__close(s);
	dtl_cpuset__parse(&o.cpus, "9-10", err, sizeof(err));
	CHECK(dtl_source__open(&o, err, sizeof(err)) == NULL);
	CHECK_CONTAINS(err, "-C");
}

/*
 * profile=idle against the only public entries of real LPARs: all H_CEDE;
 * wake-ups ~60 % doorbell (ready-to-enqueue 0, enqueue-to-dispatch 0.3-1 us)
 * and ~40 % decrementer (0.3-0.45 us, then 9-14 us); sleeps near 10 or 30 ms;
 * about half back on the same core.
 */
TEST(sim_idle_profile_has_the_shapes_of_real_idle_lpars)
{
	struct dtl_source *s = sim("vcpus=8,smt=8,profile=idle,pool=4,clock=virtual", 3, DTL_MASK_ALL);
	size_t n, doorbell = 0, dec = 0, other = 0, near10 = 0, near30 = 0, same = 0, cedes = 0;
	uint64_t lost, us = 512;	/* ticks per microsecond at 512 MHz */
	uint8_t *buf = collect(s, 20, 1000000000ull, &n, &lost);
	int prev_core[8];

	for (int i = 0; i < 8; i++)
		prev_core[i] = -1;
	for (size_t i = 0, cpu = 0; i < n; i++) {
		struct dtl_rec r;

		if (buf[i * 48 + 1] == 0xff) {	/* a chunk's cpu marker */
			cpu = buf[i * 48];
			continue;
		}
		dtl_rec__decode(&r, buf + i * 48);
		cedes += r.preempt_reason == 2;
		if (r.dispatch_reason == 10 && r.ready_to_enqueue == 0 &&
		    r.enqueue_to_dispatch >= 3 * us / 10 && r.enqueue_to_dispatch <= us)
			doorbell++;
		else if (r.dispatch_reason == 3 && r.ready_to_enqueue >= 3 * us / 10 - 1 &&
			 r.ready_to_enqueue <= 45 * us / 100 && r.enqueue_to_dispatch >= 9 * us &&
			 r.enqueue_to_dispatch <= 14 * us)
			dec++;
		else
			other++;
		near10 += r.waiting_to_ready >= 9000 * us && r.waiting_to_ready <= 11000 * us;
		near30 += r.waiting_to_ready >= 27000 * us && r.waiting_to_ready <= 33000 * us;
		if (cpu < 8 && prev_core[cpu] >= 0)
			same += (int)(r.processor_id / 8) == prev_core[cpu];
		if (cpu < 8)
			prev_core[cpu] = r.processor_id / 8;
	}
	n = doorbell + dec + other;
	CHECK(n > 1000);
	CHECK_EQ(lost, 0);
	CHECK_EQ(cedes, n);
	/* a thread that wakes while its VP's dispatch is on the way goes with it: a few */
	CHECK(other <= n / 100);
	CHECK_NEAR((double)doorbell / (double)n, 0.6, 0.05);
	CHECK_NEAR((double)(near10 + near30) / (double)n, 1.0, 0.001);
	CHECK_NEAR((double)near10 / (double)n, 0.5, 0.06);
	/* the chance of the same core twice is about 0.53^2 + 0.47^2 / 3 with 4 cores */
	CHECK(same > n / 4 && same < n * 3 / 4);
	free(buf);
	dtl_source__close(s);
}

/* load=LOAD@HH:MM+...: the guest's work follows the day's shape, straight between points. */
TEST(sim_load_schedule_shapes_the_day)
{
	struct dtl_sim_params p;
	struct dtl_sim_causes a, b;
	struct dtl_source *s;
	struct dtl_chunk c;
	char err[256];
	double first = 0, last = 0;

	CHECK_EQ(dtl_sim__parse("load=0.2@00:00+0.9@20:00", &p, err, sizeof(err)), 0);
	CHECK_EQ(p.nloads, 2);
	CHECK_NEAR(p.loads[1].at_s, 72000, 1e-9);
	CHECK_NEAR(p.loads[1].load, 0.9, 1e-12);
	static const char *const bad[] = { "load=0.2@00:00+0.9@00:00", "load=0.2@24:00",
					   "load=1.2@01:00", "load=0.2@1:00x", "load=@01:00",
					   "load=0.5+0.6", "load=0.2@00:00+" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK_EQ(dtl_sim__parse(bad[i], &p, err, sizeof(err)), -1);
		CHECK_CONTAINS(err, "load=");
	}
	/* 0.1 at midnight to 0.9 at 00:01: the first seconds light, the last heavy */
	s = sim("vps=2,smt=1,ent=2,pool=8,load=0.1@00:00+0.9@00:01,clock=virtual", 4, DTL_MASK_ALL);
	for (int i = 0; s && i < 60; i++) {
		dtl_sim__causes(s, &a);
		dtl_source__tick(s, 1000000000ull);
		while (dtl_source__read(s, &c) > 0)
			;
		dtl_sim__causes(s, &b);
		if (i < 5)
			first += (double)(b.threads_run - a.threads_run) / (5 * 2 * 512e6);
		if (i >= 55)
			last += (double)(b.threads_run - a.threads_run) / (5 * 2 * 512e6);
	}
	CHECK(first > 0.05 && first < 0.25);
	CHECK(last > 0.75 && last < 0.95);
	dtl_source__close(s);
}

/*
 * tasks=: the switch stream names a task once per CPU, with its first switch
 * (as perf's comm record comes before it), and never names the idle task.
 */
TEST(sim_switches_name_each_task_once_per_cpu_and_never_the_idle_task)
{
	struct dtl_source *s = sim("vcpus=4,smt=2,tasks=db:3:/db.slice+web:2,clock=virtual", 2,
				   DTL_MASK_ALL);
	static bool named[4][2000];
	struct dtl_chunk c;
	size_t idle = 0, names = 0, switches = 0;

	memset(named, 0, sizeof(named));
	dtl_source__tick(s, 2000000000ull);
	while (s && dtl_source__read(s, &c) > 0)
		for (size_t i = 0; i < c.nswitches; i++) {
			const struct dtl_switch *w = &c.switches[i];

			switches++;
			if (w->pid == 0) {
				idle++;
				CHECK(w->comm == NULL && w->cgroup == NULL);
				continue;
			}
			if (c.cpu >= 4 || w->pid < 0 || w->pid >= 2000)
				continue;
			CHECK_EQ(w->comm != NULL, !named[c.cpu][w->pid]);
			if (w->comm) {
				names++;
				named[c.cpu][w->pid] = true;
				CHECK(strcmp(w->comm, "db") == 0 || strcmp(w->comm, "web") == 0 ||
				      strcmp(w->comm, "kworker") == 0);
			}
		}
	CHECK(switches > 100 && idle > 10);
	{
		/* where preempts hit: instructions, so every srr0 is 4-byte aligned */
		size_t n, misaligned = 0;
		uint64_t lost;
		struct dtl_source *t = sim("vcpus=4,smt=2,tasks=db:3+web:2,clock=virtual", 2,
					   DTL_MASK_ALL);
		uint8_t *buf = collect(t, 2, 1000000000ull, &n, &lost);

		for (size_t i = 0; i < n; i++)
			if (buf[i * 48 + 1] != 0xff)
				misaligned += dtl__be64(buf + i * 48 + 32) & 3;
		CHECK(n > 100);
		CHECK_EQ(misaligned, 0);
		free(buf);
		dtl_source__close(t);
	}
	CHECK(names >= 8 && names <= 12);	/* db and web on each of 4 CPUs, maybe a kworker */
	dtl_source__close(s);
}

/*
 * The simulator writes only the reasons PHYP writes (named in perf's
 * tables), and a busy guest's cedes end most often by a doorbell (an IPI
 * from a sibling waking it), then a decrementer or an external interrupt.
 */
TEST(sim_reasons_are_phyps_and_wakeups_mostly_doorbells)
{
	struct dtl_source *s = sim("vcpus=16,clock=virtual", 9, DTL_MASK_ALL);
	size_t n, by[DTL_N_DISPATCH] = { 0 }, cedes = 0, named = 0, markers = 0;
	uint64_t lost;
	uint8_t *buf = collect(s, 2, 1000000000ull, &n, &lost);

	for (size_t i = 0; i < n; i++) {
		struct dtl_rec r;

		if (buf[i * 48 + 1] == 0xff) {	/* a chunk's cpu marker */
			markers++;
			continue;
		}
		dtl_rec__decode(&r, buf + i * 48);
		named += r.dispatch_reason < DTL_N_DISPATCH && r.preempt_reason < DTL_N_PREEMPT;
		if (r.preempt_reason == 2 && r.dispatch_reason < DTL_N_DISPATCH) {
			by[r.dispatch_reason]++;
			cedes++;
		}
	}
	CHECK(cedes > 1000);
	CHECK_EQ(named + markers, n);
	CHECK(by[10] > by[3] && by[10] > by[0] && by[3] > by[2] && by[0] > by[2]);
	free(buf);
	dtl_source__close(s);
}
