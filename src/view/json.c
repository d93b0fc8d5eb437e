/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.c - --format=json: JSON Lines, one object per row per interval, with
 * the CSV's field names, numbers as numbers, null where a figure is
 * unknown, and the host; for jq, and for back-filling a database. A task's
 * or cgroup's row also says where its preempts hit ("where").
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../stats/where.h"
#include "columns.h"
#include "table.h"
#include "writer.h"

/* s as a JSON string: the few characters that need it escaped. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * A task's or cgroup's "where": its involuntary preempts since start, how
 * many in user space, the top kernel functions, the rest (as --format where).
 */
static void json_where(FILE *f, const struct dtl_model *m, const struct dtl_row *r)
{
	enum dtl_task_group g = r->group == DTL_ROW_CGROUP ? DTL_TASKS_BY_CGROUP : DTL_TASKS_BY_TASK;
	const char *why;
	const struct dtl_ksyms *k = m->syms ? dtl_syms__get(m->syms, &why) : NULL;
	struct dtl_where w;

	if (dtl_where__of(m->table->tasks, g, r->cpu, k, &w))
		return;
	fprintf(f, ",\"where\":{\"preempts\":%" PRIu64 ",\"user\":%" PRIu64 ",\"functions\":[",
		w.all, w.user);
	for (int i = 0; i < w.n; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_string(f, w.fn[i].name);
		fprintf(f, ",\"preempts\":%" PRIu64 "}", w.fn[i].n);
	}
	fprintf(f, "],\"other\":%" PRIu64 ",\"not_kept\":%" PRIu64 "}", w.other, w.unkept);
}

/* The partition's row says which partition, pool and frame: absent keys, never made up. */
static void json_identity(FILE *f, const struct dtl_model *m)
{
	struct dtl_model_field id[DTL_MODEL_FIELDS];
	size_t n = dtl_model__identity_fields(m, id);

	for (size_t i = 0; i < n; i++) {
		fprintf(f, ",\"%s\":", id[i].key);
		if (id[i].number)
			fputs(id[i].value, f);
		else
			json_string(f, id[i].value);
	}
}

static void json_row(FILE *f, const struct dtl_model *m, const struct dtl_row *r, const char *ts)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[160];

	fputs("{\"host\":", f);
	json_string(f, m->host ? m->host : "");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, ",\"%s\":", c[i].kind == DTL_COL_CPU ? dtl_table__id_name(m->table) :
			c[i].name);
		dtl_col__csv(&c[i], r, ts, cell, sizeof(cell));
		if (c[i].kind == DTL_COL_TIMESTAMP || (c[i].kind == DTL_COL_CPU && dtl_row__label(r)))
			json_string(f, cell);
		else if (!cell[0] || !isfinite(dtl_col__value(&c[i], r)))
			fputs("null", f);	/* unknown, not 0 */
		else if (c[i].kind == DTL_COL_MASK)
			fprintf(f, "%u", r->mask);
		else
			fputs(cell, f);
	}
	if (r != &m->table->all && (r->group == DTL_ROW_TASK || r->group == DTL_ROW_CGROUP))
		json_where(f, m, r);
	if (r == &m->table->all) {
		/* the partition's row carries the answer in words */
		struct dtl_verdict v;

		dtl_model__verdict(m, &v);
		fprintf(f, ",\"verdict\":\"%s\",\"why\":", dtl_verdict__name(v.kind));
		json_string(f, v.text);
		json_identity(f, m);
	}
	fputs("}\n", f);
}

static void json_interval(FILE *f, const struct dtl_model *m)
{
	char ts[40];

	dtl_timestamp(m->table->ts_ns, ts, sizeof(ts));
	for (size_t i = 0; i < m->table->n; i++)
		json_row(f, m, &m->table->rows[i], ts);
	json_row(f, m, &m->table->all, ts);
}

const struct dtl_writer dtl_writer_json = {
	.name = "json",
	.help = "JSON Lines: an object per row per interval, the CSV's field names",
	.interval = json_interval,
};
