/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rows.c - the table pane: the column heading and the rows that fit.
 *
 * Only the rows that fit are formatted, so a frame costs the same for 16 and
 * for 1920 vCPUs.
 */
#include <stdio.h>
#include <string.h>

#include "../view/columns.h"
#include "../dtl/name.h"
#include "../view/judge.h"
#include "pane.h"

/*
 * The columns to draw: the setup's order and choice (F2, --columns), then,
 * where they do not fit COLS, the least important dropped (highest prio,
 * rightmost) until they do.
 */
int dtl_tui__visible_cols(const struct dtl_tui *t, int *idx)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	bool keep[DTL_TUI_MAX_COLS] = { false };
	int width = 0, count = 0;

	for (int i = 0; i < t->ncols; i++)
		if (!t->col_hidden[i]) {
			keep[i] = true;
			width += c[t->col_order[i]].width + 1;
		}
	while (width > COLS) {
		int worst = -1;

		for (int i = 0; i < t->ncols; i++)
			if (keep[i] && c[t->col_order[i]].prio > 0 &&
			    (worst < 0 || c[t->col_order[i]].prio >= c[t->col_order[worst]].prio))
				worst = i;
		if (worst < 0)
			break;
		keep[worst] = false;
		width -= c[t->col_order[worst]].width + 1;
	}
	for (int i = 0; i < t->ncols; i++)
		if (keep[i])
			idx[count++] = t->col_order[i];
	return count;
}

int dtl_tui__columns(struct dtl_tui *t, const char *list, char *err, size_t errlen)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	int order[DTL_TUI_MAX_COLS], k = 0;
	bool used[DTL_TUI_MAX_COLS] = { false };

	while (list && *list && k < DTL_TUI_MAX_COLS) {
		char name[64];
		size_t len = strcspn(list, ",");
		int i;

		snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), list);
		i = dtl_cols__find(name);
		if (i < 0 || i >= DTL_TUI_MAX_COLS || !c[i].head[0]) {
			snprintf(err, errlen, "no column '%s' on screen (--list-fields: those with a "
				 "heading)", name);
			return -1;
		}
		if (!used[i])
			order[k++] = i;
		used[i] = true;
		list += len + (list[len] == ',');
	}
	t->ncols = 0;
	for (int i = 0; i < k; i++) {	/* the chosen, in order, shown */
		t->col_order[t->ncols] = order[i];
		t->col_hidden[t->ncols++] = false;
	}
	for (size_t i = 0; i < n && i < DTL_TUI_MAX_COLS; i++)	/* the others, hidden */
		if (c[i].head[0] && (!list || !used[i])) {
			t->col_order[t->ncols] = (int)i;
			t->col_hidden[t->ncols++] = k > 0;
		}
	return 0;
}

static int level_attr(const struct dtl_tui *t, enum dtl_level lv)
{
	if (!t->color)	/* monochrome and NO_COLOR: attributes only */
		return lv == DTL_LEVEL_CRIT ? A_BOLD | A_UNDERLINE : lv == DTL_LEVEL_WARN ? A_BOLD : 0;
	switch (lv) {
	case DTL_LEVEL_OK: return COLOR_PAIR(DTL_PAIR_OK);
	case DTL_LEVEL_WARN: return COLOR_PAIR(DTL_PAIR_MID);
	case DTL_LEVEL_CRIT: return COLOR_PAIR(DTL_PAIR_BAD) | A_BOLD;	/* bold: the worst only */
	default: return 0;
	}
}

static void draw_heading(const struct dtl_tui *t, const struct dtl_table *tb, const int *vis,
			 int nv, int y, int idw)
{
	size_t n, off = 0;
	const struct dtl_col *c = dtl_cols(&n);
	char buf[1024], h[16], head[20];

	for (int i = 0; i < nv; i++) {
		const struct dtl_col *k = &c[vis[i]];

		snprintf(head, sizeof(head), "%s%s", vis[i] == t->sort_col ? "*" : "",
			 k->kind == DTL_COL_CPU ? dtl_table__id_head(tb) :
			 dtl_col__screen_head(k, tb->by_vp, h, sizeof(h)));
		if (k->kind == DTL_COL_CPU && tb->group != DTL_ROW_CPU_VP)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%-*s ", idw, head);
		else
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%*s ", k->width, head);
		if (off >= sizeof(buf))
			break;
	}
	move(y, 0);
	attron(t->color ? COLOR_PAIR(DTL_PAIR_HEAD) : A_REVERSE);
	hline(' ', COLS);
	mvaddnstr(y, 0, buf, COLS);
	attroff(t->color ? COLOR_PAIR(DTL_PAIR_HEAD) : A_REVERSE);
}

/* One row, cell by cell, each in the colour its figure earns; the cursor's in reverse. */
static void draw_row(const struct dtl_tui *t, const struct dtl_row *row, const int *vis, int nv,
		     int y, bool cursor, int idw)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char cell[256];
	int x = 0;

	if (cursor) {
		attron(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
	}
	for (int i = 0; i < nv && x < COLS; i++) {
		int attr = level_attr(t, dtl_judge__cell(&c[vis[i]], row));

		if (c[vis[i]].kind == DTL_COL_CPU && row->name)	/* names read from the left */
			(row->group == DTL_ROW_CGROUP ? dtl_name__elide : dtl_name__fit)(
				cell, sizeof(cell), row->name, idw);
		else
			dtl_judge__text(&c[vis[i]], row, cell, sizeof(cell));
		attron(attr);
		mvaddnstr(y, x, cell, dtl_tui__fit(cell, COLS - x));
		attroff(attr);
		x += (int)dtl_name__chars(cell) + 1;	/* columns, not bytes: names are UTF-8 */
	}
	if (cursor)
		attroff(A_REVERSE);
}

static void rows_draw(struct dtl_tui *t, const struct dtl_model *m, int y, int height)
{
	int vis[DTL_TUI_MAX_COLS], nv = dtl_tui__visible_cols(t, vis);
	const struct dtl_table *tb = m->table;
	int rows = height - 1, total = (int)t->nshown, idw = dtl_table__id_width(tb, 28);

	if (!m->intervals)
		return;		/* no rows of zeros before anything was measured */
	draw_heading(t, tb, vis, nv, y++, idw);
	if (rows < 0)
		rows = 0;
	t->rows_shown = rows;
	/* the cursor stays on the rows; the window follows it */
	if (t->sel >= total)
		t->sel = total - 1;
	if (t->sel < 0)
		t->sel = 0;
	if (t->sel < t->top)
		t->top = t->sel;
	if (rows && t->sel >= t->top + rows)
		t->top = t->sel - rows + 1;
	if (t->top > total - rows)
		t->top = total - rows;
	if (t->top < 0)
		t->top = 0;
	for (int r = 0; r < rows && t->top + r < total; r++)
		draw_row(t, &tb->rows[t->shown[t->top + r]], vis, nv, y + r, t->top + r == t->sel, idw);
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
