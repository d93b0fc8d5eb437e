/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * help.c - the help pane: every key from the key table, every column from
 * the column table; while open it has the whole screen and the focus.
 */
#include <stdio.h>
#include <string.h>

#include "../version.h"
#include "../view/columns.h"
#include "../view/judge.h"
#include "keys.h"
#include "pane.h"

/* The help screen: a title, one line per key, a blank, the column legend. */
#define HELP_KEYS_AT 1

/* How cells are coloured, with the thresholds in force (--thresholds, F2). */
static void colours(char *buf, size_t len)
{
	char th[512];

	dtl_judge__format(th, sizeof(th));
	snprintf(buf, len, "Colours: a judged cell is green below its warn threshold, yellow from "
		 "it, red and bold from crit (monochrome: bold, then bold underlined); now %s", th);
}

static void help_draw(struct dtl_tui *t, const struct dtl_model *m, int y0, int height)
{
	size_t n, nk;
	const struct dtl_col *c = dtl_cols(&n);
	const struct dtl_key *k = dtl_keys(&nk);
	int y = y0, lineno = 0;

	(void)m;
	nk += HELP_KEYS_AT + 2;		/* the title, and a blank and a title after */
	for (size_t i = 0; i < nk + n; i++) {
		char buf[768], head[16];

		if (i == 0)
			snprintf(buf, sizeof(buf), "Keys");
		else if (i < nk - 2)
			snprintf(buf, sizeof(buf), "  %-13s %s", k[i - HELP_KEYS_AT].names,
				 k[i - HELP_KEYS_AT].help);
		else if (i == nk - 2)
			colours(buf, sizeof(buf));
		else if (i == nk - 1)
			snprintf(buf, sizeof(buf), "Columns (the CSV has these and one per preempt and "
				 "dispatch reason)");
		else if (c[i - nk].head[0])
			snprintf(buf, sizeof(buf), "  %-8s %-14s %s [%s]",
				 dtl_col__screen_head(&c[i - nk], false, head, sizeof(head)),
				 c[i - nk].name, c[i - nk].legend,
				 c[i - nk].unit[0] ? c[i - nk].unit : "-");
		else
			continue;
		/* long lines wrap between words, continued under their text */
		for (const char *p = buf; *p && y < y0 + height - 1;) {
			int indent = p == buf ? 0 : 16, room = COLS - indent, len = (int)strlen(p);
			int cut = len;

			if (room < 20)
				room = 20;
			if (len > room) {
				for (cut = room; cut > 0 && p[cut] != ' '; cut--)
					;
				if (cut == 0)
					cut = room;
			}
			if (lineno++ >= t->help_top)
				dtl_tui__line(y++, i == 0 || i == nk - 1 ? A_BOLD : 0, "%*s%.*s", indent, "",
					      cut, p);
			p += cut;
			while (*p == ' ')
				p++;
		}
		if (y >= y0 + height - 1)
			break;
	}
	dtl_tui__line(y0 + height - 1, A_REVERSE, "dtltop %s help: any key returns, arrows scroll",
		      DTLTOP_VERSION);
}

static int help_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	(void)t, (void)m;
	return DTL_PANE_FILL;
}

static bool help_focused(const struct dtl_tui *t)
{
	return t->help;
}

/* Arrows and pages scroll; any other key closes the help. */
static bool help_key(struct dtl_tui *t, int ch, struct dtl_act *a)
{
	int page = LINES > 2 ? LINES - 2 : 1;

	switch (ch) {
	case KEY_UP: t->help_top--; break;
	case KEY_DOWN: t->help_top++; break;
	case KEY_PPAGE: t->help_top -= page; break;
	case KEY_NPAGE: case ' ': t->help_top += page; break;
	case KEY_HOME: t->help_top = 0; break;
	case KEY_RESIZE: break;
	default: t->help = false; break;
	}
	if (t->help_top < 0)
		t->help_top = 0;
	a->what = DTL_ACT_REDRAW;
	return true;
}

const struct dtl_pane dtl_pane_help = {
	.name = "help",
	.height = help_height,
	.draw = help_draw,
	.key = help_key,
	.focused = help_focused,
};
