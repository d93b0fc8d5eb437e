/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interval loop on a fake source, a fake view and a fake clock: pacing,
 * a replay's steps and jumps, pause, quit and the batch view's endings.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dtl/dtl.h"
#include "fakeroot.h"
#include "loop/loop.h"
#include "source/backend.h"
#include "stats/stats.h"
#include "view/columns.h"
#include "t.h"

#define FAKE_INTERVALS 5
#define FAKE_TB_FREQ 512000000ull
#define FAKE_START_NS 1735689600000000000ull	/* 2025-01-01T00:00:00Z */

/*
 * Interval i (from 1) has i + 1 entries: i on CPU 0 and one on CPU 1, so
 * the partition's dispatches say which interval is on show.
 */
struct fake {
	unsigned int ticks;
	bool pending;
	uint8_t buf[16 * DTL_ENTRY_SIZE];
	bool recorded;
	unsigned int next_cpu;
};

static int fake_open(struct dtl_source *src, const struct dtl_source_opts *o, char *err,
		     size_t errlen)
{
	struct fake *f = calloc(1, sizeof(*f));

	(void)err, (void)errlen;
	f->recorded = o->replay != NULL;
	src->priv = f;
	src->nr_cpus = 2;
	src->tb_freq = FAKE_TB_FREQ;
	src->recorded_interval_s = 1.0;
	dtl_cpuset__set(&src->cpus, 0);
	dtl_cpuset__set(&src->cpus, 1);
	snprintf(src->detail, sizeof(src->detail), "fake");
	return 0;
}

static void fake_close(struct dtl_source *src)
{
	free(src->priv);
}

/* The clock: time moves only when the view or the source waits. */
static uint64_t clock_ns;
static int polls;

static int fake_poll(struct dtl_source *src, int ms)
{
	(void)src;
	polls++;
	clock_ns += (uint64_t)ms * 1000000ull;
	return 0;
}

/* One chunk per CPU after each tick. */
static int fake_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct fake *f = src->priv;
	unsigned int n;

	if (!f->pending || f->ticks > FAKE_INTERVALS)
		return 0;
	n = f->next_cpu == 0 ? f->ticks : 1;
	for (unsigned int i = 0; i < n; i++) {
		struct dtl_rec r = { 0 };

		r.timebase = (uint64_t)(f->ticks - 1) * FAKE_TB_FREQ + 1000 * (i + 1);
		r.enqueue_to_dispatch = 512;
		r.processor_id = (uint16_t)f->next_cpu;
		dtl_rec__encode(&r, f->buf + i * DTL_ENTRY_SIZE);
	}
	*c = (struct dtl_chunk){ .cpu = f->next_cpu, .data = f->buf, .n = n };
	if (++f->next_cpu == 2) {
		f->next_cpu = 0;
		f->pending = false;
	}
	return 1;
}

static void fake_tick(struct dtl_source *src, uint64_t ns)
{
	struct fake *f = src->priv;

	(void)ns;
	f->ticks++;
	f->pending = true;
}

static int fake_set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	(void)src, (void)mask, (void)err, (void)errlen;
	return 0;
}

static bool fake_clock(const struct dtl_source *src, uint64_t *ns)
{
	const struct fake *f = src->priv;

	*ns = FAKE_START_NS + (uint64_t)f->ticks * 1000000000ull;
	return true;
}

static bool fake_tb(const struct dtl_source *src, uint64_t *tb)
{
	const struct fake *f = src->priv;

	*tb = (uint64_t)f->ticks * FAKE_TB_FREQ;
	return true;
}

static double fake_interval(const struct dtl_source *src)
{
	(void)src;
	return 1.0;
}

static bool fake_ended(const struct dtl_source *src, const char **warning)
{
	const struct fake *f = src->priv;

	(void)warning;
	return f->ticks > FAKE_INTERVALS;
}

static int fake_rewind(struct dtl_source *src, char *err, size_t errlen)
{
	struct fake *f = src->priv;

	(void)err, (void)errlen;
	f->ticks = 0;
	f->pending = false;
	f->next_cpu = 0;
	return 0;
}

static const struct dtl_source_ops replay_ops = {
	.name = "fake-replay", .open = fake_open, .close = fake_close, .poll = fake_poll,
	.read = fake_read, .tick = fake_tick, .set_mask = fake_set_mask, .clock = fake_clock,
	.tb = fake_tb, .interval = fake_interval, .ended = fake_ended, .rewind = fake_rewind,
};

/* A live source: no clock of its own, no end. */
static const struct dtl_source_ops live_ops = {
	.name = "fake-live", .open = fake_open, .close = fake_close, .poll = fake_poll,
	.read = fake_read, .tick = fake_tick, .set_mask = fake_set_mask, .tb = fake_tb,
};

/* A live source whose ring laps unless drained every 20 ms (debugfs') */
static const struct dtl_source_ops ring_ops = {
	.name = "fake-ring", .open = fake_open, .close = fake_close, .poll = fake_poll,
	.read = fake_read, .tick = fake_tick, .set_mask = fake_set_mask, .tb = fake_tb,
	.drain_ms = 20,
};

static uint64_t fake_now(void *ctx, clockid_t clk)
{
	(void)ctx, (void)clk;
	return clock_ns;
}

static const struct dtl_clock fake_clk = { fake_now, NULL };

/* The view: a script of actions, one per wait, and a log of what it was shown. */
struct fake_view {
	struct dtl_view v;
	struct dtl_act script[8];
	int nscript, next;
	int waits, fresh, redraws, show_rc;
	uint64_t dispatches[16];	/* the partition's, per fresh interval */
	uint64_t last;			/* on the last show of either kind */
	char status[512];
};

static struct dtl_act view_wait(struct dtl_view *v, int ms)
{
	struct fake_view *f = v->priv;
	struct dtl_act none = { .what = DTL_ACT_NONE };

	f->waits++;
	clock_ns += (uint64_t)ms * 1000000ull;
	return f->next < f->nscript ? f->script[f->next++] : none;
}

static int view_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct fake_view *f = v->priv;

	f->last = m->table->all.dispatches;
	snprintf(f->status, sizeof(f->status), "%s", m->status ? m->status : "");
	if (fresh && f->fresh < 16)
		f->dispatches[f->fresh++] = f->last;
	else if (!fresh)
		f->redraws++;
	return fresh ? f->show_rc : 0;
}

static const struct dtl_view_ops person_ops = { .interactive = true, .wait = view_wait,
						.show = view_show };
static const struct dtl_view_ops script_ops = { .interactive = false, .show = view_show };

static struct dtl_loop *loop_on(const struct dtl_source_ops *ops, const char *args,
				struct fake_view *fv, const struct dtl_view_ops *vops)
{
	struct dtl_opts o;
	static char buf[256];	/* the options point into it for the loop's life */
	char *argv[16], err[512];
	int argc = 0;
	struct dtl_source *src;
	struct dtl_loop *l;

	snprintf(buf, sizeof(buf), "dtltop %s %s", ops == &replay_ops ? "-r fake" : "", args);
	for (char *p = strtok(buf, " "); p && argc < 15; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	if (dtl_opts__parse(&o, argc, argv, err, sizeof(err)))
		T_FAIL("options '%s': %s", args, err);
	memset(fv, 0, sizeof(*fv));
	fv->v = (struct dtl_view){ vops, fv };
	clock_ns = 1000000000ull;
	src = dtl_source__open_with(ops, &o.src, err, sizeof(err));
	l = src ? dtl_loop__new(&o, src, &fake_clk, NULL, err, sizeof(err)) : NULL;
	if (!l)
		T_FAIL("loop: %s", err);
	return l;
}

TEST(loop_batch_replay_runs_every_interval_without_waiting)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&replay_ops, "-b", &fv, &script_ops);

	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, FAKE_INTERVALS);
	for (int i = 0; i < FAKE_INTERVALS; i++)
		CHECK_EQ(fv.dispatches[i], (uint64_t)i + 2);
	CHECK_EQ(clock_ns, 1000000000ull);	/* max speed: never slept */
	CHECK_EQ(dtl_loop__delete(l, 0), 0);
}

TEST(loop_live_paces_on_the_clock_and_stops_after_n)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&live_ops, "-d 0.5 -n 3", &fv, &person_ops);

	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 3);
	CHECK_EQ(clock_ns - 1000000000ull, 1500000000ull);	/* three half seconds */
	CHECK_EQ(fv.waits, 3 * 25);				/* in 20 ms polls */
	dtl_loop__delete(l, 0);
}

TEST(loop_script_sleeps_between_intervals_as_long_as_its_source_allows)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&live_ops, "-d 5 -n 2", &fv, &script_ops);

	polls = 0;
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 2);
	CHECK_EQ(clock_ns - 1000000000ull, 10000000000ull);
	CHECK_EQ(polls, 2 * 5);		/* a second at a time: the exporter idles */
	dtl_loop__delete(l, 0);

	l = loop_on(&ring_ops, "-d 0.5 -n 2", &fv, &script_ops);
	polls = 0;
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 2);
	CHECK_EQ(polls, 2 * 25);	/* a ring that laps is drained in time */
	dtl_loop__delete(l, 0);
}

TEST(loop_replay_paces_at_speed_for_a_person)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&replay_ops, "--speed 4 -n 2", &fv, &person_ops);

	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 2);
	/* the first at once (nothing to wait for), the second 1 s recorded later at 4x */
	CHECK_EQ(clock_ns - 1000000000ull, 250000000ull);
	dtl_loop__delete(l, 0);
}

TEST(loop_quit_key_ends_the_run)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&live_ops, "", &fv, &person_ops);

	fv.script[0] = (struct dtl_act){ .what = DTL_ACT_NONE };
	fv.script[1] = (struct dtl_act){ .what = DTL_ACT_QUIT };
	fv.nscript = 2;
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.waits, 2);
	CHECK_EQ(fv.fresh, 0);
	dtl_loop__delete(l, 0);
}

TEST(loop_pause_freezes_the_rows_a_person_sees)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&live_ops, "-n 3", &fv, &person_ops);

	fv.script[0] = (struct dtl_act){ .what = DTL_ACT_PAUSE };
	fv.nscript = 1;
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 3);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(fv.dispatches[i], 0);	/* paused before the first interval */
	dtl_loop__delete(l, 0);
}

TEST(loop_replay_steps_jumps_and_goes_back)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&replay_ops, "", &fv, &person_ops);
	struct dtl_act step = { .what = DTL_ACT_STEP, .step = 1 }, back = step,
		       jump = { .what = DTL_ACT_JUMP };

	back.step = -1;
	CHECK(dtl_loop__act(l, &fv.v, step));
	CHECK_EQ(dtl_loop__shown(l), 1);
	CHECK_EQ(fv.last, 2);
	CHECK_CONTAINS(fv.status, "interval 1, ending 00:00:01 UTC (paused");
	CHECK(dtl_loop__act(l, &fv.v, back));
	CHECK_CONTAINS(fv.status, "already at the first interval");
	snprintf(jump.text, sizeof(jump.text), "#4");
	CHECK(dtl_loop__act(l, &fv.v, jump));
	CHECK_EQ(dtl_loop__shown(l), 4);
	CHECK_EQ(fv.last, 5);
	CHECK(dtl_loop__act(l, &fv.v, back));	/* back: from the start again */
	CHECK_EQ(dtl_loop__shown(l), 3);
	CHECK_EQ(fv.last, 4);
	snprintf(jump.text, sizeof(jump.text), "+2");
	CHECK(dtl_loop__act(l, &fv.v, jump));
	CHECK_EQ(dtl_loop__shown(l), 2);
	CHECK_EQ(fv.last, 3);
	snprintf(jump.text, sizeof(jump.text), "#99");
	CHECK(dtl_loop__act(l, &fv.v, jump));
	CHECK_CONTAINS(fv.status, "end of the recording after interval 5");
	snprintf(jump.text, sizeof(jump.text), "soon");
	CHECK(dtl_loop__act(l, &fv.v, jump));
	CHECK_CONTAINS(fv.status, "bad time 'soon'");
	dtl_loop__delete(l, 0);
}

TEST(loop_live_sources_refuse_replay_moves)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&live_ops, "", &fv, &person_ops);

	CHECK(dtl_loop__act(l, &fv.v, (struct dtl_act){ .what = DTL_ACT_STEP, .step = 1 }));
	CHECK_CONTAINS(fv.status, "move through a replay (-r FILE)");
	CHECK_EQ(dtl_loop__shown(l), 0);
	dtl_loop__delete(l, 0);
}

TEST(loop_mask_and_interval_actions_say_what_they_did)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&live_ops, "", &fv, &person_ops);

	CHECK(dtl_loop__act(l, &fv.v, (struct dtl_act){ .what = DTL_ACT_MASK_TOGGLE,
							 .bit = DTL_MASK_CEDE }));
	CHECK_CONTAINS(fv.status, "event mask now");
	CHECK_EQ(dtl_loop__model(l)->mask, DTL_MASK_ALL & ~DTL_MASK_CEDE);
	CHECK(dtl_loop__act(l, &fv.v, (struct dtl_act){ .what = DTL_ACT_MASK_TOGGLE,
							 .bit = DTL_MASK_ALL & ~DTL_MASK_CEDE }));
	CHECK_CONTAINS(fv.status, "cannot be empty");
	CHECK(dtl_loop__act(l, &fv.v, (struct dtl_act){ .what = DTL_ACT_INTERVAL,
							 .interval_s = 2.5 }));
	CHECK_CONTAINS(fv.status, "interval now 2.50s");
	CHECK_NEAR(dtl_loop__model(l)->interval_s, 2.5, 1e-12);
	CHECK(!dtl_loop__act(l, &fv.v, (struct dtl_act){ .what = DTL_ACT_QUIT }));
	dtl_loop__delete(l, 0);
}

TEST(loop_batch_ends_quietly_when_the_reader_leaves_and_fails_on_errors)
{
	struct fake_view fv;
	struct dtl_loop *l = loop_on(&replay_ops, "-b", &fv, &script_ops);

	fv.show_rc = 1;		/* a closed pipe */
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 1);
	dtl_loop__delete(l, 0);
	l = loop_on(&replay_ops, "-b", &fv, &script_ops);
	fv.show_rc = -1;	/* a write error */
	CHECK_EQ(dtl_loop__run(l, &fv.v), 1);
	dtl_loop__delete(l, 0);
}

/* A VPA file as debugfs shows it: 640 bytes, the counters big-endian where lppaca has them. */
static void vpa_write(const char *root, unsigned int cpu, uint64_t dtl_idx, uint32_t yields,
		      uint64_t steal, uint64_t idle)
{
	uint8_t b[640] = { 0 };
	char rel[64];

	for (int i = 0; i < 8; i++) {
		b[0x218 + i] = (uint8_t)(dtl_idx >> (56 - 8 * i));
		b[0x158 + i] = (uint8_t)(steal >> (56 - 8 * i));
		b[0x168 + i] = (uint8_t)(idle >> (56 - 8 * i));
	}
	for (int i = 0; i < 4; i++)
		b[0x100 + i] = (uint8_t)(yields >> (24 - 8 * i));
	snprintf(rel, sizeof(rel), "sys/kernel/debug/powerpc/vpa/cpu-%u", cpu);
	fakeroot_write(root, rel, b, sizeof(b));
}

static void vpa_file(const char *root, unsigned int cpu, uint64_t dtl_idx, uint64_t steal)
{
	vpa_write(root, cpu, dtl_idx, 0, steal, 0);
}

static const char *vpa_root;
static uint64_t vpa_diff[16];	/* cpu 0's steal_vpa_diff_pct x 10, per interval */

/* Each interval's VPA, written as the view shows the one before. */
static int vpa_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct fake_view *f = v->priv;

	if (fresh && f->fresh < 16) {
		const struct dtl_row *r = NULL;

		for (size_t i = 0; i < m->table->n; i++)
			if (m->table->rows[i].cpu == 0)
				r = &m->table->rows[i];
		f->dispatches[f->fresh] = r ? r->lost : 99;
		f->last = r && (r->known & DTL_KNOWN_VPA) ? (uint64_t)(r->steal_vpa_diff_pct * 10 + 0.5) :
			  999;
		f->fresh++;
		/* interval 2 (2 entries on cpu 0): none lost, and steal as the DTL says */
		vpa_file(vpa_root, 0, 100 + 1 + 5 + 2, 512 * 10 / 11 + 1024);
		vpa_diff[f->fresh - 1] = f->last;
	}
	return 0;
}

/*
 * The witness's scenario: cpu 0's VPA says 6 written in interval 1 and 2 in
 * interval 2 (vpa_show), cpu 1's 1; steal 10 % above the DTL's in interval 1.
 * What the source hands out is ops' own.
 */
static void witness_run(const struct dtl_source_ops *src_ops, struct fake_view *fv)
{
	static const struct dtl_view_ops ops = { .interactive = true, .wait = view_wait,
						 .show = vpa_show };
	struct dtl_loop *l;
	char args[256];

	vpa_root = fakeroot_new();
	vpa_file(vpa_root, 0, 100, 0);
	vpa_file(vpa_root, 1, 7, 0);
	snprintf(args, sizeof(args), "--root %s -n 2", vpa_root);
	l = loop_on(src_ops, args, fv, &ops);
	vpa_file(vpa_root, 0, 100 + 1 + 5, 512 * 10 / 11);
	vpa_file(vpa_root, 1, 7 + 1, 512);
	CHECK_EQ(dtl_loop__run(l, &fv->v), 0);
	CHECK_EQ(fv->fresh, 2);
	dtl_loop__delete(l, 0);
	fakeroot_free(vpa_root);
}

TEST(loop_vpa_witness_counts_the_losses_a_source_cannot)
{
	struct fake_view fv;

	/* interval 1: cpu 0 logs 1 entry, the hypervisor wrote 6; steal 10% above the DTL's */
	witness_run(&live_ops, &fv);
	CHECK_EQ(fv.dispatches[0], 5);		/* lost in interval 1 */
	CHECK_EQ(fv.dispatches[1], 0);		/* and nothing more */
	CHECK_EQ(vpa_diff[0], 101);		/* interval 1: the DTL's 10.1 % above */
	CHECK_EQ(vpa_diff[1], 0);		/* interval 2: DTL and VPA agree */
}

/* cpu 0's first chunk: 1 entry shown, 5 more read and dropped by a mask applied here */
static int filtered_read(struct dtl_source *src, struct dtl_chunk *c)
{
	static bool done;
	int rc = fake_read(src, c);

	if (rc > 0 && c->cpu == 0 && !done) {
		c->filtered = 5;
		done = true;
	}
	return rc;
}

/* A driver that takes only some masks (the fixes alone): what dtltop filters is not lost. */
TEST(loop_vpa_witness_does_not_count_what_a_mask_here_dropped)
{
	static const struct dtl_source_ops filter_ops = {
		.name = "fake-filter", .open = fake_open, .close = fake_close, .poll = fake_poll,
		.read = filtered_read, .tick = fake_tick, .set_mask = fake_set_mask, .tb = fake_tb,
	};
	struct fake_view fv;

	/* 6 written: 1 shown, 5 filtered */
	witness_run(&filter_ops, &fv);
	CHECK_EQ(fv.dispatches[0], 0);		/* nothing lost in interval 1 */
	CHECK_EQ(fv.dispatches[1], 0);
}

/* cpu 0's entries of interval 1 come in interval 2: the PMU's driver copies on its own clock */
static int late_read(struct dtl_source *src, struct dtl_chunk *c)
{
	static int cpu0_chunks;
	int rc = fake_read(src, c);

	if (rc > 0 && c->cpu == 0 && ++cpu0_chunks == 2)
		c->filtered = 5;	/* received: the 5 the VPA counted an interval ago */
	return rc;
}

TEST(loop_vpa_witness_waits_an_interval_for_a_source_that_copies_later)
{
	static const struct dtl_source_ops late_ops = {
		.name = "fake-late", .open = fake_open, .close = fake_close, .poll = fake_poll,
		.read = late_read, .tick = fake_tick, .set_mask = fake_set_mask, .tb = fake_tb,
		.copies_later = true,
	};
	struct fake_view fv;

	/* 6 written, 1 come so far */
	witness_run(&late_ops, &fv);
	CHECK_EQ(fv.dispatches[0], 0);		/* on their way, not lost */
	CHECK_EQ(fv.dispatches[1], 0);		/* and they came */
}

/* The perf source with a driver that does not count (6.18, the fixes alone): the witness does. */
TEST(loop_a_source_instance_may_not_count_what_its_kind_does)
{
	static const struct dtl_source_ops counting = { .name = "counting", .counts_lost = true };
	struct dtl_source src = { .ops = &counting };

	CHECK(dtl_source__counts_lost(&src));
	src.lost_unknown = true;
	CHECK(!dtl_source__counts_lost(&src));
}

/* A debugfs-like source that registered cpu 0's DTL when dtl_idx was 94. */
static int reg_at_94(const struct dtl_source *src, unsigned int cpu, uint64_t *idx)
{
	(void)src;
	*idx = 94;
	return cpu == 0 ? 0 : -1;
}

TEST(loop_vpa_witness_counts_what_lapped_before_it_first_looked)
{
	static const struct dtl_source_ops reg_ops = {
		.name = "fake-reg", .open = fake_open, .close = fake_close, .poll = fake_poll,
		.read = fake_read, .tick = fake_tick, .set_mask = fake_set_mask, .tb = fake_tb,
		.reg_idx = reg_at_94,
	};
	struct fake_view fv;

	/* 6 entries written after the open and lapped before the witness's first read */
	witness_run(&reg_ops, &fv);
	CHECK_EQ(fv.dispatches[0], 6 + 5);	/* since the registration: 12 written, 1 shown */
	CHECK_EQ(fv.dispatches[1], 0);
	/* dtl.c's open sets dtl_idx back to 0; with the kernel's accounting it runs on */
	CHECK_EQ(dtl_vpa__registered_at(&(struct dtl_vpa){ .dtl_idx = 40 },
					&(struct dtl_vpa){ .dtl_idx = 250, .dtl_enable_mask = 7 }), 0);
	CHECK_EQ(dtl_vpa__registered_at(&(struct dtl_vpa){ .dtl_idx = 5000, .dtl_enable_mask = 2 },
					&(struct dtl_vpa){ .dtl_idx = 5002, .dtl_enable_mask = 7 }), 5000);
	CHECK_EQ(dtl_vpa__registered_at(&(struct dtl_vpa){ .dtl_idx = 5000, .dtl_enable_mask = 2 },
					&(struct dtl_vpa){ .dtl_idx = 3, .dtl_enable_mask = 7 }), 0);
}

/* lparcfg's PURR and timebase, as the kernel counts them */
static void lparcfg_at(const char *root, uint64_t purr, uint64_t tbr)
{
	char text[256];

	snprintf(text, sizeof(text), "partition_entitled_capacity=200\nshared_processor_mode=1\n"
		 "capped=0\npurr=%llu\ntbr=%llu\n", (unsigned long long)purr, (unsigned long long)tbr);
	fakeroot_puts(root, "proc/powerpc/lparcfg", text);
}

static double physc_seen[8];
static uint64_t purr_now, tbr_now;

/* After each interval the partition consumed 1, then 3, then 1 processors. */
static int physc_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	static const unsigned int rate[] = { 3, 1, 1, 1, 1, 1, 1 };
	struct fake_view *f = v->priv;

	if (fresh && f->fresh < 7) {
		physc_seen[f->fresh] = (m->table->all.known & DTL_KNOWN_PHYSC) ? m->table->all.physc : -1;
		tbr_now += FAKE_TB_FREQ;
		purr_now += rate[f->fresh] * FAKE_TB_FREQ;
		lparcfg_at(vpa_root, purr_now, tbr_now);
		f->fresh++;
	}
	return 0;
}

/* A live loop of n intervals on a fresh root whose partition consumes 1, 3, 1, 1... processors. */
static struct dtl_loop *physc_loop(const struct dtl_view_ops *ops, int n, struct fake_view *fv)
{
	struct dtl_loop *l;
	char args[256];

	vpa_root = fakeroot_new();
	purr_now = 0;
	tbr_now = 1000 * FAKE_TB_FREQ;
	lparcfg_at(vpa_root, purr_now, tbr_now);
	snprintf(args, sizeof(args), "--root %s -n %d", vpa_root, n);
	l = loop_on(&live_ops, args, fv, ops);
	tbr_now += FAKE_TB_FREQ;	/* interval 1: one processor */
	purr_now += FAKE_TB_FREQ;
	lparcfg_at(vpa_root, purr_now, tbr_now);
	return l;
}

TEST(loop_physc_of_an_interval_is_against_the_reading_before_not_the_first)
{
	static const struct dtl_view_ops ops = { .interactive = true, .wait = view_wait,
						 .show = physc_show };
	struct fake_view fv;
	struct dtl_loop *l = physc_loop(&ops, 3, &fv);
	char args[256];

	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 3);
	CHECK_NEAR(physc_seen[0], 1.0, 1e-9);
	CHECK_NEAR(physc_seen[1], 3.0, 1e-9);
	CHECK_NEAR(physc_seen[2], 1.0, 1e-9);	/* not (1 + 3 + 1) / 3 since the start */
	dtl_loop__delete(l, 0);
	/* -C: the aggregate row is the CPUs picked, not the partition: no physc of its own */
	snprintf(args, sizeof(args), "--root %s -n 2 -C 0", vpa_root);
	l = loop_on(&live_ops, args, &fv, &ops);
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 2);
	CHECK_EQ(physc_seen[1], -1);
	dtl_loop__delete(l, 0);
	fakeroot_free(vpa_root);
}

static int reset_state;
static double physc_total[8];

/* After the second interval: r, then i (totals since start) */
static struct dtl_act reset_wait(struct dtl_view *v, int ms)
{
	struct fake_view *f = v->priv;
	struct dtl_act a = { .what = DTL_ACT_NONE };

	clock_ns += (uint64_t)ms * 1000000ull;
	if (f->fresh == 2 && reset_state < 2)
		a.what = reset_state++ ? DTL_ACT_SPAN : DTL_ACT_RESET;
	return a;
}

static int reset_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct fake_view *f = v->priv;

	if (fresh && f->fresh < 7)
		physc_total[f->fresh] = m->since_start && m->lpar ? m->lpar->physc : -1;
	return physc_show(v, m, fresh);
}

TEST(loop_reset_restarts_the_partitions_totals_too)
{
	static const struct dtl_view_ops ops = { .interactive = true, .wait = reset_wait,
						 .show = reset_show };
	struct fake_view fv;
	struct dtl_loop *l;

	reset_state = 0;
	l = physc_loop(&ops, 4, &fv);
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 4);
	CHECK_EQ(reset_state, 2);
	CHECK_EQ(physc_total[1], -1);
	/* r after the second interval (1, then 3): since then 1 and 1, not 1.67 and 1.5 */
	CHECK_NEAR(physc_total[2], 1.0, 1e-9);
	CHECK_NEAR(physc_total[3], 1.0, 1e-9);
	dtl_loop__delete(l, 0);
	fakeroot_free(vpa_root);
}

extern const struct dtl_source_ops dtl_vpa_ops;

static void vpa_counters(const char *root, unsigned int cpu, uint32_t yields, uint64_t steal,
			 uint64_t idle)
{
	vpa_write(root, cpu, 0, yields, steal, idle);
}

static struct dtl_row vpa_rows[4];

static int vpa_only_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct fake_view *f = v->priv;

	if (fresh && f->fresh < 2) {
		for (size_t i = 0; i < m->table->n && i < 2; i++)
			vpa_rows[f->fresh * 2 + i] = m->table->rows[i];
		f->fresh++;
		/* the 32-bit yield_count wraps in the second interval */
		vpa_counters(vpa_root, 0, 6, 512000000 / 2, 102400000);
	}
	return 0;
}

TEST(loop_vpa_source_shows_counters_and_blanks_what_needs_the_dtl)
{
	static const struct dtl_view_ops ops = { .interactive = true, .wait = view_wait,
						 .show = vpa_only_show };
	struct fake_view fv;
	struct dtl_loop *l;
	const struct dtl_col *c;
	char args[256], cell[64];
	size_t n;

	vpa_root = fakeroot_new();
	fakeroot_puts(vpa_root, "sys/devices/system/cpu/online", "0-1\n");
	fakeroot_puts(vpa_root, "sys/devices/system/cpu/possible", "0-1\n");
	fakeroot_puts(vpa_root, "proc/cpuinfo", "timebase\t: 512000000\n");
	vpa_counters(vpa_root, 0, 0xfffffff0u, 0, 0);
	vpa_counters(vpa_root, 1, 10, 0, 0);
	snprintf(args, sizeof(args), "--root %s -n 2", vpa_root);
	l = loop_on(&dtl_vpa_ops, args, &fv, &ops);
	/* interval 1: cpu 0 made 4 cycles (8 yield steps), waited 0.1 s, ceded 0.2 s */
	vpa_counters(vpa_root, 0, 0xfffffff8u, 51200000, 102400000);
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 2);
	CHECK_EQ(vpa_rows[0].cpu, 0);
	CHECK_EQ(vpa_rows[0].dispatches, 4);
	CHECK_NEAR(vpa_rows[0].steal_pct, 10, 1e-6);
	CHECK_NEAR(vpa_rows[0].idle_pct, 20, 1e-6);
	CHECK_EQ(vpa_rows[1].dispatches, 0);
	CHECK_EQ(vpa_rows[2].dispatches, 7);	/* across the wrap: 14 steps */
	CHECK_NEAR(vpa_rows[2].steal_pct, 40, 1e-6);
	/* latency needs the DTL: unknown, never 0 */
	c = dtl_cols(&n);
	dtl_col__csv(&c[dtl_cols__find("lat_p99_us")], &vpa_rows[0], "", cell, sizeof(cell));
	CHECK_STR(cell, "");
	dtl_col__csv(&c[dtl_cols__find("steal_pct")], &vpa_rows[0], "", cell, sizeof(cell));
	CHECK_STR(cell, "10.00");
	dtl_loop__delete(l, 0);
	fakeroot_free(vpa_root);
}

static int stat_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct fake_view *f = v->priv;

	if (fresh && f->fresh < 16) {
		for (size_t i = 0; i < m->table->n; i++)
			if (m->table->rows[i].cpu == 1)
				vpa_diff[f->fresh] = m->table->rows[i].known & DTL_KNOWN_STAT ?
					(uint64_t)(m->table->rows[i].steal_stat_diff_pct + 1000.5) : 0;
		f->fresh++;
	}
	return 0;
}

/* /proc/stat's steal, a third opinion: cpu 1 logs 512 ticks a interval (1 us at 512 MHz). */
TEST(loop_proc_stat_steal_against_the_dtl)
{
	static const struct dtl_view_ops ops = { .interactive = true, .wait = view_wait,
						 .show = stat_show };
	struct fake_view fv;
	struct dtl_loop *l;
	char args[256];
	long hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	char text[256];

	vpa_root = fakeroot_new();
	fakeroot_puts(vpa_root, "proc/stat", "cpu0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 100\n");
	snprintf(args, sizeof(args), "--root %s -n 1", vpa_root);
	l = loop_on(&live_ops, args, &fv, &ops);
	/* one USER_HZ tick is FAKE_TB_FREQ / hz timebase ticks: say 512 * 2 of them */
	snprintf(text, sizeof(text), "cpu0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 %llu\n",
		 100 + (unsigned long long)(1024 * hz / FAKE_TB_FREQ) + 1);
	fakeroot_puts(vpa_root, "proc/stat", text);
	CHECK_EQ(dtl_loop__run(l, &fv.v), 0);
	CHECK_EQ(fv.fresh, 1);
	/* at 100 Hz a tick is far more than 1024 timebase ticks: the DTL's steal is well below */
	CHECK(vpa_diff[0] != 0);			/* known */
	CHECK(vpa_diff[0] < 1000);			/* negative difference */
	dtl_loop__delete(l, 0);
	fakeroot_free(vpa_root);
}
