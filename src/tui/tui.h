/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tui.h - the ncurses view: panels drawn from a model, keys turned into
 * actions that main applies (it owns the source and the stats).
 */
#ifndef DTL_TUI_H
#define DTL_TUI_H

#include <stdbool.h>

#include "../platform/sys.h"
#include "../view/table.h"

struct dtl_tui;

enum dtl_action {
	DTL_ACT_NONE,
	DTL_ACT_QUIT,
	DTL_ACT_MASK_TOGGLE,	/* arg: the bit */
	DTL_ACT_MASK_ALL,
	DTL_ACT_EXPORT,
	DTL_ACT_RESET,
	DTL_ACT_PAUSE,
	DTL_ACT_INTERVAL,	/* interval_s */
	DTL_ACT_SPAN,		/* interval <-> since start */
	DTL_ACT_REDRAW,
	DTL_ACT_STEP,		/* a replay's next (step 1) or previous (-1) interval */
	DTL_ACT_JUMP,		/* a replay to the time in text */
};

struct dtl_act {
	enum dtl_action what;
	unsigned int bit;
	double interval_s;
	int step;
	char text[32];
};

struct dtl_model {
	const struct dtl_table *table;
	const char *source;		/* "sim", "debugfs" */
	const char *detail;
	unsigned int mask;
	double interval_s;
	unsigned int nr_vcpus;
	bool paused;
	bool since_start;
	const struct dtl_lparcfg *lparcfg;
	long long lpar_dispatches;	/* lparcfg delta over the interval, -1 unknown */
	const char *status;		/* message for the status line, or NULL */
};

struct dtl_tui *dtl_tui__new(bool color, int sort_col, bool sort_reverse);
void dtl_tui__delete(struct dtl_tui *t);

/* Waits up to timeout_ms for a key; handles view-only keys itself. */
struct dtl_act dtl_tui__wait(struct dtl_tui *t, int timeout_ms);
void dtl_tui__draw(struct dtl_tui *t, const struct dtl_model *m);
/* A quit typed while a long interval is being read (other keys stay queued). */
bool dtl_tui__quit_pending(struct dtl_tui *t);
/* The sort the user chose, for sorting the table before drawing. */
void dtl_tui__sort(const struct dtl_tui *t, int *col, bool *reverse);

/* For the frame benchmark: draw into a terminal on the given streams. */
struct dtl_tui *dtl_tui__new_on(FILE *out, FILE *in, int sort_col);

#endif
