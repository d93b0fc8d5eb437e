/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * text.c - --format=text: what the TUI shows, as plain lines for a pipe.
 */
#include <stdio.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "columns.h"
#include "judge.h"
#include "model.h"
#include "../dtl/name.h"
#include "table.h"
#include "writer.h"

static void text_row(FILE *f, const struct dtl_row *r, int idw)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[256];
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (!c[i].head[0])
			continue;
		if (c[i].kind == DTL_COL_CPU && idw > c[i].width) {
			/* names read from the left, as ps shows a command */
			dtl_name__fit(cell, sizeof(cell), dtl_row__label(r) ? dtl_row__label(r) : "",
				      idw);
			fprintf(f, "%s%s", first ? "" : " ", cell);
			first = false;
			continue;
		}
		dtl_judge__text(&c[i], r, cell, sizeof(cell));	/* as the screen shows it */
		fprintf(f, "%s%s", first ? "" : " ", cell);
		first = false;
	}
	fputc('\n', f);
}

void dtl_text__table(FILE *f, const struct dtl_table *t, const char *title)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char ts[40], partial[64], witness[96], head[16], p50[16], p99[16], mx[16];
	bool first = true, enough = t->all.samples >= DTL_MIN_SAMPLES;
	int idw = dtl_table__id_width(t, 40);

	dtl_timestamp(t->ts_ns, ts, sizeof(ts));
	fprintf(f, "%s  interval %.3fs  %s\n", ts, t->all.interval_s, title);
	if (!(t->all.known & DTL_KNOWN_DTL)) {
		fprintf(f, "%s: %llu dispatch cycles (%.1f/s)  steal %.1f%%  idle %.1f%%  "
			"(VPA counters, no DTL: latency, reasons and faults unknown)\n",
			dtl_row__label(&t->all), (unsigned long long)t->all.dispatches,
			t->all.dispatch_per_s, t->all.steal_pct, t->all.idle_pct);
		goto heading;
	}
	/* the histogram knows a latency to 6.25 %: two or three figures, in its unit */
	dtl_judge__us(t->all.lat_p50_us, p50, sizeof(p50));
	dtl_judge__us(t->all.lat_p99_us, p99, sizeof(p99));
	dtl_judge__us(t->all.lat_max_us, mx, sizeof(mx));
	fprintf(f, "%s: %llu dispatches (%.1f/s)  involuntary %.1f%%  steal %.1f%%  "
		"latency p50 %s p99 %s max %s  lost %llu%s",
		dtl_row__label(&t->all), (unsigned long long)t->all.dispatches,
		t->all.dispatch_per_s, t->all.preempt_ratio * 100, t->all.steal_pct,
		enough ? p50 : "-", enough ? p99 : "-", mx,
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
		if (c[i].kind == DTL_COL_CPU && t->group != DTL_ROW_CPU_VP)
			fprintf(f, "%s%-*s", first ? "" : " ", idw, dtl_table__id_head(t));
		else
			fprintf(f, "%s%*s", first ? "" : " ", c[i].width,
				dtl_col__screen_head(&c[i], t->by_vp, head, sizeof(head)));
		first = false;
	}
	fputc('\n', f);
	if (t->group != DTL_ROW_CPU_VP && !dtl_tasks__known(t->tasks))
		fprintf(f, "(no task data: %s)\n", DTL_NO_TASKS);
	for (size_t i = 0; i < t->n; i++)
		text_row(f, &t->rows[i], idw);
	text_row(f, &t->all, idw);
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
	if (dtl_model__identity(m, lpar, sizeof(lpar)) && len < (int)sizeof(title))
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
