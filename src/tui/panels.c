/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * panels.c - header, table, status line and help, each drawn from the model.
 *
 * Only the rows that fit are formatted, so a frame costs the same for 16 and
 * for 1920 vCPUs.
 */
#include "panels.h"
#include "keys.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../version.h"
#include "../view/columns.h"

int dtl_panels__visible(const struct dtl_tui *t, int *idx)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	bool keep[DTL_TUI_MAX_COLS] = { false };
	int width = 0, count = 0;

	(void)t;
	for (size_t i = 0; i < n && i < DTL_TUI_MAX_COLS; i++)
		if (c[i].head[0]) {
			keep[i] = true;
			width += c[i].width + 1;
		}
	/* Drop the least important (highest prio, rightmost) until it fits. */
	while (width > COLS) {
		int worst = -1;

		for (size_t i = 0; i < n && i < DTL_TUI_MAX_COLS; i++)
			if (keep[i] && c[i].prio > 0 && (worst < 0 || c[i].prio >= c[worst].prio))
				worst = (int)i;
		if (worst < 0)
			break;
		keep[worst] = false;
		width -= c[worst].width + 1;
	}
	for (size_t i = 0; i < n && i < DTL_TUI_MAX_COLS; i++)
		if (keep[i])
			idx[count++] = (int)i;
	return count;
}

static void line(int y, int attr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void line(int y, int attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (y >= LINES)
		return;
	attron(attr);
	mvaddnstr(y, 0, buf, COLS);
	attroff(attr);
}

int dtl_panels__header(struct dtl_tui *t, const struct dtl_model *m, int y)
{
	const struct dtl_row *a = &m->table->all;
	char mask[32], partial[64], gaps[48] = "", lpar[256];

	dtl_mask__format(m->mask, mask, sizeof(mask));
	line(y++, A_BOLD | (t->color ? COLOR_PAIR(DTL_PAIR_TITLE) : 0),
	     "dtltop %s%s%s  mask %s (0x%x)  every %.2fs  %u vCPUs  %s %s", DTLTOP_VERSION,
	     m->paused ? "  [PAUSED]" : "", m->since_start ? "  [since start]" : "",
	     mask, m->mask, m->interval_s, m->nr_vcpus, m->source, m->detail);
	/* What the figures leave out comes first, where it cannot be cut off. */
	if (dtl_mask__partial(a->mask, partial, sizeof(partial)))
		line(y++, A_BOLD | (t->color ? COLOR_PAIR(DTL_PAIR_WARN) : A_REVERSE),
		     "%s: these figures leave those events out", partial);
	if (a->gaps)
		snprintf(gaps, sizeof(gaps), "+  gaps %llu", (unsigned long long)a->gaps);
	line(y++, 0, "%s %.0f disp/s  invol %.1f%%  steal %.1f%%  idle %.0fms  lat p50/p99/max "
	     "%.1f/%.0f/%.0fus  migr %llu  flt %llu  lost %llu%s  bad %llu", dtl_row__label(a),
	     a->dispatch_per_s, a->preempt_ratio * 100, a->steal_pct, a->idle_us / 1000,
	     a->lat_p50_us, a->lat_p99_us, a->lat_max_us, (unsigned long long)a->migrations,
	     (unsigned long long)a->faults, (unsigned long long)a->lost, gaps,
	     (unsigned long long)a->bad);
	if (dtl_model__lpar(m, lpar, sizeof(lpar))) {
		if (m->lpar_dispatches >= 0)
			line(y++, 0, "%s (DTL %llu)", lpar, (unsigned long long)a->dispatches);
		else
			line(y++, 0, "%s", lpar);
	}
	return y;
}

int dtl_panels__table(struct dtl_tui *t, const struct dtl_model *m, int y)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	int vis[DTL_TUI_MAX_COLS], nv = dtl_panels__visible(t, vis);
	const struct dtl_table *tb = m->table;
	char buf[1024], cell[64];
	size_t off = 0;
	int rows;

	for (int i = 0; i < nv; i++) {
		const struct dtl_col *k = &c[vis[i]];
		char head[16];

		snprintf(head, sizeof(head), "%s%s", vis[i] == t->sort_col ? "*" : "", k->head);
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%*s ", k->width, head);
		if (off >= sizeof(buf))
			break;
	}
	move(y, 0);
	attron(t->color ? COLOR_PAIR(DTL_PAIR_HEAD) : A_REVERSE);
	hline(' ', COLS);
	mvaddnstr(y, 0, buf, COLS);
	attroff(t->color ? COLOR_PAIR(DTL_PAIR_HEAD) : A_REVERSE);
	y++;

	rows = LINES - 1 - y;
	if (rows < 0)
		rows = 0;
	t->rows_shown = rows;
	if (t->top > (int)tb->n - rows)
		t->top = (int)tb->n - rows;
	if (t->top < 0)
		t->top = 0;
	for (int r = 0; r < rows && t->top + r < (int)tb->n; r++) {
		const struct dtl_row *row = &tb->rows[t->top + r];
		bool hot = row->steal_pct >= 10 || row->lost;

		off = 0;
		for (int i = 0; i < nv && off < sizeof(buf); i++) {
			dtl_col__text(&c[vis[i]], row, cell, sizeof(cell));
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s ", cell);
		}
		if (hot)
			attron(t->color ? COLOR_PAIR(DTL_PAIR_HOT) | A_BOLD : A_BOLD);
		mvaddnstr(y + r, 0, buf, COLS);
		if (hot)
			attroff(t->color ? COLOR_PAIR(DTL_PAIR_HOT) | A_BOLD : A_BOLD);
	}
	return y + rows;
}

/* "  h help  q quit ...": the keys' hints, in table order. */
static const char *hints(void)
{
	static char buf[256];
	size_t n, off = 0;
	const struct dtl_key *k = dtl_keys(&n);

	if (buf[0])
		return buf;
	for (size_t i = 0; i < n && off < sizeof(buf); i++)
		if (k[i].hint)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "  %s", k[i].hint);
	return buf;
}

void dtl_panels__status(struct dtl_tui *t, const struct dtl_model *m)
{
	int y = LINES - 1;
	int total = (int)m->table->n;

	if (y < 0)
		return;
	if (t->prompting == 'b')
		line(y, A_BOLD, "Jump to HH:MM[:SS] UTC, +seconds from the start or #interval "
		     "(Enter jumps, Esc cancels): %s", t->prompt);
	else if (t->prompting)
		line(y, A_BOLD, "Interval in seconds (Enter sets, Esc cancels): %s", t->prompt);
	else if (t->message[0])
		line(y, A_BOLD, "%s", t->message);
	else if (m->status && m->status[0])
		line(y, A_BOLD, "%s", m->status);
	else
		line(y, 0, "rows %d-%d of %d%s", total ? t->top + 1 : 0,
		     t->top + t->rows_shown < total ? t->top + t->rows_shown : total, total, hints());
}

/* The help screen: a title, one line per key, a blank, the column legend. */
#define HELP_KEYS_AT 1

void dtl_panels__help(struct dtl_tui *t)
{
	size_t n, nk;
	const struct dtl_col *c = dtl_cols(&n);
	const struct dtl_key *k = dtl_keys(&nk);
	int y = 0, lineno = 0;

	nk += HELP_KEYS_AT + 2;		/* the title, and a blank and a title after */
	for (size_t i = 0; i < nk + n; i++) {
		char buf[256];

		if (i == 0)
			snprintf(buf, sizeof(buf), "Keys");
		else if (i < nk - 2)
			snprintf(buf, sizeof(buf), "  %-13s %s", k[i - HELP_KEYS_AT].names,
				 k[i - HELP_KEYS_AT].help);
		else if (i == nk - 2)
			buf[0] = '\0';
		else if (i == nk - 1)
			snprintf(buf, sizeof(buf), "Columns (the CSV has these and one per preempt and "
				 "dispatch reason)");
		else if (c[i - nk].head[0])
			snprintf(buf, sizeof(buf), "  %-8s %-14s %s [%s]", c[i - nk].head,
				 c[i - nk].name, c[i - nk].legend,
				 c[i - nk].unit[0] ? c[i - nk].unit : "-");
		else
			continue;
		if (lineno++ < t->help_top)
			continue;
		if (y >= LINES - 1)
			break;
		line(y++, i == 0 || i == nk - 1 ? A_BOLD : 0, "%s", buf);
	}
	line(LINES - 1, A_REVERSE, "dtltop %s help: any key returns, arrows scroll", DTLTOP_VERSION);
}
