/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * panels.h - the parts of the screen; private to src/tui/.
 */
#ifndef DTL_PANELS_H
#define DTL_PANELS_H

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

/* Columns that fit COLS, by priority, in table order; returns how many. */
int dtl_panels__visible(const struct dtl_tui *t, int *idx);
int dtl_panels__header(struct dtl_tui *t, const struct dtl_model *m, int y);
int dtl_panels__table(struct dtl_tui *t, const struct dtl_model *m, int y);
void dtl_panels__status(struct dtl_tui *t, const struct dtl_model *m);
void dtl_panels__help(struct dtl_tui *t);

#endif
