/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pane.h - the parts of the screen as objects; private to src/tui/.
 *
 * A screen is a list of panes top to bottom: each says how many rows it
 * wants, draws itself into them, and may take keys while it has the focus.
 * A new pane (a detail view, a setup screen) is one file and a line in a
 * screen list in tui.c.
 */
#ifndef DTL_PANE_H
#define DTL_PANE_H

#include <curses.h>
#include <stdbool.h>

#include "tui.h"

#define DTL_TUI_MAX_COLS 64
#define DTL_PAIR_HEAD 1
#define DTL_PAIR_HOT 2
#define DTL_PAIR_TITLE 3
#define DTL_PAIR_WARN 4

struct dtl_tui {
	struct dtl_view view;
	SCREEN *screen;
	bool color;
	int sort_col;
	bool sort_reverse;
	int top;		/* first row shown */
	int rows_shown;
	bool help;
	int help_top;
	int prompting;		/* 0, 'd' (interval) or 'b' (jump to a time) */
	char prompt[32];
	char message[512];
};

struct dtl_pane {
	const char *name;
	/* Rows it wants for m; DTL_PANE_FILL for what the others leave. */
	int (*height)(const struct dtl_tui *t, const struct dtl_model *m);
	void (*draw)(struct dtl_tui *t, const struct dtl_model *m, int y, int rows);
	/*
	 * A key while the pane has the focus (help open, a prompt typed into);
	 * true if it took it, with *a what the loop should do. NULL: no focus.
	 */
	bool (*key)(struct dtl_tui *t, int ch, struct dtl_act *a);
	/* Whether it has the focus now. */
	bool (*focused)(const struct dtl_tui *t);
};

#define DTL_PANE_FILL (-1)

extern const struct dtl_pane dtl_pane_header, dtl_pane_rows, dtl_pane_status, dtl_pane_help;

/* One screen line at y, cut at the terminal's width. */
void dtl_tui__line(int y, int attr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Columns that fit COLS, by priority, in table order; returns how many. */
int dtl_tui__visible_cols(int *idx);

#endif
