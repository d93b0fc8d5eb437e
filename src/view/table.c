/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.c - turn stats into sorted rows.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "../dtl/dtl.h"
#include "../dtl/name.h"

/* Room for nr rows; -1 out of memory (the rows kept as they were). */
static int reserve(struct dtl_table *t, size_t nr)
{
	struct dtl_row *r;

	if (t->cap >= nr)
		return 0;
	r = realloc(t->rows, sizeof(*r) * nr);
	if (!r)
		return -1;
	t->rows = r;
	t->cap = nr;
	return 0;
}

/*
 * Who pays: a row per task or cgroup that ran or was charged in the span;
 * the partition's row is the CPUs' as ever. None where the source has no
 * switch stream (the views say so).
 */
static int fill_tasks(struct dtl_table *t, const struct dtl_stats *s, enum dtl_span span,
		      uint64_t ts_ns)
{
	enum dtl_task_group g = t->group == DTL_ROW_CGROUP ? DTL_TASKS_BY_CGROUP :
			       DTL_TASKS_BY_TASK;
	size_t nr = dtl_tasks__known(t->tasks) ? dtl_tasks__count(t->tasks, g) : 0;

	if (reserve(t, nr))
		return -1;
	for (size_t i = 0; i < nr; i++)
		if (dtl_tasks__row(t->tasks, g, i, span, &t->rows[t->n]) == 0 &&
		    (t->rows[t->n].dispatches || t->rows[t->n].oncpu_s > 0))
			t->n++;
	t->ts_ns = ts_ns;
	if (dtl_stats__row(s, DTL_ROW_ALL, span, &t->all))
		return -1;
	if (t->selected)
		t->all.cpu = DTL_ROW_SELECTED;
	return 0;
}

const char *dtl_table__id_head(const struct dtl_table *t)
{
	return t->group == DTL_ROW_TASK ? "TASK" : t->group == DTL_ROW_CGROUP ? "CGROUP" :
	       t->by_vp ? "VP" : "CPU";
}

int dtl_table__id_width(const struct dtl_table *t, int max)
{
	size_t n;
	int w = dtl_cols(&n)[dtl_cols__find("cpu")].width;

	for (size_t i = 0; t->group != DTL_ROW_CPU_VP && i < t->n; i++) {
		int l = (int)dtl_name__chars(dtl_row__label(&t->rows[i]));

		if (l > w)
			w = l > max ? max : l;
	}
	return w;
}

const char *dtl_table__id_name(const struct dtl_table *t)
{
	if (!t)
		return "cpu";
	return t->group == DTL_ROW_TASK ? "task" : t->group == DTL_ROW_CGROUP ? "cgroup" :
	       t->by_vp ? "vp" : "cpu";
}

int dtl_table__fill(struct dtl_table *t, const struct dtl_stats *s, enum dtl_span span,
		    uint64_t ts_ns)
{
	unsigned int nr = dtl_stats__nr_cpus(s);

	if (reserve(t, nr))
		return -1;
	t->n = 0;
	if (t->group != DTL_ROW_CPU_VP)
		return fill_tasks(t, s, span, ts_ns);
	for (unsigned int cpu = 0; cpu < nr; cpu++)
		if ((t->by_vp ? dtl_stats__vp_row(s, (int)cpu, span, &t->rows[t->n]) :
		     dtl_stats__row(s, (int)cpu, span, &t->rows[t->n])) == 0)
			t->n++;
	t->ts_ns = ts_ns;
	if (dtl_stats__row(s, DTL_ROW_ALL, span, &t->all))
		return -1;
	if (t->by_vp && t->n) {
		/* per VP, the partition's times are its cores', as its rows' are */
		double steal = 0, idle = 0, steal_pct = 0, idle_pct = 0;

		for (size_t i = 0; i < t->n; i++) {
			steal += t->rows[i].steal_us, idle += t->rows[i].idle_us;
			steal_pct += t->rows[i].steal_pct, idle_pct += t->rows[i].idle_pct;
		}
		t->all.steal_us = steal, t->all.idle_us = idle;
		t->all.steal_pct = steal_pct / (double)t->n, t->all.idle_pct = idle_pct / (double)t->n;
		t->all.run_pct = 100 - t->all.steal_pct - t->all.idle_pct;
		if (t->all.run_pct < 0)
			t->all.run_pct = 0;
	}
	if (t->selected)
		t->all.cpu = DTL_ROW_SELECTED;
	return 0;
}

/* CPUs read up, every figure down: the worst first. */
static bool ascending(const struct dtl_col *c)
{
	return c->kind == DTL_COL_CPU;
}

static const struct dtl_col *sort_col;
static int sort_dir;

static int cmp(const void *a, const void *b)
{
	const struct dtl_row *x = a, *y = b;
	double vx = dtl_col__value(sort_col, x), vy = dtl_col__value(sort_col, y);

	if (vx != vy)
		return (vx < vy ? -1 : 1) * sort_dir;
	return x->cpu - y->cpu;
}

void dtl_table__sort(struct dtl_table *t, int col, bool reverse)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	if (col < 0 || (size_t)col >= n)
		return;
	sort_col = &c[col];
	sort_dir = ascending(sort_col) ? 1 : -1;
	if (reverse)
		sort_dir = -sort_dir;
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), cmp);
}

int dtl_table__sort_parse(const char *a, int *col, bool *reverse)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char sign = a[0] == '-' || a[0] == '+' ? a[0] : 0;

	*col = dtl_cols__find(a + (sign != 0));
	if (*col < 0)
		return -1;
	*reverse = sign && (sign == '-') == ascending(&c[*col]);
	return 0;
}

int dtl_table__default_sort(const struct dtl_table *t)
{
	return dtl_cols__find(t->group == DTL_ROW_CPU_VP ? "cpu" : "steal_us");
}

void dtl_table__sort_text(int col, bool reverse, char *buf, size_t len)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	if (col < 0 || (size_t)col >= n) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%s%s", !reverse ? "" : ascending(&c[col]) ? "-" : "+", c[col].name);
}

void dtl_table__free(struct dtl_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
