/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PowerVM picture: VP membership, VP rows folded from their threads,
 * migrations within and across cores, lparcfg's figures, and the
 * simulator's PowerVM words and its own lparcfg.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakeroot.h"
#include "platform/sys.h"
#include "platform/topo.h"
#include "platform/vpa.h"
#include "source/backend.h"
#include "source/sim.h"
#include "stats/stats.h"
#include "t.h"

TEST(topo_regular_format_and_parse_round_trip)
{
	static struct dtl_topo t, back;
	struct dtl_cpuset cpus;
	char buf[256], err[128];
	unsigned int smt;

	dtl_topo__regular(&t, 4);
	CHECK(t.known);
	CHECK_EQ(t.vp[0], 0);
	CHECK_EQ(t.vp[5], 4);
	CHECK_EQ(t.vp[11], 8);
	dtl_cpuset__parse(&cpus, "0-9", err, sizeof(err));
	dtl_topo__format(&t, &cpus, buf, sizeof(buf));
	CHECK_STR(buf, "0-3;4-7;8-9");
	CHECK_EQ(dtl_topo__count(&t, &cpus, &smt), 3);
	CHECK_EQ(smt, 4);
	CHECK_EQ(dtl_topo__parse(&back, buf, err, sizeof(err)), 0);
	CHECK(back.known);
	CHECK_EQ(back.vp[7], 4);
	CHECK_EQ(back.vp[9], 8);
	CHECK_EQ(back.vp[12], 12);	/* not named: alone */
}

/* A set walked a word at a time visits every CPU at the words' edges, and nothing else. */
TEST(cpuset_walk_visits_each_member_in_order)
{
	static const unsigned int want[] = { 0, 1, 63, 64, 127, 128, 4095, 8190, 8191 };
	struct dtl_cpuset set;
	unsigned int cpu, k = 0;
	char err[64];

	dtl_cpuset__parse(&set, "0-1,63-64,127-128,4095,8190-8191", err, sizeof(err));
	dtl_cpuset__for_each(cpu, &set) {
		CHECK(k < 9 && cpu == want[k]);
		k++;
	}
	CHECK_EQ(k, 9);
	dtl_cpuset__clear(&set);
	dtl_cpuset__for_each(cpu, &set)
		T_FAIL("cpu %u of an empty set", cpu);
	CHECK_EQ(dtl_cpuset__next(&set, 0), DTL_MAX_CPUS);
	dtl_cpuset__set(&set, 65);
	CHECK_EQ(dtl_cpuset__next(&set, 65), 65);
	CHECK_EQ(dtl_cpuset__next(&set, 66), DTL_MAX_CPUS);
}

/* Counted again with fewer CPUs, the VPs are the new set's: nothing left from the last count. */
TEST(topo_count_twice_counts_the_second_set_alone)
{
	static struct dtl_topo t;
	struct dtl_cpuset cpus;
	unsigned int smt;
	char err[64];

	dtl_topo__regular(&t, 8);
	dtl_cpuset__parse(&cpus, "0-15", err, sizeof(err));
	CHECK_EQ(dtl_topo__count(&t, &cpus, &smt), 2);
	CHECK_EQ(smt, 8);
	dtl_cpuset__parse(&cpus, "0-1,8", err, sizeof(err));
	CHECK_EQ(dtl_topo__count(&t, &cpus, &smt), 2);
	CHECK_EQ(smt, 2);
	dtl_cpuset__parse(&cpus, "9", err, sizeof(err));
	CHECK_EQ(dtl_topo__count(&t, &cpus, &smt), 1);
	CHECK_EQ(smt, 1);
}

TEST(topo_parse_refuses_garbage_and_overlaps)
{
	static struct dtl_topo t;
	static const char *const bad[] = { "0-3;2-5", "x", "0-3;;", "3-1", "0-99999" };
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (dtl_topo__parse(&t, bad[i], err, sizeof(err)) == 0 && strcmp(bad[i], "0-3;;"))
			T_FAIL("'%s' accepted", bad[i]);
		CHECK(!t.known || strcmp(bad[i], "0-3;;") == 0);
	}
}

TEST(topo_from_thread_siblings_list)
{
	const char *root = fakeroot_new();
	static struct dtl_topo t;
	struct dtl_cpuset cpus;
	char err[64], rel[128];

	for (unsigned int cpu = 0; cpu < 6; cpu++) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list",
			 cpu);
		/* cpu 5 lies: a list without itself is not its siblings */
		fakeroot_puts(root, rel, cpu < 4 ? "0-3\n" : cpu == 4 ? "4-5\n" : "0-1\n");
	}
	dtl_cpuset__parse(&cpus, "0-6", err, sizeof(err));
	dtl_topo__sysfs(&t, root, &cpus);
	CHECK(t.known);
	CHECK_EQ(t.vp[3], 0);
	CHECK_EQ(t.vp[4], 4);
	CHECK_EQ(t.vp[5], 4);	/* from cpu 4's list */
	CHECK_EQ(t.vp[6], 6);	/* no file: alone */
	fakeroot_free(root);
}

static struct dtl_rec rec(uint64_t tb, uint16_t proc, uint32_t e2d, uint32_t w2r)
{
	struct dtl_rec r = { 0 };

	r.timebase = tb;
	r.dispatch_reason = 7;
	r.preempt_reason = 4;
	r.processor_id = proc;
	r.enqueue_to_dispatch = e2d;
	r.waiting_to_ready = w2r;
	return r;
}

TEST(stats_vp_rows_fold_their_threads)
{
	struct dtl_stats *s = dtl_stats__new(4, 1000000);
	uint16_t vp[4] = { 0, 0, 2, 2 };
	struct dtl_row r0, r1, v0, v2, all;

	for (unsigned int c = 0; c < 4; c++)
		dtl_stats__set_online(s, c, true);
	CHECK_EQ(dtl_stats__set_vps(s, vp, 8), 0);
	/* cpu 0: two dispatches, same core then another core; cpu 1: one with a long wait */
	dtl_stats__add(s, 0, &(struct dtl_rec){ 0 });
	{
		struct dtl_rec a = rec(100, 8, 10, 0), b = rec(200, 9, 20, 0), c = rec(300, 17, 30, 0),
			       d = rec(400, 3, 400000, 100000);

		dtl_stats__add(s, 0, &a);
		dtl_stats__add(s, 0, &b);
		dtl_stats__add(s, 0, &c);
		dtl_stats__add(s, 1, &d);
	}
	dtl_stats__set_online(s, 3, false);
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &r0), 0);
	CHECK_EQ(dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &r1), 0);
	CHECK_EQ(dtl_stats__vp_row(s, 0, DTL_SPAN_INTERVAL, &v0), 0);
	CHECK_EQ(v0.cpu, 0);
	CHECK_EQ(v0.threads, 2);
	CHECK_EQ(v0.dispatches, r0.dispatches + r1.dispatches);
	/* the core's time: its most-stolen thread's, not the threads' sum */
	CHECK_NEAR(v0.steal_us, r0.steal_us > r1.steal_us ? r0.steal_us : r1.steal_us, 1e-9);
	CHECK_NEAR(v0.steal_pct, r0.steal_pct > r1.steal_pct ? r0.steal_pct : r1.steal_pct, 1e-9);
	CHECK(v0.steal_pct <= 100 && v0.is_vp && v0.vp == 0 && !r0.is_vp);
	CHECK_NEAR(v0.lat_max_us, r1.lat_max_us, 1e-9);
	CHECK(v0.lat_p99_us > r0.lat_p99_us);	/* the merged histogram has cpu 1's wait */
	CHECK_EQ(r0.migrations, 2);
	CHECK_EQ(r0.migr_core, 1);	/* 8 -> 9: one core of 8 threads */
	CHECK_EQ(r0.migr_other, 1);	/* 9 -> 17: another core */
	CHECK_EQ(v0.migr_other, 1);
	/* VP 2: cpu 3 is offline, cpu 2 logged nothing: one thread, no dispatches */
	CHECK_EQ(dtl_stats__vp_row(s, 2, DTL_SPAN_INTERVAL, &v2), 0);
	CHECK_EQ(v2.threads, 1);
	CHECK_EQ(v2.dispatches, 0);
	CHECK_EQ(dtl_stats__vp_row(s, 1, DTL_SPAN_INTERVAL, &v2), -1);	/* not a VP's first CPU */
	CHECK_EQ(dtl_stats__vp_row(s, 0, DTL_SPAN_TOTAL, &v2), 0);
	CHECK_EQ(v2.dispatches, v0.dispatches);
	CHECK_EQ(dtl_stats__row(s, DTL_ROW_ALL, DTL_SPAN_INTERVAL, &all), 0);
	CHECK_EQ(all.threads, 3);
	CHECK_NEAR(all.run_pct, 100 - all.steal_pct - all.idle_pct, 1e-9);
	/* adjacent SMT8 cores whose numbers share a 16-thread block are still two cores */
	{
		struct dtl_rec e = rec(500, 25, 10, 0), f = rec(600, 31, 10, 0);
		struct dtl_row r;

		dtl_stats__add(s, 0, &e);	/* 17 -> 25: cores 2 and 3 */
		dtl_stats__add(s, 0, &f);	/* 25 -> 31: within core 3 */
		dtl_stats__end_interval(s, 1.0);
		CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &r), 0);
		CHECK_EQ(r.migr_other, 1);
		CHECK_EQ(r.migr_core, 1);
		CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_TOTAL, &r), 0);
		CHECK_EQ(r.migr_other, 2);
		CHECK_EQ(r.migr_core, 2);
	}
	dtl_stats__delete(s);
}

TEST(lparcfg_figures_as_lparstat_computes_them)
{
	struct dtl_lparcfg a, b;
	struct dtl_lpar_figs f;

	dtl_sys__parse_lparcfg("partition_entitled_capacity=200\ncapped=0\ncapacity_weight=64\n"
			       "purr=1000000\ntbr=5000000\npool_idle_time=7000000\ndispatches=100\n"
			       "resource_group_number=3\nresource_group_active_processors=12\n", &a);
	dtl_sys__parse_lparcfg("partition_entitled_capacity=200\npurr=4000000\ntbr=7000000\n"
			       "pool_idle_time=12000000\ndispatches=1100\n", &b);
	CHECK_EQ(a.weight, 64);
	CHECK(a.have_rg);
	CHECK_EQ(a.rg_procs, 12);
	dtl_sys__lpar_figs(&a, &b, 1000000, &f);
	CHECK_EQ(f.known, DTL_LPARF_PHYSC | DTL_LPARF_ENTC | DTL_LPARF_APP | DTL_LPARF_DISP);
	/* 2 s of timebase */
	CHECK_NEAR(f.physc, 1.5, 1e-12);
	CHECK_NEAR(f.entc_pct, 75, 1e-9);
	CHECK_NEAR(f.app, 2.5, 1e-12);
	CHECK_NEAR(f.disp_per_s, 250, 1e-9);	/* 1000 yield_count steps in 2 s: 250 cycles/s */
	/* counters going back (a CPU removed, a wrap) or a stopped clock: unknown, not 0 */
	dtl_sys__parse_lparcfg("purr=1\ntbr=8000000\npool_idle_time=1\ndispatches=5\n", &a);
	dtl_sys__lpar_figs(&b, &a, 1000000, &f);
	CHECK_EQ(f.known, 0);
	dtl_sys__lpar_figs(&b, &b, 1000000, &f);
	CHECK_EQ(f.known, 0);
	/* a partition that may not read pool data has no pool_idle_time: no app */
	dtl_sys__parse_lparcfg("purr=1\ntbr=1\n", &a);
	dtl_sys__parse_lparcfg("purr=3\ntbr=5\n", &b);
	dtl_sys__lpar_figs(&a, &b, 1000000, &f);
	CHECK_EQ(f.known, DTL_LPARF_PHYSC);
}

TEST(sim_speaks_powervm)
{
	struct dtl_sim_params p;
	char err[256];

	CHECK_EQ(dtl_sim__parse("vps=6,smt=4", &p, err, sizeof(err)), 0);
	CHECK_EQ(p.vcpus, 24);
	CHECK_EQ(p.vps, 6);
	CHECK_EQ(dtl_sim__parse("vcpus=20,smt=8", &p, err, sizeof(err)), 0);
	CHECK_EQ(p.vps, 3);		/* the last VP has 4 threads */
	CHECK_EQ(dtl_sim__parse("vps=2,vcpus=9,smt=4", &p, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "vcpus=9 is not vps=2 x smt=4");
	CHECK_EQ(dtl_sim__parse("smt=3", &p, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "smt=3");
	CHECK_EQ(dtl_sim__parse("vps=2000,smt=8", &p, err, sizeof(err)), -1);
}

/* The simulator's lparcfg agrees with its own DTL: yield_count twice per cycle, PURR as run. */
TEST(sim_lparcfg_agrees_with_its_dtl)
{
	struct dtl_source_opts o = { 0 };
	struct dtl_source *src;
	struct dtl_chunk c;
	struct dtl_lparcfg a, b;
	struct dtl_lpar_figs f;
	char err[256];
	uint64_t n = 0, lost = 0;

	o.backend = "sim";
	o.sim_params = "vps=4,smt=4,clock=virtual,poll=1";
	o.seed = 3;
	o.mask = DTL_MASK_ALL;
	src = dtl_source__open(&o, err, sizeof(err));
	CHECK(src != NULL);
	if (!src)
		return;
	CHECK(dtl_source__topo(src)->known);
	CHECK_EQ(dtl_source__topo(src)->vp[7], 4);
	CHECK_EQ(dtl_source__core_threads(src), 4);
	CHECK(dtl_source__lparcfg(src) != NULL);
	dtl_sys__parse_lparcfg(dtl_source__lparcfg(src), &a);
	CHECK_EQ(a.active_vps, 4);
	dtl_source__tick(src, 2000000000ull);
	while (dtl_source__read(src, &c) > 0) {
		n += c.n;
		lost += c.lost;
	}
	dtl_sys__parse_lparcfg(dtl_source__lparcfg(src), &b);
	dtl_sys__lpar_figs(&a, &b, dtl_source__tb_freq(src), &f);
	CHECK_EQ(f.known & (DTL_LPARF_PHYSC | DTL_LPARF_APP | DTL_LPARF_DISP),
		 DTL_LPARF_PHYSC | DTL_LPARF_APP | DTL_LPARF_DISP);
	/* every cycle logged (none lost at a 1 ms drain) is a dispatch lparcfg counts */
	CHECK_EQ(lost, 0);
	CHECK_EQ(b.dispatches - a.dispatches, 2 * n);
	/* 16 threads at load 0.5: about half of 4 cores' time, never more than the VPs */
	CHECK(f.physc > 1 && f.physc < 4);
	CHECK(f.app >= 0 && f.app <= b.pool_capacity);
	dtl_source__close(src);
}

TEST(vpa_decode_reads_lppaca_fields_and_refuses_short_files)
{
	uint8_t b[640] = { 0 };
	struct dtl_vpa v;
	const char *root = fakeroot_new();
	char err[256];

	b[0xb8] = 7;
	b[0x103] = 9;			/* yield_count, big-endian */
	b[0x107] = 2;			/* dispersion_count */
	b[0x15f] = 0x10;		/* enqueue_dispatch_tb */
	b[0x166] = 0x01;		/* ready_enqueue_tb = 0x100 */
	b[0x16f] = 0x20;		/* wait_ready_tb */
	b[0x218] = 0x01;		/* dtl_idx = 2^56 + 5 */
	b[0x21f] = 0x05;
	CHECK_EQ(dtl_vpa__decode(b, sizeof(b), &v), 0);
	CHECK_EQ(v.dtl_enable_mask, 7);
	CHECK_EQ(v.yield_count, 9);
	CHECK_EQ(v.dispersion_count, 2);
	CHECK_EQ(v.enqueue_dispatch_tb, 0x10);
	CHECK_EQ(v.ready_enqueue_tb, 0x100);
	CHECK_EQ(v.wait_ready_tb, 0x20);
	CHECK_EQ(v.dtl_idx, (1ull << 56) + 5);
	CHECK_EQ(dtl_vpa__decode(b, 0x21f, &v), -1);	/* cut inside dtl_idx */
	fakeroot_write(root, "sys/kernel/debug/powerpc/vpa/cpu-3", b, 100);
	CHECK_EQ(dtl_vpa__read(root, 3, &v, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "vpa/cpu-3: too short for a VPA");
	CHECK_EQ(dtl_vpa__read(root, 4, &v, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "vpa/cpu-4: No such file");
	fakeroot_free(root);
}

/* Every entry of a simulated run of secs seconds, per CPU. */
struct run {
	struct dtl_rec *r;
	unsigned int *cpu;
	size_t n;
	char lparcfg[2][1024];
};

static void sim_run(const char *params, double secs, struct run *out)
{
	struct dtl_source_opts o = { 0 };
	struct dtl_source *src;
	struct dtl_chunk c;
	char err[256];

	memset(out, 0, sizeof(*out));
	o.backend = "sim";
	o.sim_params = params;
	o.seed = 11;
	o.mask = DTL_MASK_ALL;
	src = dtl_source__open(&o, err, sizeof(err));
	if (!src) {
		T_FAIL("%s: %s", params, err);
		return;
	}
	snprintf(out->lparcfg[0], sizeof(out->lparcfg[0]), "%s", dtl_source__lparcfg(src));
	dtl_source__tick(src, (uint64_t)(secs * 1e9));
	while (dtl_source__read(src, &c) > 0) {
		out->r = realloc(out->r, (out->n + c.n) * sizeof(*out->r));
		out->cpu = realloc(out->cpu, (out->n + c.n) * sizeof(*out->cpu));
		for (size_t i = 0; i < c.n; i++) {
			dtl_rec__decode(&out->r[out->n], c.data + i * DTL_ENTRY_SIZE);
			out->cpu[out->n++] = c.cpu;
		}
	}
	snprintf(out->lparcfg[1], sizeof(out->lparcfg[1]), "%s", dtl_source__lparcfg(src));
	dtl_source__close(src);
}

static double run_steal(const struct run *r)
{
	double st = 0;

	for (size_t i = 0; i < r->n; i++)
		st += r->r[i].enqueue_to_dispatch + r->r[i].ready_to_enqueue;
	return st;
}

/* The instant a time-slice preempt happened: its dispatch less the wait. */
static uint64_t preempted_at(const struct dtl_rec *r)
{
	return r->timebase - r->enqueue_to_dispatch - r->ready_to_enqueue - r->waiting_to_ready;
}

/* PowerVM dispatches a VP's threads together: a preempt hits each busy thread at once. */
TEST(sim_vp_threads_are_preempted_and_dispatched_together)
{
	struct run r;
	size_t shared = 0, preempts = 0;

	/* above its entitlement in a busy pool: held at its share of the wheels */
	sim_run("vps=2,smt=4,ent=1,pool=2,oent=1,other=2,load=0.7,poll=1", 2.0, &r);
	for (size_t i = 0; i < r.n; i++) {
		if (r.r[i].preempt_reason != 4)
			continue;
		preempts++;
		for (size_t k = 0; k < r.n; k++)
			if (k != i && r.r[k].preempt_reason == 4 && r.cpu[k] / 4 == r.cpu[i] / 4 &&
			    preempted_at(&r.r[k]) == preempted_at(&r.r[i])) {
				shared++;
				CHECK_EQ(r.r[k].timebase, r.r[i].timebase);	/* dispatched together */
				CHECK_EQ(r.r[k].processor_id / 4, r.r[i].processor_id / 4);	/* one core */
				break;
			}
	}
	CHECK(preempts > 100);
	CHECK(shared > preempts / 2);	/* at 0.7 load most preempts find a sibling busy */
	free(r.r);
	free(r.cpu);
}

/*
 * Capped: never past the entitlement, and each hold lasts to a next 10 ms
 * wheel (dispatched in its first part), whatever the pool has idle.
 */
TEST(sim_capped_partition_is_held_to_the_next_wheel)
{
	const uint64_t wheel = 5120000;	/* 10 ms at 512 MHz */
	struct run r;
	struct dtl_lparcfg a, b;
	struct dtl_lpar_figs f;
	size_t held = 0;

	sim_run("vps=4,smt=2,ent=1,pool=8,load=0.8,capped=1,poll=1", 2.0, &r);
	for (size_t i = 0; i < r.n; i++)
		if (r.r[i].preempt_reason == 4 && r.r[i].enqueue_to_dispatch > wheel / 10) {
			held++;
			/* a hold ends at a wheel's start, plus a dispatch's latency */
			CHECK((r.r[i].timebase - (1ull << 40)) % wheel < wheel / 20);
		}
	CHECK(held > 100);
	dtl_sys__parse_lparcfg(r.lparcfg[0], &a);
	dtl_sys__parse_lparcfg(r.lparcfg[1], &b);
	CHECK(b.capped);
	dtl_sys__lpar_figs(&a, &b, 512000000, &f);
	CHECK(f.known & DTL_LPARF_ENTC);
	CHECK(f.entc_pct <= 100.0 + 1e-6);	/* capped: never past the entitlement */
	CHECK(f.entc_pct > 90);			/* and it wants all of it */
	CHECK(f.app > 2);			/* however much the pool has idle */
	free(r.r);
	free(r.cpu);
}

/*
 * Above the entitlement, uncapped LPARs share the pool's idle capacity by
 * weight: at 255 against the others' 128 it gets more of it than at 4,
 * and weight 0 none at all.
 */
TEST(sim_uncapped_weight_buys_idle_capacity)
{
	struct run lo, hi, none;
	struct dtl_lpar_figs fl, fh, fn;
	struct dtl_lparcfg a, b;

	sim_run("vps=4,smt=4,ent=1,pool=4,oent=1,other=4,weight=4,poll=1", 2.0, &lo);
	sim_run("vps=4,smt=4,ent=1,pool=4,oent=1,other=4,weight=255,poll=1", 2.0, &hi);
	sim_run("vps=4,smt=4,ent=1,pool=4,oent=1,other=4,weight=0,poll=1", 2.0, &none);
	CHECK(run_steal(&hi) < run_steal(&lo) * 0.8);
	dtl_sys__parse_lparcfg(lo.lparcfg[0], &a), dtl_sys__parse_lparcfg(lo.lparcfg[1], &b);
	dtl_sys__lpar_figs(&a, &b, 512000000, &fl);
	dtl_sys__parse_lparcfg(hi.lparcfg[0], &a), dtl_sys__parse_lparcfg(hi.lparcfg[1], &b);
	dtl_sys__lpar_figs(&a, &b, 512000000, &fh);
	dtl_sys__parse_lparcfg(none.lparcfg[0], &a), dtl_sys__parse_lparcfg(none.lparcfg[1], &b);
	dtl_sys__lpar_figs(&a, &b, 512000000, &fn);
	/* the idle 2 shared 255:128 against 4:128 */
	CHECK(fh.physc > fl.physc + 0.5);
	CHECK(fn.physc <= 1.0 + 1e-6);	/* weight 0: never above the entitlement */
	CHECK(fl.physc > 1.0);
	free(lo.r), free(lo.cpu), free(hi.r), free(hi.cpu), free(none.r), free(none.cpu);
}

TEST(proc_stat_steal_per_cpu_and_garbage)
{
	uint64_t st[4] = { 0 };
	bool have[4];

	dtl_sys__parse_stat_steal("cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 80 9 10\n"
				  "cpu1 1 2 3 4 5 6 7\ncpu2 x\ncpu9 1 2 3 4 5 6 7 8\n"
				  "cpu3 0 0 0 0 0 0 0 18446744073709551615 0 0\nintr 5\n", 4, st, have);
	CHECK(have[0] && st[0] == 80);
	CHECK(!have[1]);		/* cut short: no steal figure */
	CHECK(!have[2]);
	CHECK(have[3] && st[3] == UINT64_MAX);
	dtl_sys__parse_stat_steal("", 4, st, have);
	CHECK(!have[0] && !have[3]);
}

#include "source/sim/hv.h"

/* PowerVM's rules, one wheel at a time, on figures worked out by hand. */
TEST(hv_share_obeys_entitlement_weight_and_cap)
{
	struct dtl_hv_pool p = { .vps = 4, .ent = 2, .want = 4, .weight = 128, .pool = 8,
				 .other = 8, .other_ent = 4 };
	struct dtl_hv_share s;

	/* idle 8 - 2 - 4 = 2, claims 2 (ours) and 4 (theirs), weights 128:128: 1 each */
	dtl_hv__share(&p, &s);
	CHECK_NEAR(s.ceiling, 3.0, 1e-9);
	CHECK_NEAR(s.budget, 0.75, 1e-9);
	CHECK_NEAR(s.other_use, 5.0, 1e-9);
	CHECK_EQ(s.hold, DTL_HV_HOLD_POOL);
	/* weight 255: 2 x 255 / 383 of the idle */
	p.weight = 255;
	dtl_hv__share(&p, &s);
	CHECK_NEAR(s.ceiling, 2 + 2.0 * 255 / 383, 1e-9);
	/* weight 0 and capped: the entitlement, whatever is idle */
	p.weight = 0;
	dtl_hv__share(&p, &s);
	CHECK_NEAR(s.ceiling, 2.0, 1e-9);
	CHECK_EQ(s.hold, DTL_HV_HOLD_CAP);
	p.weight = 128, p.capped = true;
	dtl_hv__share(&p, &s);
	CHECK_NEAR(s.ceiling, 2.0, 1e-9);
	CHECK_NEAR(s.budget, 0.5, 1e-9);
	/* the others wanting all: still our entitlement, and theirs */
	p.capped = false, p.other = 1000;
	dtl_hv__share(&p, &s);
	CHECK(s.ceiling >= 2.0);
	CHECK(s.other_use >= 4.0);
	/* nobody else: at most one processor a VP */
	p.other = 0;
	dtl_hv__share(&p, &s);
	CHECK_NEAR(s.ceiling, 4.0, 1e-9);
	CHECK_NEAR(s.budget, 1.0, 1e-9);
	/* wanting less than the entitlement, a VP may use what its siblings leave */
	p.want = 1, p.other = 1000;
	dtl_hv__share(&p, &s);
	CHECK(s.budget > 0.5);
	CHECK_NEAR(s.reserve, 0.25, 1e-9);
	/* the pool fills: dispatch latency grows, and a slice's end takes the core only then */
	CHECK(dtl_hv__latency_s(1.0) > 100 * dtl_hv__latency_s(0.2));
	CHECK_EQ(dtl_hv__slice_preempt(0.5), 0);
	CHECK(dtl_hv__slice_preempt(1.0) > 0);
}

/*
 * Capped means never past the entitlement in any 10 ms wheel, not only on
 * average: with one thread a VP, each VP runs exactly while its thread does
 * (from a dispatch to the next entry's preempt instant), so the entries give
 * the partition's time in each wheel. Bursty VPs below the entitlement on
 * average pass it together in some wheels unless the partition is counted
 * as a whole.
 */
TEST(sim_capped_partition_never_passes_its_entitlement_in_a_wheel)
{
	const uint64_t wheel = 5120000, t0 = 1ull << 40;
	enum { WHEELS = 200 };
	static uint64_t used[WHEELS];
	uint64_t from[4] = { 0 }, worst = 0;
	struct run r;

	memset(used, 0, sizeof(used));
	sim_run("vps=4,smt=1,ent=2,capped=1,pool=8,load=0.45,busy=8,poll=1", 2.0, &r);
	for (size_t i = 0; i < r.n; i++) {
		unsigned int c = r.cpu[i];
		uint64_t stop = preempted_at(&r.r[i]);

		/* the thread ran from its last dispatch to this entry's preempt */
		for (uint64_t a = from[c]; from[c] && a < stop;) {
			uint64_t k = (a - t0) / wheel, b = t0 + (k + 1) * wheel < stop ?
							     t0 + (k + 1) * wheel : stop;

			if (k < WHEELS)
				used[k] += b - a;
			a = b;
		}
		from[c] = r.r[i].timebase;
	}
	for (int k = 0; k < WHEELS; k++)
		worst = used[k] > worst ? used[k] : worst;
	CHECK(worst > wheel);			/* more than one VP's worth: the test can see it */
	CHECK(worst <= 2 * wheel + wheel / 100);	/* never past 2.00 processors in a wheel */
	free(r.r);
	free(r.cpu);
}

/* Dedicated processors are its own: a dispatch waits microseconds, never for a pool. */
TEST(sim_dedicated_dispatches_at_once)
{
	struct run r;
	uint32_t e2d[65536];
	size_t n = 0;

	sim_run("vps=2,smt=4,dedicated=1,load=0.5,poll=1", 2.0, &r);
	for (size_t i = 0; i < r.n && n < 65536; i++)
		e2d[n++] = r.r[i].enqueue_to_dispatch;
	CHECK(n > 1000);
	/* the 99th percentile under 20 us (10240 ticks at 512 MHz) */
	{
		size_t over = 0;

		for (size_t i = 0; i < n; i++)
			over += e2d[i] > 10240;
		CHECK(over <= n / 100);
	}
	free(r.r);
	free(r.cpu);
}
