/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * influx.c - --format=influx: InfluxDB line protocol, measurement "dtl",
 * tags host and cpu (or vp), a field per known figure, nanosecond stamps.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "table.h"
#include "writer.h"

/* A tag value: commas, spaces and equals signs escaped, as the protocol asks. */
static void tag(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == ',' || *s == ' ' || *s == '=' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

/* Which partition, pool and frame, where lparcfg and the device tree say: a fleet groups by them. */
static void identity_tags(FILE *f, const struct dtl_model *m)
{
	struct dtl_model_field id[DTL_MODEL_FIELDS];
	size_t n = dtl_model__identity_fields(m, id);

	for (size_t i = 0; i < n; i++) {
		fprintf(f, ",%s=", id[i].key);
		tag(f, id[i].value);
	}
}

static void influx_row(FILE *f, const struct dtl_model *m, const struct dtl_row *r)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[64], id[16];
	bool first = true;

	fputs("dtl,host=", f);
	tag(f, m->host && m->host[0] ? m->host : "unknown");
	identity_tags(f, m);
	snprintf(id, sizeof(id), "%d", r->cpu);
	fprintf(f, ",%s=", dtl_table__id_name(m->table));	/* cpu, vp, task or cgroup */
	tag(f, dtl_row__label(r) ? dtl_row__label(r) : id);
	for (size_t i = 0; i < n; i++) {
		if (c[i].kind == DTL_COL_TIMESTAMP || c[i].kind == DTL_COL_CPU ||
		    !dtl_col__known(&c[i], r) || !isfinite(dtl_col__value(&c[i], r)))
			continue;	/* tags, the stamp, and what is unknown */
		fprintf(f, "%c%s=", first ? ' ' : ',', c[i].name);
		first = false;
		if (c[i].kind == DTL_COL_DOUBLE || c[i].kind == DTL_COL_KNOWN ||
		    c[i].kind == DTL_COL_INTERVAL) {
			dtl_col__csv(&c[i], r, "", cell, sizeof(cell));
			fputs(cell, f);
		} else {
			fprintf(f, "%.0fi", dtl_col__value(&c[i], r));	/* counts: integers */
		}
	}
	fprintf(f, " %llu\n", (unsigned long long)m->table->ts_ns);
}

static void influx_interval(FILE *f, const struct dtl_model *m)
{
	for (size_t i = 0; i < m->table->n; i++)
		influx_row(f, m, &m->table->rows[i]);
	influx_row(f, m, &m->table->all);
}

const struct dtl_writer dtl_writer_influx = {
	.name = "influx",
	.help = "InfluxDB line protocol: measurement dtl, tags host and cpu",
	.interval = influx_interval,
};
