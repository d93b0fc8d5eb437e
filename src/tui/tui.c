/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tui.c - terminal set-up, the screens' panes, keys and view state.
 *
 * Keys that only change the view are handled here; keys that change what is
 * captured become actions for main, so the TUI never touches the source.
 */
#include "tui.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../view/columns.h"
#include "keys.h"
#include "pane.h"

struct dtl_tui *dtl_tui__new_on(FILE *out, FILE *in, int sort_col)
{
	struct dtl_tui *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->screen = newterm(NULL, out, in);
	if (!t->screen) {
		free(t);
		return NULL;
	}
	set_term(t->screen);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	t->sort_col = sort_col;
	return t;
}

struct dtl_tui *dtl_tui__new(bool color, int sort_col, bool sort_reverse)
{
	struct dtl_tui *t = dtl_tui__new_on(stdout, stdin, sort_col);

	if (!t)
		return NULL;
	t->sort_reverse = sort_reverse;
	if (color && has_colors() && start_color() == OK) {
		use_default_colors();
		/* Blue and yellow only: safe for red/green colour blindness. */
		init_pair(DTL_PAIR_HEAD, COLOR_BLACK, COLOR_CYAN);
		init_pair(DTL_PAIR_HOT, COLOR_YELLOW, -1);
		init_pair(DTL_PAIR_TITLE, COLOR_BLUE, -1);
		init_pair(DTL_PAIR_WARN, COLOR_BLACK, COLOR_YELLOW);
		t->color = true;
	}
	return t;
}

static struct dtl_act view_wait(struct dtl_view *v, int ms)
{
	return dtl_tui__wait(v->priv, ms);
}

static bool view_quit_pending(struct dtl_view *v)
{
	return dtl_tui__quit_pending(v->priv);
}

static void view_sort(const struct dtl_view *v, int *col, bool *reverse)
{
	dtl_tui__sort(v->priv, col, reverse);
}

static int view_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	(void)fresh;
	dtl_tui__draw(v->priv, m);
	return 0;
}

static const struct dtl_view_ops tui_view_ops = {
	.interactive = true,
	.wait = view_wait,
	.quit_pending = view_quit_pending,
	.sort = view_sort,
	.show = view_show,
};

struct dtl_view *dtl_tui__view(struct dtl_tui *t)
{
	t->view = (struct dtl_view){ &tui_view_ops, t };
	return &t->view;
}

void dtl_tui__delete(struct dtl_tui *t)
{
	if (!t)
		return;
	endwin();
	delscreen(t->screen);
	free(t);
}

void dtl_tui__sort(const struct dtl_tui *t, int *col, bool *reverse)
{
	*col = t->sort_col;
	*reverse = t->sort_reverse;
}

static void move_sort(struct dtl_tui *t, int dir)
{
	int vis[DTL_TUI_MAX_COLS], n = dtl_tui__visible_cols(vis), at = 0;

	for (int i = 0; i < n; i++)
		if (vis[i] == t->sort_col)
			at = i;
	at += dir;
	if (at < 0)
		at = 0;
	if (at >= n)
		at = n - 1;
	t->sort_col = vis[at];
}

/* arg rows, or a page either way, or to either end; the table clamps what is past it. */
static void scroll_rows(struct dtl_tui *t, int arg, int page)
{
	if (arg == DTL_KEY_PAGE || arg == -DTL_KEY_PAGE)
		t->top += arg > 0 ? page : -page;
	else if (arg == DTL_KEY_ENDS || arg == -DTL_KEY_ENDS)
		t->top = arg > 0 ? DTL_KEY_ENDS : 0;
	else
		t->top += arg;
}

bool dtl_tui__quit_pending(struct dtl_tui *t)
{
	const struct dtl_key *k;
	int ch;

	if (t->prompting || t->help)
		return false;	/* a q there is text or closes the help */
	timeout(0);
	ch = getch();
	k = ch != ERR ? dtl_keys__find(ch) : NULL;
	if (k && k->what == DTL_KEY_QUIT)
		return true;
	if (ch != ERR)
		ungetch(ch);	/* every other key waits for the loop */
	return false;
}

/* The screens, top to bottom; a new pane is a line in one of these. */
static const struct dtl_pane *const main_screen[] = {
	&dtl_pane_header, &dtl_pane_rows, &dtl_pane_status, NULL,
};
static const struct dtl_pane *const help_screen[] = { &dtl_pane_help, NULL };

static const struct dtl_pane *const *screen(const struct dtl_tui *t)
{
	return t->help ? help_screen : main_screen;
}

/* A pane with the focus takes every key first. */
static bool focused_key(struct dtl_tui *t, int ch, struct dtl_act *a)
{
	for (const struct dtl_pane *const *p = screen(t); *p; p++)
		if ((*p)->focused && (*p)->focused(t) && (*p)->key(t, ch, a))
			return true;
	return false;
}

struct dtl_act dtl_tui__wait(struct dtl_tui *t, int timeout_ms)
{
	struct dtl_act a = { .what = DTL_ACT_NONE };
	int page = t->rows_shown > 1 ? t->rows_shown : 1;
	const struct dtl_key *k;
	int ch;

	timeout(timeout_ms);
	ch = getch();
	if (ch == ERR)
		return a;
	if (focused_key(t, ch, &a))
		return a;
	a.what = DTL_ACT_REDRAW;
	t->message[0] = '\0';
	k = dtl_keys__find(ch);
	if (!k) {
		if (ch != KEY_RESIZE)
			a.what = DTL_ACT_NONE;
		return a;
	}
	switch (k->what) {
	case DTL_KEY_QUIT: a.what = DTL_ACT_QUIT; break;
	case DTL_KEY_HELP: t->help = true; t->help_top = 0; break;
	case DTL_KEY_MASK: a.what = DTL_ACT_MASK_TOGGLE; a.bit = (unsigned int)k->arg; break;
	case DTL_KEY_MASK_ALL: a.what = DTL_ACT_MASK_ALL; break;
	case DTL_KEY_EXPORT: a.what = DTL_ACT_EXPORT; break;
	case DTL_KEY_RESET: a.what = DTL_ACT_RESET; break;
	case DTL_KEY_PAUSE: a.what = DTL_ACT_PAUSE; break;
	case DTL_KEY_SPAN: a.what = DTL_ACT_SPAN; break;
	case DTL_KEY_GROUP: a.what = DTL_ACT_GROUP; break;
	case DTL_KEY_STEP: a.what = DTL_ACT_STEP; a.step = k->arg; break;
	case DTL_KEY_JUMP: t->prompting = 'b'; t->prompt[0] = '\0'; break;
	case DTL_KEY_INTERVAL: t->prompting = 'd'; t->prompt[0] = '\0'; break;
	case DTL_KEY_SORT_MOVE: move_sort(t, k->arg); break;
	case DTL_KEY_SORT_REVERSE: t->sort_reverse = !t->sort_reverse; break;
	case DTL_KEY_SCROLL:
		scroll_rows(t, k->arg, page);
		break;
	case DTL_KEY_REDRAW: clearok(curscr, TRUE); break;
	}
	return a;
}

void dtl_tui__line(int y, int attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (y < 0 || y >= LINES)
		return;
	attron(attr);
	mvaddnstr(y, 0, buf, COLS);
	attroff(attr);
}

/* Fixed panes get their rows first (as many as fit), the filling ones share what is left. */
void dtl_tui__draw(struct dtl_tui *t, const struct dtl_model *m)
{
	const struct dtl_pane *const *p = screen(t);
	int h[8], fixed = 0, fills = 0, y = 0, n;

	for (n = 0; p[n] && n < 8; n++) {
		h[n] = p[n]->height(t, m);
		if (h[n] == DTL_PANE_FILL)
			fills++;
		else
			fixed += h[n];
	}
	erase();
	for (int i = 0; i < n; i++) {
		int rows = h[i] != DTL_PANE_FILL ? h[i] : (LINES - fixed) / (fills ? fills : 1);

		if (rows > LINES - y)
			rows = LINES - y;
		if (rows < 0)
			rows = 0;
		p[i]->draw(t, m, y, rows);
		y += rows;
	}
	refresh();
}
