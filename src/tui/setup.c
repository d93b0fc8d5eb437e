/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * setup.c - the setup screen (F2, htop's habit): which columns show, in
 * which order, and the thresholds that colour the cells. W keeps it all
 * in dtltoprc. While open it has the whole screen and the focus.
 */
#include <stdio.h>
#include <string.h>

#include "../view/columns.h"
#include "../view/judge.h"
#include "pane.h"

/* The thresholds as "field=warn:crit" items, split from the judge's own list. */
static int thresholds(char items[][48], int max)
{
	char all[512], *save = NULL;
	int n = 0;

	dtl_judge__format(all, sizeof(all));
	for (char *p = strtok_r(all, ",", &save); p && n < max; p = strtok_r(NULL, ",", &save))
		snprintf(items[n++], 48, "%s", p);
	return n;
}

static void setup_draw(struct dtl_tui *t, const struct dtl_model *m, int y0, int height)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	char th[16][48];
	int nt = thresholds(th, 16), lines = t->ncols + nt + 3, y = y0, first = 0;

	(void)m;
	/* keep the cursor's line on the screen */
	if (t->setup_at + 3 >= height - 1)
		first = t->setup_at + 4 - (height - 1);
	dtl_tui__line(y++, A_REVERSE, "Setup: Up/Down choose  Space shows or hides  + and - move  "
		      "Enter edits a threshold  Esc or F2 closes  W keeps it in dtltoprc");
	for (int i = first; i < lines && y < y0 + height - 1; i++) {
		int item = i - 1, attr = 0;
		char buf[200], head[16];

		if (i == 0) {
			snprintf(buf, sizeof(buf), "Columns, left to right (shown where they fit)");
			attr = A_BOLD;
		} else if (item < t->ncols) {
			const struct dtl_col *k = &c[t->col_order[item]];

			snprintf(buf, sizeof(buf), "  [%c] %-8s %-24s %s", t->col_hidden[item] ? ' ' : 'x',
				 dtl_col__screen_head(k, false, head, sizeof(head)), k->name, k->legend);
			attr = item == t->setup_at ? A_REVERSE : 0;
		} else if (item == t->ncols) {
			buf[0] = '\0';
		} else if (item == t->ncols + 1) {
			snprintf(buf, sizeof(buf), "Thresholds: warn:crit in the CSV's units (green below "
				 "warn, yellow from it, red from crit)");
			attr = A_BOLD;
		} else {
			int k = item - t->ncols - 2;
			char *eq = strchr(th[k], '=');

			snprintf(buf, sizeof(buf), "  %-16.*s %s", eq ? (int)(eq - th[k]) : 0, th[k],
				 eq ? eq + 1 : "");
			attr = t->setup_at == t->ncols + k ? A_REVERSE : 0;
		}
		dtl_tui__line(y++, attr, "%s", buf);
	}
}

static int setup_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	(void)t, (void)m;
	return DTL_PANE_FILL;
}

static bool setup_focused(const struct dtl_tui *t)
{
	return t->setup && !t->prompting;
}

static void swap(struct dtl_tui *t, int a, int b)
{
	int o = t->col_order[a];
	bool h = t->col_hidden[a];

	t->col_order[a] = t->col_order[b], t->col_hidden[a] = t->col_hidden[b];
	t->col_order[b] = o, t->col_hidden[b] = h;
}

static bool setup_key(struct dtl_tui *t, int ch, struct dtl_act *a)
{
	char th[16][48];
	int nt = thresholds(th, 16), at = t->setup_at;

	a->what = DTL_ACT_REDRAW;
	switch (ch) {
	case 27: case KEY_F(2): case 'q': t->setup = false; break;
	case KEY_UP: case 'k': t->setup_at--; break;
	case KEY_DOWN: case 'j': t->setup_at++; break;
	case ' ':
		if (at < t->ncols)
			t->col_hidden[at] = !t->col_hidden[at];
		break;
	case '+': case '-':
		if (at < t->ncols && at + (ch == '+' ? 1 : -1) >= 0 &&
		    at + (ch == '+' ? 1 : -1) < t->ncols) {
			swap(t, at, at + (ch == '+' ? 1 : -1));
			t->setup_at += ch == '+' ? 1 : -1;
		}
		break;
	case '\r': case '\n': case KEY_ENTER:
		if (at >= t->ncols && at - t->ncols < nt) {	/* the status line's prompt edits it */
			t->prompting = 't';
			snprintf(t->prompt, sizeof(t->prompt), "%s", th[at - t->ncols]);
		}
		break;
	case 'W':
		return false;	/* W acts as everywhere: write dtltoprc */
	default:
		break;
	}
	if (t->setup_at < 0)
		t->setup_at = 0;
	if (t->setup_at >= t->ncols + nt)
		t->setup_at = t->ncols + nt - 1;
	return true;
}

const struct dtl_pane dtl_pane_setup = {
	.name = "setup",
	.height = setup_height,
	.draw = setup_draw,
	.key = setup_key,
	.focused = setup_focused,
};

/* "cpu,dispatch_per_s,...": the columns shown, in order, for dtltoprc's columns= */
void dtl_tui__columns_text(const struct dtl_tui *t, char *buf, size_t len)
{
	size_t n, off = 0;
	const struct dtl_col *c = dtl_cols(&n);

	buf[0] = '\0';
	for (int i = 0; i < t->ncols && off < len; i++)
		if (!t->col_hidden[i])
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
						c[t->col_order[i]].name);
}
