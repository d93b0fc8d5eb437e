/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * text.c - --format=text: what the TUI shows, as plain lines for a pipe.
 */
#include <stdio.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "columns.h"
#include "model.h"
#include "table.h"
#include "writer.h"

static void text_row(FILE *f, const struct dtl_row *r)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[64];
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (!c[i].head[0])
			continue;
		dtl_col__text(&c[i], r, cell, sizeof(cell));
		fprintf(f, "%s%s", first ? "" : " ", cell);
		first = false;
	}
	fputc('\n', f);
}

void dtl_text__table(FILE *f, const struct dtl_table *t, const char *title)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char ts[40], partial[64], witness[64];
	bool first = true;

	dtl_timestamp(t->ts_ns, ts, sizeof(ts));
	fprintf(f, "%s  interval %.3fs  %s\n", ts, t->all.interval_s, title);
	if (!(t->all.known & DTL_KNOWN_DTL)) {
		fprintf(f, "%s: %llu dispatch cycles (%.1f/s)  steal %.2f%%  idle %.2f%%  "
			"(VPA counters, no DTL: latency, reasons and faults unknown)\n",
			dtl_row__label(&t->all), (unsigned long long)t->all.dispatches,
			t->all.dispatch_per_s, t->all.steal_pct, t->all.idle_pct);
		goto heading;
	}
	fprintf(f, "%s: %llu dispatches (%.1f/s)  involuntary %.1f%%  steal %.2f%%  "
		"latency p50 %.2fus p99 %.2fus max %.2fus  lost %llu%s",
		dtl_row__label(&t->all), (unsigned long long)t->all.dispatches,
		t->all.dispatch_per_s, t->all.preempt_ratio * 100, t->all.steal_pct,
		t->all.lat_p50_us, t->all.lat_p99_us, t->all.lat_max_us,
		(unsigned long long)t->all.lost, t->all.gaps ? "+" : "");
	if (t->all.gaps)
		fprintf(f, "  gaps %llu (entries lost, count unknown)",
			(unsigned long long)t->all.gaps);
	if (dtl_mask__partial(t->all.mask, partial, sizeof(partial)))
		fprintf(f, "  %s", partial);
	if (dtl_model__witness(&t->all, witness, sizeof(witness)))
		fprintf(f, "  %s", witness);
	fputc('\n', f);
heading:
	for (size_t i = 0; i < n; i++) {
		if (!c[i].head[0])
			continue;
		fprintf(f, "%s%*s", first ? "" : " ", c[i].width, dtl_col__heading(&c[i], t->by_vp));
		first = false;
	}
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++)
		text_row(f, &t->rows[i]);
	text_row(f, &t->all);
	fputc('\n', f);
}

static void text_interval(FILE *f, const struct dtl_model *m)
{
	char title[768], lpar[256];
	struct dtl_verdict v;
	int len;

	dtl_model__title(m, title, sizeof(title));
	len = (int)strlen(title);
	if (dtl_model__lpar(m, lpar, sizeof(lpar)))
		len += snprintf(title + len, sizeof(title) - (size_t)len, "\n%s", lpar);
	dtl_model__verdict(m, &v);
	snprintf(title + len, sizeof(title) - (size_t)len, "\nwhy: %s", v.text);
	dtl_text__table(f, m->table, title);
}

const struct dtl_writer dtl_writer_text = {
	.name = "text",
	.help = "the table as plain text, one block per interval",
	.interval = text_interval,
};
