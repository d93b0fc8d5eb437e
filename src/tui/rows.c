/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rows.c - the table pane: the column heading and the rows that fit.
 *
 * Only the rows that fit are formatted, so a frame costs the same for 16 and
 * for 1920 vCPUs.
 */
#include <stdio.h>

#include "../view/columns.h"
#include "pane.h"

int dtl_tui__visible_cols(int *idx)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	bool keep[DTL_TUI_MAX_COLS] = { false };
	int width = 0, count = 0;

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

static void rows_draw(struct dtl_tui *t, const struct dtl_model *m, int y, int height)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	int vis[DTL_TUI_MAX_COLS], nv = dtl_tui__visible_cols(vis);
	const struct dtl_table *tb = m->table;
	char buf[1024], cell[64];
	size_t off = 0;
	int rows;

	for (int i = 0; i < nv; i++) {
		const struct dtl_col *k = &c[vis[i]];
		char head[16];

		snprintf(head, sizeof(head), "%s%s", vis[i] == t->sort_col ? "*" : "",
			 dtl_col__heading(k, tb->by_vp));
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

	rows = height - 1;
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
}

static int rows_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	(void)t, (void)m;
	return DTL_PANE_FILL;
}

const struct dtl_pane dtl_pane_rows = {
	.name = "rows",
	.height = rows_height,
	.draw = rows_draw,
};
