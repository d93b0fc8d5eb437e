/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics.c - the since-start counters as a Prometheus exposition: the
 * text format 0.0.4 (node_exporter's textfile collector, curl) or
 * OpenMetrics 1.0 (what Prometheus asks for). The two differ only in the
 * metadata lines and the closing "# EOF"; the samples are the same bytes.
 *
 * Counters come from the stats' totals, which only grow: a wait counts
 * whole at the dispatch that ends it, so no interval edge ever takes back
 * what an earlier scrape saw. Unknown figures are left out, never 0.
 */
#include "metrics.h"

#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "columns.h"
#include "judge.h"

enum kind { COUNTER, GAUGE, INFO, HISTOGRAM };

/* Metadata of a family: name without "_total"/"_info", as OpenMetrics names it. */
static void family(FILE *f, bool om, const char *name, enum kind k, const char *unit,
		   const char *help)
{
	static const char *const types[] = { "counter", "gauge", "info", "histogram" };
	const char *suffix = "";

	if (!om && k == COUNTER)
		suffix = "_total";
	else if (!om && k == INFO)
		suffix = "_info";
	fprintf(f, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, suffix, help, name, suffix,
		!om && k == INFO ? "gauge" : types[k]);
	if (om && unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
}

/* A label value: backslash, quote and newline escaped, as both formats want. */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

struct rows {
	struct dtl_row *r;	/* since-start, one per online CPU or VP */
	size_t n;
	bool dtl;		/* any row from DTL entries: reasons and latency are known */
	bool vp;		/* rows are VPs, labelled vp="0".."N-1" */
	const char *key;	/* the label that names a row: "cpu" or "vp" */
};

/* The number a row's label carries: its CPU, or its VP's number as lparstat gives it. */
static int row_id(const struct rows *rs, size_t i)
{
	return rs->vp ? rs->r[i].vp : rs->r[i].cpu;
}

/*
 * One row per CPU, or per VP (--metrics-by=vp, where VPs are known): a
 * VP's counts are its threads' sums, so every sum over the rows is the
 * same in both modes and only the series count differs.
 */
static int collect(const struct dtl_model *m, struct rows *rs)
{
	const struct dtl_stats *s = m->stats;
	unsigned int n = dtl_stats__nr_cpus(s);

	rs->r = calloc(n ? n : 1, sizeof(*rs->r));
	if (!rs->r)
		return -1;
	rs->n = 0;
	rs->dtl = false;
	rs->vp = m->metrics_by == DTL_METRICS_BY_VP && m->nr_vps;
	rs->key = rs->vp ? "vp" : "cpu";
	for (unsigned int c = 0; c < n; c++) {
		struct dtl_row *r = &rs->r[rs->n];

		if (rs->vp ? dtl_stats__vp_of(s, c) != (int)c ||
			     dtl_stats__vp_row(s, (int)c, DTL_SPAN_TOTAL, r)
			   : dtl_stats__row(s, (int)c, DTL_SPAN_TOTAL, r))
			continue;
		rs->dtl |= (r->known & DTL_KNOWN_DTL) != 0;
		rs->n++;
	}
	return 0;
}

static void source_info(FILE *f, bool om, const struct dtl_model *m)
{
	char mask[64];

	dtl_mask__format(m->mask, mask, sizeof(mask));
	family(f, om, "dtl_up", GAUGE, NULL, "1 while dtltop delivers DTL figures.");
	fputs("dtl_up 1\n", f);
	family(f, om, "dtl_source", INFO, NULL,
	       "Where the entries come from and the DTL event mask traced.");
	fputs("dtl_source_info{source=\"", f);
	label(f, m->source ? m->source : "");
	fputs("\",mask=\"", f);
	label(f, mask);
	fputs("\"} 1\n", f);
	family(f, om, "dtl_intervals", COUNTER, NULL, "Intervals dtltop has ended since it started.");
	fprintf(f, "dtl_intervals_total %llu\n", (unsigned long long)m->intervals);
}

/*
 * Which partition, pool and frame, as labels of one series: Grafana groups
 * the fleet's LPARs by pool and frame from it (a join on instance). Labels
 * lparcfg and the device tree do not give are left out, never made up.
 */
static void lpar_info(FILE *f, bool om, const struct dtl_model *m)
{
	struct dtl_model_field id[DTL_MODEL_FIELDS];
	size_t n = dtl_model__identity_fields(m, id);

	if (!(m->lparcfg && m->lparcfg->present) && !n)
		return;
	family(f, om, "dtl_lpar", INFO, NULL,
	       "The partition, its shared pool and its frame, as lparcfg and the device tree say.");
	fputs("dtl_lpar_info{", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "", id[i].key);
		label(f, id[i].value);
		fputc('"', f);
	}
	fputs("} 1\n", f);
}

static void cpu_info(FILE *f, bool om, const struct dtl_model *m)
{
	unsigned int n = dtl_stats__nr_cpus(m->stats);

	family(f, om, "dtl_cpu", INFO, NULL,
	       "A logical CPU online, and its virtual processor (0..N-1, as lparstat numbers them).");
	for (unsigned int c = 0; c < n; c++)
		if (dtl_stats__online(m->stats, c))
			fprintf(f, "dtl_cpu_info{cpu=\"%u\",vp=\"%d\"} 1\n", c,
				dtl_stats__vp_index(m->stats, c));
}

/*
 * The VP's own steal, the most any of its threads lost: the threads of a
 * VP are dispatched together, so their sum counts one stolen core up to
 * SMT times. Its rate is in cores, as physc is. A max of counters that
 * only grow only grows.
 */
static void vp_steal(FILE *f, bool om, const struct dtl_model *m)
{
	unsigned int n = dtl_stats__nr_cpus(m->stats);
	struct dtl_row r;

	if (!m->nr_vps)
		return;
	family(f, om, "dtl_vp_steal_seconds", COUNTER, "seconds",
	       "The virtual processor's own steal: the most any of its threads waited "
	       "(enqueue_to_dispatch plus ready_to_enqueue), not their sum. Its rate is in cores.");
	for (unsigned int c = 0; c < n; c++)
		if (dtl_stats__vp_of(m->stats, c) == (int)c &&
		    dtl_stats__vp_row(m->stats, (int)c, DTL_SPAN_TOTAL, &r) == 0)
			fprintf(f, "dtl_vp_steal_seconds_total{vp=\"%d\"} %.9g\n", r.vp,
				r.steal_us / 1e6);
}

/*
 * One series per reason name, as the CSV has one column: the column table
 * already groups the codes that share a name (dispatch 1 and 5 are both
 * firmware_internal_event) and sums them.
 */
static void by_reason(FILE *f, const char *metric, const struct rows *rs, bool dispatch)
{
	size_t n, nr = 0, skip = strlen(dispatch ? "dispatch_" : "preempt_");
	const struct dtl_col *c = dtl_cols(&n), *reason[DTL_N_DISPATCH + DTL_N_PREEMPT + 2];
	enum dtl_col_kind kind = dispatch ? DTL_COL_DISPATCH : DTL_COL_PREEMPT;

	for (size_t k = 0; k < n && nr < sizeof(reason) / sizeof(reason[0]); k++)
		if (c[k].kind == kind)
			reason[nr++] = &c[k];
	for (size_t i = 0; i < rs->n; i++)
		for (size_t k = 0; k < nr; k++)
			fprintf(f, "%s_total{%s=\"%d\",reason=\"%s\"} %llu\n", metric, rs->key, row_id(rs, i),
				reason[k]->name + skip,
				(unsigned long long)dtl_col__value(reason[k], &rs->r[i]));
}

static void reasons(FILE *f, bool om, const struct rows *rs)
{
	family(f, om, "dtl_dispatches", COUNTER, NULL,
	       "Dispatches by the hypervisor, by dispatch reason: of the CPU, or of the VP's "
	       "threads summed (vp label).");
	by_reason(f, "dtl_dispatches", rs, true);
	family(f, om, "dtl_preempts", COUNTER, NULL,
	       "Preemptions that ended in a dispatch, by preempt reason: of the CPU, or of the "
	       "VP's threads summed (vp label).");
	by_reason(f, "dtl_preempts", rs, false);
}

static void waits(FILE *f, bool om, const struct rows *rs)
{
	family(f, om, "dtl_wait_seconds", COUNTER, "seconds",
	       "Time waited, by phase: enqueue_to_dispatch and ready_to_enqueue are steal, "
	       "waiting_to_ready is idle (ceded). Of the CPU, or summed over the VP's threads "
	       "(vp label): thread-seconds, up to SMT a second; dtl_vp_steal_seconds is in cores.");
	for (size_t i = 0; i < rs->n; i++) {
		const struct dtl_row *r = &rs->r[i];

		const char *k = rs->key;
		int id = row_id(rs, i);

		fprintf(f, "dtl_wait_seconds_total{%s=\"%d\",phase=\"enqueue_to_dispatch\"} %.9g\n"
			"dtl_wait_seconds_total{%s=\"%d\",phase=\"ready_to_enqueue\"} %.9g\n"
			"dtl_wait_seconds_total{%s=\"%d\",phase=\"waiting_to_ready\"} %.9g\n",
			k, id, r->e2d_s, k, id, r->r2e_s, k, id, r->w2r_s);
	}
}

static void losses(FILE *f, bool om, const struct rows *rs)
{
	family(f, om, "dtl_lost_entries", COUNTER, NULL,
	       "DTL entries the hypervisor or the kernel counted as lost: of the CPU, or of the "
	       "VP's threads summed (vp label).");
	for (size_t i = 0; i < rs->n; i++)
		fprintf(f, "dtl_lost_entries_total{%s=\"%d\"} %llu\n", rs->key, row_id(rs, i),
			(unsigned long long)rs->r[i].lost);
	family(f, om, "dtl_gaps", COUNTER, NULL,
	       "Gaps of unknown size in the entry stream (perf AUX records flagged truncated): of "
	       "the CPU, or of the VP's threads summed (vp label).");
	for (size_t i = 0; i < rs->n; i++)
		fprintf(f, "dtl_gaps_total{%s=\"%d\"} %llu\n", rs->key, row_id(rs, i),
			(unsigned long long)rs->r[i].gaps);
	family(f, om, "dtl_bad_entries", COUNTER, NULL,
	       "Entries that went back in time or carried no timebase, skipped: of the CPU, or of "
	       "the VP's threads summed (vp label).");
	for (size_t i = 0; i < rs->n; i++)
		fprintf(f, "dtl_bad_entries_total{%s=\"%d\"} %llu\n", rs->key, row_id(rs, i),
			(unsigned long long)rs->r[i].bad);
}

static void migrations(FILE *f, bool om, const struct rows *rs)
{
	family(f, om, "dtl_migrations", COUNTER, NULL,
	       "Dispatches on another physical processor than the last, within its core or not: "
	       "of the CPU, or of the VP's threads summed (vp label).");
	for (size_t i = 0; i < rs->n; i++)
		fprintf(f, "dtl_migrations_total{%s=\"%d\",scope=\"core\"} %llu\n"
			"dtl_migrations_total{%s=\"%d\",scope=\"other\"} %llu\n", rs->key,
			row_id(rs, i), (unsigned long long)rs->r[i].migr_core, rs->key,
			row_id(rs, i), (unsigned long long)rs->r[i].migr_other);
}

/*
 * Bucket bounds at powers of two of timebase ticks (2 us to 1 s at
 * 512 MHz): every one is an edge of the stats' log-linear buckets, so the
 * counts are exact but for an entry of exactly 2^k ticks, counted above.
 */
#define LE_FIRST 10
#define LE_LAST 29

static void one_hist(FILE *f, const struct dtl_model *m, const char *lbl, const uint64_t *h,
		     double sum_s)
{
	double tb = (double)dtl_stats__tb_freq(m->stats);
	uint64_t cum = 0;
	unsigned int b = 0;

	for (unsigned int k = LE_FIRST; k <= LE_LAST; k++) {
		for (; b < DTL_HIST_BUCKETS && dtl_hist__value(b) < (1ull << k); b++)
			cum += h[b];
		fprintf(f, "dtl_dispatch_latency_seconds_bucket{%s%sle=\"%.9g\"} %llu\n", lbl,
			*lbl ? "," : "", (double)(1ull << k) / tb, (unsigned long long)cum);
	}
	for (; b < DTL_HIST_BUCKETS; b++)
		cum += h[b];
	fprintf(f, "dtl_dispatch_latency_seconds_bucket{%s%sle=\"+Inf\"} %llu\n", lbl,
		*lbl ? "," : "", (unsigned long long)cum);
	fprintf(f, "dtl_dispatch_latency_seconds_sum%s%s%s %.9g\n", *lbl ? "{" : "", lbl,
		*lbl ? "}" : "", sum_s);
	fprintf(f, "dtl_dispatch_latency_seconds_count%s%s%s %llu\n", *lbl ? "{" : "", lbl,
		*lbl ? "}" : "", (unsigned long long)cum);
}

static void latency(FILE *f, bool om, const struct dtl_model *m)
{
	uint64_t h[DTL_HIST_BUCKETS];
	struct dtl_row r;
	char lbl[32];

	family(f, om, "dtl_dispatch_latency_seconds", HISTOGRAM, "seconds",
	       "Dispatch latency (enqueue_to_dispatch) of each dispatch, of every thread of the "
	       "row (a VP's, or the partition's).");
	if (m->hist_by == DTL_HIST_BY_PARTITION || (m->hist_by == DTL_HIST_BY_VP && !m->nr_vps)) {
		if (dtl_stats__hist(m->stats, DTL_ROW_ALL, false, h) == 0 &&
		    dtl_stats__row(m->stats, DTL_ROW_ALL, DTL_SPAN_TOTAL, &r) == 0)
			one_hist(f, m, "", h, r.e2d_s);
		return;
	}
	for (unsigned int c = 0; c < dtl_stats__nr_cpus(m->stats); c++) {
		int id = (int)c;
		bool vp = m->hist_by == DTL_HIST_BY_VP;

		if (vp && dtl_stats__vp_of(m->stats, c) != id)
			continue;	/* a VP is named by its first CPU */
		if (dtl_stats__hist(m->stats, id, vp, h) ||
		    (vp ? dtl_stats__vp_row(m->stats, id, DTL_SPAN_TOTAL, &r)
			: dtl_stats__row(m->stats, id, DTL_SPAN_TOTAL, &r)))
			continue;
		snprintf(lbl, sizeof(lbl), "%s=\"%d\"", vp ? "vp" : "cpu",
			 vp ? dtl_stats__vp_index(m->stats, c) : id);
		one_hist(f, m, lbl, h, r.e2d_s);
	}
}

static void gauge(FILE *f, bool om, const char *name, const char *help, double v)
{
	family(f, om, name, GAUGE, NULL, help);
	fprintf(f, "%s %.9g\n", name, v);
}

static void lpar(FILE *f, bool om, const struct dtl_model *m)
{
	const struct dtl_lparcfg *l = m->lparcfg;
	const struct dtl_lpar_figs *g = m->lpar;
	double tb = (double)dtl_stats__tb_freq(m->stats);

	if (!l || !l->present)
		return;
	gauge(f, om, "lpar_shared", "1 for a shared-processor partition.", l->shared);
	gauge(f, om, "lpar_capped", "1 for a capped partition.", l->capped);
	if (l->have_ent)
		gauge(f, om, "lpar_entitled_processors", "Entitled capacity, in processors.",
		      l->entitlement);
	if (l->have_vps)
		gauge(f, om, "lpar_virtual_processors", "Active virtual processors.",
		      l->active_vps);
	if (l->have_pool)
		gauge(f, om, "lpar_pool_processors", "Capacity of the shared processor pool.",
		      l->pool_capacity);
	if (l->have_weight)
		gauge(f, om, "lpar_capacity_weight", "Uncapped weight (0-255).", l->weight);
	if (l->have_purr) {
		family(f, om, "lpar_consumed_processor_seconds", COUNTER, "seconds",
		       "Processor time consumed (PURR): its rate is physc.");
		fprintf(f, "lpar_consumed_processor_seconds_total %.9g\n", (double)l->purr / tb);
	}
	if (l->have_pool_idle) {
		family(f, om, "lpar_pool_idle_processor_seconds", COUNTER, "seconds",
		       "Idle time of the pool's processors: its rate is app.");
		fprintf(f, "lpar_pool_idle_processor_seconds_total %.9g\n",
			(double)l->pool_idle_time / tb);
	}
	if (g && (g->known & DTL_LPARF_PHYSC))
		gauge(f, om, "lpar_physc", "Processors consumed over the last interval.", g->physc);
	if (g && (g->known & DTL_LPARF_ENTC))
		gauge(f, om, "lpar_entitlement_used_ratio",
		      "physc over entitled capacity in the last interval (1 = all of it).",
		      g->entc_pct / 100);
	if (g && (g->known & DTL_LPARF_APP))
		gauge(f, om, "lpar_pool_idle_processors",
		      "Idle processors of the pool over the last interval (lparstat's app).", g->app);
}

/*
 * The verdict as one series per kind, 1 for the current one: a state set,
 * written as a gauge so the 0.0.4 format and Prometheus read it alike.
 */
static void verdict(FILE *f, bool om, const struct dtl_model *m)
{
	struct dtl_verdict v;

	if (!m->lparcfg || !m->lparcfg->present || !m->table)
		return;
	dtl_model__verdict(m, &v);
	family(f, om, "lpar_verdict", GAUGE, NULL,
	       "1 for what limits the partition in the last interval (man dtltop, VERDICT).");
	for (int k = 0; k < DTL_VERDICT__N; k++)
		fprintf(f, "lpar_verdict{verdict=\"%s\"} %d\n",
			dtl_verdict__name((enum dtl_verdict_kind)k), k == (int)v.kind);
}

int dtl_metrics__write(FILE *f, const struct dtl_model *m, bool om)
{
	if (dtl_metrics__families(f, m, om))
		return -1;
	dtl_metrics__end(f, om);
	return 0;
}

void dtl_metrics__counter(FILE *f, bool om, const char *name, const char *help,
			  unsigned long long v)
{
	family(f, om, name, COUNTER, NULL, help);
	fprintf(f, "%s_total %llu\n", name, v);
}

void dtl_metrics__end(FILE *f, bool om)
{
	if (om)
		fputs("# EOF\n", f);
}

void dtl_metrics__down(FILE *f, bool om)
{
	family(f, om, "dtl_up", GAUGE, NULL, "1 while dtltop delivers DTL figures.");
	fputs("dtl_up 0\n", f);
	dtl_metrics__end(f, om);
}

static int by_steal(const void *a, const void *b)
{
	const struct dtl_row *x = a, *y = b;

	return x->steal_us < y->steal_us ? 1 : x->steal_us > y->steal_us ? -1 :
	       strcmp(x->name, y->name);
}

/* One figure of a who-pays row: 0 steal seconds, 1 involuntary preempts, 2 CPU seconds. */
static void cgroup_line(FILE *f, int which, const char *name, const struct dtl_row *r)
{
	static const char *const metric[] = { "dtl_cgroup_steal_seconds_total",
					      "dtl_cgroup_preempts_total",
					      "dtl_cgroup_cpu_seconds_total" };
	uint64_t invol = 0;

	for (int i = 0; i <= DTL_N_PREEMPT; i++)
		invol += (DTL_PREEMPT_INVOLUNTARY_MASK >> i) & 1 ? r->preempt[i] : 0;
	fprintf(f, "%s{cgroup=\"", metric[which]);
	label(f, name);
	if (which == 1)
		fprintf(f, "\"} %llu\n", (unsigned long long)invol);
	else
		fprintf(f, "\"} %.9g\n", which == 0 ? r->steal_us / 1e6 : r->oncpu_s);
}

/*
 * Who pays, with a bound on series: the cgroups that lost the most since
 * start by name, the rest summed as "other", the idle task apart as "idle".
 * Which cgroups are named is decided at each scrape, so one that enters the
 * top takes its past out of other (rate() reads that drop as a reset).
 */
static void cgroups(FILE *f, bool om, const struct dtl_model *m)
{
	static const char *const fam[] = { "dtl_cgroup_steal_seconds", "dtl_cgroup_preempts",
					   "dtl_cgroup_cpu_seconds" };
	static const char *const help[] = {
		("Who pays: time lost to the hypervisor while a task of the cgroup was the one "
		 "preempted (enqueue_to_dispatch plus ready_to_enqueue)."),
		"Who pays: involuntary preempts that hit a task of the cgroup.",
		"Who pays: the cgroup's time on its CPUs as the guest saw it (steal included).",
	};
	const struct dtl_tasks *t = m->table ? m->table->tasks : NULL;
	size_t n = dtl_tasks__known(t) ? dtl_tasks__count(t, DTL_TASKS_BY_CGROUP) : 0, k = 0;
	struct dtl_row *r, other = { 0 }, idle = { 0 };
	bool have_idle = false;

	if (!n || !m->metrics_cgroups || !(r = calloc(n, sizeof(*r))))
		return;
	for (size_t i = 0; i < n; i++) {
		if (dtl_tasks__row(t, DTL_TASKS_BY_CGROUP, i, DTL_SPAN_TOTAL, &r[k]))
			continue;
		if (strcmp(r[k].name, "idle") == 0)
			idle = r[k], have_idle = true;
		else
			k++;
	}
	qsort(r, k, sizeof(*r), by_steal);
	for (size_t i = m->metrics_cgroups; i < k; i++) {
		other.steal_us += r[i].steal_us;
		other.oncpu_s += r[i].oncpu_s;
		for (int j = 0; j <= DTL_N_PREEMPT; j++)
			other.preempt[j] += r[i].preempt[j];
	}
	for (int w = 0; w < 3; w++) {
		family(f, om, fam[w], COUNTER, w == 1 ? NULL : "seconds", help[w]);
		for (size_t i = 0; i < k && i < m->metrics_cgroups; i++)
			cgroup_line(f, w, r[i].name, &r[i]);
		if (k > m->metrics_cgroups)
			cgroup_line(f, w, "other", &other);
		if (have_idle)
			cgroup_line(f, w, "idle", &idle);
	}
	free(r);
}

/*
 * The partition's p99 dispatch wait over the last interval, the figure the
 * screen, the batch and the report show: an alert on it quotes what the
 * admin will see. histogram_quantile over the power-of-two buckets cannot
 * (4.9 ms waits interpolate to 8.1 ms between 4.096 and 8.192). Too few
 * samples to tell: no series, as the screen shows "-".
 */
static void p99(FILE *f, bool om, const struct dtl_model *m)
{
	const struct dtl_row *a = m->table ? &m->table->all : NULL;

	if (!a || !(a->known & DTL_KNOWN_DTL) || a->samples < DTL_MIN_SAMPLES || !m->intervals)
		return;
	family(f, om, "dtl_dispatch_wait_p99_seconds", GAUGE, "seconds",
	       "The partition's p99 dispatch wait (enqueue_to_dispatch) over the last interval, "
	       "as dtltop shows it; absent with too few dispatches to tell.");
	fprintf(f, "dtl_dispatch_wait_p99_seconds %.9g\n", a->lat_p99_us / 1e6);
}

int dtl_metrics__families(FILE *f, const struct dtl_model *m, bool om)
{
	struct rows rs;

	if (!m->stats || collect(m, &rs))
		return -1;
	source_info(f, om, m);
	lpar_info(f, om, m);
	cpu_info(f, om, m);
	if (rs.dtl) {	/* only counters (--source=vpa): no reasons, phases or latency */
		reasons(f, om, &rs);
		latency(f, om, m);
		p99(f, om, m);
		waits(f, om, &rs);
		vp_steal(f, om, m);
		migrations(f, om, &rs);
	}
	losses(f, om, &rs);
	if (rs.dtl)
		cgroups(f, om, m);
	lpar(f, om, m);
	verdict(f, om, m);
	free(rs.r);
	return 0;
}

static void prom_end(FILE *f, const struct dtl_model *m)
{
	dtl_metrics__write(f, m, false);
}

static void om_end(FILE *f, const struct dtl_model *m)
{
	dtl_metrics__write(f, m, true);
}

/* In a batch run the since-start counters are written once, at the end. */
const struct dtl_writer dtl_writer_prom = {
	.name = "prom",
	.help = "Prometheus text format of the since-start counters, at the end",
	.end = prom_end,
};

const struct dtl_writer dtl_writer_openmetrics = {
	.name = "openmetrics",
	.help = "OpenMetrics 1.0 of the since-start counters, at the end",
	.end = om_end,
};
