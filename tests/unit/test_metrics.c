/* SPDX-License-Identifier: GPL-2.0-only */
/* The Prometheus / OpenMetrics exposition of the since-start counters. */
#include "t.h"

#include <stdlib.h>

#include "stats/task.h"
#include "view/metrics.h"
#include "view/http.h"
#include "view/model.h"

#define TB 1000000	/* ticks per second: 1 tick = 1 us */

static struct dtl_rec rec(uint64_t tb, unsigned int preempt, unsigned int dispatch,
			  uint32_t e2d, uint32_t r2e, uint32_t w2r, uint32_t proc)
{
	struct dtl_rec r = { 0 };

	r.timebase = tb;
	r.preempt_reason = (uint8_t)preempt;
	r.dispatch_reason = (uint8_t)dispatch;
	r.enqueue_to_dispatch = e2d;
	r.ready_to_enqueue = r2e;
	r.waiting_to_ready = w2r;
	r.processor_id = proc;
	return r;
}

/* 4 CPUs, two VPs of 2 threads (cores of 2 threads). */
static struct dtl_stats *stats4(void)
{
	struct dtl_stats *s = dtl_stats__new(4, TB);
	uint16_t vp[4] = { 0, 0, 2, 2 };

	for (unsigned int c = 0; c < 4; c++)
		dtl_stats__set_online(s, c, true);
	dtl_stats__set_vps(s, vp, 2);
	dtl_stats__start_at(s, 1000);
	return s;
}

static char *expose_by(struct dtl_stats *s, enum dtl_hist_by by, enum dtl_metrics_by rows, bool om)
{
	struct dtl_table t = { 0 };
	struct dtl_model m = { .table = &t, .stats = s, .source = "sim", .mask = DTL_MASK_ALL,
			       .hist_by = by, .metrics_by = rows, .nr_vps = 2, .smt = 2, .nr_vcpus = 4,
			       .intervals = 3 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(dtl_metrics__write(f, &m, om) == 0);
	fclose(f);
	return buf;
}

/* Per CPU: the rows most tests look at one by one. */
static char *expose(struct dtl_stats *s, enum dtl_hist_by by, bool om)
{
	return expose_by(s, by, DTL_METRICS_BY_CPU, om);
}

TEST(metrics_per_vp_sum_the_threads_and_the_vp_steal_is_its_most_stolen_thread)
{
	struct dtl_stats *s = stats4();
	struct dtl_rec r;
	char *x, *c;

	r = rec(1100, 2, 0, 30, 20, 50, 4);	/* CPU 0: steal 50 */
	dtl_stats__add(s, 0, &r);
	r = rec(1200, 2, 0, 70, 10, 0, 4);	/* CPU 1, the same VP: steal 80 */
	dtl_stats__add(s, 1, &r);
	r = rec(1300, 4, 0, 5, 0, 0, 6);	/* CPU 3: VP 1 */
	dtl_stats__add(s, 3, &r);
	dtl_stats__end_interval(s, 0.001);
	x = expose_by(s, DTL_HIST_BY_VP, DTL_METRICS_BY_VP, false);
	c = expose(s, DTL_HIST_BY_VP, false);
	CHECK_CONTAINS(x, "\ndtl_preempts_total{vp=\"0\",reason=\"H_CEDE\"} 2\n");
	CHECK_CONTAINS(x, "\ndtl_preempts_total{vp=\"1\",reason=\"H_CONFER\"} 0\n");
	CHECK_CONTAINS(x, "\ndtl_preempts_total{vp=\"1\",reason=\"time_slice\"} 1\n");
	CHECK_CONTAINS(x, "\ndtl_wait_seconds_total{vp=\"0\",phase=\"enqueue_to_dispatch\"} 0.0001\n");
	CHECK_CONTAINS(x, "\ndtl_vp_steal_seconds_total{vp=\"0\"} 8e-05\n");
	CHECK_CONTAINS(c, "\ndtl_vp_steal_seconds_total{vp=\"0\"} 8e-05\n");
	/* the join table stays per CPU; nothing else carries a cpu label */
	CHECK_CONTAINS(x, "\ndtl_cpu_info{cpu=\"3\",vp=\"1\"} 1\n");
	CHECK(strstr(strstr(x, "# HELP dtl_dispatches_total"), "{cpu=") == NULL);
	CHECK(strstr(x, "{vp=\"2\"") == NULL);
	CHECK_CONTAINS(c, "\ndtl_preempts_total{cpu=\"1\",reason=\"H_CEDE\"} 1\n");
	free(x);
	free(c);
	dtl_stats__delete(s);
}

TEST(metrics_count_waits_by_phase_whole_at_their_dispatch)
{
	struct dtl_stats *s = stats4();
	struct dtl_rec r = rec(1100, 2, 0, 30, 20, 50, 4);
	char *x;

	dtl_stats__add(s, 1, &r);
	dtl_stats__end_interval(s, 0.0001);
	/* the next wait began in the last interval: the CSV splits it, the counter must not */
	r = rec(1300, 4, 7, 100, 60, 40, 4);
	dtl_stats__add(s, 1, &r);
	dtl_stats__end_interval(s, 0.0001);
	x = expose(s, DTL_HIST_BY_VP, false);
	CHECK_CONTAINS(x, "\ndtl_wait_seconds_total{cpu=\"1\",phase=\"enqueue_to_dispatch\"} 0.00013\n");
	CHECK_CONTAINS(x, "\ndtl_wait_seconds_total{cpu=\"1\",phase=\"ready_to_enqueue\"} 8e-05\n");
	CHECK_CONTAINS(x, "\ndtl_wait_seconds_total{cpu=\"1\",phase=\"waiting_to_ready\"} 9e-05\n");
	CHECK_CONTAINS(x, "\ndtl_wait_seconds_total{cpu=\"0\",phase=\"enqueue_to_dispatch\"} 0\n");
	CHECK_CONTAINS(x, "\ndtl_intervals_total 3\n");
	free(x);
	dtl_stats__delete(s);
}

TEST(metrics_reasons_share_a_series_per_name_and_migrations_split_by_core)
{
	struct dtl_stats *s = stats4();
	struct dtl_rec r;
	char *x;

	r = rec(1100, 2, 1, 1, 0, 0, 4);	/* firmware_internal_event, code 1 */
	dtl_stats__add(s, 2, &r);
	r = rec(1200, 2, 5, 1, 0, 0, 5);	/* ... and code 5; processor 5 is core 4-5 */
	dtl_stats__add(s, 2, &r);
	r = rec(1300, 3, 20, 1, 0, 0, 8);	/* an undefined code; another core */
	dtl_stats__add(s, 2, &r);
	dtl_stats__end_interval(s, 0.001);
	x = expose(s, DTL_HIST_BY_VP, false);
	CHECK_CONTAINS(x, "\ndtl_dispatches_total{cpu=\"2\",reason=\"firmware_internal_event\"} 2\n");
	CHECK_CONTAINS(x, "\ndtl_dispatches_total{cpu=\"2\",reason=\"other\"} 1\n");
	CHECK_CONTAINS(x, "\ndtl_preempts_total{cpu=\"2\",reason=\"H_CEDE\"} 2\n");
	CHECK_CONTAINS(x, "\ndtl_preempts_total{cpu=\"2\",reason=\"H_CONFER\"} 1\n");
	CHECK_CONTAINS(x, "\ndtl_migrations_total{cpu=\"2\",scope=\"core\"} 1\n");
	CHECK_CONTAINS(x, "\ndtl_migrations_total{cpu=\"2\",scope=\"other\"} 1\n");
	CHECK_CONTAINS(x, "\ndtl_cpu_info{cpu=\"3\",vp=\"1\"} 1\n");
	/* a name once per CPU: no duplicate series */
	CHECK(strstr(strstr(x, "{cpu=\"2\",reason=\"firmware_internal_event\"}") + 1,
		     "dtl_dispatches_total{cpu=\"2\",reason=\"firmware_internal_event\"}") == NULL);
	free(x);
	dtl_stats__delete(s);
}

TEST(metrics_histogram_is_cumulative_with_exact_power_of_two_edges)
{
	struct dtl_stats *s = stats4();
	/* 2^10 - 1 ticks: in le=1024 us; 2^10: above it; 3000: in le=4096 us */
	uint32_t lat[] = { 1023, 1024, 3000, 5 };
	char *x;

	for (unsigned int i = 0; i < 4; i++) {
		struct dtl_rec r = rec(2000 + 5000 * i, 2, 0, lat[i], 0, 0, 0);

		dtl_stats__add(s, i < 3 ? 0 : 3, &r);	/* three in VP 0, one in VP 2 */
	}
	dtl_stats__end_interval(s, 0.1);
	x = expose(s, DTL_HIST_BY_VP, false);
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_bucket{vp=\"0\",le=\"0.001024\"} 1\n");
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_bucket{vp=\"0\",le=\"0.002048\"} 2\n");
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_bucket{vp=\"0\",le=\"0.004096\"} 3\n");
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_bucket{vp=\"0\",le=\"+Inf\"} 3\n");
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_sum{vp=\"0\"} 0.005047\n");
	/* VPs by number, 0..N-1: the second VP (CPUs 2-3) is vp 1 */
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_count{vp=\"1\"} 1\n");
	CHECK(strstr(x, "{vp=\"2\"") == NULL && strstr(x, "{vp=\"3\"") == NULL);
	free(x);
	x = expose(s, DTL_HIST_BY_PARTITION, false);
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_count 4\n");
	free(x);
	x = expose(s, DTL_HIST_BY_CPU, false);
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_count{cpu=\"3\"} 1\n");
	CHECK_CONTAINS(x, "\ndtl_dispatch_latency_seconds_count{cpu=\"1\"} 0\n");
	free(x);
	dtl_stats__delete(s);
}

TEST(metrics_formats_differ_only_in_metadata)
{
	struct dtl_stats *s = stats4();
	struct dtl_rec r = rec(1100, 2, 0, 3, 0, 0, 0);
	char *p, *o;

	dtl_stats__add(s, 0, &r);
	dtl_stats__end_interval(s, 0.001);
	dtl_stats__set_online(s, 3, false);	/* offline: its series go */
	p = expose(s, DTL_HIST_BY_VP, false);
	o = expose(s, DTL_HIST_BY_VP, true);
	CHECK_CONTAINS(p, "\n# TYPE dtl_dispatches_total counter\n");
	CHECK_CONTAINS(p, "\n# TYPE dtl_cpu_info gauge\n");
	CHECK_CONTAINS(o, "\n# TYPE dtl_dispatches counter\n");
	CHECK_CONTAINS(o, "\n# TYPE dtl_cpu info\ndtl_cpu_info{cpu=\"0\",vp=\"0\"} 1\n");
	CHECK_CONTAINS(o, "\n# UNIT dtl_wait_seconds seconds\n");
	CHECK(strstr(p, "# EOF") == NULL && strstr(p, "# UNIT") == NULL);
	CHECK(strlen(o) > 6 && strcmp(o + strlen(o) - 6, "# EOF\n") == 0);
	CHECK(strstr(p, "cpu=\"3\"") == NULL);
	CHECK_CONTAINS(p, "dtl_source_info{source=\"sim\",mask=\"all\"} 1\n");
	/* no lparcfg: no partition figure, not a zero */
	CHECK(strstr(p, "lpar_") == NULL);
	free(p);
	free(o);
	dtl_stats__delete(s);
}

TEST(metrics_leave_out_what_counters_alone_cannot_know)
{
	struct dtl_stats *s = stats4();
	char *x;

	dtl_stats__add_summary(s, 0, 10, 500, 100, 2);	/* --source=vpa */
	dtl_stats__add_lost(s, 0, 7);
	dtl_stats__end_interval(s, 0.001);
	x = expose(s, DTL_HIST_BY_VP, false);
	CHECK(strstr(x, "dtl_dispatches_total") == NULL);
	CHECK(strstr(x, "dtl_dispatch_latency_seconds") == NULL);
	CHECK(strstr(x, "dtl_wait_seconds_total") == NULL);
	CHECK_CONTAINS(x, "\ndtl_lost_entries_total{cpu=\"0\"} 7\n");
	free(x);
	dtl_stats__delete(s);
}

TEST(stats_processors_are_sampled_one_dispatch_in_8_most_used_first)
{
	struct dtl_stats *s = stats4();
	struct dtl_proc_count p[5];
	uint64_t other = 0, tb = 2000;
	/* 64 on processor 4, 16 on 9, 8 on 12 (whose slot, 12 mod 8, is 4's) */
	const struct { uint32_t proc; int n; } runs[] = { { 4, 64 }, { 9, 16 }, { 12, 8 } };
	int n;

	for (unsigned int k = 0; k < 3; k++)
		for (int i = 0; i < runs[k].n; i++) {
			struct dtl_rec r = rec(tb += 10, 2, 0, 1, 0, 0, runs[k].proc);

			dtl_stats__add(s, 1, &r);
		}
	dtl_stats__end_interval(s, 0.001);
	n = dtl_stats__procs(s, 1, false, p, 5, &other);
	CHECK_EQ(n, 2);
	CHECK(p[0].proc == 4 && p[0].n == 8);
	CHECK(p[1].proc == 9 && p[1].n == 2);
	CHECK_EQ(other, 1);
	/* a VP folds its threads; a CPU with none has none */
	CHECK_EQ(dtl_stats__procs(s, 0, true, p, 5, &other), 2);
	CHECK_EQ(dtl_stats__procs(s, 2, false, p, 5, &other), 0);
	dtl_stats__reset_totals(s);
	CHECK_EQ(dtl_stats__procs(s, 1, false, p, 5, &other), 0);
	dtl_stats__delete(s);
}

TEST(metrics_openmetrics_only_where_accept_asks_and_does_not_refuse_it)
{
	CHECK(dtl_http__accepts_om("application/openmetrics-text;version=1.0.0"));
	CHECK(dtl_http__accepts_om("application/openmetrics-text; version=1.0.0; q=0.5, text/plain;q=0.1"));
	CHECK(dtl_http__accepts_om("text/plain;q=0.3, Application/OpenMetrics-Text"));
	CHECK(!dtl_http__accepts_om("application/openmetrics-text; q=0"));
	CHECK(!dtl_http__accepts_om("application/openmetrics-text;version=1.0.0;q=0.0, text/plain"));
	CHECK(!dtl_http__accepts_om("text/plain;version=0.0.4"));
	CHECK(!dtl_http__accepts_om("application/openmetrics-textual"));
	CHECK(!dtl_http__accepts_om(""));
	CHECK(!dtl_http__accepts_om("*/*"));
}

/* Label values escaped as both formats want; ratios as ratios (0.952, not 95.2). */
TEST(metrics_label_quotes_escaped_and_entitlement_used_a_ratio)
{
	struct dtl_stats *s = stats4();
	struct dtl_table t = { 0 };
	struct dtl_lparcfg cfg = { .present = true, .shared = true, .have_ent = true,
				   .entitlement = 4.0 };
	struct dtl_lpar_figs g = { .known = DTL_LPARF_PHYSC | DTL_LPARF_ENTC, .physc = 3.808,
				   .entc_pct = 95.2 };
	struct dtl_model m = { .table = &t, .stats = s, .source = "a\"b\\c\nd",
			       .mask = DTL_MASK_ALL, .nr_vps = 2, .smt = 2, .nr_vcpus = 4,
			       .intervals = 1, .lparcfg = &cfg, .lpar = &g };

	for (int om = 0; om < 2; om++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		dtl_stats__end_interval(s, 1.0);
		CHECK(dtl_metrics__write(f, &m, om) == 0);
		fclose(f);
		CHECK_CONTAINS(buf, "dtl_source_info{source=\"a\\\"b\\\\c\\nd\",mask=\"");
		CHECK_CONTAINS(buf, "\nlpar_entitlement_used_ratio 0.952\n");
		CHECK_CONTAINS(buf, "\nlpar_physc 3.808\n");
		free(buf);
	}
	dtl_stats__delete(s);
}

static void task_entry(struct dtl_tasks *t, unsigned int cpu, uint64_t tb, unsigned int preempt)
{
	struct dtl_rec r = rec(tb, preempt, 7, 100, 0, 0, 0);
	uint8_t e[DTL_ENTRY_SIZE];

	dtl_rec__encode(&r, e);
	dtl_tasks__add_entries(t, cpu, e, 1);
}

/*
 * Who pays per cgroup: preempts_total counts what the help says, the
 * involuntary preempts (not cedes or confers); and a bound of exactly as many
 * cgroups as there are names them all, with no empty "other" series.
 */
TEST(metrics_cgroups_count_involuntary_preempts_and_other_only_past_the_bound)
{
	struct dtl_stats *s = stats4();
	struct dtl_tasks *tk = dtl_tasks__new(4, TB);
	struct dtl_table t = { .tasks = tk };
	struct dtl_model m = { .table = &t, .stats = s, .source = "sim", .mask = DTL_MASK_ALL,
			       .nr_vps = 2, .smt = 2, .nr_vcpus = 4, .intervals = 1,
			       .metrics_cgroups = 2 };
	struct dtl_switch a = { 1000, 11, "db", "/a" }, b = { 1000, 12, "web", "/b" };

	dtl_tasks__switch(tk, 0, &a);
	dtl_tasks__switch(tk, 1, &b);
	/* /a: time slice, HDEC and a fault (involuntary), a cede and a confer (not) */
	task_entry(tk, 0, 2000, 4);
	task_entry(tk, 0, 3000, 9);
	task_entry(tk, 0, 4000, 5);
	task_entry(tk, 0, 5000, 2);
	task_entry(tk, 0, 6000, 3);
	/* /b: one time slice */
	task_entry(tk, 1, 2000, 4);
	dtl_tasks__end_interval(tk, 1.0, DTL_MASK_ALL);
	dtl_stats__end_interval(s, 1.0);
	for (unsigned int bound = 2; bound >= 1; bound--) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		m.metrics_cgroups = bound;
		CHECK(dtl_metrics__write(f, &m, false) == 0);
		fclose(f);
		CHECK_CONTAINS(buf, "\ndtl_cgroup_preempts_total{cgroup=\"/a\"} 3\n");
		if (bound == 2) {
			CHECK_CONTAINS(buf, "\ndtl_cgroup_preempts_total{cgroup=\"/b\"} 1\n");
			CHECK(strstr(buf, "cgroup=\"other\"") == NULL);
		} else {
			CHECK_CONTAINS(buf, "\ndtl_cgroup_preempts_total{cgroup=\"other\"} 1\n");
			CHECK(strstr(buf, "cgroup=\"/b\"") == NULL);
		}
		free(buf);
	}
	dtl_tasks__delete(tk);
	dtl_stats__delete(s);
}
