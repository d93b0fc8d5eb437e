/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tui.c - terminal set-up, the screens' panes, keys and view state.
 *
 * Keys that only change the view are handled here; keys that change what is
 * captured become actions for main, so the TUI never touches the source.
 */
#include "tui.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../dtl/name.h"
#include "../view/columns.h"
#include "keys.h"
#include "pane.h"

struct dtl_tui *dtl_tui__new_on(FILE *out, FILE *in, int sort_col)
{
	struct dtl_tui *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	/* the character set only (block characters), never the numbers' format */
	setlocale(LC_CTYPE, "");
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
	dtl_tui__columns(t, NULL, NULL, 0);	/* every column with a heading, in table order */
	return t;
}

struct dtl_tui *dtl_tui__new(bool color, int sort_col, bool sort_reverse, bool sort_chosen)
{
	struct dtl_tui *t = dtl_tui__new_on(stdout, stdin, sort_col);

	if (!t)
		return NULL;
	t->sort_reverse = sort_reverse;
	t->sort_auto = !sort_chosen;
	if (color && has_colors() && start_color() == OK) {
		use_default_colors();
		/* Blue and yellow only: safe for red/green colour blindness. */
		init_pair(DTL_PAIR_HEAD, COLOR_BLACK, COLOR_CYAN);
		init_pair(DTL_PAIR_HOT, COLOR_YELLOW, -1);
		init_pair(DTL_PAIR_TITLE, COLOR_BLUE, -1);
		init_pair(DTL_PAIR_WARN, COLOR_BLACK, COLOR_YELLOW);
		/* the eight base colours: the Linux console has them too */
		init_pair(DTL_PAIR_OK, COLOR_GREEN, -1);
		init_pair(DTL_PAIR_MID, COLOR_YELLOW, -1);
		init_pair(DTL_PAIR_BAD, COLOR_RED, -1);
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

/* Each fresh interval's rows into their sparkline history; regrouped rows start anew. */
static void keep_history(struct dtl_tui *t, const struct dtl_model *m)
{
	unsigned int n = m->stats ? dtl_stats__nr_cpus(m->stats) : 0;
	const struct dtl_table *tb = m->table;

	if (!n)
		return;
	if (!t->spark || t->nspark != n || t->spark_vp != tb->by_vp) {
		free(t->spark);
		t->spark = calloc(n, sizeof(*t->spark));
		t->nspark = t->spark ? n : 0;
		t->spark_vp = tb->by_vp;
	}
	for (size_t i = 0; i <= tb->n && t->spark; i++) {
		const struct dtl_row *r = i < tb->n ? &tb->rows[i] : &tb->all;
		struct dtl_spark *s;

		if (i == tb->n)
			s = &t->all_spark;	/* the header's trend: the partition's */
		else if (r->group != DTL_ROW_CPU_VP || r->cpu < 0 || (unsigned int)r->cpu >= t->nspark)
			continue;
		else
			s = &t->spark[r->cpu];
		s->v[0][s->at] = (float)r->steal_pct;
		s->v[1][s->at] = (float)r->dispatch_per_s;
		s->v[2][s->at] = r->samples >= 20 ? (float)r->lat_p99_us : NAN;
		s->at = (s->at + 1) % DTL_SPARK_N;
		s->n += s->n < DTL_SPARK_N;
	}
}

bool dtl_tui__utf8(void)
{
	static int is = -1;

	if (is < 0) {
		const char *cs = nl_langinfo(CODESET);

		is = cs && strcmp(cs, "UTF-8") == 0;
	}
	return is;
}

double dtl_tui__spark_text(const struct dtl_spark *s, int which, unsigned int last, double scale,
			   char *buf, size_t len)
{
	static const char *const blocks[] = { "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",
					      "\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86",
					      "\xe2\x96\x87", "\xe2\x96\x88" };
	static const char ascii[] = "_.-:=+*#";
	unsigned int n = s->n < last ? s->n : last;
	double top = 0;
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n; i++) {
		float v = s->v[which][(s->at + DTL_SPARK_N - n + i) % DTL_SPARK_N];

		top = v > top ? v : top;
	}
	for (unsigned int i = 0; i < n && off + 4 < len; i++) {
		float v = s->v[which][(s->at + DTL_SPARK_N - n + i) % DTL_SPARK_N];
		double full = scale > 0 ? scale : top;
		int k = isnan(v) || full <= 0 ? 0 : (int)(v / full * 7 + 0.5);

		k = k > 7 ? 7 : k;

		if (isnan(v))
			buf[off++] = ' ', buf[off] = '\0';
		else if (dtl_tui__utf8())
			off += (size_t)snprintf(buf + off, len - off, "%s", blocks[k]);
		else
			buf[off++] = ascii[k], buf[off] = '\0';
	}
	return top;
}

const struct dtl_spark *dtl_tui__spark(const struct dtl_tui *t, int id)
{
	return id >= 0 && (unsigned int)id < t->nspark && t->spark[id].n ? &t->spark[id] : NULL;
}

static int view_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct dtl_tui *t = v->priv;

	if (fresh && !m->since_start && !m->paused)
		keep_history(t, m);
	dtl_tui__draw(t, m);
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
	free(t->spark);
	free(t->shown);
	free(t);
}

void dtl_tui__sort(struct dtl_tui *t, int *col, bool *reverse)
{
	/* the loop asks after every change of grouping: the grouping's own order follows it */
	if (t->sort_auto && t->last_table)
		t->sort_col = dtl_table__default_sort(t->last_table), t->sort_reverse = false;
	*col = t->sort_col;
	*reverse = t->sort_reverse;
}

/* The next field to sort by: the columns on screen first, in their order, then every other. */
static void move_sort(struct dtl_tui *t, int dir)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);
	int order[128], vis[DTL_TUI_MAX_COLS], nv = dtl_tui__visible_cols(t, vis), k = 0, at = 0;

	for (int i = 0; i < nv; i++)
		order[k++] = vis[i];
	for (size_t i = 0; i < n && k < 128; i++) {
		bool seen = false;

		for (int j = 0; j < nv; j++)
			seen |= vis[j] == (int)i;
		if (!seen && c[i].kind != DTL_COL_TIMESTAMP && c[i].kind != DTL_COL_INTERVAL &&
		    c[i].kind != DTL_COL_MASK)
			order[k++] = (int)i;
	}
	for (int i = 0; i < k; i++)
		if (order[i] == t->sort_col)
			at = i;
	at += dir;
	if (at < 0)
		at = 0;
	if (at >= k)
		at = k - 1;
	t->sort_col = order[at];
	t->sort_auto = false;
}

/*
 * The cursor by arg rows, or a page either way, or to either end; the rows
 * pane clamps it and scrolls to keep it in sight.
 */
static void scroll_rows(struct dtl_tui *t, int arg, int page)
{
	if (arg == DTL_KEY_PAGE || arg == -DTL_KEY_PAGE) {
		t->sel += arg > 0 ? page : -page;
		t->top += arg > 0 ? page : -page;
	} else if (arg == DTL_KEY_ENDS || arg == -DTL_KEY_ENDS) {
		t->sel = t->top = arg > 0 ? DTL_KEY_ENDS : 0;
	} else {
		t->sel += arg;
	}
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
static const struct dtl_pane *const detail_screen[] = {
	&dtl_pane_header, &dtl_pane_detail, &dtl_pane_status, NULL,
};

static const struct dtl_pane *const payer_screen[] = {
	&dtl_pane_header, &dtl_pane_payer, &dtl_pane_status, NULL,
};

static const struct dtl_pane *const setup_screen[] = { &dtl_pane_setup, &dtl_pane_status, NULL };

static const struct dtl_pane *const *screen(const struct dtl_tui *t)
{
	return t->help ? help_screen : t->setup ? setup_screen :
	       t->detail && t->detail_group != DTL_ROW_CPU_VP ? payer_screen :
	       t->detail ? detail_screen : main_screen;
}

int dtl_tui__set_filter(struct dtl_tui *t, const char *expr, char *err, size_t errlen)
{
	return dtl_filter__parse(&t->filter, expr, err, errlen);
}

void dtl_tui__open_detail(struct dtl_tui *t, int id, bool vp)
{
	t->detail_id = id;
	t->detail_vp = vp;
	t->detail_group = DTL_ROW_CPU_VP;
	t->detail_top = 0;
	t->detail = true;
}

/* The row under the cursor into the detail pane. */
static void open_detail(struct dtl_tui *t)
{
	if (!t->nshown || !t->last_table)
		return;
	if (t->sel >= (int)t->nshown)
		t->sel = (int)t->nshown - 1;
	t->detail_id = t->last_table->rows[t->shown[t->sel < 0 ? 0 : t->sel]].cpu;
	t->detail_vp = t->last_table->by_vp;
	t->detail_group = t->last_table->group;	/* a task's or cgroup's: payer.c */
	t->detail_top = 0;
	t->detail = true;
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
			snprintf(t->message, sizeof(t->message), "unknown key %s: h for help",
				 keyname(ch) ? keyname(ch) : "?");
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
	case DTL_KEY_JUMP:
		/* said at once: a live run has nowhere to jump to */
		if (!t->recorded)
			snprintf(t->message, sizeof(t->message), "b jumps in a replay (-r); this run "
				 "is live");
		else
			t->prompting = 'b', t->prompt[0] = '\0';
		break;
	case DTL_KEY_SORT_STEAL: {
		/* who pays: the seconds paid, not a share of a CPU's time that no row owns */
		bool payers = t->last_table && t->last_table->group != DTL_ROW_CPU_VP;
		int steal = dtl_cols__find(payers ? "steal_us" : "steal_pct");

		if (t->sort_col == steal && !t->sort_reverse)
			t->sort_col = dtl_cols__find("cpu");
		else
			t->sort_col = steal;
		t->sort_reverse = false;
		t->sort_auto = false;
		break;
	}
	case DTL_KEY_SORT_BY: t->prompting = 'o'; t->prompt[0] = '\0'; break;
	case DTL_KEY_INTERVAL: t->prompting = 'd'; t->prompt[0] = '\0'; break;
	case DTL_KEY_SORT_MOVE: move_sort(t, k->arg); break;
	case DTL_KEY_SORT_REVERSE:
		t->sort_reverse = !t->sort_reverse;
		t->sort_auto = false;
		break;
	case DTL_KEY_SCROLL:
		scroll_rows(t, k->arg, page);
		break;
	case DTL_KEY_REDRAW: clearok(curscr, TRUE); break;
	case DTL_KEY_FILTER:
		t->prompting = '/';
		snprintf(t->prompt, sizeof(t->prompt), "%s", t->filter.text);
		break;
	case DTL_KEY_ACTIVE:
		t->filter.active = !t->filter.active;
		t->sel = t->top = 0;
		break;
	case DTL_KEY_DETAIL: open_detail(t); break;
	case DTL_KEY_SMOOTH: a.what = DTL_ACT_SMOOTH; break;
	case DTL_KEY_SETUP: t->setup = true; t->setup_at = 0; break;
	case DTL_KEY_WRITE:
		a.what = DTL_ACT_WRITE;
		if (t->sort_auto)
			snprintf(a.text, sizeof(a.text), "auto");
		else
			dtl_table__sort_text(t->sort_col, t->sort_reverse, a.text, sizeof(a.text));
		dtl_tui__columns_text(t, a.list, sizeof(a.list));
		break;
	}
	return a;
}

void dtl_tui__filter_rows(struct dtl_tui *t, const struct dtl_table *tb)
{
	if (tb->n > t->shown_cap) {
		int *p = realloc(t->shown, tb->n * sizeof(*p));

		if (!p) {
			t->nshown = 0;
			return;
		}
		t->shown = p;
		t->shown_cap = tb->n;
	}
	t->nshown = 0;
	for (size_t i = 0; i < tb->n; i++)
		if (!dtl_filter__on(&t->filter) || dtl_filter__match(&t->filter, &tb->rows[i]))
			t->shown[t->nshown++] = (int)i;
}

/* Where a line may break: after two spaces or "; ", so no token is ever cut. */
/*
 * Where a line of at most w columns starting at from ends: the whole rest if
 * it fits, else after the last break that fits: between tokens (two spaces,
 * or "; ") where there is one, else between words; else cut at w columns.
 * Columns, not bytes: a UTF-8 character (the sparklines' blocks) is one.
 */
static size_t line_end(const char *s, size_t from, size_t w)
{
	size_t tok = 0, word = 0, cols = 0, i;

	for (i = from; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && cols++ == w)
			break;
		if (i > from && s[i] == ' ' && (s[i - 1] == ' ' || s[i - 1] == ';'))
			tok = i;
		else if (i > from && s[i] == ' ')
			word = i;
	}
	if (!s[i])
		return i;
	return tok ? tok : word ? word : i;
}

int dtl_tui__wrap(int y, int max_lines, int attr, const char *text)
{
	size_t len = strlen(text), at = 0, w = COLS > 0 ? (size_t)COLS : 80;
	int lines = 0;

	while (at < len && lines < max_lines) {
		size_t end = line_end(text, at, w);

		if (end <= at)
			end = len;
		if (y >= 0)
			dtl_tui__line(y + lines, attr, "%.*s", (int)(end - at), text + at);
		lines++;
		at = end;
		while (text[at] == ' ')
			at++;
	}
	return lines ? lines : 1;
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
	mvaddnstr(y, 0, buf, dtl_tui__fit(buf, COLS));
	attroff(attr);
}

bool dtl_tui__unscroll(struct dtl_tui *t, int below, int y0, int height)
{
	if (below > y0 + 2 || t->detail_top <= 0)
		return false;
	t->detail_top -= y0 + height / 2 - below;
	if (t->detail_top < 0)
		t->detail_top = 0;
	return true;
}

int dtl_tui__fit(const char *s, int cols)
{
	return (int)dtl_name__prefix(s, cols);	/* one column per character */
}

/* Fixed panes get their rows first (as many as fit), the filling ones share what is left. */
void dtl_tui__draw(struct dtl_tui *t, const struct dtl_model *m)
{
	const struct dtl_pane *const *p = screen(t);
	int h[8], fixed = 0, fills = 0, y = 0, n;

	t->last_table = m->table;
	t->recorded = m->recorded;
	dtl_tui__filter_rows(t, m->table);
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
