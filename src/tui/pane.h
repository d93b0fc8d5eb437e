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

#include "../view/filter.h"
#include "tui.h"

#define DTL_TUI_MAX_COLS 64
#define DTL_PAIR_HEAD 1
#define DTL_PAIR_HOT 2
#define DTL_PAIR_TITLE 3
#define DTL_PAIR_WARN 4
#define DTL_PAIR_OK 5		/* a judged cell below its warning threshold */
#define DTL_PAIR_MID 6		/* at or past warn */
#define DTL_PAIR_BAD 7		/* at or past crit */

/* A row's last intervals, for the detail pane's sparklines. */
#define DTL_SPARK_N 60
struct dtl_spark {
	float v[3][DTL_SPARK_N];	/* steal %, dispatches/s, p99 us (NaN: too few samples) */
	unsigned int n, at;		/* values kept; where the next goes */
};

struct dtl_tui {
	struct dtl_view view;
	SCREEN *screen;
	bool color;
	int sort_col;
	bool sort_reverse;
	bool sort_auto;		/* none chosen: the grouping's own (dtl_table__default_sort) */
	int top;		/* first row shown */
	int rows_shown;
	bool help;
	int help_top;
	int prompting;		/* 0, 'd' interval, 'b' jump to a time, '/' filter, 'o' sort */
	char prompt[96];
	char message[512];
	int sel;		/* the cursor: an index into the rows shown */
	struct dtl_filter filter;
	int *shown;		/* indices into the table of the rows the filter lets through */
	size_t nshown, shown_cap;
	bool detail;		/* the detail pane is open, on detail_id */
	bool detail_vp;
	enum dtl_row_group detail_group;	/* a task's or cgroup's (detail_id its row's cpu) */
	int detail_id, detail_top;
	struct dtl_spark *spark;	/* by row id (a CPU, or a VP's first CPU) */
	unsigned int nspark;
	bool spark_vp;		/* whether spark holds VP rows */
	struct dtl_spark all_spark;	/* the partition's, for the header's trend */
	const struct dtl_table *last_table;	/* the one drawn last, for Enter */
	bool recorded;		/* the model shown is a replay's */
	/* the columns as the setup screen (F2) orders and picks them */
	int col_order[DTL_TUI_MAX_COLS];
	bool col_hidden[DTL_TUI_MAX_COLS];
	int ncols;
	bool setup;		/* the setup screen is open */
	int setup_at;		/* its cursor: a column, then a threshold */
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

extern const struct dtl_pane dtl_pane_header, dtl_pane_rows, dtl_pane_status, dtl_pane_help,
	dtl_pane_detail, dtl_pane_setup, dtl_pane_payer;
/* The detail panes' keys: Esc, Enter or q close, arrows scroll. */
bool dtl_tui__detail_key(struct dtl_tui *t, int ch, struct dtl_act *a);
/* The columns shown, in order, as dtltoprc's columns= says them. */
void dtl_tui__columns_text(const struct dtl_tui *t, char *buf, size_t len);

/*
 * text at y, wrapped at the terminal's width between tokens (two spaces, or
 * "; "), never inside one: the lines it took (or would take, y < 0).
 */
int dtl_tui__wrap(int y, int max_lines, int attr, const char *text);
/*
 * The last (at most) intervals of series which (0 steal %, 1 dispatches/s,
 * 2 p99) as a sparkline into buf, oldest first, a full block at scale (0: at
 * their own maximum); returns their maximum.
 */
double dtl_tui__spark_text(const struct dtl_spark *s, int which, unsigned int last, double scale,
			   char *buf, size_t len);
/* Whether the terminal takes UTF-8 (block characters) or gets ASCII. */
bool dtl_tui__utf8(void);
/* The sparkline history of row id, or NULL. */
const struct dtl_spark *dtl_tui__spark(const struct dtl_tui *t, int id);
/* The table's rows the filter lets through, into t->shown. */
void dtl_tui__filter_rows(struct dtl_tui *t, const struct dtl_table *tb);

/* The bytes of s that fill at most cols columns (UTF-8: a character a column). */
int dtl_tui__fit(const char *s, int cols);
/*
 * A pane scrolled (PgDn) past its end, its last line above y0 + 2 on the
 * screen (below: the screen line under it): scrolled back until its last
 * lines show, in the lower half of its height rows. True if it moved.
 */
bool dtl_tui__unscroll(struct dtl_tui *t, int below, int y0, int height);
/* One screen line at y, cut at the terminal's width. */
void dtl_tui__line(int y, int attr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Columns that fit COLS, by priority, in table order; returns how many. */
int dtl_tui__visible_cols(const struct dtl_tui *t, int *idx);

#endif
