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

#define HEADER_MAX 10

/*
 * The header's lines, each with its rank: 0 always shown, higher ranks give
 * way first when the screen is short (at most 7 lines below 40 rows), so an
 * 80x24 terminal keeps the answer and its figures and drops the spread.
 */
struct hline {
	char text[640];
	int rank;
	int attr;		/* 0, or A_BOLD for the verdict */
};

#define TREND_N 12	/* intervals in the header's sparklines: both fit 80 columns */

/* The partition's trend over the last minute: steal and p99 as sparklines. */
static void trend_text(const struct dtl_tui *t, const struct dtl_row *a, char *buf, size_t len)
{
	const struct dtl_spark *s = &t->all_spark;
	char steal[160], p99[160], now[16];
	size_t off;

	/* steal against the whole (a flat 40 % is not a full bar); p99 against its peak */
	dtl_tui__spark_text(s, 0, TREND_N, 100, steal, sizeof(steal));
	dtl_tui__spark_text(s, 2, TREND_N, 0, p99, sizeof(p99));
	off = (size_t)snprintf(buf, len, "trend %gs: steal %s %.1f%%",
			       (s->n < TREND_N ? s->n : TREND_N) * a->interval_s, steal, a->steal_pct);
	if ((a->known & DTL_KNOWN_DTL) && a->samples >= DTL_MIN_SAMPLES) {
		dtl_judge__us(a->lat_p99_us, now, sizeof(now));
		snprintf(buf + off, len - off, "  p99 %s %s", p99, now);
	}
}

/* level 0: all; 1: without the source's details; 2: without the version too */
static void title_text(const struct dtl_model *m, int level, char *buf, size_t len)
{
	char mask[32], cpus[64], clk[48], smooth[32] = "", pace[48], since[40] = "";

	/* a replay: the interval it was recorded with, and how fast it plays */
	if (m->recorded && m->recorded_interval_s > 0 && m->interval_s > 0 &&
	    m->recorded_interval_s / m->interval_s > 99999)
		snprintf(pace, sizeof(pace), "%gs intervals at full speed", m->recorded_interval_s);
	else if (m->recorded && m->recorded_interval_s > 0 && m->interval_s > 0)
		snprintf(pace, sizeof(pace), "%gs intervals at %gx", m->recorded_interval_s,
			 m->recorded_interval_s / m->interval_s);
	else
		snprintf(pace, sizeof(pace), "every %gs", m->interval_s);
	dtl_mask__format(m->mask, mask, sizeof(mask));
	dtl_model__cpus(m, cpus, sizeof(cpus));
	clock_text(m, clk, sizeof(clk));
	if (m->smooth_s > 0)
		snprintf(smooth, sizeof(smooth), "  [smoothed %gs]", m->smooth_s);
	if (m->since_start) {
		char when[24];

		dtl_model__since(m, when, sizeof(when));
		snprintf(since, sizeof(since), "  [%s]", when);
	}
	snprintf(buf, len, "dtltop%s%s%s%s%s  %s  %s%s%s  mask %s (0x%x)  %s  %s",
		 level < 2 ? " " : "", level < 2 ? DTLTOP_VERSION : "", m->paused ? "  [PAUSED]" : "",
		 since, smooth, clk, m->source,
		 level < 1 ? " " : "", level < 1 ? m->detail : "", mask, m->mask, pace, cpus);
}

/* The all row's figures, or the VPA's where no DTL was read. */
static void all_text(const struct dtl_model *m, char *buf, size_t len)
{
	const struct dtl_row *a = &m->table->all;
	char gaps[48] = "", witness[96] = "", bad[32] = "", p50[16], p99[16], mx[16];
	bool enough = a->samples >= DTL_MIN_SAMPLES;

	/* shares, as steal is: summed times of many CPUs read as seconds lost per second */
	if (!(a->known & DTL_KNOWN_DTL)) {
		snprintf(buf, len, "%s %.0f disp/s  steal %.1f%%  idle %.1f%%  (VPA counters, no DTL: "
			 "latency, reasons and faults unknown)", dtl_row__label(a), a->dispatch_per_s,
			 a->steal_pct, a->idle_pct);
		return;
	}
	if (a->gaps)
		snprintf(gaps, sizeof(gaps), "+  gaps %llu", (unsigned long long)a->gaps);
	/* a partial mask explains a difference from the VPA: say so, raise no alarm */
	if (dtl_model__witness(a, witness + 2, sizeof(witness) - 2))
		memcpy(witness, "  ", 2);
	dtl_judge__us(a->lat_p50_us, p50, sizeof(p50));
	dtl_judge__us(a->lat_p99_us, p99, sizeof(p99));
	dtl_judge__us(a->lat_max_us, mx, sizeof(mx));
	if (a->bad)
		snprintf(bad, sizeof(bad), "  bad %llu", (unsigned long long)a->bad);
	snprintf(buf, len, "%s %.0f disp/s  invol %.1f%%  steal %.1f%%  idle %.1f%%  "
		 "wait p50/p99/max %s/%s/%s  migr %llu  flt %llu  lost %llu%s%s%s",
		 dtl_row__label(a), a->dispatch_per_s, a->preempt_ratio * 100, a->steal_pct, a->idle_pct,
		 enough ? p50 : "-", enough ? p99 : "-", mx, (unsigned long long)a->migrations,
		 (unsigned long long)a->faults, (unsigned long long)a->lost, gaps, bad, witness);
}

static int header_lines(const struct dtl_tui *t, const struct dtl_model *m, struct hline *out)
{
	const struct dtl_row *a = &m->table->all;
	char partial[64];
	struct dtl_verdict verdict;
	int n = 0, level = 0;

	/* the whole title on one line where it fits, else without the source's details */
	for (; level < 3; level++) {
		title_text(m, level, out[n].text, sizeof(out[n].text));
		if (dtl_tui__wrap(-1, 3, 0, out[n].text) == 1)
			break;
	}
	out[n].rank = 0, out[n++].attr = A_BOLD;
	if (level) {
		/* the source's details on a line of their own, where there is room */
		snprintf(out[n].text, sizeof(out[n].text), "%s %s", m->source, m->detail);
		out[n].rank = 4, out[n++].attr = 0;
	}
	if (!m->intervals) {
		/* nothing is known before an interval ends: say only that */
		snprintf(out[n].text, sizeof(out[n].text), "waiting for the first interval to end "
			 "(%gs): no figures before it", m->interval_s);
		out[n].rank = 0, out[n++].attr = 0;
		return n;
	}
	/* What the figures leave out comes first, where it cannot be cut off. */
	if (dtl_mask__partial(a->mask, partial, sizeof(partial))) {
		snprintf(out[n].text, sizeof(out[n].text), "!%s: these figures leave those events out",
			 partial);
		out[n].rank = 0, out[n++].attr = 0;
	}
	dtl_model__verdict(m, &verdict);
	snprintf(out[n].text, sizeof(out[n].text), "why: %s", verdict.text);
	out[n].rank = 0, out[n++].attr = A_BOLD;
	all_text(m, out[n].text, sizeof(out[n].text));
	out[n].rank = 1, out[n++].attr = 0;
	trend_text(t, a, out[n].text, sizeof(out[n].text));
	out[n].rank = 2, out[n++].attr = 0;
	if (dtl_model__lpar(m, out[n].text, sizeof(out[n].text)))
		out[n].rank = 3, out[n++].attr = 0;
	/* which partition of which pool and frame: a fleet's admin has many windows open */
	if (dtl_model__identity(m, out[n].text, sizeof(out[n].text)))
		out[n].rank = 4, out[n++].attr = 0;
	dtl_judge__summary(m->table, out[n].text, sizeof(out[n].text));
	out[n].rank = 5, out[n++].attr = 0;
	if (m->table->n > 1) {
		dtl_judge__spread(m->table, out[n].text, sizeof(out[n].text));
		out[n].rank = 6, out[n++].attr = 0;
	}
	return n;
}

/*
 * Made once a frame (the spread sorts every row): the height asks first,
 * the drawing uses the same lines.
 */
static struct hline lines[HEADER_MAX];
static int nlines;

static int header_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	int budget = LINES >= 40 ? 12 : 7, h[HEADER_MAX], total = 0, rank = 6;

	nlines = header_lines(t, m, lines);
	for (int i = 0; i < nlines; i++)
		total += h[i] = dtl_tui__wrap(-1, 3, 0, lines[i].text);
	/* the lowest-ranked lines give way, whole, until the header fits */
	for (; total > budget && rank > 0; rank--)
		for (int i = 0; i < nlines; i++)
			if (lines[i].rank == rank) {
				total -= h[i];
				memmove(&lines[i], &lines[i + 1], (size_t)(nlines - i - 1) * sizeof(*lines));
				memmove(&h[i], &h[i + 1], (size_t)(nlines - i - 1) * sizeof(*h));
				nlines--, i--;
			}
	return total;
}

static void header_draw(struct dtl_tui *t, const struct dtl_model *m, int y, int height)
{
	int end = y + height;

	(void)m;	/* drawn from the lines header_height() made of it */

	for (int i = 0; i < nlines && y < end; i++) {
		int attr = lines[i].attr;
		const char *text = lines[i].text;

		if (i == 0)
			attr |= t->color ? COLOR_PAIR(DTL_PAIR_TITLE) : 0;
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
