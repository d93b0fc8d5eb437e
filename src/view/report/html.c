/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * html.c - the report page: the span's facts and what they mean in words,
 * then the partition's charts, the heatmap of rows by time, the reasons as
 * stacked areas, and the ten worst rows as small multiples. One file: CSS
 * inline, charts inline SVG, the heatmap an inline PNG; nothing to fetch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "internal.h"
#include "png.h"
#include "scale.h"

static const char css[] =
	"body{font-family:sans-serif;margin:16px auto;max-width:1120px;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
	"table.facts td{padding:1px 12px 1px 0;vertical-align:top}"
	"figure{margin:18px 0}figcaption{font-weight:bold;margin-bottom:4px}"
	".grid{display:grid;grid-template-columns:1fr 1fr;gap:0 12px}"
	"svg text{font-size:11px;fill:#222}.yt{text-anchor:end}.xt,.xl{text-anchor:middle}"
	".yl{text-anchor:middle}.note{fill:#555;font-style:italic}"
	".grid line,line.grid{stroke:#ddd}.axis{stroke:#444}"
	".line{fill:none;stroke-width:1.6}.dash{stroke-dasharray:6 3}"
	".band{opacity:.22;stroke:none}.area{stroke:#fff;stroke-width:.3}"
	".mark{fill:#d55e00}.narrow{fill:#bbb;opacity:.35}.incident{stroke:#c00;stroke-width:1.5;stroke-dasharray:4 2}@media print{figure{break-inside:avoid}}";

/* The mean of row k's known steal over the span, in %; NaN if never known. */
static double row_mean(const struct rp *r, unsigned int k)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->steal[i * r->nrows + k] != RP_NO_STEAL) {
			sum += r->steal[i * r->nrows + k] / 100.0;
			n++;
		}
	return n ? sum / (double)n : NAN;
}

static int worse_first(const void *a, const void *b)
{
	const struct rp_ranked *x = a, *y = b;
	double mx = isnan(x->mean) ? -1 : x->mean, my = isnan(y->mean) ? -1 : y->mean;

	if (mx != my)
		return mx < my ? 1 : -1;
	return x->k < y->k ? -1 : 1;
}

static struct rp_ranked *rank_rows(const struct rp *r)
{
	struct rp_ranked *o = calloc(r->nrows ? r->nrows : 1, sizeof(*o));

	if (!o)
		return NULL;
	for (unsigned int k = 0; k < r->nrows; k++)
		o[k] = (struct rp_ranked){ k, row_mean(r, k) };
	qsort(o, r->nrows, sizeof(*o), worse_first);
	return o;
}

static void when(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%SZ", &tm);
}

void rp_row_name(const struct rp *r, unsigned int k, char *buf, size_t len)
{
	/* the rows are the VPs in the order of their first CPUs: k is a VP's number */
	snprintf(buf, len, "%s %d", r->by_vp ? "VP" : "CPU", r->by_vp ? (int)k : r->row_id[k]);
}

static void facts(FILE *f, const struct rp *r)
{
	char a[64], b[64], d[32], mask[32], ent[24], vps[24], pool[24];
	const struct dtl_lparcfg *l = &r->lparcfg;

	when(rp_t0(r), a, sizeof(a));
	when(r->t[r->n - 1], b, sizeof(b));
	rp_duration(r->t[r->n - 1] - rp_t0(r), d, sizeof(d));
	dtl_mask__format(r->mask, mask, sizeof(mask));
	fputs("<table class=\"facts\">\n<tr><td>Source</td><td>", f);
	rp_esc(f, r->source);
	fputc(' ', f);
	rp_esc(f, r->detail);
	if (r->identity[0]) {
		fputs("</td></tr>\n<tr><td>Which partition</td><td>", f);
		rp_esc(f, r->identity + strlen("partition "));
	}
	fprintf(f, "</td></tr>\n<tr><td>Event mask</td><td>%s", mask);
	if (r->mask != r->mask_any) {
		size_t wide = 0;

		for (size_t i = 0; i < r->n; i++)
			wide += !rp_narrow(r, i);
		dtl_mask__format(r->mask_any, mask, sizeof(mask));
		fprintf(f, " throughout; %s in %zu of %zu intervals (the others shaded on every "
			"chart)", mask, wide, r->n);
	}
	fputs("</td></tr>\n", f);
	fprintf(f, "<tr><td>Span</td><td>%s to %s: %s, %zu intervals of %g s</td></tr>\n", a, b,
		d, r->n, r->interval_s);
	if (r->nr_vps)
		fprintf(f, "<tr><td>CPUs</td><td>%u VPs x SMT%u = %u CPUs</td></tr>\n", r->nr_vps,
			r->smt, r->nr_vcpus);
	else
		fprintf(f, "<tr><td>CPUs</td><td>%u (which are threads of one VP: unknown)</td></tr>\n",
			r->nr_vcpus);
	dtl_sys__fig(vps, sizeof(vps), l->have_vps, l->active_vps, 0, "");
	if (l->present && l->have_mode && !l->shared)
		fprintf(f, "<tr><td>Partition</td><td>dedicated%s, %s processors</td></tr>\n",
			l->donating ? " donating" : "", vps);
	else if (l->present)
		fprintf(f, "<tr><td>Partition</td><td>shared %s, entitlement %s, %s VPs, pool %s"
			"</td></tr>\n", l->capped ? "capped" : "uncapped",
			dtl_sys__fig(ent, sizeof(ent), l->have_ent, l->entitlement, 2, ""), vps,
			dtl_sys__fig(pool, sizeof(pool), l->have_pool, l->pool_capacity, 2, ""));
	else
		fputs("<tr><td>Partition</td><td>no lparcfg: entitlement, VPs and pool unknown"
		      "</td></tr>\n", f);
	fputs("</table>\n", f);
}

/* What limited the partition, in words: each cause with its share of the span, most first. */
static void verdicts(FILE *f, const struct rp *r)
{
	size_t count[DTL_VERDICT__N] = { 0 };
	bool first = true;

	for (size_t i = 0; i < r->n; i++)
		count[r->verdict[i]]++;
	for (;;) {
		int best = -1;

		for (int k = 0; k < DTL_VERDICT__N; k++)
			if (count[k] && (best < 0 || count[k] > count[best]))
				best = k;
		if (best < 0)
			break;
		fprintf(f, "<li>%s", first ? "why: " : "also: ");
		rp_esc(f, r->why[best]);
		fprintf(f, " (%zu of %zu intervals; the figures as last seen)</li>\n", count[best],
			r->n);
		count[best] = 0;
		first = false;
	}
}

/* Each incident --incidents wrote raw entries of: when, what turned, the file. */
static void incidents(FILE *f, const struct rp *r)
{
	char buf[64];

	if (!r->ninc)
		return;
	fprintf(f, "<li>%zu incident%s (a red line on the charts), each with the raw entries of the "
		"minutes before it:<ul>\n", r->ninc, r->ninc == 1 ? "" : "s");
	for (size_t k = 0; k < r->ninc; k++) {
		when(r->t[r->inc[k].i], buf, sizeof(buf));
		fprintf(f, "<li>%s: ", buf);
		rp_esc(f, r->inc[k].why);
		fputs(" (<code>", f);
		rp_esc(f, r->inc[k].file);
		fputs("</code>)</li>\n", f);
	}
	fputs("</ul></li>\n", f);
}

/* The list ends with what to do: the action of the verdict most intervals had. */
static void action(FILE *f, const struct rp *r)
{
	size_t count[DTL_VERDICT__N] = { 0 }, best = 0;
	const char *a;

	for (size_t i = 0; i < r->n; i++)
		count[r->verdict[i]]++;
	for (size_t k = 1; k < DTL_VERDICT__N; k++)
		if (count[k] > count[best])
			best = k;
	a = dtl_verdict__action(r->why[best]);
	fputs("<li><b>to do:</b> ", f);
	rp_esc(f, a ? a : "nothing can be said until the verdict is known (see why: above)");
	fputs("</li>\n", f);
}

/* The span in plain words, from the figures (the rules are in man dtltop). */
static void judgement(FILE *f, const struct rp *r, const struct rp_ranked *o)
{
	const struct dtl_row *t = &r->total;
	size_t worst = 0, above = 0;
	double lost = 0, gaps = 0;
	char buf[64], p50[24], p99[24], mx[24], mask[32];

	for (size_t i = 0; i < r->n; i++) {
		if (r->s[RP_STEAL][i] > r->s[RP_STEAL][worst])
			worst = i;
		lost += r->s[RP_LOST][i];
		gaps += r->s[RP_GAPS][i];
	}
	for (unsigned int k = 0; k < r->nrows; k++)
		above += o[k].mean > 50;
	fputs("<h2>In short</h2>\n<ul>\n", f);
	verdicts(f, r);
	if (r->have_total && t->steal_pct + t->run_pct > 0)
		fprintf(f, "<li>waiting: %.1f %% of wanted CPU time (steal %.1f %% of all vCPU time, "
			"ceded idle %.1f %%)</li>\n", 100 * t->steal_pct / (t->steal_pct + t->run_pct),
			t->steal_pct, t->idle_pct);
	if (r->have_total && (t->known & DTL_KNOWN_DTL) && t->dispatches) {
		rp_us(t->lat_p50_us, p50, sizeof(p50));
		rp_us(t->lat_p99_us, p99, sizeof(p99));
		rp_us(t->lat_max_us, mx, sizeof(mx));
		fprintf(f, "<li>dispatch wait over the span: p50 %s, p99 %s, max %s%s</li>\n", p50,
			p99, mx, t->lat_p99_us > 10000 ? " (p99 above the 10 ms dispatch wheel)" : "");
	}
	when(r->t[worst], buf, sizeof(buf));
	fprintf(f, "<li>worst interval: #%zu, ending %s, steal %.1f %%</li>\n", worst + 1, buf,
		r->s[RP_STEAL][worst]);
	fprintf(f, "<li>%zu of %u %s above 50 %% steal over the span; the worst:", above, r->nrows,
		r->by_vp ? "VPs" : "CPUs");
	for (unsigned int k = 0; k < r->nrows && k < 5 && !isnan(o[k].mean); k++) {
		rp_row_name(r, o[k].k, buf, sizeof(buf));
		fprintf(f, "%s %s (%.1f %%)", k ? "," : "", buf, o[k].mean);
	}
	fputs("</li>\n", f);
	if (lost || gaps)
		fprintf(f, "<li>losses: %.0f entries lost, %.0f gaps of unknown size: the figures of "
			"those intervals are partial (marked under the first chart)</li>\n", lost, gaps);
	else
		fputs("<li>no entries lost, no gaps</li>\n", f);
	if (dtl_mask__partial(r->mask_any, buf, sizeof(buf)))
		fprintf(f, "<li>%s: those events are missing from every figure</li>\n", buf);
	if (r->mask != r->mask_any) {
		size_t narrow = 0;

		for (size_t i = 0; i < r->n; i++)
			narrow += rp_narrow(r, i);
		dtl_mask__format(r->mask, mask, sizeof(mask));
		fprintf(f, "<li>the event mask changed: %zu of %zu intervals traced only %s; their "
			"figures leave the rest out (shaded on every chart), so a drop there is not a "
			"real one</li>\n", narrow, r->n, mask);
	}
	incidents(f, r);
	action(f, r);
	fputs("</ul>\n", f);
}

static double series_max(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

/* Lost entries and gaps as marks under the time axis, where they were. */
static void loss_marks(struct rp_chart *c)
{
	const struct rp *r = c->r;
	int y = RP_MT + c->h + 6;

	for (size_t i = 0; i < r->n; i++)
		if (r->s[RP_LOST][i] > 0 || r->s[RP_GAPS][i] > 0) {
			double x = dtl_scale__map(&c->x, r->t[i] - rp_t0(r));

			fprintf(c->f, "<path class=\"mark\" data-interval=\"%zu\" d=\"M%.1f %dl-4 7h8z\"/>\n",
				i + 1, x, y);
		}
}

static int line_chart(FILE *f, const struct rp *r, const char *title, const char *ylabel,
		      const int *which, const char *const *names, size_t n, bool log)
{
	struct rp_chart c;
	double hi = 0, lo = INFINITY;

	if (rp_chart__begin(&c, f, r, title, ylabel, 180))
		return -1;
	for (size_t k = 0; k < n; k++) {
		double m = series_max(r->s[which[k]], r->n);

		hi = m > hi ? m : hi;
		for (size_t i = 0; i < r->n; i++)
			if (r->s[which[k]][i] > 0 && r->s[which[k]][i] < lo)
				lo = r->s[which[k]][i];
	}
	if (log)
		c.y = (struct dtl_scale){ pow(10, floor(log10(isfinite(lo) ? lo : 1))),
					  pow(10, ceil(log10(hi > 1 ? hi : 10))), RP_MT + c.h, RP_MT, true };
	else
		c.y = (struct dtl_scale){ 0, dtl_scale__nice_max(hi, which[0] == RP_STEAL ? 10 : 1),
					  RP_MT + c.h, RP_MT, false };
	rp_chart__axes(&c);
	for (size_t k = 0; k < n; k++) {
		rp_chart__series(&c, r->s[which[k]], names[k], dtl_category_colour((unsigned int)k),
				 which[k] == RP_ENT);
		rp_chart__legend(&c, (int)k, names[k], dtl_category_colour((unsigned int)k), false,
				 which[k] == RP_ENT);
	}
	if (which[0] == RP_STEAL) {
		loss_marks(&c);
		fprintf(f, "<path class=\"mark\" d=\"M%d %dl-4 7h8z\"/>", RP_ML + RP_PW + 21,
			RP_MT + 8 + 18 * (int)n - 8);
		fprintf(f, "<text class=\"lg\" x=\"%d\" y=\"%d\">lost entries or gaps</text>\n",
			RP_ML + RP_PW + 34, RP_MT + 8 + 18 * (int)n);
	}
	rp_chart__note(&c);
	rp_chart__end(&c);
	return 0;
}

/* Per-second rates of the reasons that occurred, the most frequent first (at most 8). */
static int reasons_chart(FILE *f, const struct rp *r, const char *title, double *const *v,
			 unsigned int nv, const char *(*name)(unsigned int))
{
	double *tot = calloc(nv, sizeof(*tot)), *pick[8], hi = 0;
	const char *names[8];
	unsigned int order[32], n = 0;
	struct rp_chart c;

	if (!tot)
		return -1;
	for (unsigned int k = 0; k < nv; k++)
		for (size_t i = 0; i < r->n; i++)
			tot[k] += isnan(v[k][i]) ? 0 : v[k][i];
	for (unsigned int k = 0; k < nv; k++)
		if (tot[k] > 0)
			order[n++] = k;
	for (unsigned int a = 0; a < n; a++)	/* a few: insertion sort, largest first */
		for (unsigned int b = a; b > 0 && tot[order[b]] > tot[order[b - 1]]; b--) {
			unsigned int t = order[b];

			order[b] = order[b - 1], order[b - 1] = t;
		}
	free(tot);
	if (n > 8)
		n = 8;
	for (unsigned int k = 0; k < n; k++) {
		pick[k] = v[order[k]];
		names[k] = name(order[k]);
	}
	for (size_t i = 0; i < r->n; i++) {
		double s = 0;

		for (unsigned int k = 0; k < n; k++)
			s += isnan(pick[k][i]) ? 0 : pick[k][i];
		hi = s > hi ? s : hi;
	}
	if (rp_chart__begin(&c, f, r, title, "per second", 180))
		return -1;
	c.y = (struct dtl_scale){ 0, dtl_scale__nice_max(hi, 1), RP_MT + c.h, RP_MT, false };
	rp_chart__axes(&c);
	if (n)
		rp_chart__stack(&c, pick, names, n);
	rp_chart__note(&c);
	rp_chart__end(&c);
	return 0;
}

int rp_write_html(FILE *f, const struct rp *r)
{
	static const int steal[] = { RP_STEAL, RP_IDLE }, disp[] = { RP_DISP },
			 lat[] = { RP_P50, RP_P99, RP_MAX }, physc[] = { RP_PHYSC, RP_ENT, RP_APP };
	static const char *const steal_n[] = { "steal %", "idle % (ceded)" },
			  *const disp_n[] = { "dispatches/s" },
			  *const lat_n[] = { "p50", "p99", "max" },
			  *const physc_n[] = { "physc", "entitlement", "pool idle (app)" };
	struct rp_ranked *o = rank_rows(r);
	int rc = 0;
	bool physc_known = false, app_known = false;

	if (!o)
		return -1;
	for (size_t i = 0; i < r->n; i++)
		physc_known |= !isnan(r->s[RP_PHYSC][i]), app_known |= !isnan(r->s[RP_APP][i]);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>dtltop report: ");
	rp_esc(f, r->host[0] ? r->host : r->source);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>dtltop report: ", css);
	rp_esc(f, r->host[0] ? r->host : r->source);
	fputs("</h1>\n", f);
	facts(f, r);
	judgement(f, r, o);
	fputs("<h2>The partition over time</h2>\n", f);
	rc |= line_chart(f, r, "Steal and idle, % of the partition's vCPU time", "% of vCPU time",
			 steal, steal_n, 2, false);
	rc |= line_chart(f, r, "Dispatches per second", "dispatches/s", disp, disp_n, 1, false);
	rc |= line_chart(f, r, "Dispatch latency (enqueue to dispatch), log scale", "latency", lat,
			 lat_n, 3, true);
	if (physc_known)
		rc |= line_chart(f, r, app_known ? "Processors consumed (physc) against the "
				 "entitlement, and the pool's idle processors (app)" :
				 "Processors consumed (physc) against the entitlement", "processors",
				 physc, physc_n, app_known ? 3 : 2, false);
	else
		fputs("<p>physc: unknown (no lparcfg PURR in this source or recording)</p>\n", f);
	rc |= rp_heatmap(f, r, o);
	fputs("<h2>Why the hypervisor preempted and dispatched</h2>\n", f);
	rc |= reasons_chart(f, r, "Preempt reasons", r->preempt, DTL_N_PREEMPT + 1, dtl_preempt__name);
	rc |= reasons_chart(f, r, "Dispatch reasons", r->dispatch, DTL_N_DISPATCH + 1,
			    dtl_dispatch__name);
	rc |= rp_multiples(f, r, o);
	rc |= rp_payers__html(f, r);
	fputs("<p class=\"note\">Made by dtltop from the same figures as its CSV; the rules behind "
	      "the words above are in man dtltop, READING THE FIGURES.</p>\n</body>\n</html>\n", f);
	free(o);
	return rc ? -1 : 0;
}
