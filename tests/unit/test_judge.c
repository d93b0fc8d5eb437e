/* SPDX-License-Identifier: GPL-2.0-only */
/* Thresholds, the header's words, and the row filter: pure, no terminal. */
#include "t.h"

#include "view/columns.h"
#include "view/filter.h"
#include "view/judge.h"

static const struct dtl_col *col(const char *name)
{
	size_t n;

	return &dtl_cols(&n)[dtl_cols__find(name)];
}

static struct dtl_row row(int cpu, double steal, double p99, uint64_t samples)
{
	struct dtl_row r = { 0 };

	r.cpu = cpu;
	r.steal_pct = steal;
	r.lat_p99_us = p99;
	r.samples = r.dispatches = samples;
	r.run_pct = 100 - steal;
	r.known = DTL_KNOWN_DTL;
	return r;
}

TEST(judge_levels_follow_the_thresholds_and_need_samples)
{
	struct dtl_row r = row(0, 9.99, 9999, 20);

	dtl_judge__reset();
	CHECK_EQ(dtl_judge__cell(col("steal_pct"), &r), DTL_LEVEL_OK);
	r.steal_pct = 10;
	CHECK_EQ(dtl_judge__cell(col("steal_pct"), &r), DTL_LEVEL_WARN);
	r.steal_pct = 25;
	CHECK_EQ(dtl_judge__cell(col("steal_pct"), &r), DTL_LEVEL_CRIT);
	CHECK_EQ(dtl_judge__cell(col("lat_p99_us"), &r), DTL_LEVEL_WARN);
	r.lat_p99_us = 10000;	/* the dispatch wheel */
	CHECK_EQ(dtl_judge__cell(col("lat_p99_us"), &r), DTL_LEVEL_CRIT);
	r.samples = r.dispatches = 19;	/* too few to judge a percentile */
	CHECK_EQ(dtl_judge__cell(col("lat_p99_us"), &r), DTL_LEVEL_NONE);
	CHECK_EQ(dtl_judge__cell(col("cpu"), &r), DTL_LEVEL_NONE);
	r.gaps = 1;	/* a loss of unknown size is the worst */
	CHECK_EQ(dtl_judge__cell(col("lost"), &r), DTL_LEVEL_CRIT);
	r.known = 0;	/* counters only: no latency to judge */
	CHECK_EQ(dtl_judge__cell(col("lat_p50_us"), &r), DTL_LEVEL_NONE);
}

TEST(judge_thresholds_are_set_all_or_nothing_and_read_back)
{
	char err[256], buf[512];
	struct dtl_row r = row(0, 15, 0, 0);

	dtl_judge__reset();
	CHECK(dtl_judge__set("steal_pct=20:30", err, sizeof(err)) == 0);
	CHECK_EQ(dtl_judge__cell(col("steal_pct"), &r), DTL_LEVEL_OK);
	CHECK(dtl_judge__set("steal_pct=1:2,nosuch=1:2", err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "no threshold for 'nosuch'");
	CHECK_EQ(dtl_judge__cell(col("steal_pct"), &r), DTL_LEVEL_OK);	/* unchanged */
	CHECK(dtl_judge__set("steal_pct=30:20", err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "WARN <= CRIT");
	CHECK(dtl_judge__set("steal_pct=1", err, sizeof(err)) == -1);
	CHECK(dtl_judge__set("steal_pct=x:2", err, sizeof(err)) == -1);
	dtl_judge__format(buf, sizeof(buf));
	CHECK(strncmp(buf, "steal_pct=20:30,preempt_ratio=0.25:0.5,", 39) == 0);
	dtl_judge__reset();
	CHECK(dtl_judge__set(buf, err, sizeof(err)) == 0);	/* its own output reads back */
	CHECK_EQ(dtl_judge__cell(col("steal_pct"), &r), DTL_LEVEL_OK);
	dtl_judge__reset();
}

TEST(judge_says_the_partition_in_words)
{
	struct dtl_row rows[3] = { row(0, 60, 100, 30), row(1, 20, 12000, 30), row(2, 55, 0, 5) };
	struct dtl_table t = { .rows = rows, .n = 3 };
	char buf[400];

	dtl_judge__reset();
	t.all = row(DTL_ROW_ALL, 30, 12000, 65);
	t.all.run_pct = 45;	/* waiting 30 of 75 wanted */
	dtl_judge__summary(&t, buf, sizeof(buf));
	CHECK_STR(buf, "waiting 40% of wanted CPU time; p99 dispatch wait 12ms (> 10ms dispatch "
		  "wheel); 2 of 3 CPUs above 50% steal");
	t.by_vp = true;
	t.all.samples = t.all.dispatches = 3;
	dtl_judge__summary(&t, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "p99 dispatch wait: too few samples; 2 of 3 VPs");
	dtl_judge__spread(&t, buf, sizeof(buf));
	/* steal of all three; p99 only of the two with 20 samples or more */
	CHECK_STR(buf, "3 VPs: steal% min/p50/p90/max 20.0/55.0/55.0/60.0  p99 min/p50/p90/max "
		  "100us/100us/100us/12ms");
	dtl_judge__us(18514461.7, buf, sizeof(buf));
	CHECK_STR(buf, "19s");
	dtl_judge__us(1500, buf, sizeof(buf));
	CHECK_STR(buf, "1.5ms");
}

TEST(filter_terms_all_hold_and_unknown_figures_pass_none)
{
	struct dtl_filter f = { 0 };
	struct dtl_row a = row(3, 30, 100, 30), b = row(70, 30, 100, 30), c = row(5, 10, 0, 0);
	char err[256];

	CHECK(dtl_filter__parse(&f, "steal_pct>20 cpu=0-63", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a));
	CHECK(!dtl_filter__match(&f, &b));	/* out of the list */
	CHECK(!dtl_filter__match(&f, &c));	/* steal 10 */
	CHECK(dtl_filter__parse(&f, "STEAL%>=30,dispatches!=0", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &c));
	CHECK(dtl_filter__parse(&f, "lat_p99_us<1000", err, sizeof(err)) == 0);
	a.known = 0;	/* latency unknown: no comparison holds */
	CHECK(!dtl_filter__match(&f, &a));
	CHECK(dtl_filter__parse(&f, "", err, sizeof(err)) == 0 && !dtl_filter__on(&f));
	f.active = true;
	CHECK(dtl_filter__on(&f) && !dtl_filter__match(&f, &c) && dtl_filter__match(&f, &b));
	CHECK(dtl_filter__parse(&f, "steal_pct>x", err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "bad value 'x' for steal_pct");
	CHECK(dtl_filter__parse(&f, "nosuch>1", err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "no field 'nosuch'");
	CHECK(dtl_filter__parse(&f, "steal_pct", err, sizeof(err)) == -1);
	CHECK(dtl_filter__parse(&f, "cpu=9999999", err, sizeof(err)) == -1);
	CHECK(f.active);	/* a refused filter leaves the last one */
}

/* What the screen shows is what the filter takes: headings, and values in their units. */
TEST(filter_takes_the_screens_headings_and_units)
{
	struct dtl_filter f = { 0 };
	struct dtl_row a = row(3, 30, 25000, 30), b = row(4, 5, 900, 30);
	char err[256];

	CHECK(dtl_filter__parse(&f, "P99>20ms", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &b));
	CHECK(dtl_filter__parse(&f, "lat_p99_us>20ms", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &b));
	CHECK(dtl_filter__parse(&f, "p99us<1ms", err, sizeof(err)) == 0);
	CHECK(!dtl_filter__match(&f, &a) && dtl_filter__match(&f, &b));
	CHECK(dtl_filter__parse(&f, "P99<0.001s", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &b));
	a.steal_us = 300000, b.steal_us = 100000;
	CHECK(dtl_filter__parse(&f, "STEAL>250ms", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &b));
	CHECK(dtl_filter__parse(&f, "steal_pct>=20%", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &b));
	/* INVOL% is a ratio in CSV: by its heading the number is the screen's percent */
	a.preempt_ratio = 0.5, b.preempt_ratio = 0.1;
	CHECK(dtl_filter__parse(&f, "INVOL%>20", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &b));
	CHECK(dtl_filter__parse(&f, "preempt_ratio>0.2", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &b));
	CHECK(dtl_filter__parse(&f, "preempt_ratio>20%", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a) && !dtl_filter__match(&f, &b));
	/* a unit the field does not have is refused, naming what it takes */
	CHECK(dtl_filter__parse(&f, "DISP/s>5ms", err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "bad value '5ms' for DISP/s");
	CHECK(dtl_filter__parse(&f, "P99>20parsecs", err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "with us, ms or s");
	/* VP rows by their number, 0..N-1 */
	a.is_vp = true, a.vp = 1, a.cpu = 8;
	CHECK(dtl_filter__parse(&f, "vp=1", err, sizeof(err)) == 0);
	CHECK(dtl_filter__match(&f, &a));
	CHECK(dtl_filter__parse(&f, "vp=8", err, sizeof(err)) == 0);
	CHECK(!dtl_filter__match(&f, &a));
}
