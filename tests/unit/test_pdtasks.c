/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Who pays from a perf.data: switch records (perf record --switch-events)
 * named by the comm and fork records of the same file, as of each switch.
 */
#include "t.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dtl/dtl.h"
#include "format/pdtasks.h"
#include "format/perfdata.h"
#include "format/record.h"
#include "perfdata_gen.h"

#define TB_FREQ 512000000ull
#define BOOT_TB 1000000ull
#define MAXSW 32

struct got {
	int rc;
	char err[512], warn[1024], detail[256];
	unsigned int cpu[MAXSW];
	uint64_t tb[MAXSW];
	int32_t pid[MAXSW];
	char comm[MAXSW][17];
	int tick[MAXSW];	/* the interval it came in */
	int n, ticks;
	uint64_t edge[8];
};

static uint64_t tb_of_ns(uint64_t ns)
{
	return BOOT_TB + ns * TB_FREQ / 1000000000u;
}

static void import(const uint8_t *buf, size_t len, struct got *g)
{
	FILE *in = fmemopen((void *)buf, len, "rb");
	int fd = memfd_create("t", 0);
	struct dtl_rec_meta m;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	FILE *out;

	memset(g, 0, sizeof(*g));
	g->rc = dtl_perfdata__convert(in, "t.data", fd, 1.0, g->err, sizeof(g->err), g->warn,
				      sizeof(g->warn));
	fclose(in);
	if (g->rc) {
		close(fd);
		return;
	}
	lseek(fd, 0, SEEK_SET);
	out = fdopen(fd, "rb");
	r = dtl_rec_reader__open(out, "t.dtl", &m, g->err, sizeof(g->err));
	CHECK(r != NULL);
	snprintf(g->detail, sizeof(g->detail), "%s", m.detail);
	while (r && dtl_rec_reader__next(r, &ev) > 0) {
		if (ev.kind == DTL_REC_TICK && g->ticks < 8)
			g->edge[g->ticks] = ev.end_tb;
		if (ev.kind == DTL_REC_TICK)
			g->ticks++;
		for (size_t i = 0; ev.kind == DTL_REC_SWITCHES && i < ev.n && g->n < MAXSW; i++) {
			const struct dtl_switch *s = &ev.switches[i];

			g->cpu[g->n] = ev.cpu;
			g->tb[g->n] = s->tb;
			g->pid[g->n] = s->pid;
			snprintf(g->comm[g->n], sizeof(g->comm[0]), "%s", s->comm ? s->comm : "-");
			g->tick[g->n++] = g->ticks;
		}
	}
	if (r)
		dtl_rec_reader__close(r);
	fclose(out);
}

/* CPUs 0 and 1 with 3 s of entries each; switches and names interleaved as perf leaves them. */
static uint8_t *with_switches(size_t *len, int pipe)
{
	struct pd_gen *g = pd_gen__new();
	uint8_t chunk[48 * 41];

	pd_gen__comm(g, 0, 0, 100, "db");		/* synthesized at the start: time 0 */
	pd_gen__auxtrace_info(g, 7);
	pd_gen__switch(g, 1, 50000000, 0, 500, 0);	/* a pid never named */
	pd_gen__switch(g, 0, 100000000, 0, 100, 0);
	/* cpu 0's ring came first: 300's switch is in the file before its earlier comm */
	pd_gen__switch(g, 0, 1200000000, 1, 100, 300);
	pd_gen__comm(g, 1, 1000000000, 300, "batch");
	pd_gen__fork(g, 1, 2000000000, 400, 100);	/* a new process: the parent's name */
	pd_gen__switch(g, 1, 2200000000, 0, 400, 0);
	pd_gen__switch(g, 0, 2500000000, 0, 400, 300);
	pd_gen__comm(g, 1, 2700000000, 400, "db-worker");	/* then it execs */
	pd_gen__switch(g, 1, 2800000000, 0, 400, 0);
	for (unsigned int c = 0; c <= 1; c++) {
		uint64_t pos = 0;

		for (unsigned int k = 0; k < 3; k++) {
			size_t off = 0;

			if (k == 0) {
				pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
				off = 48;
			}
			for (unsigned int i = 0; off < sizeof(chunk); off += 48, i++) {
				struct dtl_rec r = { 0 };

				r.timebase = BOOT_TB + TB_FREQ * k + (i + 1) * 1000 + c;
				r.dispatch_reason = 1;
				r.preempt_reason = 4;
				dtl_rec__encode(&r, chunk + off);
			}
			pd_gen__auxtrace(g, c, pos, chunk, sizeof(chunk));
			pos += sizeof(chunk);
		}
	}
	return pd_gen__finish(g, pipe, len);
}

TEST(perfdata_switch_records_become_named_switches_on_the_timebase)
{
	for (int pipe = 0; pipe <= 1; pipe++) {
		size_t len;
		uint8_t *buf = with_switches(&len, pipe);
		struct got *g = malloc(sizeof(*g));
		static const struct {
			unsigned int cpu;
			uint64_t ns;
			int32_t pid;
			const char *comm;
		} want[] = {
			{ 0, 100000000, 100, "db" },
			{ 1, 50000000, 500, "-" },		/* unknown: the reader says so */
			{ 0, 1200000000, 300, "batch" },	/* named by a later record */
			{ 0, 2500000000, 400, "db" },		/* forked, not yet exec'd */
			{ 1, 2200000000, 400, "-" },		/* the name was given already */
			{ 1, 2800000000, 400, "db-worker" },	/* exec: the new name */
		};

		import(buf, len, g);
		CHECK_EQ(g->rc, 0);
		CHECK_STR(g->warn, "");
		CHECK_CONTAINS(g->detail, "task switches");
		CHECK_EQ(g->n, 6);
		for (int i = 0; i < g->n && i < 6; i++) {
			CHECK_EQ(g->cpu[i], want[i].cpu);
			CHECK_EQ(g->tb[i], tb_of_ns(want[i].ns));
			CHECK_EQ(g->pid[i], want[i].pid);
			CHECK_STR(g->comm[i], want[i].comm);
			/* before the entries of its interval, and inside that interval */
			CHECK(g->tick[i] < g->ticks);
			CHECK(g->tb[i] < g->edge[g->tick[i]]);
			CHECK(g->tick[i] == 0 || g->tb[i] >= g->edge[g->tick[i] - 1]);
		}
		free(g);
		free(buf);
	}
}

TEST(perfdata_without_switch_records_says_so_and_damage_is_counted)
{
	struct pd_gen *pg = pd_gen__new();
	uint8_t chunk[48 * 3], *buf;
	struct got *g = malloc(sizeof(*g));
	size_t len;

	pd_gen__auxtrace_info(pg, 7);
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	for (int i = 1; i < 3; i++) {
		struct dtl_rec r = { 0 };

		r.timebase = BOOT_TB + (uint64_t)i * 1000;
		r.dispatch_reason = 1;
		dtl_rec__encode(&r, chunk + i * 48);
	}
	pd_gen__auxtrace(pg, 0, 0, chunk, sizeof(chunk));
	buf = pd_gen__finish(pg, 0, &len);
	import(buf, len, g);
	CHECK_EQ(g->rc, 0);
	CHECK_EQ(g->n, 0);
	CHECK_CONTAINS(g->detail, "no task switches (perf record --switch-events)");
	free(buf);

	/* a switch record too short for its trailer: counted, the rest imported */
	pg = pd_gen__new();
	pd_gen__auxtrace_info(pg, 7);
	pd_gen__other(pg, 15, 20);
	pd_gen__switch(pg, 0, 100, 0, 42, 0);
	pd_gen__auxtrace(pg, 0, 0, chunk, sizeof(chunk));
	buf = pd_gen__finish(pg, 0, &len);
	import(buf, len, g);
	CHECK_EQ(g->rc, 0);
	CHECK_EQ(g->n, 1);
	CHECK_CONTAINS(g->warn, "task records (switch, comm, fork): 1 damaged");
	free(buf);
	free(g);
}

/* Names resolved in time order whatever the file order; pid reuse takes the new name. */
TEST(pdtasks_names_follow_time_not_file_order)
{
	struct dtl_pdtasks *t = dtl_pdtasks__new();
	struct dtl_sb e;
	struct dtl_switch out[8];
	size_t n;

	memset(&e, 0, sizeof(e));
	e.kind = DTL_SB_SWITCH, e.cpu = 3, e.pid = 7, e.ns = 5000;
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	e.ns = 1000;				/* out of order within the CPU */
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	e.cpu = DTL_MAX_CPUS;			/* no such CPU: dropped, counted */
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	memset(&e, 0, sizeof(e));
	e.kind = DTL_SB_COMM, e.pid = 7, e.ns = 4000;
	snprintf(e.comm, sizeof(e.comm), "new");
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	e.ns = 500;
	snprintf(e.comm, sizeof(e.comm), "old");
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	CHECK_EQ(dtl_pdtasks__index(t), 0);
	CHECK_EQ(dtl_pdtasks__switches(t), 2);
	CHECK_EQ(dtl_pdtasks__dropped(t), 1);
	/* boot_tb 10, 1 GHz: tb = 10 + ns; only the first is before the edge */
	n = dtl_pdtasks__take(t, 3, 2000, 10, 1000000000, out, 8);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].tb, 1010);
	CHECK_STR(out[0].comm ? out[0].comm : "-", "old");
	n = dtl_pdtasks__take(t, 3, UINT64_MAX, 10, 1000000000, out, 8);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].tb, 5010);
	CHECK_STR(out[0].comm ? out[0].comm : "-", "new");
	CHECK_EQ(dtl_pdtasks__take(t, 3, UINT64_MAX, 10, 1000000000, out, 8), 0);
	CHECK_EQ(dtl_pdtasks__take(t, 4, UINT64_MAX, 10, 1000000000, out, 8), 0);
	dtl_pdtasks__free(t);
}

/*
 * A process running before perf started is named by a comm perf writes after
 * (file and time both later than the first switch to it): the switch takes
 * that name, not "?[pid]"; a pid no record names stays unknown.
 */
TEST(pdtasks_a_name_given_only_later_names_the_earlier_switches)
{
	struct dtl_pdtasks *t = dtl_pdtasks__new();
	struct dtl_sb e;
	struct dtl_switch out[8];

	memset(&e, 0, sizeof(e));
	e.kind = DTL_SB_SWITCH, e.cpu = 0, e.pid = 9, e.ns = 1000;
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	e.pid = 10, e.ns = 1500;
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	memset(&e, 0, sizeof(e));
	e.kind = DTL_SB_COMM, e.pid = 9, e.ns = 3000;
	snprintf(e.comm, sizeof(e.comm), "late");
	CHECK_EQ(dtl_pdtasks__add(t, &e), 0);
	CHECK_EQ(dtl_pdtasks__index(t), 0);
	CHECK_EQ(dtl_pdtasks__take(t, 0, UINT64_MAX, 0, 1000000000, out, 8), 2);
	CHECK_EQ(out[0].pid, 9);
	CHECK_STR(out[0].comm ? out[0].comm : "-", "late");
	CHECK_EQ(out[1].pid, 10);
	CHECK(out[1].comm == NULL);
	dtl_pdtasks__free(t);
}

/* A perf.data's comm records are the task's to choose: they come out cleaned. */
TEST(perfdata_comm_names_come_out_clean)
{
	struct pd_gen *g = pd_gen__new();
	uint8_t chunk[48 * 2], *buf;
	struct got *got = calloc(1, sizeof(*got));
	size_t len;

	pd_gen__comm(g, 0, 0, 100, "ev\x1b[31m\xc2\x9b\xff");
	pd_gen__auxtrace_info(g, 7);
	pd_gen__switch(g, 0, 100000000, 0, 100, 0);
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	{
		struct dtl_rec r = { 0 };

		r.timebase = BOOT_TB + TB_FREQ / 2;
		r.dispatch_reason = 1;
		r.preempt_reason = 4;
		dtl_rec__encode(&r, chunk + 48);
	}
	pd_gen__auxtrace(g, 0, 0, chunk, sizeof(chunk));
	buf = pd_gen__finish(g, 0, &len);
	import(buf, len, got);
	CHECK_EQ(got->rc, 0);
	CHECK_EQ(got->n, 1);
	CHECK_STR(got->comm[0], "ev?[31m???");
	free(buf);
	free(got);
}
