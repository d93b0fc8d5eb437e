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
