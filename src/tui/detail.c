/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * detail.c - the detail pane (Enter or F5 on a row): one CPU's or VP's
 * reasons as bars, its dispatch-latency histogram with the percentiles
 * marked, the physical processors it ran on, its losses, and sparklines of
 * its last 60 intervals. Esc or Enter closes it. Everything comes from the
 * stats and the rows every other view shows; a replay shows the recording's.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../view/judge.h"
#include "pane.h"

#define BAR 20

/* The pane's rows: what scrolls above or below them is not drawn. */
static int clip_lo, clip_hi;

static void out(int y, int x, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void out(int y, int x, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (y < clip_lo || y >= clip_hi || x >= COLS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	mvaddnstr(y, x, buf, dtl_tui__fit(buf, COLS - x));
}

static const struct dtl_row *find_row(const struct dtl_model *m, int id)
{
	for (size_t i = 0; i < m->table->n; i++)
		if (m->table->rows[i].cpu == id)
			return &m->table->rows[i];
	return NULL;
}

/* Block characters where the locale is UTF-8; it is set once, when the TUI starts. */

/* n of total as a bar of up to BAR cells, and the share. */
static void bar(char *buf, size_t len, uint64_t n, uint64_t total)
{
	int w = total ? (int)((double)n * BAR / (double)total + 0.5) : 0;
	size_t off = 0;

	for (int i = 0; i < w && off + 4 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s", dtl_tui__utf8() ? "\xe2\x96\x88" : "#");
	snprintf(buf + off, len - off, "%*s %5.1f%%", BAR - w, "", total ? 100.0 * (double)n /
		 (double)total : 0);
}

/* The reasons that occurred, most first, at most rows lines from y; the lines used. */
static int reasons(int y, int x, int rows, const char *title, const uint64_t *c, unsigned int n,
		   const char *(*name)(unsigned int))
{
	uint64_t total = 0;
	bool done[16] = { false };
	int used = 1;
	char b[160];

	for (unsigned int k = 0; k <= n; k++)
		total += c[k];
	out(y, x, "%s", title);
	while (used < rows) {
		unsigned int best = n + 1;

		for (unsigned int k = 0; k <= n; k++)
			if (!done[k] && c[k] && (best > n || c[k] > c[best]))
				best = k;
		if (best > n)
			break;
		done[best] = true;
		bar(b, sizeof(b), c[best], total);
		out(y + used++, x, "  %-25s %6llu %s", name(best), (unsigned long long)c[best], b);
	}
	if (used == 1)
		out(y + used++, x, "  none in this span");
	return used;
}

/* Latency by powers of four of a microsecond, the p50 and p99 buckets marked. */
static int histogram(struct dtl_tui *t, const struct dtl_model *m, int y, int rows)
{
	static const double edge_us[] = { 4, 16, 64, 256, 1000, 4000, 16000, 64000 };
	uint64_t h[DTL_HIST_BUCKETS], by[9] = { 0 }, total = 0;
	double us_per_tick = 1e6 / (double)dtl_stats__tb_freq(m->stats);
	struct dtl_row tot;
	int used = 1;
	char b[160], p50[16], p99[16], since[24];

	if (dtl_stats__hist(m->stats, t->detail_id, t->detail_vp, h) ||
	    (t->detail_vp ? dtl_stats__vp_row(m->stats, t->detail_id, DTL_SPAN_TOTAL, &tot)
			  : dtl_stats__row(m->stats, t->detail_id, DTL_SPAN_TOTAL, &tot)))
		return 0;
	for (unsigned int k = 0; k < DTL_HIST_BUCKETS; k++) {
		double us = (double)dtl_hist__value(k) * us_per_tick;
		unsigned int i = 0;

		while (i < 8 && us >= edge_us[i])
			i++;
		by[i] += h[k];
		total += h[k];
	}
	dtl_judge__us(tot.lat_p50_us, p50, sizeof(p50));
	dtl_judge__us(tot.lat_p99_us, p99, sizeof(p99));
	dtl_model__since(m, since, sizeof(since));
	out(y, 0, "Dispatch latency %s (%llu samples): p50 %s  p99 %s", since,
		 (unsigned long long)total, total >= DTL_MIN_SAMPLES ? p50 : "-",
		 total >= DTL_MIN_SAMPLES ? p99 : "-");
	for (unsigned int i = 0; i < 9 && used < rows; i++) {
		char lo[16], hi[16], range[40];
		bool has50 = total && (i == 8 || tot.lat_p50_us < edge_us[i]) &&
			     (i == 0 || tot.lat_p50_us >= edge_us[i - 1]);
		bool has99 = total && (i == 8 || tot.lat_p99_us < edge_us[i]) &&
			     (i == 0 || tot.lat_p99_us >= edge_us[i - 1]);

		dtl_judge__us(i ? edge_us[i - 1] : 0, lo, sizeof(lo));
		dtl_judge__us(i < 8 ? edge_us[i] : INFINITY, hi, sizeof(hi));
		snprintf(range, sizeof(range), i == 8 ? ">= %s" : "%s-%s", i == 8 ? lo : lo, hi);
		bar(b, sizeof(b), by[i], total);
		out(y + used++, 0, "  %-13s %8llu %s%s%s", range, (unsigned long long)by[i], b,
			 has50 ? "  <p50" : "", has99 ? "  <p99" : "");
	}
	return used;
}

static int processors(struct dtl_tui *t, const struct dtl_model *m, int y, const struct dtl_row *r)
{
	struct dtl_proc_count p[5];
	uint64_t other = 0, total = 0;
	int n = dtl_stats__procs(m->stats, t->detail_id, t->detail_vp, p, 5, &other);
	char line[512], since[24];
	size_t off;

	for (int i = 0; i < n; i++)
		total += p[i].n;
	total += other;
	dtl_model__since(m, since, sizeof(since));
	off = (size_t)snprintf(line, sizeof(line), "Physical processors %s (1 dispatch in 8):", since);
	for (int i = 0; i < n && off < sizeof(line); i++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %u %.0f%%", p[i].proc,
					100.0 * (double)p[i].n / (double)(total ? total : 1));
	if (other && off < sizeof(line))
		off += (size_t)snprintf(line + off, sizeof(line) - off, " others %.0f%%",
					100.0 * (double)other / (double)total);
	if (!n && off < sizeof(line))
		off += (size_t)snprintf(line + off, sizeof(line) - off, " none seen");
	out(y, 0, "%s", line);
	if (r)
		out(y + 1, 0, "Moves this span: %llu within the core, %llu to another core;  lost "
			 "%llu  gaps %llu  bad %llu", (unsigned long long)r->migr_core,
			 (unsigned long long)r->migr_other, (unsigned long long)r->lost,
			 (unsigned long long)r->gaps, (unsigned long long)r->bad);
	return 2;
}

/* A sparkline of the row's last intervals, oldest first, scaled to its own maximum. */
static void spark(int y, const char *label, const struct dtl_spark *s, int which, bool lat)
{
	char line[600], mx[16];
	int off = snprintf(line, sizeof(line), "  %-9s ", label);
	double top = dtl_tui__spark_text(s, which, DTL_SPARK_N, 0, line + off, sizeof(line) - (size_t)off);

	if (lat)
		dtl_judge__us(top, mx, sizeof(mx));
	else
		snprintf(mx, sizeof(mx), "%.1f", top);
	off = (int)strlen(line);
	snprintf(line + off, sizeof(line) - (size_t)off, "  max %s", mx);
	out(y, 0, "%s", line);
}

/* The pane; the screen line below its last, so a scroll past the end can be taken back. */
static int detail_body(struct dtl_tui *t, const struct dtl_model *m, int y0, int height)
{
	const struct dtl_row *r = find_row(m, t->detail_id);
	const struct dtl_spark *s = dtl_tui__spark(t, t->detail_id);
	int y = y0 - t->detail_top, end = y0 + height, h;
	char steal[16], since[32] = "";

	if (m->since_start) {
		char when[24];

		dtl_model__since(m, when, sizeof(when));
		snprintf(since, sizeof(since), " (%s)", when);
	}
	attron(A_REVERSE);
	mvhline(y0, 0, ' ', COLS);
	if (t->detail_vp && m->stats) {
		/* a VP by its number, 0..N-1 as lparstat counts, with its CPUs */
		struct dtl_cpuset set = { 0 };
		char cpus[64];

		for (unsigned int c = 0; c < dtl_stats__nr_cpus(m->stats); c++)
			if (dtl_stats__vp_of(m->stats, c) == t->detail_id)
				dtl_cpuset__set(&set, c);
		dtl_cpuset__format(&set, cpus, sizeof(cpus));
		mvprintw(y0, 0, "VP %d (CPUs %s) in detail%s: Esc or Enter closes, arrows scroll",
			 dtl_stats__vp_index(m->stats, (unsigned int)t->detail_id), cpus, since);
	} else {
		mvprintw(y0, 0, "CPU %d in detail%s: Esc or Enter closes, arrows scroll",
			 t->detail_id, since);
	}
	attroff(A_REVERSE);
	y++;
	clip_lo = y0 + 1;
	clip_hi = end;
	if (!r) {
		out(y, 0, "not in the table now (offline, filtered out, or rows regrouped)");
		return y + 1;
	}
	dtl_judge__us(r->steal_us, steal, sizeof(steal));
	out(y, 0, "%llu disp (%.1f/s)  steal %.1f%% (%s)  idle %.1f%%  run %.1f%%  "
			 "invol %.1f%%", (unsigned long long)r->dispatches, r->dispatch_per_s,
			 r->steal_pct, steal, r->idle_pct, r->run_pct, r->preempt_ratio * 100);
	y += 2;
	if (!(r->known & DTL_KNOWN_DTL)) {
		out(y, 0, "counters only (no DTL): reasons, latency and processors unknown");
		return y + 1;
	}
	h = reasons(y, 0, 7, "Preempt reasons", r->preempt, DTL_N_PREEMPT, dtl_preempt__name);
	if (COLS >= 130)
		h = h > reasons(y, 64, 7, "Dispatch reasons", r->dispatch, DTL_N_DISPATCH,
				dtl_dispatch__name) ? h : 7;
	y += h + 1;
	if (COLS < 130) {
		y += reasons(y, 0, 7, "Dispatch reasons", r->dispatch, DTL_N_DISPATCH,
			     dtl_dispatch__name) + 1;
	}
	y += histogram(t, m, y, 10) + 1;
	y += processors(t, m, y, r) + 1;
	if (s) {
		out(y++, 0, "Last %u intervals, oldest first:", s->n);
		spark(y++, "steal%", s, 0, false);
		spark(y++, "disp/s", s, 1, false);
		spark(y++, "p99", s, 2, true);
	}
	return y;
}

static void detail_draw(struct dtl_tui *t, const struct dtl_model *m, int y0, int height)
{
	if (dtl_tui__unscroll(t, detail_body(t, m, y0, height), y0, height)) {
		for (int i = y0; i < y0 + height; i++) {
			move(i, 0);
			clrtoeol();
		}
		detail_body(t, m, y0, height);
	}
}

static int detail_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	(void)t, (void)m;
	return DTL_PANE_FILL;
}

static bool detail_focused(const struct dtl_tui *t)
{
	return t->detail;
}

bool dtl_tui__detail_key(struct dtl_tui *t, int ch, struct dtl_act *a)
{
	switch (ch) {
	case 27: case '\r': case '\n': case KEY_ENTER: case 'q': t->detail = false; break;
	case KEY_UP: case 'k': t->detail_top--; break;
	case KEY_DOWN: case 'j': t->detail_top++; break;
	case KEY_HOME: t->detail_top = 0; break;
	case KEY_NPAGE: t->detail_top += LINES / 2; break;
	case KEY_PPAGE: t->detail_top -= LINES / 2; break;
	default: return false;	/* the others act as ever: sort, mask, pause */
	}
	if (t->detail_top < 0)
		t->detail_top = 0;
	a->what = DTL_ACT_REDRAW;
	return true;
}

const struct dtl_pane dtl_pane_detail = {
	.name = "detail",
	.height = detail_height,
	.draw = detail_draw,
	.key = dtl_tui__detail_key,
	.focused = detail_focused,
};
