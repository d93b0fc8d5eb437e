/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * payers.c - who pays, in the report: each interval's steal by process and
 * by cgroup, kept by name; the page stacks the seven that lost the most
 * (the rest as other: eight colours tell apart) and tables the top ten.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "internal.h"
#include "scale.h"

#define TOP_CHART 7
#define TOP_TABLE 10
#define LEGEND_W 20	/* characters of a name beside a chart: a path keeps its end */

bool rp_payers__grow(struct rp *r, size_t cap)
{
	for (int g = 0; g < 2; g++)
		for (size_t k = 0; k < r->payers[g].n; k++) {
			double *p = realloc(r->payers[g].v[k], cap * sizeof(*p));

			if (!p)
				return false;
			r->payers[g].v[k] = p;
		}
	return true;
}

/* name's series, made (zero so far) at first sight; the last slot takes every name past it. */
static double *series(struct rp_payers *p, const char *name, size_t cap)
{
	size_t k;

	for (k = 0; k < p->n && strcmp(p->name[k], name); k++)
		;
	if (k < p->n)
		return p->v[k];
	if (p->n == RP_PAYER_NAMES)
		return p->v[p->n - 1];	/* named "other" when it was made */
	p->v[p->n] = calloc(cap ? cap : 1, sizeof(double));
	if (!p->v[p->n])
		return NULL;
	snprintf(p->name[p->n], sizeof(p->name[0]), "%s", p->n == RP_PAYER_NAMES - 1 ? "other" :
		 name);
	return p->v[p->n++];
}

void rp_payers__keep(struct rp *r, const struct dtl_model *m, size_t i)
{
	const struct dtl_tasks *t = m->table->tasks;
	double per_s = m->table->all.interval_s > 0 ? 1 / m->table->all.interval_s : 0;

	if (!dtl_tasks__known(t))
		return;
	r->payers_known = true;
	for (int g = 0; g < 2; g++) {
		struct rp_payers *p = &r->payers[g];
		enum dtl_task_group tg = g ? DTL_TASKS_BY_CGROUP : DTL_TASKS_BY_TASK;
		struct dtl_row w;

		for (size_t k = 0; k < p->n; k++)
			p->v[k][i] = 0;
		for (size_t k = 0; k < dtl_tasks__count(t, tg); k++) {
			double *v;

			if (dtl_tasks__row(t, tg, k, DTL_SPAN_INTERVAL, &w) || w.steal_us <= 0 ||
			    strcmp(w.name, "idle") == 0)
				continue;	/* the idle task's waits are wake-ups, not work's */
			v = series(p, w.name, r->cap);
			if (v)
				v[i] += w.steal_us / 1e6 * per_s;	/* in cores */
		}
	}
}

void rp_payers__free(struct rp *r)
{
	for (int g = 0; g < 2; g++)
		for (size_t k = 0; k < r->payers[g].n; k++)
			free(r->payers[g].v[k]);
}

/* The names by their steal over the span, the most first; the sum of all. */
static double rank(const struct rp *r, const struct rp_payers *p, size_t *order, double *tot)
{
	double all = 0;

	for (size_t k = 0; k < p->n; k++) {
		tot[k] = 0;
		for (size_t i = 0; i < r->n; i++)
			tot[k] += p->v[k][i];
		all += tot[k];
		order[k] = k;
		for (size_t j = k; j > 0 && tot[order[j]] > tot[order[j - 1]]; j--) {
			size_t x = order[j];

			order[j] = order[j - 1], order[j - 1] = x;
		}
	}
	return all;
}

void rp_payers__where(struct rp *r, const struct dtl_model *m)
{
	const struct dtl_tasks *t = m->table->tasks;
	const char *why = "";
	const struct dtl_ksyms *k = NULL;

	if (!r->payers_known)
		return;
	if (m->syms)
		k = dtl_syms__get(m->syms, &why);
	r->where_named = k != NULL;
	snprintf(r->where_why, sizeof(r->where_why), "%s", why);
	for (int g = 0; g < 2; g++) {
		struct rp_payers *p = &r->payers[g];
		enum dtl_task_group tg = g ? DTL_TASKS_BY_CGROUP : DTL_TASKS_BY_TASK;
		size_t order[RP_PAYER_NAMES];
		double tot[RP_PAYER_NAMES];

		rank(r, p, order, tot);
		p->nwhere = 0;
		for (size_t j = 0; j < p->n && p->nwhere < RP_WHERE_TOP; j++) {
			const char *name = p->name[order[j]];
			struct dtl_row w;

			if (tot[order[j]] <= 0)
				break;
			/* the row of that name: "other" (past the report's names) has none */
			for (size_t x = 0; x < dtl_tasks__count(t, tg); x++) {
				if (dtl_tasks__row(t, tg, x, DTL_SPAN_TOTAL, &w) || strcmp(w.name, name) ||
				    dtl_where__of(t, tg, w.cpu, k, &p->where[p->nwhere]) ||
				    !p->where[p->nwhere].all)
					continue;
				p->where_at[p->nwhere++] = order[j];
				break;
			}
		}
	}
}

/* A table a payer: its kernel functions, user space and the rest, shares of its preempts. */
static void where_tables(FILE *f, const struct rp *r, const struct rp_payers *p, const char *what)
{
	if (!p->nwhere)
		return;
	fprintf(f, "<h3>Where the top %s' involuntary preempts hit (srr0, since start)</h3>\n", what);
	if (!r->where_named) {
		fputs("<p>Kernel functions unknown: ", f);
		rp_esc(f, r->where_why);
		fputs("; addresses shown.</p>\n", f);
	}
	for (size_t j = 0; j < p->nwhere; j++) {
		const struct dtl_where *w = &p->where[j];
		double all = (double)w->all;

		fputs("<table>\n<tr><th>", f);
		rp_esc(f, p->name[p->where_at[j]]);
		fprintf(f, "</th><th>preempts</th><th>share</th></tr>\n");
		fprintf(f, "<tr><td>(user space)</td><td>%" PRIu64 "</td><td>%.1f%%</td></tr>\n",
			w->user, 100 * (double)w->user / all);
		for (int i = 0; i < w->n; i++) {
			fputs("<tr><td>", f);
			rp_esc(f, w->fn[i].name);
			fprintf(f, "</td><td>%" PRIu64 "</td><td>%.1f%%</td></tr>\n", w->fn[i].n,
				100 * (double)w->fn[i].n / all);
		}
		if (w->other)
			fprintf(f, "<tr><td>(other functions)</td><td>%" PRIu64 "</td><td>%.1f%%"
				"</td></tr>\n", w->other, 100 * (double)w->other / all);
		if (w->unkept)
			fprintf(f, "<tr><td>(not kept)</td><td>%" PRIu64 "</td><td>%.1f%%</td></tr>\n",
				w->unkept, 100 * (double)w->unkept / all);
		fputs("</table>\n", f);
	}
}

static int chart(FILE *f, const struct rp *r, const struct rp_payers *p, const char *what)
{
	size_t order[RP_PAYER_NAMES], n = p->n, shown;
	double tot[RP_PAYER_NAMES], all, hi = 0;
	double *pick[TOP_CHART + 1], *rest = calloc(r->n ? r->n : 1, sizeof(*rest));
	const char *names[TOP_CHART + 1];
	char label[TOP_CHART][LEGEND_W + 1];
	struct rp_chart c;
	char title[160];

	if (!rest)
		return -1;
	all = rank(r, p, order, tot);
	shown = n > TOP_CHART ? TOP_CHART : n;
	for (size_t k = 0; k < shown; k++) {
		const char *nm = p->name[order[k]];
		size_t l = strlen(nm);

		if (l > LEGEND_W) {
			const char *tail = nm + l - (LEGEND_W - 3), *slash;

			while (((unsigned char)*tail & 0xc0) == 0x80)	/* a character's start */
				tail++;
			slash = strchr(tail, '/');
			snprintf(label[k], sizeof(label[k]), "...%s", slash && slash[1] ? slash : tail);
		} else
			snprintf(label[k], sizeof(label[k]), "%s", nm);
		pick[k] = p->v[order[k]], names[k] = label[k];
	}
	for (size_t k = shown; k < n; k++)
		for (size_t i = 0; i < r->n; i++)
			rest[i] += p->v[order[k]][i];
	if (n > shown)
		pick[shown] = rest, names[shown++] = "other";
	for (size_t i = 0; i < r->n; i++) {
		double s = 0;

		for (size_t k = 0; k < shown; k++)
			s += pick[k][i];
		hi = s > hi ? s : hi;
	}
	snprintf(title, sizeof(title), "Steal by %s, in cores (the %d that lost the most; the "
		 "rest as other)", what, TOP_CHART);
	if (rp_chart__begin(&c, f, r, title, "cores", 180)) {
		free(rest);
		return -1;
	}
	c.y = (struct dtl_scale){ 0, dtl_scale__nice_max(hi, 0.1), RP_MT + c.h, RP_MT, false };
	rp_chart__axes(&c);
	if (shown)
		rp_chart__stack(&c, pick, names, shown);
	rp_chart__note(&c);
	rp_chart__end(&c);
	fprintf(f, "<table>\n<tr><th>%s</th><th>steal, mean cores</th><th>share of the steal "
		"charged</th></tr>\n", what);
	for (size_t k = 0; k < n && k < TOP_TABLE; k++) {
		fputs("<tr><td>", f);
		rp_esc(f, p->name[order[k]]);
		fprintf(f, "</td><td>%.3f</td><td>%.1f%%</td></tr>\n", r->n ? tot[order[k]] /
			(double)r->n : 0, all > 0 ? 100 * tot[order[k]] / all : 0);
	}
	fputs("</table>\n", f);
	free(rest);
	return 0;
}

int rp_payers__html(FILE *f, const struct rp *r)
{
	int rc = 0;

	fputs("<h2>Who pays</h2>\n", f);
	if (!r->payers_known) {
		fputs("<p>No task data in this source: the steal cannot be charged to processes "
		      "or cgroups here; ", f);
		rp_esc(f, DTL_NO_TASKS);
		fputs(".</p>\n", f);
		return 0;
	}
	fputs("<p>Each preempt charged to the process that ran on its CPU then; the idle task's "
	      "waits (wake-ups after a cede) are left out.</p>\n", f);
	rc |= chart(f, r, &r->payers[0], "process");
	where_tables(f, r, &r->payers[0], "processes");
	rc |= chart(f, r, &r->payers[1], "cgroup");
	where_tables(f, r, &r->payers[1], "cgroups");
	return rc;
}
