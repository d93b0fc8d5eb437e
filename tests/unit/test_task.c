/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Who pays: entries charged to the task running at the preempt instant,
 * with a 1 MHz timebase so each figure can be checked by hand.
 */
#include "t.h"

#include "dtl/dtl.h"
#include "stats/task.h"

static void put(uint8_t *buf, uint64_t tb, uint8_t pre, uint32_t e2d, uint32_t r2e, uint32_t w2r,
		uint64_t srr0, uint64_t srr1)
{
	struct dtl_rec r = { 0 };

	r.timebase = tb;
	r.preempt_reason = pre;
	r.dispatch_reason = 7;
	r.enqueue_to_dispatch = e2d;
	r.ready_to_enqueue = r2e;
	r.waiting_to_ready = w2r;
	r.srr0 = srr0;
	r.srr1 = srr1;
	dtl_rec__encode(&r, buf);
}

static void sw(struct dtl_tasks *t, unsigned int cpu, uint64_t tb, int pid, const char *comm,
	       const char *cg)
{
	struct dtl_switch s = { tb, pid, comm, cg };

	dtl_tasks__switch(t, cpu, &s);
}

static int find(struct dtl_tasks *t, enum dtl_task_group g, const char *name, struct dtl_row *row,
		enum dtl_span span)
{
	for (size_t i = 0; i < dtl_tasks__count(t, g); i++)
		if (dtl_tasks__row(t, g, i, span, row) == 0 && strcmp(row->name, name) == 0)
			return (int)i;
	return -1;
}

TEST(tasks_charge_the_task_running_at_the_preempt_instant)
{
	struct dtl_tasks *t = dtl_tasks__new(2, 1000000);
	uint8_t e[3][DTL_ENTRY_SIZE];
	struct dtl_row row;

	sw(t, 0, 1000, 0, NULL, NULL);
	sw(t, 0, 2000, 42, "db", "/system.slice/db.service");
	sw(t, 0, 5000, 7, "web", NULL);
	/* preempted at 4000 (db's), dispatched 4300 after 200 + 100 of steal */
	put(e[0], 4300, 4, 200, 100, 0, 0xc000000000123450ull, 0x8000000000001033ull);
	/* preempted at 5500 (web's) in user space */
	put(e[1], 5600, 4, 100, 0, 0, 0x10001000ull, 0x800000000000d033ull);
	/* ceded at 9000: the idle task's, switched in at 8000 below */
	sw(t, 0, 8000, 0, NULL, NULL);
	put(e[2], 9500, 2, 20, 0, 480, 0xc0000000000fcd28ull, 0x8000000000001033ull);
	dtl_tasks__add_entries(t, 0, e[0], 3);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);

	CHECK(find(t, DTL_TASKS_BY_TASK, "db[42]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK_NEAR(row.steal_us, 300, 1e-9);
	CHECK_NEAR(row.oncpu_s, 3000e-6, 1e-12);	/* 2000..5000 */
	CHECK_NEAR(row.steal_pct, 10, 1e-9);		/* 300 of its 3000 us */
	CHECK_EQ(row.group, DTL_ROW_TASK);
	CHECK_EQ(row.cpu, 42);
	CHECK(find(t, DTL_TASKS_BY_TASK, "web[7]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK_NEAR(row.steal_us, 100, 1e-9);
	CHECK(find(t, DTL_TASKS_BY_TASK, "idle", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK_NEAR(row.idle_us, 480, 1e-9);
	CHECK_EQ(row.preempt[2], 1);
	/* cgroups: db's, and web's unknown one; the idle task is in none */
	CHECK(find(t, DTL_TASKS_BY_CGROUP, "/system.slice/db.service", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_NEAR(row.steal_us, 300, 1e-9);
	CHECK_EQ(row.group, DTL_ROW_CGROUP);
	CHECK(find(t, DTL_TASKS_BY_CGROUP, "(unknown)", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_NEAR(row.steal_us, 100, 1e-9);
	CHECK_EQ(dtl_tasks__unattributed(t), 0);
	dtl_tasks__delete(t);
}

TEST(tasks_where_preempts_hit_and_user_share)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	uint8_t e[DTL_ENTRY_SIZE];
	struct dtl_task_pc pc[4];
	uint64_t user, all;
	int n;

	sw(t, 0, 10, 5, "busy", "/a");
	for (int i = 0; i < 10; i++) {
		put(e, 1000 + 100 * (uint64_t)i, 4, 10, 0, 0, i < 7 ? 0xc0000000000aaaa0ull :
		    0xc0000000000bbbb0ull, i < 3 ? 0x800000000000d033ull : 0x8000000000001033ull);
		dtl_tasks__add_entries(t, 0, e, 1);
	}
	put(e, 3000, 2, 10, 0, 100, 0xc0000000000fcd28ull, 0);	/* a cede: not involuntary */
	dtl_tasks__add_entries(t, 0, e, 1);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	n = dtl_tasks__pcs(t, DTL_TASKS_BY_TASK, 5, pc, 4, &user, &all);
	CHECK_EQ(n, 2);
	CHECK_EQ(pc[0].pc, 0xc0000000000aaaa0ull);
	CHECK_EQ(pc[0].n, 7);
	CHECK_EQ(pc[1].n, 3);
	CHECK_EQ(user, 3);
	CHECK_EQ(all, 10);
	n = dtl_tasks__pcs(t, DTL_TASKS_BY_CGROUP, 0, pc, 4, &user, &all);
	CHECK_EQ(n, 2);
	CHECK_EQ(all, 10);
	CHECK_EQ(dtl_tasks__pcs(t, DTL_TASKS_BY_TASK, 6, pc, 4, &user, &all), -1);
	CHECK_EQ(dtl_tasks__pcs(t, DTL_TASKS_BY_CGROUP, 9, pc, 4, &user, &all), -1);
	dtl_tasks__delete(t);
}

/*
 * User space is MSR[PR] (problem state, 0x4000) in srr1, as Power ISA book
 * III has it, whatever its neighbours say: EE (0x8000) and FP (0x2000) are
 * set in kernel code as often as in user code.
 */
TEST(tasks_user_share_is_the_problem_state_bit_alone)
{
	static const uint64_t srr1[] = {
		0x8000000000009033ull,	/* kernel, EE on */
		0x800000000000b033ull,	/* kernel, EE and FP on */
		0x800000000000d033ull,	/* user: PR and EE */
		0x8000000000005033ull,	/* user: PR, EE off */
		0x8000000000001033ull,	/* kernel, EE off */
	};
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	uint8_t e[DTL_ENTRY_SIZE];
	struct dtl_task_pc pc[4];
	uint64_t user = 99, all = 0;

	sw(t, 0, 10, 8, "app", "/b");
	for (unsigned int i = 0; i < 5; i++) {
		put(e, 1000 + 100 * (uint64_t)i, 4, 10, 0, 0, 0xc0000000000aaaa0ull, srr1[i]);
		dtl_tasks__add_entries(t, 0, e, 1);
	}
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK_EQ(dtl_tasks__pcs(t, DTL_TASKS_BY_TASK, 8, pc, 4, &user, &all), 1);
	CHECK_EQ(all, 5);
	CHECK_EQ(user, 2);
	dtl_tasks__delete(t);
}

TEST(tasks_before_the_first_switch_nobody_pays_and_names_are_clean)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	uint8_t e[DTL_ENTRY_SIZE];
	struct dtl_row row;

	sw(t, 0, 5000, 9, "evil\033[2J\nname-longer-than-16", NULL);
	put(e, 1000, 4, 10, 0, 0, 0, 0);	/* before any switch */
	dtl_tasks__add_entries(t, 0, e, 1);
	CHECK_EQ(dtl_tasks__unattributed(t), 1);
	/* out of order: dropped */
	sw(t, 0, 4000, 10, "late", NULL);
	put(e, 6000, 4, 10, 0, 0, 0, 0);
	dtl_tasks__add_entries(t, 0, e, 1);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	/* the early entry has a row of its own, no task's */
	CHECK_EQ(dtl_tasks__count(t, DTL_TASKS_BY_TASK), 2);
	CHECK(find(t, DTL_TASKS_BY_TASK, "(unknown)", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK(find(t, DTL_TASKS_BY_TASK, "evil?[2J?name-lo[9]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	/* since start adds the intervals; a reset clears them */
	dtl_tasks__add_entries(t, 0, e, 0);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK(find(t, DTL_TASKS_BY_TASK, "evil?[2J?name-lo[9]", &row, DTL_SPAN_TOTAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	dtl_tasks__reset_totals(t);
	CHECK(find(t, DTL_TASKS_BY_TASK, "evil?[2J?name-lo[9]", &row, DTL_SPAN_TOTAL) >= 0);
	CHECK_EQ(row.dispatches, 0);
	/* out of range CPUs and rows */
	dtl_tasks__add_entries(t, 5, e, 1);
	sw(t, 5, 1, 1, "x", NULL);
	CHECK(dtl_tasks__row(t, DTL_TASKS_BY_TASK, 99, DTL_SPAN_TOTAL, &row) < 0);
	dtl_tasks__delete(t);
}

/* A cede's wait delays the task its wake-up was for: the first to run after the dispatch. */
TEST(tasks_the_woken_pays_its_wake_up)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	uint8_t e[4 * DTL_ENTRY_SIZE];
	struct dtl_row row;

	sw(t, 0, 100, 0, NULL, NULL);			/* idle */
	/* cede at 1000 (w2r 500), ready at 1500, dispatched at 1800: 300 of steal */
	put(e, 1800, 2, 200, 100, 500, 0, 0);
	sw(t, 0, 1805, 7, "nginx", "/web.slice");	/* the interrupt's task runs first */
	sw(t, 0, 1900, 8, "pg", "/db.slice");
	/* pg confers at 2400 from a spinlock: its own wake-up, nobody else's */
	put(e + DTL_ENTRY_SIZE, 2500, 3, 50, 50, 0, 0, 0);
	sw(t, 0, 2600, 0, NULL, NULL);
	/* idle cedes and cedes again before any task ran: idle keeps that one */
	put(e + 2 * DTL_ENTRY_SIZE, 3000, 2, 40, 0, 300, 0, 0);
	put(e + 3 * DTL_ENTRY_SIZE, 4000, 2, 60, 0, 800, 0, 0);
	dtl_tasks__add_entries(t, 0, e, 4);
	/* the last cede's task comes after the last entry: settled at the interval's end */
	sw(t, 0, 4000, 8, NULL, NULL);	/* at the dispatch itself */
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK(find(t, DTL_TASKS_BY_TASK, "nginx[7]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 0);
	CHECK_NEAR(row.steal_us, 300, 1e-9);
	CHECK_NEAR(row.wake_us, 300, 1e-9);
	CHECK(find(t, DTL_TASKS_BY_TASK, "pg[8]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK_NEAR(row.steal_us, 100 + 60, 1e-9);
	CHECK_NEAR(row.wake_us, 100 + 60, 1e-9);
	CHECK(find(t, DTL_TASKS_BY_TASK, "idle", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 3);
	CHECK_NEAR(row.steal_us, 40, 1e-9);
	CHECK_NEAR(row.wake_us, 40, 1e-9);
	CHECK_NEAR(row.idle_us, 500 + 300 + 800, 1e-9);
	/* by cgroup the same, and the rows add up to every entry's steal */
	CHECK(find(t, DTL_TASKS_BY_CGROUP, "/web.slice", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_NEAR(row.wake_us, 300, 1e-9);
	/* since start keeps them where they went */
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK(find(t, DTL_TASKS_BY_TASK, "nginx[7]", &row, DTL_SPAN_TOTAL) >= 0);
	CHECK_NEAR(row.wake_us, 300, 1e-9);
	/* a cede, then the idle task preempted (polling): the task after is no cede's wake-up */
	sw(t, 0, 5000, 0, NULL, NULL);
	put(e, 6000, 2, 70, 0, 900, 0, 0);
	put(e + DTL_ENTRY_SIZE, 6500, 4, 30, 0, 0, 0, 0);
	dtl_tasks__add_entries(t, 0, e, 2);
	sw(t, 0, 6600, 7, NULL, NULL);
	put(e, 7000, 4, 5, 0, 0, 0, 0);
	dtl_tasks__add_entries(t, 0, e, 1);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK(find(t, DTL_TASKS_BY_TASK, "nginx[7]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_NEAR(row.wake_us, 0, 1e-9);
	CHECK_NEAR(row.steal_us, 5, 1e-9);
	CHECK(find(t, DTL_TASKS_BY_TASK, "idle", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_NEAR(row.wake_us, 70, 1e-9);
	dtl_tasks__delete(t);
}

/* A stream that lost records, or a clock map in doubt: nobody pays until the next switch. */
TEST(tasks_after_an_unknown_switch_nobody_pays_until_the_next)
{
	struct dtl_tasks *t = dtl_tasks__new(2, 1000000);
	uint8_t e[3 * DTL_ENTRY_SIZE];
	struct dtl_row row;

	sw(t, 0, 100, 7, "db", "/db.slice");
	sw(t, 0, 2000, DTL_SWITCH_UNKNOWN, NULL, NULL);
	sw(t, 0, 5000, 8, "web", "/web.slice");
	sw(t, 1, 100, 7, "db", NULL);
	put(e, 1500, 4, 10, 0, 0, 0, 0);				/* db's */
	put(e + DTL_ENTRY_SIZE, 3000, 4, 10, 0, 0, 0, 0);	/* nobody's */
	put(e + 2 * DTL_ENTRY_SIZE, 6000, 4, 10, 0, 0, 0, 0);	/* web's */
	dtl_tasks__add_entries(t, 0, e, 3);
	/* another CPU's task is not touched by CPU 0's unknown */
	dtl_tasks__add_entries(t, 1, e + DTL_ENTRY_SIZE, 1);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK_EQ(dtl_tasks__unattributed(t), 1);
	CHECK(find(t, DTL_TASKS_BY_TASK, "db[7]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 2);
	CHECK(find(t, DTL_TASKS_BY_TASK, "web[8]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK(find(t, DTL_TASKS_BY_TASK, "(unknown)", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	/* no task is made for the unknown pid itself */
	CHECK(find(t, DTL_TASKS_BY_TASK, "?[-1]", &row, DTL_SPAN_INTERVAL) < 0);
	CHECK_EQ(dtl_tasks__count(t, DTL_TASKS_BY_TASK), 3);
	/* by cgroup, the unknown task's entry is the unknown cgroup's */
	CHECK(find(t, DTL_TASKS_BY_CGROUP, "(unknown)", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK(find(t, DTL_TASKS_BY_CGROUP, "/db.slice", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 2);
	dtl_tasks__delete(t);
}

TEST(tasks_past_the_table_share_one_row_and_queues_stay_bounded)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	uint8_t e[DTL_ENTRY_SIZE];
	struct dtl_row row;
	char comm[16];

	for (int i = 0; i < DTL_TASKS_MAX + 100; i++) {
		snprintf(comm, sizeof(comm), "t%d", i);
		sw(t, 0, 100 + (uint64_t)i * 10, i + 1, comm, NULL);
	}
	put(e, 100 + (DTL_TASKS_MAX + 200) * 10ull, 4, 5, 0, 0, 0, 0);
	dtl_tasks__add_entries(t, 0, e, 1);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK_EQ(dtl_tasks__count(t, DTL_TASKS_BY_TASK), DTL_TASKS_MAX);
	CHECK(find(t, DTL_TASKS_BY_TASK, "other", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK(row.cpu != DTL_ROW_ALL && row.cpu != DTL_ROW_SELECTED);	/* no aggregate's id */
	dtl_tasks__delete(t);
}

/* The simulator's scheduler against what attribution finds from its two streams. */
#include "source/sim.h"
#include "source/source.h"

static void sim_against_truth(const char *params, unsigned int mask, int intervals)
{
	struct dtl_source_opts o = { 0 };
	struct dtl_source *src;
	struct dtl_tasks *t;
	struct dtl_chunk c;
	struct dtl_sim_params p;
	char err[512], name[64];
	uint64_t all = 0;

	o.backend = "sim";
	o.sim_params = params;
	o.seed = 7;
	o.mask = mask;
	src = dtl_source__open(&o, err, sizeof(err));
	CHECK(src != NULL);
	if (!src)
		return;
	CHECK_EQ(dtl_sim__parse(params, &p, err, sizeof(err)), 0);
	t = dtl_tasks__new(dtl_source__nr_cpus(src), dtl_source__tb_freq(src));
	for (int i = 0; i < intervals; i++) {
		dtl_source__tick(src, 200000000);
		while (dtl_source__read(src, &c) > 0) {
			for (size_t k = 0; k < c.nswitches; k++)
				dtl_tasks__switch(t, c.cpu, &c.switches[k]);
			dtl_tasks__add_entries(t, c.cpu, c.data, c.n);
		}
		dtl_tasks__end_interval(t, 0.2, mask);
	}
	CHECK(dtl_tasks__known(t));
	CHECK_EQ(dtl_tasks__unattributed(t), 0);
	for (unsigned int i = 0; i <= p.ntasks; i++) {
		struct dtl_sim_truth truth;
		struct dtl_row row;
		double tb_us = (double)dtl_source__tb_freq(src) / 1e6;

		CHECK_EQ(dtl_sim__truth(src, i, &truth), 0);
		if (i < p.ntasks)
			snprintf(name, sizeof(name), "%s[%d]", p.tasks[i].name, p.tasks[i].pid);
		else
			snprintf(name, sizeof(name), "idle");
		if (!truth.dispatches) {
			CHECK(find(t, DTL_TASKS_BY_TASK, name, &row, DTL_SPAN_TOTAL) < 0 ||
			      row.dispatches == 0);
			continue;
		}
		CHECK(find(t, DTL_TASKS_BY_TASK, name, &row, DTL_SPAN_TOTAL) >= 0);
		CHECK_EQ(row.dispatches, truth.dispatches);
		CHECK_EQ(row.preempt[1] + row.preempt[4] + row.preempt[5] + row.preempt[6] +
			 row.preempt[9], truth.involuntary);
		CHECK_NEAR(row.steal_us, (double)truth.steal_ticks / tb_us, 1e-3);
		CHECK_NEAR(row.wake_us, (double)truth.wake_ticks / tb_us, 1e-3);
		CHECK_NEAR(row.idle_us, (double)truth.idle_ticks / tb_us, 1e-3);
		all += truth.dispatches;
	}
	CHECK(all > 0);
	dtl_tasks__delete(t);
	dtl_source__close(src);
}

/*
 * What a file or a guest names chooses neither the cost of a switch nor the
 * slots it lands in: pids 8192 apart (one slot each under a plain modulo)
 * and 4096 cgroups cost a few table slots a switch, as one pid would.
 */
TEST(tasks_a_switch_costs_the_same_whatever_pids_and_cgroups_are_named)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	char cg[64];
	uint64_t tb = 1, n = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int k = 1; k < DTL_TASKS_MAX - 1; k++, n++)
			sw(t, 0, tb++, 8192 * k, "p", NULL);
	/* linear probing at half load looks at about 2.5 slots a miss, 1.5 a hit */
	CHECK((double)dtl_tasks__probes(t) / (double)n < 4);
	dtl_tasks__delete(t);

	t = dtl_tasks__new(1, 1000000);
	n = 0;
	for (int pass = 0; pass < 3; pass++)
		for (int k = 0; k < DTL_TASKS_MAX; k++, n++) {
			/* names alike up to their last bytes, as a crafted file makes them */
			snprintf(cg, sizeof(cg), "/system.slice/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%05d", k);
			sw(t, 0, tb++, 42, NULL, cg);
		}
	CHECK((double)dtl_tasks__probes(t) / (double)n < 4);
	/* each name is its own row, kept whole */
	dtl_tasks__end_interval(t, 1, DTL_MASK_ALL);
	CHECK_EQ(dtl_tasks__count(t, DTL_TASKS_BY_CGROUP), (size_t)DTL_TASKS_MAX + 2);
	dtl_tasks__delete(t);
}

TEST(tasks_match_the_simulators_ground_truth)
{
	/* pinned and not, cgroups, a capped starved pool; every entry traced */
	sim_against_truth("vcpus=8,ent=1,pool=2,capped=1,load=0.7,other=2,clock=virtual,"
			  "tasks=db:3:/system.slice/db.service+web:2+batch:1:/batch.slice:cpu1",
			  DTL_MASK_ALL, 10);
	/* only preempts traced: switches pile up between entries, attribution holds */
	sim_against_truth("vcpus=4,clock=virtual,faults=50,tasks=a+b:2:cpu3", DTL_MASK_PREEMPT |
			  DTL_MASK_FAULT, 10);
	/* an idle LPAR: nearly all cedes, the idle task's */
	sim_against_truth("vcpus=16,profile=idle,clock=virtual,tasks=cron:1:/system.slice/cron.service",
			  DTL_MASK_ALL, 5);
	/* a ring that laps (slow drain): lost entries are nobody's in either count */
	sim_against_truth("vcpus=2,load=0.9,busy=0.05,poll=100,clock=virtual,tasks=x", DTL_MASK_ALL, 3);
}

#include "platform/ksyms.h"

TEST(ksyms_names_addresses_and_says_when_hidden)
{
	static const char text[] =
		"c000000000010000 T _stext\n"
		"c000000000100000 t do_work\n"
		"c000000000100400 T schedule\n"
		"c000000000200000 D some_data\n"
		"c000000000300000 W weak_fn\n"
		"c0000000004000000 T bad line\n"
		"garbage\n"
		"c000000000500000 t mod_fn\t[ext4]\n";
	static const char hidden[] = "0000000000000000 T _stext\n0000000000000000 t do_work\n";
	char why[128], buf[96];
	struct dtl_ksyms *k = dtl_ksyms__parse(text, sizeof(text) - 1, why, sizeof(why));

	CHECK(k != NULL);
	CHECK_EQ(dtl_ksyms__name(k, 0xc000000000100010ull, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "do_work+0x10");
	CHECK_EQ(dtl_ksyms__name(k, 0xc000000000100400ull, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "schedule+0x0");
	/* data is no code: the address falls to the text symbol below it */
	CHECK_EQ(dtl_ksyms__name(k, 0xc000000000200008ull, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "schedule+0xffc08");
	CHECK_EQ(dtl_ksyms__name(k, 0xc000000000500004ull, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "mod_fn+0x4");
	CHECK_EQ(dtl_ksyms__name(k, 0x1000, buf, sizeof(buf)), -1);
	dtl_ksyms__free(k);
	CHECK(dtl_ksyms__parse(hidden, sizeof(hidden) - 1, why, sizeof(why)) == NULL);
	CHECK_CONTAINS(why, "kptr_restrict hides them");
	CHECK(dtl_ksyms__parse("", 0, why, sizeof(why)) == NULL);
	CHECK(dtl_ksyms__parse("\n\n\n", 3, why, sizeof(why)) == NULL);
	CHECK_EQ(dtl_ksyms__name(NULL, 1, buf, sizeof(buf)), -1);
	/* truncated mid-line: the last line is taken as far as it goes, nothing read past */
	k = dtl_ksyms__parse(text, 40, why, sizeof(why));
	CHECK(k != NULL);
	dtl_ksyms__free(k);
}

#include "format/switches.h"

TEST(switches_round_trip_and_refuse_what_is_cut_or_garbage)
{
	char big[200];
	struct dtl_switch in[3] = {
		{ 1000, 0, NULL, NULL },
		{ 2000, 42, "db", "/system.slice/db.service" },
		{ 3000, -7, "a-very-long-comm-name", big },
	}, out[8];
	uint8_t buf[1024], junk[64];
	char text[1024];
	size_t len, n;
	int bad;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	big[0] = '/';
	len = dtl_rec_switches__size(in, 3);
	CHECK_EQ(len, 14 + 14 + 2 + 24 + 14 + 16 + 127);
	dtl_rec_switches__pack(buf, in, 3);
	n = dtl_rec_switches__unpack(buf, len, out, 8, text, sizeof(text), &bad);
	CHECK_EQ(n, 3);
	CHECK_EQ(bad, 0);
	CHECK_EQ(out[0].tb, 1000);
	CHECK(out[0].comm == NULL && out[0].cgroup == NULL);
	CHECK_EQ(out[1].pid, 42);
	CHECK_STR(out[1].comm, "db");
	CHECK_STR(out[1].cgroup, "/system.slice/db.service");
	CHECK_EQ(out[2].pid, -7);
	CHECK_STR(out[2].comm, "a-very-long-comm");	/* 16 bytes kept */
	CHECK_EQ(strlen(out[2].cgroup), 127);
	/* cut anywhere: the whole switches before the cut, and bad */
	for (size_t cut = 1; cut < len; cut++) {
		n = dtl_rec_switches__unpack(buf, cut, out, 8, text, sizeof(text), &bad);
		CHECK(n < 3);
		CHECK(bad || cut == 14 || cut == 14 + 14 + 2 + 24);
	}
	/* garbage: lengths past their bounds are refused, nothing read past len */
	memset(junk, 0xff, sizeof(junk));
	n = dtl_rec_switches__unpack(junk, sizeof(junk), out, 8, text, sizeof(text), &bad);
	CHECK_EQ(n, 0);
	CHECK_EQ(bad, 1);
	/* names that do not fit the text buffer come out unknown, not cut */
	n = dtl_rec_switches__unpack(buf, len, out, 8, text, 2, &bad);
	CHECK_EQ(n, 3);
	CHECK(out[1].comm == NULL);
	/* no more than max */
	CHECK_EQ(dtl_rec_switches__unpack(buf, len, out, 2, text, sizeof(text), &bad), 2);
}

/*
 * Skimmed, a record's switches are those that name their task and the last,
 * each as unpack makes it; cut or garbage, it stops where unpack does.
 */
TEST(switches_skimmed_keep_the_named_and_the_last)
{
	struct dtl_switch in[5] = {
		{ 1000, 5, NULL, NULL },
		{ 2000, 42, "db", "/db.service" },
		{ 3000, 6, NULL, NULL },
		{ 4000, 43, NULL, "/web.service" },
		{ 5000, 7, NULL, NULL },
	}, out[8], all[8];
	uint8_t buf[512], junk[64];
	char text[512], text2[512];
	size_t len, n, k;
	int bad, bad2;

	len = dtl_rec_switches__size(in, 5);
	dtl_rec_switches__pack(buf, in, 5);
	n = dtl_rec_switches__skim(buf, len, out, 8, text, sizeof(text), &bad);
	CHECK_EQ(n, 3);
	CHECK_EQ(bad, 0);
	CHECK_EQ(out[0].pid, 42);
	CHECK_STR(out[0].comm, "db");
	CHECK_EQ(out[1].pid, 43);
	CHECK(out[1].comm == NULL);
	CHECK_STR(out[1].cgroup, "/web.service");
	CHECK_EQ(out[2].pid, 7);
	CHECK_EQ(out[2].tb, 5000);
	/* cut anywhere: the last whole switch is the last, as unpack reads it */
	for (size_t cut = 1; cut < len; cut++) {
		n = dtl_rec_switches__skim(buf, cut, out, 8, text, sizeof(text), &bad);
		k = dtl_rec_switches__unpack(buf, cut, all, 8, text2, sizeof(text2), &bad2);
		CHECK_EQ(bad, bad2);
		CHECK(k == 0 ? n == 0 : n >= 1 && out[n - 1].tb == all[k - 1].tb);
	}
	/* no more than unpack's max are read: of 2, the second (named) is the last */
	n = dtl_rec_switches__skim(buf, len, out, 2, text, sizeof(text), &bad);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].pid, 42);
	memset(junk, 0xff, sizeof(junk));
	CHECK_EQ(dtl_rec_switches__skim(junk, sizeof(junk), out, 8, text, sizeof(text), &bad), 0);
	CHECK_EQ(bad, 1);
}

#include "platform/ksyms.h"
#include "stats/where.h"

/*
 * Where, by function: addresses in one function add up, ties go by name,
 * user space is counted apart and never as a function, the functions past
 * the top ones sum in other; with no symbols, each address is itself.
 */
TEST(where_names_functions_merges_and_breaks_ties_by_name)
{
	/* gamma below beta: by address gamma would come first */
	static const char ks[] = "c000000000010000 T alpha\nc000000000020000 T gamma\n"
				 "c000000000030000 T beta\n";
	static const struct { uint64_t pc, srr1; int n; } hits[] = {
		{ 0xc000000000010010ull, 0x8000000000001033ull, 4 },
		{ 0xc000000000010020ull, 0x8000000000001033ull, 2 },
		{ 0xc000000000030000ull, 0x8000000000001033ull, 3 },
		{ 0xc000000000020008ull, 0x8000000000001033ull, 3 },
		{ 0x0000000010001000ull, 0x800000000000d033ull, 2 },	/* user space */
	};
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	char why[128];
	struct dtl_ksyms *k = dtl_ksyms__parse(ks, sizeof(ks) - 1, why, sizeof(why));
	uint8_t e[DTL_ENTRY_SIZE];
	uint64_t tb = 1000, fresh[16];
	struct dtl_where w;

	CHECK(k != NULL);
	sw(t, 0, 10, 5, "busy", "/a");
	dtl_tasks__log_pcs(t);
	for (size_t h = 0; h < sizeof(hits) / sizeof(hits[0]); h++)
		for (int i = 0; i < hits[h].n; i++, tb += 100) {
			put(e, tb, 4, 10, 0, 0, hits[h].pc, hits[h].srr1);
			dtl_tasks__add_entries(t, 0, e, 1);
		}
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK_EQ(dtl_where__of(t, DTL_TASKS_BY_TASK, 5, k, &w), 0);
	CHECK_EQ(w.all, 14);
	CHECK_EQ(w.user, 2);
	CHECK_EQ(w.n, 3);
	CHECK_STR(w.fn[0].name, "alpha");
	CHECK_EQ(w.fn[0].n, 6);
	CHECK_STR(w.fn[1].name, "beta");	/* 3 as gamma: the name decides */
	CHECK_STR(w.fn[2].name, "gamma");
	CHECK_EQ(w.other + w.unkept, 0);
	/* no symbols: each kernel address on its own, user space still apart */
	CHECK_EQ(dtl_where__of(t, DTL_TASKS_BY_TASK, 5, NULL, &w), 0);
	CHECK_EQ(w.n, 4);
	CHECK_STR(w.fn[0].name, "0xc000000000010010");
	CHECK_EQ(w.user, 2);
	CHECK_EQ(dtl_where__of(t, DTL_TASKS_BY_TASK, 77, k, &w), -1);
	/* each kernel address new to the task, once; user space is none */
	CHECK_EQ(dtl_tasks__take_pcs(t, fresh, 16), 4);
	CHECK_EQ(dtl_tasks__take_pcs(t, fresh, 16), 0);
	put(e, tb, 4, 10, 0, 0, 0xc000000000010010ull, 0);
	dtl_tasks__add_entries(t, 0, e, 1);
	CHECK_EQ(dtl_tasks__take_pcs(t, fresh, 16), 0);
	dtl_ksyms__free(k);
	dtl_tasks__delete(t);
}

TEST(where_sums_functions_past_the_top_in_other)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	uint8_t e[DTL_ENTRY_SIZE];
	uint64_t tb = 1000, fresh[4];
	struct dtl_where w;

	sw(t, 0, 10, 5, "busy", "/a");
	/* DTL_WHERE_TOP + 2 addresses, the later ones fewer: the last two are other */
	for (int f = 0; f < DTL_WHERE_TOP + 2; f++)
		for (int i = 0; i < 20 - f; i++, tb += 100) {
			put(e, tb, 4, 10, 0, 0, 0xc000000000100000ull + 0x100 * (uint64_t)f, 0);
			dtl_tasks__add_entries(t, 0, e, 1);
		}
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK_EQ(dtl_where__of(t, DTL_TASKS_BY_TASK, 5, NULL, &w), 0);
	CHECK_EQ(w.n, DTL_WHERE_TOP);
	CHECK_EQ(w.fn[0].n, 20);
	CHECK_EQ(w.other, (20 - DTL_WHERE_TOP) + (20 - DTL_WHERE_TOP - 1));
	/* nobody asked: nothing kept for a recording */
	CHECK_EQ(dtl_tasks__take_pcs(t, fresh, 4), 0);
	dtl_tasks__delete(t);
}

/* Two switches at one instant (a task that ran for less than a tick): the later one runs on. */
TEST(tasks_switches_at_one_instant_keep_their_order)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000);
	uint8_t e[DTL_ENTRY_SIZE];
	struct dtl_row row;

	sw(t, 0, 100, 5, "first", "/a");
	sw(t, 0, 100, 6, "second", "/a");
	put(e, 1000, 4, 10, 0, 0, 0xc0000000000aaaa0ull, 0);
	dtl_tasks__add_entries(t, 0, e, 1);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	CHECK(find(t, DTL_TASKS_BY_TASK, "second[6]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.dispatches, 1);
	CHECK(find(t, DTL_TASKS_BY_TASK, "first[5]", &row, DTL_SPAN_INTERVAL) < 0 || row.dispatches == 0);
	dtl_tasks__delete(t);
}

/* A CPU whose mask logs nothing holds switches for no entry: the oldest apply, in order. */
TEST(tasks_a_cpu_without_entries_holds_at_most_a_queue_of_switches)
{
	struct dtl_tasks *t = dtl_tasks__new(1, 1000000), *ref = dtl_tasks__new(1, 1000000);
	uint8_t e[DTL_ENTRY_SIZE];
	struct dtl_row row, want;
	const uint64_t end = 1000 + 10 * 3 * DTL_TASKS_QUEUE;

	for (int i = 0; i < 3 * DTL_TASKS_QUEUE; i++) {
		uint64_t tb = 1000 + 10 * (uint64_t)i;

		sw(t, 0, tb, i % 2 ? 42 : 7, i % 2 ? "db" : "web", NULL);
		sw(ref, 0, tb, i % 2 ? 42 : 7, i % 2 ? "db" : "web", NULL);
		/* the reference drains its queue with an entry every 500 switches */
		if (i % 500 == 499) {
			put(e, tb + 5, 2, 1, 0, 0, 0, 0);
			dtl_tasks__add_entries(ref, 0, e, 1);
		}
	}
	CHECK_EQ(dtl_tasks__queued(t, 0), DTL_TASKS_QUEUE);
	CHECK(dtl_tasks__queued(ref, 0) < DTL_TASKS_QUEUE);
	CHECK_EQ(dtl_tasks__queued(t, 1), 0);
	/* preempted after the last switch (db's): db pays, as if nothing were held */
	put(e, end + 250, 4, 200, 0, 0, 0xc000000000123450ull, 0x8000000000001033ull);
	dtl_tasks__add_entries(t, 0, e, 1);
	dtl_tasks__add_entries(ref, 0, e, 1);
	dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
	dtl_tasks__end_interval(ref, 1.0, DTL_MASK_ALL);
	CHECK(find(t, DTL_TASKS_BY_TASK, "db[42]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK_EQ(row.preempt[4], 1);
	CHECK(find(ref, DTL_TASKS_BY_TASK, "db[42]", &want, DTL_SPAN_INTERVAL) >= 0);
	CHECK(row.oncpu_s > 0.015);
	CHECK_NEAR(row.oncpu_s, want.oncpu_s, 1e-12);	/* held or applied, the same time */
	CHECK(find(t, DTL_TASKS_BY_TASK, "web[7]", &row, DTL_SPAN_INTERVAL) >= 0);
	CHECK(find(ref, DTL_TASKS_BY_TASK, "web[7]", &want, DTL_SPAN_INTERVAL) >= 0);
	CHECK_NEAR(row.oncpu_s, want.oncpu_s, 1e-12);
	dtl_tasks__delete(t);
	dtl_tasks__delete(ref);
}
