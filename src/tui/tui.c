/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tui.c - terminal set-up, keys and view state (scroll, sort, help, prompt).
 *
 * Keys that only change the view are handled here; keys that change what is
 * captured become actions for main, so the TUI never touches the source.
 */
#include "tui.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../view/columns.h"
#include "keys.h"
#include "panels.h"

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
	int vis[DTL_TUI_MAX_COLS], n = dtl_panels__visible(t, vis), at = 0;

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

static struct dtl_act prompt_key(struct dtl_tui *t, int ch)
{
	struct dtl_act a = { .what = DTL_ACT_REDRAW };
	size_t len = strlen(t->prompt);

	if (ch == 27) {
		t->prompting = 0;
	} else if ((ch == '\r' || ch == '\n' || ch == KEY_ENTER) && t->prompting == 'b') {
		t->prompting = 0;
		a.what = DTL_ACT_JUMP;	/* main knows the recording's clock */
		snprintf(a.text, sizeof(a.text), "%s", t->prompt);
	} else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		char *end;
		double v = strtod(t->prompt, &end);

		t->prompting = 0;
		if (end == t->prompt || *end || !(v >= 0.01 && v <= 86400)) {
			snprintf(t->message, sizeof(t->message),
				 "bad interval '%s' (want seconds, 0.01 to 86400)", t->prompt);
		} else {
			a.what = DTL_ACT_INTERVAL;
			a.interval_s = v;
		}
	} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len) {
		t->prompt[len - 1] = '\0';
	} else if (ch >= 32 && ch < 127 && len + 1 < sizeof(t->prompt)) {
		t->prompt[len] = (char)ch;
		t->prompt[len + 1] = '\0';
	}
	return a;
}

static struct dtl_act help_key(struct dtl_tui *t, int ch)
{
	struct dtl_act a = { .what = DTL_ACT_REDRAW };
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
	return a;
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
	if (t->prompting)
		return prompt_key(t, ch);
	if (t->help)
		return help_key(t, ch);
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

void dtl_tui__draw(struct dtl_tui *t, const struct dtl_model *m)
{
	erase();
	if (t->help) {
		dtl_panels__help(t);
	} else {
		int y = dtl_panels__header(t, m, 0);

		y = dtl_panels__table(t, m, y);
		dtl_panels__status(t, m);
	}
	refresh();
}
