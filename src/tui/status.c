/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * status.c - the status line: a prompt being typed, a message, or where
 * the rows are and the keys' hints. While a prompt is open it has the focus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../view/columns.h"
#include "../view/judge.h"
#include "../view/table.h"
#include "keys.h"
#include "pane.h"

/* "  h help  q quit ...": the keys' hints, in table order; a toggle names where it goes. */
static const char *hints(const struct dtl_table *tb)
{
	bool tasks = tb && dtl_tasks__known(tb->tasks);
	const char *next = !tb ? NULL : tb->group == DTL_ROW_TASK ? "v cgroups" :
			   tb->group == DTL_ROW_CGROUP ? "v CPUs" :
			   tb->by_vp ? (tasks ? "v tasks" : "v CPUs") : NULL;
	static char buf[256];
	size_t n, off = 0;
	const struct dtl_key *k = dtl_keys(&n);

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < sizeof(buf); i++)
		if (k[i].hint)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "  %s",
						k[i].what == DTL_KEY_GROUP && next ? next : k[i].hint);
	return buf;
}

/* " sort -steal_pct  filter steal_pct>20 (12 of 64)": what orders and picks the rows. */
static void order(const struct dtl_tui *t, const struct dtl_model *m, char *buf, size_t len)
{
	size_t off;
	char sort[64];

	dtl_table__sort_text(t->sort_col, t->sort_reverse, sort, sizeof(sort));
	off = (size_t)snprintf(buf, len, "  sort %s", sort);
	if (dtl_filter__on(&t->filter) && off < len)
		snprintf(buf + off, len - off, "  filter %s%s%s (%zu of %zu)", t->filter.text,
			 t->filter.text[0] && t->filter.active ? " " : "",
			 t->filter.active ? "active only" : "", t->nshown, m->table->n);
}

/* The hints as far as they fit whole: cut between two of them, never inside one. */
static void fit(int y, const char *text)
{
	size_t w = COLS > 0 ? (size_t)COLS : 80, end = strlen(text);

	while (end > w) {
		const char *gap = NULL;

		for (const char *p = text; p + 1 < text + end; p++)
			if (p[0] == ' ' && p[1] == ' ' && (size_t)(p - text) <= w)
				gap = p;
		if (!gap)
			break;
		end = (size_t)(gap - text);
	}
	dtl_tui__line(y, 0, "%.*s", (int)end, text);
}

static void status_draw(struct dtl_tui *t, const struct dtl_model *m, int y, int height)
{
	int total = (int)t->nshown;
	char how[200];

	(void)height;
	order(t, m, how, sizeof(how));
	if (t->prompting == '/')
		dtl_tui__line(y, A_BOLD, "Filter, e.g. STEAL%%>20 P99>10ms cpu=0-63 vp=1 (Enter applies, "
			      "empty clears, Esc cancels): %s", t->prompt);
	else if (t->prompting == 't')
		dtl_tui__line(y, A_BOLD, "Threshold as FIELD=WARN:CRIT (Enter sets, Esc cancels): %s",
			      t->prompt);
	else if (t->prompting == 'o')
		dtl_tui__line(y, A_BOLD, "Sort by a heading or CSV field, -FIELD descending, +FIELD "
			      "ascending (Enter sorts, Esc cancels): %s", t->prompt);
	else if (t->prompting == 'b')
		dtl_tui__line(y, A_BOLD, "Jump to HH:MM[:SS] UTC, a date, +N from the start, -N from "
			      "the end (s m h d), #interval (Enter jumps, Esc cancels): %s", t->prompt);
	else if (t->prompting)
		dtl_tui__line(y, A_BOLD, "Interval in seconds (Enter sets, Esc cancels): %s", t->prompt);
	else if (t->message[0])
		dtl_tui__line(y, A_BOLD, "%s", t->message);
	else if (m->status && m->status[0])
		dtl_tui__line(y, A_BOLD, "%s", m->status);
	else if (!m->intervals)
		fit(y, hints(false) + 2);	/* no rows yet to count */
	else {
		char line[640];

		snprintf(line, sizeof(line), "rows %d-%d of %d%s%s%s%s", total ? t->top + 1 : 0,
			 t->top + t->rows_shown < total ? t->top + t->rows_shown : total, total, how,
			 m->rec_rate && m->rec_rate[0] ? "  " : "", m->rec_rate ? m->rec_rate : "",
			 hints(m->table));
		fit(y, line);
	}
}

static int status_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	(void)t, (void)m;
	return 1;
}

static bool status_focused(const struct dtl_tui *t)
{
	return t->prompting != 0;
}

/* The prompt's line editor: Enter applies, Esc cancels. */
static bool status_key(struct dtl_tui *t, int ch, struct dtl_act *act)
{
	struct dtl_act a = { .what = DTL_ACT_REDRAW };
	size_t len = strlen(t->prompt);

	if (ch == 27) {
		t->prompting = 0;
	} else if ((ch == '\r' || ch == '\n' || ch == KEY_ENTER) && t->prompting == '/') {
		char err[200];

		t->prompting = 0;
		if (dtl_filter__parse(&t->filter, t->prompt, err, sizeof(err)))
			snprintf(t->message, sizeof(t->message), "%s", err);
		t->sel = t->top = 0;
	} else if ((ch == '\r' || ch == '\n' || ch == KEY_ENTER) && t->prompting == 't') {
		char err[200];

		t->prompting = 0;
		if (dtl_judge__set(t->prompt, err, sizeof(err)))
			snprintf(t->message, sizeof(t->message), "%s", err);
	} else if ((ch == '\r' || ch == '\n' || ch == KEY_ENTER) && t->prompting == 'o') {
		int col;
		bool reverse;

		t->prompting = 0;
		if (t->prompt[0] && dtl_table__sort_parse(t->prompt, &col, &reverse) == 0)
			t->sort_col = col, t->sort_reverse = reverse, t->sort_auto = false;
		else if (t->prompt[0])
			snprintf(t->message, sizeof(t->message), "no field '%s' to sort by (a heading "
				 "on screen or a CSV field)", t->prompt);
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
	} else if (ch == 21) {	/* ^U, as in a shell */
		t->prompt[0] = '\0';
	} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len) {
		t->prompt[len - 1] = '\0';
	} else if (ch >= 32 && ch < 127 && len + 1 < sizeof(t->prompt)) {
		t->prompt[len] = (char)ch;
		t->prompt[len + 1] = '\0';
	}
	*act = a;
	return true;
}

const struct dtl_pane dtl_pane_status = {
	.name = "status",
	.height = status_height,
	.draw = status_draw,
	.key = status_key,
	.focused = status_focused,
};
