/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * header.c - the header pane: what is captured and how, what the figures
 * leave out, the partition's totals and its lparcfg facts.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../dtl/dtl.h"
#include "../version.h"
#include "../view/columns.h"
#include "../view/judge.h"
#include "pane.h"

/* The clock: this machine's local time, or the recording's (UTC) on a replay. */
static void clock_text(const struct dtl_model *m, char *buf, size_t len)
{
	time_t now = (time_t)(m->table->ts_ns / 1000000000ull);
	struct tm tm;

	if (!m->table->ts_ns)
		now = time(NULL);
	if (m->recorded)
		gmtime_r(&now, &tm);
	else
		localtime_r(&now, &tm);
	strftime(buf, len, m->recorded ? "%H:%M:%S UTC (recorded)" : "%H:%M:%S %Z", &tm);
}

/* The header's lines as text; each is wrapped between tokens, never inside one. */
static int header_lines(const struct dtl_tui *t, const struct dtl_model *m, char out[][640])
{
	const struct dtl_row *a = &m->table->all;
	char mask[32], partial[64], gaps[48] = "", cpus[64], witness[64] = "", clk[48];
	char p50[16], p99[16], mx[16], idle[16], smooth[32] = "";
	struct dtl_verdict verdict;
	int n = 0, len;

	(void)t;
	dtl_mask__format(m->mask, mask, sizeof(mask));
	dtl_model__cpus(m, cpus, sizeof(cpus));
	clock_text(m, clk, sizeof(clk));
	if (m->smooth_s > 0)
		snprintf(smooth, sizeof(smooth), "  [smoothed %gs]", m->smooth_s);
	snprintf(out[n++], 640, "dtltop %s%s%s%s  %s  mask %s (0x%x)  every %.2fs  %s  %s %s",
		 DTLTOP_VERSION, m->paused ? "  [PAUSED]" : "", m->since_start ? "  [since start]" : "",
		 smooth, clk, mask, m->mask, m->interval_s, cpus, m->source, m->detail);
	/* What the figures leave out comes first, where it cannot be cut off. */
	if (dtl_mask__partial(a->mask, partial, sizeof(partial)))
		snprintf(out[n++], 640, "!%s: these figures leave those events out", partial);
	if (a->gaps)
		snprintf(gaps, sizeof(gaps), "+  gaps %llu", (unsigned long long)a->gaps);
	if (dtl_model__witness(a, witness + 2, sizeof(witness) - 2))
		memcpy(witness, "  ", 2);
	dtl_judge__us(a->idle_us, idle, sizeof(idle));
	if (!(a->known & DTL_KNOWN_DTL)) {
		snprintf(out[n++], 640, "%s %.0f disp/s  steal %.1f%%  idle %s  (VPA counters, no "
			 "DTL: latency, reasons and faults unknown)", dtl_row__label(a),
			 a->dispatch_per_s, a->steal_pct, idle);
	} else {
		dtl_judge__us(a->lat_p50_us, p50, sizeof(p50));
		dtl_judge__us(a->lat_p99_us, p99, sizeof(p99));
		dtl_judge__us(a->lat_max_us, mx, sizeof(mx));
		snprintf(out[n++], 640, "%s %.0f disp/s  invol %.1f%%  steal %.1f%%  idle %s  "
			 "lat p50/p99/max %s/%s/%s  migr %llu  flt %llu  lost %llu%s  bad %llu%s",
			 dtl_row__label(a), a->dispatch_per_s, a->preempt_ratio * 100, a->steal_pct,
			 idle, a->samples >= DTL_MIN_SAMPLES ? p50 : "-",
			 a->samples >= DTL_MIN_SAMPLES ? p99 : "-", mx,
			 (unsigned long long)a->migrations, (unsigned long long)a->faults,
			 (unsigned long long)a->lost, gaps, (unsigned long long)a->bad, witness);
	}
	/* lparcfg's dispatch cycles next to the DTL's, which the mask may leave short */
	if (dtl_model__lpar(m, out[n], 600))
		snprintf(out[n] + strlen(out[n]), 40, " (DTL %.0f)", a->dispatch_per_s), n++;
	/* the answer in words first: what limits the partition, then how much */
	dtl_model__verdict(m, &verdict);
	len = snprintf(out[n], 640, "%s; ", verdict.text);
	dtl_judge__summary(m->table, out[n] + len, 640 - (size_t)len), n++;
	if (m->table->n > 1)
		dtl_judge__spread(m->table, out[n++], 640);
	return n;
}

#define HEADER_MAX 8

/*
 * Made once a frame (the spread sorts every row): the height asks first,
 * the drawing uses the same lines.
 */
static char lines[HEADER_MAX][640];
static int nlines;

static int header_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	int h = 0;

	nlines = header_lines(t, m, lines);
	for (int i = 0; i < nlines; i++)
		h += dtl_tui__wrap(-1, 3, 0, lines[i]);
	return h;
}

static void header_draw(struct dtl_tui *t, const struct dtl_model *m, int y, int height)
{
	int n = nlines, end = y + height;

	(void)m;	/* drawn from the lines header_height() made of it */

	for (int i = 0; i < n && y < end; i++) {
		int attr = 0;
		const char *text = lines[i];

		if (i == 0)
			attr = A_BOLD | (t->color ? COLOR_PAIR(DTL_PAIR_TITLE) : 0);
		else if (text[0] == '!')
			attr = A_BOLD | (t->color ? COLOR_PAIR(DTL_PAIR_WARN) : A_REVERSE), text++;
		y += dtl_tui__wrap(y, end - y < 3 ? end - y : 3, attr, text);
	}
}

const struct dtl_pane dtl_pane_header = {
	.name = "header",
	.height = header_height,
	.draw = header_draw,
};
