/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Summary recordings: one CPU's (or task's) interval as counts, and the
 * stats and the task table folding such counts as they folded the entries.
 */
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtl/dtl.h"
#include "format/record.h"
#include "format/request.h"
#include "format/summary.h"
#include "platform/perf.h"
#include "platform/caps.h"
#include "platform/usock.h"
#include "stats/counts.h"
#include "stats/task.h"
#include "fakeroot.h"

static struct dtl_rec rec(uint64_t tb, uint8_t pre, uint16_t proc, uint32_t e2d, uint32_t r2e,
			  uint32_t w2r)
{
	struct dtl_rec r = { 0 };

	r.timebase = tb;
	r.dispatch_reason = (uint8_t)(tb % 11);
	r.preempt_reason = pre;
	r.processor_id = proc;
	r.enqueue_to_dispatch = e2d;
	r.ready_to_enqueue = r2e;
	r.waiting_to_ready = w2r;
	r.srr0 = 0xc000000000010000ull + (tb % 7) * 64;
	r.srr1 = tb % 3 ? 0 : 1u << 14;
	return r;
}

/* A CPU's interval with every kind of counter set, as entries make them. */
static void busy(struct dtl_interval_cpu *k, unsigned int seed)
{
	memset(k, 0, sizeof(*k));
	for (unsigned int i = 0; i < 300; i++) {
		struct dtl_rec r = rec(1000 + i * 100, (uint8_t)((i * seed) % 12), 0,
				       (i * 37 * seed) % 5000, i % 9, (i * 11) % 700);

		dtl_counts__entry(&k->c, &r);
	}
	k->c.gaps = 2, k->c.lost = 17, k->c.bad = 1, k->c.migrations = 40, k->c.migr_core = 9;
	k->c.vpa_steal = 123456789012ull, k->c.vpa_cpus = 1, k->c.stat_cpus = 1;
	k->carry_steal = 5, k->carry_idle = 1ull << 40, k->proc_other = 3;
	k->proc_id[2] = 0x1a, k->proc_n[2] = 4, k->proc_id[7] = 0xffff, k->proc_n[7] = 1;
}

TEST(summary_counts_round_trip_exactly)
{
	static uint8_t buf[DTL_SUM_MAX];
	struct dtl_interval_cpu k, back;
	unsigned int flags = 9;
	const char *why = NULL;
	size_t n;

	busy(&k, 7);
	CHECK(!dtl_sum__empty(&k));
	n = dtl_sum__pack(&k, DTL_SUM_TOLD, buf);
	CHECK(n > 20 && n < 400);	/* only what is not 0, as varints */
	CHECK_EQ(dtl_sum__unpack(buf, n, &back, &flags, &why), 0);
	CHECK_EQ(flags, DTL_SUM_TOLD);
	CHECK(memcmp(&k, &back, sizeof(k)) == 0);
	/* a newer minor's fields after these are passed over */
	buf[n] = 0x55;
	CHECK_EQ(dtl_sum__unpack(buf, n + 1, &back, &flags, &why), 0);
	CHECK(memcmp(&k, &back, sizeof(k)) == 0);
	/*
	 * From entries alone, the waits whole at the dispatch are the interval's
	 * and the VPA's steal is the DTL's: said as differences of 0, they take
	 * no byte; one tick more takes one.
	 */
	{
		struct dtl_interval_cpu e;
		size_t base;

		busy(&e, 2);
		e.carry_steal = e.carry_idle = 0;
		e.c.vpa_steal = e.c.steal_raw;
		base = dtl_sum__pack(&e, 0, buf);
		e.c.w2r_raw++;
		CHECK_EQ(dtl_sum__pack(&e, 0, buf), base + 1);
		e.c.vpa_steal--;
		CHECK_EQ(dtl_sum__pack(&e, 0, buf), base + 2);
		e.c.steal_raw++, e.c.vpa_steal++;
		CHECK_EQ(dtl_sum__pack(&e, 0, buf), base + 3);
		CHECK_EQ(dtl_sum__unpack(buf, base + 3, &back, &flags, &why), 0);
		CHECK(memcmp(&e, &back, sizeof(e)) == 0);
	}
	/* nothing at all: empty, and still comes back as nothing */
	memset(&k, 0, sizeof(k));
	CHECK(dtl_sum__empty(&k));
	k.proc_n[1] = 1;
	CHECK(!dtl_sum__empty(&k));
	k.proc_n[1] = 0;
	n = dtl_sum__pack(&k, 0, buf);
	CHECK_EQ(dtl_sum__unpack(buf, n, &back, &flags, &why), 0);
	CHECK(memcmp(&k, &back, sizeof(k)) == 0);
}

TEST(summary_counts_cut_off_or_not_adding_up_are_refused)
{
	static uint8_t buf[DTL_SUM_MAX];
	struct dtl_interval_cpu k, back;
	unsigned int flags;
	const char *why;
	size_t n;

	busy(&k, 3);
	n = dtl_sum__pack(&k, 0, buf);
	for (size_t cut = 0; cut < n; cut++) {
		why = NULL;
		if (dtl_sum__unpack(buf, cut, &back, &flags, &why) != -1 || !why)
			T_FAIL("counts cut at %zu of %zu bytes were taken", cut, n);
	}
	/* each of what the stats rely on, broken on its own */
	for (int c = 0; c < 9; c++) {
		static const char *const want[] = {
			"add up", "add up", "add up", "past their largest", "no entry could have",
			"exceed their whole", "exceed their whole", "no entry could have",
			"two processors in one slot",
		};

		busy(&k, 5);
		switch (c) {
		case 0: k.c.dispatches++; break;			/* a reason short */
		case 1: k.c.dispatch[3]++; break;
		case 2: k.c.hist[2]--; break;				/* a latency short */
		case 3: k.c.lat_max = 1; k.c.hist[0] = k.c.dispatches;	/* buckets past the max */
			memset(k.c.hist + 1, 0, sizeof(k.c.hist) - sizeof(k.c.hist[0]));
			k.c.hist[9] = 1, k.c.hist[0]--; break;
		case 4: k.c.lat_max = 1ull << 33; break;
		case 5: k.c.involuntary = k.c.dispatches + 1; break;
		case 6: k.c.migr_core = k.c.migrations + 1; break;
		case 7: memset(&k, 0, sizeof(k)); k.c.lat_max = 5; break;	/* a wait, no dispatch */
		case 8: k.proc_id[3] = 0x12; k.proc_n[3] = 1; break;	/* 0x12 is slot 2's, as 0x1a */
		}
		n = dtl_sum__pack(&k, 0, buf);
		why = NULL;
		CHECK_EQ(dtl_sum__unpack(buf, n, &back, &flags, &why), -1);
		if (!why || !strstr(why, want[c]))
			T_FAIL("case %d: \"%s\", want \"%s\"", c, why ? why : "(null)", want[c]);
	}
	/* garbage: never a crash, never an overrun (ASan), some refused */
	srand(7);
	for (int i = 0, refused = 0; i < 20000; i++) {
		size_t len = (size_t)(rand() % 64);

		for (size_t j = 0; j < len; j++)
			buf[j] = (uint8_t)rand();
		refused += dtl_sum__unpack(buf, len, &back, &flags, &why) != 0;
		if (i == 19999)
			CHECK(refused > 19000);
	}
}

TEST(summary_tasks_round_trip_with_clean_names)
{
	static uint8_t buf[DTL_SUM_TASK_MAX];
	static struct dtl_sum_task back;
	struct dtl_task_pc pcs[3] = { { 0x10000000ull, 2 }, { 0xc000000000123456ull, 5 },
				      { ~0ull, 1 } }, mixed[3] = { pcs[2], pcs[0], pcs[1] };
	struct dtl_task_interval ti = { .pid = -7, .name = "db\x1b[31m[12]", .cgroup =
					"/system.slice/db.service", .run = 1ull << 50, .user = 2,
					.invol = 9, .pcs = mixed, .npcs = 3 };
	struct dtl_interval_cpu k;
	const char *why = NULL;
	size_t n;

	busy(&k, 11);
	ti.c = k.c;
	n = dtl_sum__pack_task(&ti, buf);
	CHECK_EQ(dtl_sum__unpack_task(buf, n, &back, &why), 0);
	CHECK_EQ(back.ti.pid, -7);
	CHECK_STR(back.ti.name, "db?[31m[12]");	/* the escape cleaned where it came in */
	CHECK_STR(back.ti.cgroup, "/system.slice/db.service");
	CHECK_EQ(back.ti.run, 1ull << 50);
	CHECK_EQ(back.ti.user, 2);
	CHECK_EQ(back.ti.invol, 9);
	CHECK_EQ(back.ti.npcs, 3);
	CHECK(memcmp(back.ti.pcs, pcs, sizeof(pcs)) == 0);	/* in order, as steps */
	CHECK(memcmp(&back.ti.c, &k.c, sizeof(k.c)) == 0);
	/* the same srr0 twice: no step, refused */
	mixed[1] = mixed[0];
	CHECK_EQ(dtl_sum__unpack_task(buf, dtl_sum__pack_task(&ti, buf), &back, &why), -1);
	CHECK_CONTAINS(why, "srr0s out of order");
	mixed[1] = pcs[0];
	/* pid 0 and the table's own rows; no cgroup is NULL again */
	ti.pid = INT32_MAX, ti.cgroup = NULL, ti.npcs = 0, ti.invol = 2;
	n = dtl_sum__pack_task(&ti, buf);
	CHECK_EQ(dtl_sum__unpack_task(buf, n, &back, &why), 0);
	CHECK_EQ(back.ti.pid, INT32_MAX);
	CHECK(back.ti.cgroup == NULL);
	for (size_t cut = 0; cut < n; cut++)
		if (dtl_sum__unpack_task(buf, cut, &back, &why) != -1)
			T_FAIL("a task cut at %zu of %zu bytes was taken", cut, n);
	/* more srr0s counted than preempts, or user ones past all */
	ti.pcs = pcs, ti.npcs = 3, ti.invol = 7;
	n = dtl_sum__pack_task(&ti, buf);
	CHECK_EQ(dtl_sum__unpack_task(buf, n, &back, &why), -1);
	ti.invol = 8, ti.user = 9;
	n = dtl_sum__pack_task(&ti, buf);
	CHECK_EQ(dtl_sum__unpack_task(buf, n, &back, &why), -1);
}

static bool rows_equal(const struct dtl_row *a, const struct dtl_row *b)
{
	return a->dispatches == b->dispatches && a->steal_us == b->steal_us &&
	       a->idle_us == b->idle_us && a->wake_us == b->wake_us &&
	       a->lat_p50_us == b->lat_p50_us && a->lat_p99_us == b->lat_p99_us &&
	       a->lat_max_us == b->lat_max_us && a->migrations == b->migrations &&
	       a->migr_core == b->migr_core && a->faults == b->faults && a->lost == b->lost &&
	       a->gaps == b->gaps && a->bad == b->bad && a->mask == b->mask &&
	       a->known == b->known && a->e2d_s == b->e2d_s && a->r2e_s == b->r2e_s &&
	       a->w2r_s == b->w2r_s && a->steal_vpa_us == b->steal_vpa_us &&
	       a->steal_pct == b->steal_pct && a->idle_pct == b->idle_pct &&
	       a->threads == b->threads &&
	       !memcmp(a->preempt, b->preempt, sizeof(a->preempt)) &&
	       !memcmp(a->dispatch, b->dispatch, sizeof(a->dispatch));
}

static void same_stats(struct dtl_stats *a, struct dtl_stats *b, int iv)
{
	struct dtl_row ra, rb;
	uint64_t ha[DTL_HIST_BUCKETS], hb[DTL_HIST_BUCKETS], oa, ob;
	struct dtl_proc_count pa[8], pb[8];

	for (int span = 0; span < 2; span++)
		for (int id = DTL_ROW_ALL; id < 4; id++) {
			CHECK_EQ(dtl_stats__row(a, id, span, &ra), dtl_stats__row(b, id, span, &rb));
			if (!rows_equal(&ra, &rb))
				T_FAIL("interval %d, span %d, cpu %d: rows differ (steal %.9g vs %.9g, "
				       "idle %.9g vs %.9g)", iv, span, id, ra.steal_us, rb.steal_us,
				       ra.idle_us, rb.idle_us);
			if (id >= 0 && !(id & 1)) {
				CHECK_EQ(dtl_stats__vp_row(a, id, span, &ra),
					 dtl_stats__vp_row(b, id, span, &rb));
				CHECK(rows_equal(&ra, &rb));
			}
		}
	CHECK_EQ(dtl_stats__hist(a, DTL_ROW_ALL, false, ha), 0);
	CHECK_EQ(dtl_stats__hist(b, DTL_ROW_ALL, false, hb), 0);
	CHECK(memcmp(ha, hb, sizeof(ha)) == 0);
	{
		int na = dtl_stats__procs(a, 1, false, pa, 8, &oa);
		int nb = dtl_stats__procs(b, 1, false, pb, 8, &ob);

		CHECK_EQ(na, nb);
		CHECK(na > 0 && na == nb && memcmp(pa, pb, (size_t)na * sizeof(pa[0])) == 0);
		CHECK_EQ(oa, ob);
	}
}

/*
 * Entries into one stats that keeps, its kept counts into another: every
 * row (CPUs, VPs, the partition, the interval and the totals), the
 * histogram and the processors are the same, with waits that began before
 * an interval, a clock behind the entries, a reset between.
 */
TEST(summary_counts_fold_into_the_same_rows_as_their_entries)
{
	struct dtl_stats *a = dtl_stats__new(4, 1000000), *b = dtl_stats__new(4, 1000000);
	uint16_t vp[4] = { 0, 0, 2, 2 };
	uint64_t t = 50000;

	CHECK_EQ(dtl_stats__keep(a), 0);
	CHECK(dtl_stats__kept(b, 0) == NULL);
	for (unsigned int c = 0; c < 4; c++) {
		dtl_stats__set_online(a, c, true);
		dtl_stats__set_online(b, c, true);
	}
	dtl_stats__set_vps(a, vp, 2);
	dtl_stats__set_vps(b, vp, 2);
	dtl_stats__start_at(a, 40000);
	dtl_stats__start_at(b, 40000);
	for (int iv = 0; iv < 4; iv++) {
		for (unsigned int c = 0; c < 4; c++)
			for (unsigned int i = 0; i < 40 + c * 30; i++) {
				/* long waits across the interval's start, now and then */
				uint32_t w2r = i == 0 ? 30000 : (i * 7) % 900;
				uint32_t e2d = i == 0 ? 20000 : (i * 131 + c) % 9000;
				struct dtl_rec r = rec(t + c * 11 + i * 500 + iv * 3, (uint8_t)((i + c) % 11),
						       (uint16_t)(c * 4 + i % 3 + (i % 17 == 0) * 8),
						       e2d, i % 13, w2r);

				dtl_stats__add(a, c, &r);
			}
		dtl_stats__add_lost(a, 1, 3);
		dtl_stats__add_gaps(a, 2, 1);
		dtl_stats__add_witness(a, 0, 77777);
		if (iv == 2)
			dtl_stats__set_mask(a, DTL_MASK_PREEMPT), dtl_stats__set_mask(b, DTL_MASK_PREEMPT);
		t += 100000;
		/* the clock is behind the latest entry in the second interval */
		dtl_stats__end_at(a, iv == 1 ? t - 60000 : t);
		dtl_stats__end_interval(a, 0.1);
		for (unsigned int c = 0; c < 4; c++)
			dtl_stats__add_interval(b, c, dtl_stats__kept(a, c), false);
		dtl_stats__end_at(b, dtl_stats__ended_at(a));
		dtl_stats__end_interval(b, 0.1);
		same_stats(a, b, iv);
		if (iv == 1) {
			dtl_stats__reset_totals(a);
			dtl_stats__reset_totals(b);
		}
	}
	CHECK(!dtl_stats__told(b));
	dtl_stats__add_interval(b, 0, dtl_stats__kept(a, 0), true);
	CHECK(dtl_stats__told(b));
	dtl_stats__add_interval(b, 9, dtl_stats__kept(a, 0), false);	/* past the CPUs: ignored */
	dtl_stats__delete(a);
	dtl_stats__delete(b);
}

static void task_sw(struct dtl_tasks *t, unsigned int cpu, uint64_t tb, int pid, const char *comm,
		    const char *cg)
{
	struct dtl_switch s = { tb, pid, comm, cg };

	dtl_tasks__switch(t, cpu, &s);
}

static void same_tasks(struct dtl_tasks *a, struct dtl_tasks *b, int iv)
{
	for (int g = 0; g < 2; g++) {
		CHECK_EQ(dtl_tasks__count(a, g), dtl_tasks__count(b, g));
		for (size_t i = 0; i < dtl_tasks__count(a, g); i++)
			for (int span = 0; span < 2; span++) {
				struct dtl_row ra, rb;
				struct dtl_task_pc pa[8], pb[8];
				uint64_t ua, aa, ub, ab;
				int na, nb;

				CHECK_EQ(dtl_tasks__row(a, g, i, span, &ra), dtl_tasks__row(b, g, i, span, &rb));
				if (!ra.name)
					continue;
				CHECK_STR(rb.name, ra.name);
				if (!rows_equal(&ra, &rb) || ra.oncpu_s != rb.oncpu_s)
					T_FAIL("interval %d: %s's rows differ", iv, ra.name);
				na = dtl_tasks__pcs(a, g, ra.cpu, pa, 8, &ua, &aa);
				nb = dtl_tasks__pcs(b, g, rb.cpu, pb, 8, &ub, &ab);
				CHECK_EQ(na, nb);
				if (na > 0)
					CHECK(memcmp(pa, pb, (size_t)na * sizeof(pa[0])) == 0);
				CHECK_EQ(ua, ub);
				CHECK_EQ(aa, ab);
			}
	}
	CHECK_EQ(dtl_tasks__unattributed(a), dtl_tasks__unattributed(b));
}

/* The same for who pays: tasks, cgroups, wake-ups, where preempts hit, the unknown row. */
TEST(summary_tasks_fold_into_the_same_rows_as_their_entries)
{
	struct dtl_tasks *a = dtl_tasks__new(2, 1000000), *b = dtl_tasks__new(2, 1000000);
	struct dtl_task_interval ti;
	uint8_t buf[48 * 64];
	uint64_t t = 1000;
	size_t told = 0, cur = 0, other = 0;

	dtl_tasks__keep(a);
	CHECK_EQ(dtl_tasks__kept(b, 0, &other, &ti), 0);
	for (int iv = 0; iv < 3; iv++) {
		for (unsigned int c = 0; c < 2; c++) {
			size_t n = 0;

			if (iv == 0 && c == 1) {	/* before its first switch: nobody */
				struct dtl_rec r = rec(t + 5, 4, 1, 10, 1, 0);

				dtl_rec__encode(&r, buf);
				dtl_tasks__add_entries(a, c, buf, 1);
			}
			task_sw(a, c, t + 10, 100 + c, "db", "/db.slice");
			task_sw(a, c, t + 400, 0, NULL, NULL);
			task_sw(a, c, t + 900, 300, iv == 2 ? "web2" : "web", "/web.slice");
			task_sw(a, c, t + 1400, 0, NULL, NULL);
			if (iv == 1)
				task_sw(a, c, t + 1500, 400 + c, "quiet", NULL);	/* never charged */
			for (uint64_t x = t + 100; x < t + 2000; x += 60) {
				/* cedes in idle, preempts in the tasks: wake-ups to pay */
				uint8_t pre = (x / 60) % 3 ? 4 : 2;
				struct dtl_rec r = rec(x + 50, pre, 1, 20 + x % 7, 3, 5);

				dtl_rec__encode(&r, buf + 48 * n++);
			}
			dtl_tasks__add_entries(a, c, buf, n);
		}
		t += 2000;
		dtl_tasks__end_interval(a, 0.002, DTL_MASK_ALL);
		for (size_t i = 0; i < dtl_tasks__count(a, DTL_TASKS_BY_TASK); i++)
			if (dtl_tasks__kept(a, i, &cur, &ti)) {
				dtl_tasks__add_interval(b, &ti);
				told++;
			}
		dtl_tasks__end_interval(b, 0.002, DTL_MASK_ALL);
		same_tasks(a, b, iv);
	}
	CHECK(told >= 10);
	/* a task with nothing in an interval is told only once, when it is new */
	dtl_tasks__end_interval(a, 0.002, DTL_MASK_ALL);
	for (size_t i = 0; i < dtl_tasks__count(a, DTL_TASKS_BY_TASK); i++)
		CHECK_EQ(dtl_tasks__kept(a, i, &cur, &ti), 0);
	/* a reader new to the table is told every task, each once */
	for (size_t i = 0; i < dtl_tasks__count(a, DTL_TASKS_BY_TASK); i++)
		CHECK_EQ(dtl_tasks__kept(a, i, &other, &ti), 1);
	CHECK_EQ(other, dtl_tasks__count(a, DTL_TASKS_BY_TASK));
	dtl_tasks__delete(a);
	dtl_tasks__delete(b);
}

/*
 * The service's socket: made 0600 under a directory made for it, refused
 * where a service listens or where something else lies, a dead one's
 * replaced; a direct run finding the DTL busy names the service.
 */
TEST(serve_socket_is_anyone_s_to_call_and_names_the_holder)
{
	char root[] = "/tmp/dtltop-usock.XXXXXX", path[256], err[512], buf[512];
	struct stat st;
	int fd, again, cfd;

	CHECK(mkdtemp(root) != NULL);
	snprintf(path, sizeof(path), "%s/run", root);
	CHECK(mkdir(path, 0755) == 0);	/* /run is there; /run/dtltop after a boot is not */
	snprintf(path, sizeof(path), "%s%s", root, DTL_USOCK_DEFAULT);
	CHECK(!dtl_usock__service(root));
	dtl_perf__explain(EBUSY, root, 0, buf, sizeof(buf));
	CHECK(strstr(buf, "busy: another DTL user holds it") != NULL);
	fd = dtl_usock__listen(path, err, sizeof(err));
	CHECK(fd >= 0);
	/* anyone may call: the service lets in by the caller's credentials (dtl_usock__peer) */
	CHECK(stat(path, &st) == 0 && S_ISSOCK(st.st_mode) && (st.st_mode & 0777) == 0666);
	CHECK(dtl_usock__service(root));
	dtl_perf__explain(EBUSY, root, 0, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "busy: a dtltop service holds it: attach with dtltop --attach");
	again = dtl_usock__listen(path, err, sizeof(err));
	CHECK_EQ(again, -1);
	CHECK_CONTAINS(err, "a dtltop service listens there already");
	cfd = dtl_usock__connect(path, err, sizeof(err));
	CHECK(cfd >= 0);
	/* the probes above connected too (a service frees them at its next tick), then none waits */
	for (int i = 0, a; i < 8 && (a = dtl_usock__accept(fd)) >= 0; i++) {
		uint32_t uid = 12345;
		int pid = 0;

		CHECK_EQ(dtl_usock__peer(a, &uid, &pid), 0);
		CHECK_EQ(uid, (uint32_t)geteuid());
		CHECK_EQ(pid, (int)getpid());
		close(a);
	}
	CHECK_EQ(dtl_usock__peer(-1, &(uint32_t){ 0 }, &(int){ 0 }), -1);
	CHECK_EQ(dtl_usock__accept(fd), -1);	/* never blocks */
	close(cfd);
	close(fd);	/* a service killed: its socket file stays, stale */
	CHECK(!dtl_usock__service(root));
	fd = dtl_usock__listen(path, err, sizeof(err));
	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	CHECK_EQ(dtl_usock__connect(path, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "no dtltop service there (start one with dtltop --serve)");
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	close(fd);
	CHECK_EQ(dtl_usock__listen(path, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "exists and is not a socket");
	unlink(path);
	snprintf(buf, sizeof(buf), "%s/run/dtltop", root);
	rmdir(buf);
	snprintf(buf, sizeof(buf), "%s/run", root);
	rmdir(buf);
	rmdir(root);
	memset(buf, 'x', 200);
	buf[200] = '\0';
	CHECK_EQ(dtl_usock__listen(buf, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "bad socket path");
}

/* Who may attach is read from the caller's /proc/PID/status: its CapEff line, and nothing else. */
TEST(serve_reads_a_caller_s_capabilities_from_its_status)
{
	static const char *const bad[] = {
		"", "CapEff:", "CapEff:\t\n", "CapEff:\t00000040000000000\n", "CapEff:\t0000004g00000000\n",
		"CapEff:\t00000040000000X0", "CapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\n",
		"capeff:\t0000004000000000\n", "CapEff:\t-1\n",
	};
	char text[8192];
	uint64_t eff = 7;
	ssize_t n;
	int fd;

	CHECK_EQ(dtl_caps__parse_eff("Name:\tx\nCapEff:\t0000004000000000\nCapBnd:\t0\n", &eff), 0);
	CHECK_EQ(eff, 1ull << 38);
	CHECK_EQ(dtl_caps__parse_eff("CapEff:  00000000002000ff", &eff), 0);	/* at the end, no newline */
	CHECK_EQ(eff, 0x2000ffull);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		eff = 7;
		CHECK_EQ(dtl_caps__parse_eff(bad[i], &eff), -1);
		CHECK_EQ(eff, 7);	/* refused text leaves it as it was */
	}
	/* every prefix of a real status: whole, or refused, never read past */
	fd = open("/proc/self/status", O_RDONLY);
	n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	CHECK(n > 0);
	text[n > 0 ? n : 0] = '\0';
	CHECK_EQ(dtl_caps__parse_eff(text, &eff), 0);
	CHECK_EQ(dtl_caps__pid_perfmon(getpid()), (bool)((eff >> 38 & 1) || (eff >> 21 & 1)));
	CHECK(!dtl_caps__pid_perfmon(0));
	CHECK(!dtl_caps__pid_perfmon(-5));
	for (ssize_t cut = 0; cut < n; cut++) {
		char *p = malloc((size_t)cut + 1);
		uint64_t e;

		memcpy(p, text, (size_t)cut);
		p[cut] = '\0';
		if (dtl_caps__parse_eff(p, &e) == 0)
			CHECK(strstr(p, "CapEff:") != NULL);
		free(p);
	}
}

static void took_req(void *ctx, unsigned int kind, unsigned int value)
{
	unsigned int *got = ctx;

	got[0]++;
	got[1 + (got[0] - 1) % 4] = kind << 8 | value;
}

/* A viewer's requests: masks 1 to 7 taken in order, anything else passed over and counted. */
TEST(serve_requests_take_masks_and_count_the_rest)
{
	uint8_t buf[64];
	unsigned int got[5] = { 0 };
	uint64_t bad = 0;
	size_t n = 0, used;

	dtl_req__mask(buf, 7);
	memcpy(buf + 8, "xy", 2);		/* junk: one run */
	dtl_req__mask(buf + 10, 0);		/* no mask: not one */
	dtl_req__mask(buf + 18, 8);		/* past all: not one */
	dtl_req__mask(buf + 26, 2);
	n = 34;
	memcpy(buf + n, "DTLQ\001", 5);		/* cut short: left for the next read */
	n += 5;
	used = dtl_req__parse(buf, n, took_req, got, &bad);
	CHECK_EQ(got[0], 2);
	CHECK_EQ(got[1], DTL_REQ_MASK << 8 | 7);
	CHECK_EQ(got[2], DTL_REQ_MASK << 8 | 2);
	CHECK_EQ(used, 34);
	CHECK_EQ(bad, 1);	/* "xy" and the two bad requests after it: one run */
	/* a tail that cannot begin one is not kept */
	memcpy(buf, "zzzz", 4);
	bad = 0;
	CHECK_EQ(dtl_req__parse(buf, 4, took_req, got, &bad), 4);
	CHECK_EQ(bad, 1);
	CHECK_EQ(got[0], 2);
	/* the reserved bytes must be 0 */
	dtl_req__mask(buf, 3);
	buf[7] = 1;
	CHECK_EQ(dtl_req__parse(buf, 8, took_req, got, &bad), 8);
	CHECK_EQ(got[0], 2);
}
