// SPDX-License-Identifier: GPL-2.0-only
/*
 * wherecsv.c - --format=where: where each task's or cgroup's involuntary
 * preempts hit, one line per row and function, since start, at each
 * interval; the CSV (one line per row) stays as it is. User space is a line
 * of its own, as are the functions past the top ones and the addresses a
 * task kept no count of, so a row's shares add up to 100.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../stats/where.h"
#include "columns.h"
#include "table.h"
#include "writer.h"

static void line(FILE *f, const char *ts, const struct dtl_row *r, const char *fn, uint64_t n,
		 uint64_t all)
{
	fprintf(f, "%s,%s,%d,", ts, r->group == DTL_ROW_CGROUP ? "cgroup" : "task", r->cpu);
	dtl_csv__cell(f, r->name ? r->name : "");
	fputc(',', f);
	dtl_csv__cell(f, fn);
	fprintf(f, ",%" PRIu64 ",%.1f\n", n, 100.0 * (double)n / (double)all);
}

static void where_begin(FILE *f, const struct dtl_model *m)
{
	(void)m;
	fputs("timestamp,group,id,name,function,preempts,share_pct\n", f);
}

static void where_interval(FILE *f, const struct dtl_model *m)
{
	const char *why;
	const struct dtl_ksyms *k = NULL;
	bool asked = false;
	char ts[40];

	if (m->table->group != DTL_ROW_TASK && m->table->group != DTL_ROW_CGROUP)
		return;
	dtl_timestamp(m->table->ts_ns, ts, sizeof(ts));
	for (size_t i = 0; i < m->table->n; i++) {
		const struct dtl_row *r = &m->table->rows[i];
		enum dtl_task_group g = r->group == DTL_ROW_CGROUP ? DTL_TASKS_BY_CGROUP :
				       DTL_TASKS_BY_TASK;
		struct dtl_where w;

		if (!asked && m->syms)
			k = dtl_syms__get(m->syms, &why), asked = true;
		if (dtl_where__of(m->table->tasks, g, r->cpu, k, &w) || !w.all)
			continue;
		if (w.user)
			line(f, ts, r, "(user space)", w.user, w.all);
		for (int j = 0; j < w.n; j++)
			line(f, ts, r, w.fn[j].name, w.fn[j].n, w.all);
		if (w.other)
			line(f, ts, r, "(other functions)", w.other, w.all);
		if (w.unkept)
			line(f, ts, r, "(not kept)", w.unkept, w.all);
	}
}

const struct dtl_writer dtl_writer_where = {
	.name = "where",
	.help = "CSV: where each task's (cgroup's) involuntary preempts hit, a line per function "
		"(--group=task|cgroup)",
	.begin = where_begin,
	.interval = where_interval,
};
