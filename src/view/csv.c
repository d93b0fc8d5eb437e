/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * csv.c - --format=csv: one header, then every row of every interval with
 * its timestamp, so a whole run loads as one table.
 */
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "table.h"
#include "writer.h"

void dtl_csv__header_of(FILE *f, const struct dtl_table *t)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", c[i].kind == DTL_COL_CPU ? dtl_table__id_name(t) :
			c[i].name);
	fputc('\n', f);
}

void dtl_csv__header(FILE *f)
{
	dtl_csv__header_of(f, NULL);
}

void dtl_csv__cell(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++)
		fputs(*s == '"' ? "\"\"" : (char[2]){ *s, 0 }, f);
	fputc('"', f);
}

static void csv_row(FILE *f, const struct dtl_row *r, const char *ts)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[160];

	for (size_t i = 0; i < n; i++) {
		dtl_col__csv(&c[i], r, ts, cell, sizeof(cell));
		if (i)
			fputc(',', f);
		if (r->name && c[i].kind == DTL_COL_CPU)
			dtl_csv__cell(f, cell);	/* a task names itself */
		else
			fputs(cell, f);
	}
	fputc('\n', f);
}

void dtl_csv__rows(FILE *f, const struct dtl_table *t)
{
	char ts[40];

	dtl_timestamp(t->ts_ns, ts, sizeof(ts));
	for (size_t i = 0; i < t->n; i++)
		csv_row(f, &t->rows[i], ts);
	csv_row(f, &t->all, ts);
}

static void csv_begin(FILE *f, const struct dtl_model *m)
{
	dtl_csv__header_of(f, m->table);
}

static void csv_interval(FILE *f, const struct dtl_model *m)
{
	dtl_csv__rows(f, m->table);
}

const struct dtl_writer dtl_writer_csv = {
	.name = "csv",
	.help = "comma-separated, one line per CPU per interval",
	.begin = csv_begin,
	.interval = csv_interval,
};
