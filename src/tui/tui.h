/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tui.h - the ncurses view: panes drawn from a model, keys turned into
 * actions that the loop applies (it owns the source and the stats).
 */
#ifndef DTL_TUI_H
#define DTL_TUI_H

#include <stdbool.h>

#include "../view/model.h"
#include "../view/view.h"

struct dtl_tui;

/* sort_chosen: -s or dtltoprc's sort=; else each grouping's own order (sort=auto). */
struct dtl_tui *dtl_tui__new(bool color, int sort_col, bool sort_reverse, bool sort_chosen);
void dtl_tui__delete(struct dtl_tui *t);
/* The TUI as the loop drives it. */
struct dtl_view *dtl_tui__view(struct dtl_tui *t);

/* Waits up to timeout_ms for a key; handles view-only keys itself. */
struct dtl_act dtl_tui__wait(struct dtl_tui *t, int timeout_ms);
void dtl_tui__draw(struct dtl_tui *t, const struct dtl_model *m);
/* A quit typed while a long interval is being read (other keys stay queued). */
bool dtl_tui__quit_pending(struct dtl_tui *t);
/* The sort the user chose, for sorting the table before drawing. */
void dtl_tui__sort(struct dtl_tui *t, int *col, bool *reverse);

/*
 * The columns shown, in order: CSV names or headings, comma-separated (the
 * others hidden); NULL for all. 0, or -1 with err naming the bad one.
 */
int dtl_tui__columns(struct dtl_tui *t, const char *list, char *err, size_t errlen);

/* What '/' and Enter do, for scripts of the frame benchmark: 0, or -1 with err. */
int dtl_tui__set_filter(struct dtl_tui *t, const char *expr, char *err, size_t errlen);
void dtl_tui__open_detail(struct dtl_tui *t, int id, bool vp);

/* For the frame benchmark: draw into a terminal on the given streams. */
struct dtl_tui *dtl_tui__new_on(FILE *out, FILE *in, int sort_col);

#endif
