/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.c - turn stats into sorted rows.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "../dtl/dtl.h"

int dtl_table__fill(struct dtl_table *t, const struct dtl_stats *s, enum dtl_span span,
		    uint64_t ts_ns)
{
	unsigned int nr = dtl_stats__nr_cpus(s);

	if (t->cap < nr) {
		struct dtl_row *r = realloc(t->rows, sizeof(*r) * nr);

		if (!r)
			return -1;
		t->rows = r;
		t->cap = nr;
	}
	t->n = 0;
	for (unsigned int cpu = 0; cpu < nr; cpu++)
		if ((t->by_vp ? dtl_stats__vp_row(s, (int)cpu, span, &t->rows[t->n]) :
		     dtl_stats__row(s, (int)cpu, span, &t->rows[t->n])) == 0)
			t->n++;
	t->ts_ns = ts_ns;
	if (dtl_stats__row(s, DTL_ROW_ALL, span, &t->all))
		return -1;
	if (t->selected)
		t->all.cpu = DTL_ROW_SELECTED;
	return 0;
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
	sort_dir = sort_col->kind == DTL_COL_CPU ? 1 : -1;
	if (reverse)
		sort_dir = -sort_dir;
	if (t->n)
		qsort(t->rows, t->n, sizeof(*t->rows), cmp);
}

void dtl_table__free(struct dtl_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
