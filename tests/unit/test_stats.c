/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stats, with a 1 MHz timebase so one tick is one microsecond and every
 * expectation below can be checked by hand.
 */
#include "t.h"

#include "stats/stats.h"

static struct dtl_rec rec(uint64_t tb, uint8_t disp, uint8_t pre, uint16_t proc,
			  uint32_t e2d, uint32_t r2e, uint32_t w2r)
{
	struct dtl_rec r = { 0 };

	r.timebase = tb;
	r.dispatch_reason = disp;
	r.preempt_reason = pre;
	r.processor_id = proc;
	r.enqueue_to_dispatch = e2d;
	r.ready_to_enqueue = r2e;
	r.waiting_to_ready = w2r;
	return r;
}

static struct dtl_stats *two_cpus(void)
{
	struct dtl_stats *s = dtl_stats__new(2, 1000000);

	dtl_stats__set_online(s, 0, true);
	dtl_stats__set_online(s, 1, true);
	return s;
}

TEST(stats_count_dispatches_reasons_steal_and_idle)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec r[4] = {
		rec(100, 3, 2, 10, 4, 1, 1000),	/* woke from H_CEDE */
		rec(200, 7, 4, 10, 50, 0, 0),	/* time slice: involuntary */
		rec(300, 8, 6, 11, 6, 2, 30),	/* page fault: involuntary, migrated */
		rec(400, 6, 3, 11, 2, 0, 10),	/* H_CONFER */
	};
	struct dtl_row row;

	for (int i = 0; i < 4; i++)
		dtl_stats__add(s, 0, &r[i]);
	dtl_stats__end_interval(s, 2.0);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_EQ(row.dispatches, 4);
	CHECK_NEAR(row.dispatch_per_s, 2.0, 1e-9);
	CHECK_NEAR(row.preempt_ratio, 0.5, 1e-9);
	CHECK_NEAR(row.steal_us, 4 + 1 + 50 + 6 + 2 + 2, 1e-9);
	CHECK_NEAR(row.steal_pct, 100.0 * 65 / 2e6, 1e-12);
	CHECK_NEAR(row.idle_us, 1040, 1e-9);
	CHECK_EQ(row.migrations, 1);
	CHECK_EQ(row.faults, 1);
	CHECK_EQ(row.preempt[2], 1);
	CHECK_EQ(row.preempt[4], 1);
	CHECK_EQ(row.preempt[6], 1);
	CHECK_EQ(row.preempt[3], 1);
	CHECK_EQ(row.dispatch[7], 1);
	CHECK_EQ(row.dispatch[8], 1);
	CHECK_NEAR(row.lat_max_us, 50, 1e-9);
	dtl_stats__delete(s);
}

TEST(stats_latency_percentiles_are_nearest_rank)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_row row;
	struct dtl_rec r;

	/* 100 entries: latencies 1..7 are exact buckets; 98 of 2 us, one 5, one 7. */
	for (int i = 0; i < 98; i++) {
		r = rec(10 + (uint64_t)i, 0, 2, 1, 2, 0, 0);
		dtl_stats__add(s, 1, &r);
	}
	r = rec(500, 0, 2, 1, 5, 0, 0);
	dtl_stats__add(s, 1, &r);
	r = rec(501, 0, 2, 1, 7, 0, 0);
	dtl_stats__add(s, 1, &r);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &row);
	CHECK_NEAR(row.lat_p50_us, 2, 1e-9);
	CHECK_NEAR(row.lat_p99_us, 5, 1e-9);	/* rank 99 is the 5 */
	CHECK_NEAR(row.lat_max_us, 7, 1e-9);
	dtl_stats__delete(s);
}

TEST(stats_histogram_buckets_are_within_a_sixteenth)
{
	unsigned int prev = 0;

	for (uint64_t v = 1; v < (1ull << 32); v = v * 3 / 2 + 1) {
		unsigned int b = dtl_hist__bucket((uint32_t)v);
		double mid = (double)dtl_hist__value(b);

		CHECK(b < DTL_HIST_BUCKETS);
		CHECK(b >= prev);
		CHECK(fabs(mid - (double)v) <= (double)v / 16 + 0.5);
		prev = b;
	}
	CHECK_EQ(dtl_hist__bucket(0xffffffffu), DTL_HIST_BUCKETS - 1);
	CHECK_EQ(dtl_hist__bucket(7), 7);
	CHECK_EQ(dtl_hist__bucket(8), 8);
	CHECK_EQ(dtl_hist__value(8), 8);
}

TEST(stats_reason_codes_past_the_tables_count_as_other)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec r = rec(5, 200, 250, 1, 1, 0, 0);
	struct dtl_row row;

	dtl_stats__add(s, 0, &r);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row);
	CHECK_EQ(row.preempt[DTL_N_PREEMPT], 1);
	CHECK_EQ(row.dispatch[DTL_N_DISPATCH], 1);
	CHECK_NEAR(row.preempt_ratio, 0, 1e-12);	/* "other" is not involuntary */
	dtl_stats__delete(s);
}

TEST(stats_zero_timebase_is_dropped_and_backwards_time_counted)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec a = rec(0, 0, 2, 1, 1, 0, 0), b = rec(1000, 0, 2, 1, 1, 0, 0),
		       c = rec(900, 0, 2, 1, 1, 0, 0);
	struct dtl_row row;

	dtl_stats__add(s, 0, &a);
	dtl_stats__add(s, 0, &b);
	dtl_stats__add(s, 0, &c);
	dtl_stats__add_bad(s, 0, 1);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row);
	CHECK_EQ(row.dispatches, 2);
	CHECK_EQ(row.bad, 3);
	dtl_stats__delete(s);
}

TEST(stats_totals_span_intervals_and_reset)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec r = rec(10, 0, 2, 1, 3, 1, 0);
	struct dtl_row row;

	dtl_stats__add(s, 0, &r);
	dtl_stats__add_lost(s, 0, 5);
	dtl_stats__end_interval(s, 1.0);
	r.timebase = 20;
	dtl_stats__add(s, 0, &r);
	dtl_stats__add(s, 0, &r);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row);
	CHECK_EQ(row.dispatches, 2);
	CHECK_EQ(row.lost, 0);
	dtl_stats__row(s, 0, DTL_SPAN_TOTAL, &row);
	CHECK_EQ(row.dispatches, 3);
	CHECK_EQ(row.lost, 5);
	CHECK_NEAR(row.interval_s, 2.0, 1e-12);
	CHECK_NEAR(row.dispatch_per_s, 1.5, 1e-12);
	CHECK_NEAR(row.steal_us, 12, 1e-9);
	dtl_stats__reset_totals(s);
	dtl_stats__row(s, 0, DTL_SPAN_TOTAL, &row);
	CHECK_EQ(row.dispatches, 0);
	/* after the reset the totals' span starts again: 4 in 2 s is 2/s, not 4 in 4 s */
	for (int i = 0; i < 2; i++) {
		r.timebase = 30 + 10 * (uint64_t)i;
		dtl_stats__add(s, 0, &r);
		dtl_stats__add(s, 0, &r);
		dtl_stats__end_interval(s, 1.0);
	}
	dtl_stats__row(s, 0, DTL_SPAN_TOTAL, &row);
	CHECK_EQ(row.dispatches, 4);
	CHECK_NEAR(row.interval_s, 2.0, 1e-12);
	CHECK_NEAR(row.dispatch_per_s, 2.0, 1e-12);
	dtl_stats__delete(s);
}

TEST(stats_partition_row_sums_online_vcpus)
{
	struct dtl_stats *s = dtl_stats__new(3, 1000000);
	struct dtl_rec r = rec(10, 0, 4, 1, 100, 0, 0);
	struct dtl_row all;

	dtl_stats__set_online(s, 0, true);
	dtl_stats__set_online(s, 1, true);
	dtl_stats__add(s, 0, &r);
	dtl_stats__add(s, 1, &r);
	dtl_stats__add(s, 1, &r);
	dtl_stats__add(s, 2, &r);	/* offline: not in the partition row */
	dtl_stats__add(s, 7, &r);	/* out of range: ignored */
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, DTL_ROW_ALL, DTL_SPAN_INTERVAL, &all), 0);
	CHECK_EQ(all.dispatches, 3);
	CHECK_NEAR(all.steal_us, 300, 1e-9);
	CHECK_NEAR(all.steal_pct, 100.0 * 300 / 2e6, 1e-12);	/* of two vCPU-seconds */
	CHECK_NEAR(all.preempt_ratio, 1.0, 1e-12);
	CHECK_EQ(dtl_stats__row(s, 2, DTL_SPAN_INTERVAL, &all), -1);
	CHECK_EQ(dtl_stats__row(s, 9, DTL_SPAN_INTERVAL, &all), -1);
	CHECK_EQ(dtl_stats__nr_online(s), 2);
	dtl_stats__delete(s);
}

TEST(stats_add_entries_decodes_raw_big_endian_bytes)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec r[2] = { rec(10, 10, 2, 5, 1, 1, 1), rec(20, 0, 4, 6, 2, 2, 2) };
	uint8_t raw[96];
	struct dtl_row row;

	dtl_rec__encode(&r[0], raw);
	dtl_rec__encode(&r[1], raw + 48);
	dtl_stats__add_entries(s, 1, raw, 2);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &row);
	CHECK_EQ(row.dispatches, 2);
	CHECK_EQ(row.dispatch[10], 1);
	CHECK_EQ(row.migrations, 1);
	CHECK_NEAR(row.steal_us, 6, 1e-9);
	dtl_stats__delete(s);
}

TEST(stats_zero_timebase_frequency_falls_back_to_512mhz)
{
	struct dtl_stats *s = dtl_stats__new(1, 0);
	struct dtl_rec r = rec(1, 0, 2, 0, 512, 0, 0);
	struct dtl_row row;

	dtl_stats__set_online(s, 0, true);
	dtl_stats__add(s, 0, &r);
	dtl_stats__end_interval(s, 1.0);
	dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row);
	CHECK_NEAR(row.steal_us, 1.0, 1e-9);
	dtl_stats__delete(s);
}

/*
 * Waits are split at interval edges by the entry's timebase (1 tick = 1 us):
 * a wait ends at its entry, steal last, idle before it.
 */
TEST(stats_split_waits_at_the_interval_start)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec r1 = rec(1500, 3, 2, 1, 300, 100, 400);	/* idle 700-1100, steal 1100-1500 */
	struct dtl_rec r2 = rec(2900, 3, 4, 1, 1200, 0, 0);	/* steal 1700-2900 */
	struct dtl_row row;

	dtl_stats__start_at(s, 1000);
	dtl_stats__add(s, 0, &r1);
	dtl_stats__end_at(s, 2000);
	dtl_stats__end_interval(s, 0.001);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_NEAR(row.steal_us, 400, 1e-9);
	CHECK_NEAR(row.steal_pct, 40, 1e-9);
	CHECK_NEAR(row.idle_us, 100, 1e-9);	/* 300 us of it were before the start */
	CHECK_NEAR(row.idle_pct, 10, 1e-9);
	dtl_stats__add(s, 0, &r2);
	dtl_stats__end_at(s, 3000);
	dtl_stats__end_interval(s, 0.001);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_NEAR(row.steal_us, 900, 1e-9);	/* 300 us fell in the first interval */
	CHECK_NEAR(row.steal_pct, 90, 1e-9);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_TOTAL, &row), 0);
	CHECK_NEAR(row.steal_us, 1600, 1e-9);	/* exact: every wait since the start */
	CHECK_NEAR(row.idle_us, 100, 1e-9);
	CHECK_NEAR(row.steal_pct, 80, 1e-9);
	/* the partition: both CPUs' time, CPU 1 had none */
	CHECK_EQ(dtl_stats__row(s, DTL_ROW_ALL, DTL_SPAN_TOTAL, &row), 0);
	CHECK_NEAR(row.steal_pct, 40, 1e-9);
	dtl_stats__delete(s);
}

/* An entry read after the interval's end moves the end to it; the next window starts there. */
TEST(stats_window_follows_late_entries_and_never_exceeds_100)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec late = rec(2500, 3, 4, 1, 1400, 0, 0);	/* steal 1100-2500 */
	struct dtl_rec next = rec(3000, 3, 4, 1, 400, 0, 0);	/* steal 2600-3000 */
	struct dtl_row row;

	dtl_stats__start_at(s, 1000);
	dtl_stats__add(s, 0, &late);
	dtl_stats__end_at(s, 2000);
	dtl_stats__end_interval(s, 0.001);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_NEAR(row.steal_us, 1400, 1e-9);
	CHECK_NEAR(row.steal_pct, 100.0 * 1400 / 1500, 1e-9);	/* window 1000-2500 */
	dtl_stats__add(s, 0, &next);
	dtl_stats__end_at(s, 3500);
	dtl_stats__end_interval(s, 0.001);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_NEAR(row.steal_us, 400, 1e-9);
	CHECK_NEAR(row.steal_pct, 40, 1e-9);	/* window 2500-3500 */
	dtl_stats__delete(s);
}

/* Without a clock the first interval cannot know its start: what does not fit is dropped. */
TEST(stats_without_a_clock_clip_the_first_interval_to_its_length)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec r = rec(5000000, 3, 4, 1, 3000000, 0, 0);	/* a 3 s wait */
	struct dtl_rec r2 = rec(5500000, 3, 4, 1, 200000, 0, 0);	/* 5.3-5.5 s */
	struct dtl_row row;

	dtl_stats__add(s, 0, &r);
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_NEAR(row.steal_pct, 100, 1e-9);
	/* later intervals start where the last ended (its latest entry) and split exactly */
	dtl_stats__add(s, 0, &r2);
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_NEAR(row.steal_us, 200000, 1e-9);
	CHECK_EQ(dtl_stats__row(s, 0, DTL_SPAN_TOTAL, &row), 0);
	CHECK(row.steal_pct <= 100);
	dtl_stats__delete(s);
}

/* The mask in force throughout an interval: a change mid-way leaves the narrower. */
TEST(stats_rows_carry_the_mask_and_gaps)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_row row;

	dtl_stats__set_mask(s, DTL_MASK_ALL);
	dtl_stats__add_gaps(s, 1, 2);
	dtl_stats__add_gaps(s, 1, 3);
	dtl_stats__set_mask(s, DTL_MASK_PREEMPT | DTL_MASK_FAULT);
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_EQ(row.mask, DTL_MASK_PREEMPT | DTL_MASK_FAULT);
	CHECK_EQ(row.gaps, 5);
	CHECK_EQ(dtl_stats__row(s, DTL_ROW_ALL, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_EQ(row.gaps, 5);
	dtl_stats__set_mask(s, DTL_MASK_ALL);
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_EQ(row.mask, DTL_MASK_PREEMPT | DTL_MASK_FAULT);	/* began under the old mask */
	CHECK_EQ(row.gaps, 0);
	dtl_stats__end_interval(s, 1.0);
	CHECK_EQ(dtl_stats__row(s, 1, DTL_SPAN_INTERVAL, &row), 0);
	CHECK_EQ(row.mask, DTL_MASK_ALL);
	CHECK_EQ(dtl_stats__row(s, 1, DTL_SPAN_TOTAL, &row), 0);
	CHECK_EQ(row.mask, DTL_MASK_PREEMPT | DTL_MASK_FAULT);	/* since start: not all traced */
	CHECK_EQ(row.gaps, 5);
	dtl_stats__delete(s);
}

/* A wait that began before the capture did belongs to no figure, not even the totals. */
TEST(stats_wait_before_the_capture_start_is_nobodys)
{
	struct dtl_stats *s = two_cpus();
	struct dtl_rec r1 = rec(1100, 3, 4, 1, 300, 0, 200);	/* idle 600-800, steal 800-1100 */
	struct dtl_rec r2 = rec(2600, 3, 4, 1, 700, 0, 0);	/* steal 1900-2600 */
	struct dtl_row row;

	dtl_stats__start_at(s, 1000);
	dtl_stats__add(s, 0, &r1);
	dtl_stats__end_at(s, 2000);
	dtl_stats__end_interval(s, 0.001);
	dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row);
	CHECK_NEAR(row.steal_us, 100, 1e-9);
	CHECK_NEAR(row.idle_us, 0, 1e-9);
	dtl_stats__add(s, 0, &r2);
	dtl_stats__end_at(s, 3000);
	dtl_stats__end_interval(s, 0.001);
	dtl_stats__row(s, 0, DTL_SPAN_TOTAL, &row);
	CHECK_NEAR(row.steal_us, 100 + 700, 1e-9);	/* 100 after the start, and r2 whole */
	CHECK_NEAR(row.idle_us, 0, 1e-9);
	dtl_stats__delete(s);
}
