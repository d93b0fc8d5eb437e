/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Numbers pinned by hand: each expectation below is worked out in its
 * comment from the spec (../shared/docs/dtl-abi.md) or by arithmetic, never
 * taken from dtltop's own output. 1 MHz timebase: one tick is one microsecond.
 */
#include "t.h"

#include <stdlib.h>

#include "dtl/dtl.h"
#include "opts/opts.h"
#include "stats/stats.h"
#include "view/columns.h"
#include "view/table.h"

static struct dtl_stats *cpus(unsigned int n)
{
	struct dtl_stats *s = dtl_stats__new(n, 1000000);

	for (unsigned int i = 0; i < n; i++)
		dtl_stats__set_online(s, i, true);
	return s;
}

static void add(struct dtl_stats *s, unsigned int cpu, uint64_t tb, uint8_t pre, uint32_t e2d)
{
	struct dtl_rec r = { 0 };

	r.timebase = tb;
	r.preempt_reason = pre;
	r.dispatch_reason = 3;
	r.enqueue_to_dispatch = e2d;
	dtl_stats__add(s, cpu, &r);
}

/* The spec: timebases increase; dtltop counts only one going back as bad. */
TEST(pin_equal_timebase_is_not_bad_a_smaller_one_is)
{
	struct dtl_stats *s = cpus(1);
	struct dtl_row row;

	add(s, 0, 100, 4, 1);
	add(s, 0, 100, 4, 1);	/* equal: kept, not bad */
	add(s, 0, 99, 4, 1);	/* back: kept, bad */
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row);
	CHECK_EQ(row.dispatches, 3);
	CHECK_EQ(row.bad, 1);
	dtl_stats__delete(s);
}

TEST(pin_lost_reports_in_one_interval_add_up)
{
	struct dtl_stats *s = cpus(2);
	struct dtl_row row;

	dtl_stats__add_lost(s, 1, 5);
	dtl_stats__add_lost(s, 1, 7);
	dtl_stats__add_lost(s, 0, 1);
	dtl_stats__add_bad(s, 1, 2);
	dtl_stats__add_bad(s, 1, 3);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &row);
	CHECK_EQ(row.lost, 12);
	CHECK_EQ(row.bad, 5);
	dtl_stats__row(s, DTL_ROW_ALL, DTL_SPAN_INTERVAL, &row);
	CHECK_EQ(row.lost, 13);
	dtl_stats__delete(s);
}

/* Codes past preempt_reasons[10] go to "other", in the CSV column, the aggregate and the totals. */
TEST(pin_unknown_preempt_code_reaches_other_everywhere)
{
	struct dtl_stats *s = cpus(2);
	struct dtl_table t = { 0 };
	int other = dtl_cols__find("preempt_other");
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[64];

	add(s, 0, 10, 200, 1);
	add(s, 1, 10, 10, 1);
	add(s, 1, 20, 4, 1);
	dtl_stats__end_interval(s, 1.0);
	dtl_table__fill(&t, s, DTL_SPAN_INTERVAL, 0);
	CHECK(other >= 0);
	CHECK_EQ(t.rows[0].preempt[DTL_N_PREEMPT], 1);
	CHECK_EQ(t.all.preempt[DTL_N_PREEMPT], 2);
	dtl_col__csv(&c[other], &t.all, "", cell, sizeof(cell));
	CHECK_STR(cell, "2");
	dtl_col__csv(&c[other], &t.rows[1], "", cell, sizeof(cell));
	CHECK_STR(cell, "1");
	dtl_table__fill(&t, s, DTL_SPAN_TOTAL, 0);
	CHECK_EQ(t.all.preempt[DTL_N_PREEMPT], 2);
	dtl_table__free(&t);
	dtl_stats__delete(s);
}

/* Since start, the aggregate is the sum of the rows shown: an offline CPU leaves it. */
TEST(pin_since_start_aggregate_after_a_cpu_goes_offline)
{
	struct dtl_stats *s = cpus(3);
	struct dtl_row row;

	add(s, 0, 10, 4, 1);
	add(s, 1, 10, 4, 1);
	add(s, 1, 20, 4, 1);
	add(s, 2, 10, 4, 1);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__set_online(s, 1, false);
	add(s, 0, 30, 4, 1);
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, 1, DTL_SPAN_TOTAL, &row), -1);
	dtl_stats__row(s, DTL_ROW_ALL, DTL_SPAN_TOTAL, &row);
	CHECK_EQ(row.dispatches, 3);		/* cpu 0: 2, cpu 2: 1 */
	CHECK_NEAR(row.dispatch_per_s, 1.5, 1e-12);	/* over 2 s */
	dtl_stats__delete(s);
}

/* dtl-abi.md 2.1 and 6.2: cede = voluntary waits, fault = page faults, preempt = the rest. */
TEST(pin_every_preempt_code_maps_to_its_mask_bit)
{
	static const unsigned int want[] = {
		DTL_MASK_PREEMPT,	/* 0 unused */
		DTL_MASK_PREEMPT,	/* 1 firmware_internal_event */
		DTL_MASK_CEDE,		/* 2 H_CEDE */
		DTL_MASK_CEDE,		/* 3 H_CONFER */
		DTL_MASK_PREEMPT,	/* 4 time_slice */
		DTL_MASK_FAULT,		/* 5 migration_hibernation_page_fault */
		DTL_MASK_FAULT,		/* 6 virtual_memory_page_fault */
		DTL_MASK_CEDE,		/* 7 H_CONFER_ADJUNCT */
		DTL_MASK_CEDE,		/* 8 hcall_adjunct */
		DTL_MASK_PREEMPT,	/* 9 HDEC_adjunct */
	};

	for (unsigned int code = 0; code < 10; code++)
		if (dtl_preempt__mask_bit(code) != want[code])
			T_FAIL("preempt code %u maps to 0x%x, want 0x%x", code,
			       dtl_preempt__mask_bit(code), want[code]);
	CHECK_EQ(dtl_preempt__mask_bit(10), DTL_MASK_PREEMPT);
	CHECK_EQ(dtl_preempt__mask_bit(255), DTL_MASK_PREEMPT);
}

/*
 * Percentiles: nearest rank over a log-linear histogram (8 buckets per
 * power of two), reported at the bucket's midpoint, never above the maximum.
 * 158 waits of 100 us and 2 of 5000 us: rank(p50) = 80 -> 100 us, exact
 * (100 = 0b1100100: bucket 96..103, midpoint 100); rank(p99) = ceil(158.4) =
 * 159 -> 5000 us, in bucket 4608..5119 (width 512), midpoint 4864.
 */
TEST(pin_percentiles_across_buckets_nearest_rank_and_clamped)
{
	struct dtl_stats *s = cpus(2);
	struct dtl_row row;

	for (int i = 0; i < 158; i++)
		add(s, 0, 10 + (uint64_t)i, 4, 100);
	add(s, 0, 1000, 4, 5000);
	add(s, 0, 1001, 4, 5000);
	/* a lone 961 us wait: bucket 960..1023 has midpoint 992, above the maximum */
	add(s, 1, 10, 4, 961);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row);
	CHECK_NEAR(row.lat_p50_us, 100, 1e-9);
	CHECK_NEAR(row.lat_p99_us, 4864, 1e-9);
	CHECK_NEAR(row.lat_max_us, 5000, 1e-9);
	dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &row);
	CHECK_NEAR(row.lat_p50_us, 961, 1e-9);
	CHECK_NEAR(row.lat_p99_us, 961, 1e-9);
	/* the partition: 161 waits; rank(p99) = ceil(159.39) = 160 -> 5000 us */
	dtl_stats__row(s, DTL_ROW_ALL, DTL_SPAN_INTERVAL, &row);
	CHECK_NEAR(row.lat_p99_us, 4864, 1e-9);
	CHECK_NEAR(row.lat_p50_us, 100, 1e-9);
	dtl_stats__delete(s);
}

/* Ties keep CPU order, whichever way the figures sort. */
TEST(pin_sorting_ties_fall_back_to_ascending_cpu)
{
	struct dtl_stats *s = cpus(4);
	struct dtl_table t = { 0 };
	int col = dtl_cols__find("dispatches");
	int want_desc[] = { 2, 0, 3, 1 }, want_asc[] = { 1, 0, 3, 2 };

	/* dispatches: cpu0 2, cpu1 1, cpu2 3, cpu3 2 */
	add(s, 0, 1, 4, 1);
	add(s, 0, 2, 4, 1);
	add(s, 1, 1, 4, 1);
	add(s, 2, 1, 4, 1);
	add(s, 2, 2, 4, 1);
	add(s, 2, 3, 4, 1);
	add(s, 3, 1, 4, 1);
	add(s, 3, 2, 4, 1);
	dtl_stats__end_interval(s, 1.0);
	dtl_table__fill(&t, s, DTL_SPAN_INTERVAL, 0);
	dtl_table__sort(&t, col, false);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(t.rows[i].cpu, want_desc[i]);
	dtl_table__sort(&t, col, true);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(t.rows[i].cpu, want_asc[i]);
	dtl_table__free(&t);
	dtl_stats__delete(s);
}

/*
 * The batch text's partition line, worked out: 2 CPUs, 0.5 s; cpu 0 has a
 * time slice (involuntary) with 300 us queue wait, cpu 1 an H_CEDE
 * (voluntary) with 100 us. 2 dispatches = 4/s; involuntary 1 of 2 = 50.0 %;
 * steal 400 us of 2 x 0.5 s = 0.04 %; p50 = rank 1 = 100 us, p99 = rank 2 =
 * 300 us (bucket 288..319, whose midpoint 304 is above the maximum: 300).
 */
TEST(pin_batch_text_partition_line)
{
	struct dtl_stats *s = cpus(2);
	struct dtl_table t = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	dtl_stats__start_at(s, 1000000);
	add(s, 0, 1200000, 4, 300);
	add(s, 1, 1300000, 2, 100);
	dtl_stats__end_at(s, 1500000);
	dtl_stats__end_interval(s, 0.5);
	dtl_table__fill(&t, s, DTL_SPAN_INTERVAL, 0);
	dtl_text__table(f, &t, "title");
	fclose(f);
	/* two samples: no percentiles; a time in its unit, as the screen says it */
	CHECK_CONTAINS(buf, "\nall: 2 dispatches (4.0/s)  involuntary 50.0%  steal 0.0%  "
		       "latency p50 - p99 - max 300us  lost 0\n");
	free(buf);
	dtl_table__free(&t);
	dtl_stats__delete(s);
}

TEST(pin_smallest_interval_is_accepted)
{
	char *argv[] = { "dtltop", "-d", "0.01", NULL }, *low[] = { "dtltop", "-d", "0.009", NULL };
	struct dtl_opts o;
	char err[256];

	CHECK_EQ(dtl_opts__parse(&o, 3, argv, err, sizeof(err)), 0);
	CHECK_NEAR(o.interval_s, 0.01, 1e-12);
	CHECK_EQ(dtl_opts__parse(&o, 3, low, err, sizeof(err)), -1);
}
