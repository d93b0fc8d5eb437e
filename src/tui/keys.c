/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keys.c - every key of the TUI, once. A new key is one line here and, if
 * it acts on the source or the stats, one case in main's handler.
 */
#include "keys.h"

#include <ncurses.h>

#include "../dtl/dtl.h"

static const struct dtl_key keys[] = {
	{ { 'h', '?', KEY_F(1) }, "h, ?, F1", "h help", DTL_KEY_HELP, 0,
	  "this help; arrows and PgUp/PgDn scroll it, any other key closes" },
	{ { 'q', KEY_F(10) }, "q, F10", "q quit", DTL_KEY_QUIT, 0,
	  "quit (nothing is saved implicitly)" },
	{ { 'c' }, "c", NULL, DTL_KEY_MASK, DTL_MASK_CEDE, "toggle the cede bit of the DTL event mask" },
	{ { 'p' }, "p", NULL, DTL_KEY_MASK, DTL_MASK_PREEMPT,
	  "toggle the preempt bit of the DTL event mask" },
	{ { 'f' }, "f", NULL, DTL_KEY_MASK, DTL_MASK_FAULT, "toggle the fault bit of the DTL event mask" },
	{ { 'a' }, "a", "c/p/f/a mask", DTL_KEY_MASK_ALL, 0, "select all events (mask 0x7)" },
	{ { 'e', 'E' }, "e, E", "e export", DTL_KEY_EXPORT, 0,
	  "export the table shown to dtltop-YYYYMMDD-HHMMSS.csv here (--export-format)" },
	{ { 'v', '1' }, "v, 1", "v VPs", DTL_KEY_GROUP, 0,
	  "rows per CPU, VP (threads folded, like top's 1), task or cgroup (who pays)" },
	{ { '\r', '\n', KEY_ENTER, KEY_F(5) }, "Enter, F5", "Enter detail", DTL_KEY_DETAIL, 0,
	  "the row under the cursor in detail: reasons, latency histogram, processors, sparklines" },
	{ { '/', KEY_F(4), KEY_F(3) }, "/, F4, F3", "/ filter", DTL_KEY_FILTER, 0,
	  "filter rows: STEAL%>20, P99>=10ms, cpu=0-63, vp=1 (as shown; all must hold; empty clears)" },
	{ { 'o' }, "o", NULL, DTL_KEY_ACTIVE, 0, "only rows that dispatched in the span, or all" },
	{ { 'S' }, "S", NULL, DTL_KEY_SMOOTH, 0,
	  "smooth the rows (decaying averages over --smooth seconds, 10 by default) or not" },
	{ { '<' }, "<", NULL, DTL_KEY_SORT_MOVE, -1,
	  "sort by the field before (every CSV field, shown or not; the status line names it)" },
	{ { '>' }, ">", "</> sort", DTL_KEY_SORT_MOVE, 1, "sort by the next field" },
	{ { 'R' }, "R", "R reverse", DTL_KEY_SORT_REVERSE, 0, "reverse the sort order" },
	{ { 'P' }, "P", "P steal", DTL_KEY_SORT_STEAL, 0,
	  "sort by steal, the worst first (top's P; tasks and cgroups by seconds); again: by "
	  "number" },
	{ { KEY_F(6) }, "F6", NULL, DTL_KEY_SORT_BY, 0,
	  "sort by a field typed by its heading or CSV name (-FIELD descending, +FIELD ascending)" },
	{ { 'd', 's' }, "d, s", "d delay", DTL_KEY_INTERVAL, 0,
	  "set the interval in seconds (fractions allowed)" },
	{ { ' ', 'Z' }, "space, Z", "space pause", DTL_KEY_PAUSE, 0,
	  "pause the display (capture goes on; a replay stands still)" },
	{ { 't' }, "t", NULL, DTL_KEY_STEP, 1, "replay: step to the next interval (and pause)" },
	{ { 'T' }, "T", NULL, DTL_KEY_STEP, -1, "replay: step to the previous interval" },
	{ { 'b' }, "b", NULL, DTL_KEY_JUMP, 0,
	  "replay: jump to a time (HH:MM[:SS] UTC, +seconds, or #interval)" },
	{ { 'i' }, "i", NULL, DTL_KEY_SPAN, 0, "show the last interval or totals since start" },
	{ { 'r' }, "r", "r reset", DTL_KEY_RESET, 0, "reset the totals since start" },
	{ { KEY_UP, 'k' }, "Up, k", NULL, DTL_KEY_SCROLL, -1, "move the cursor up a row" },
	{ { KEY_DOWN, 'j' }, "Down, j", NULL, DTL_KEY_SCROLL, 1, "move the cursor down a row" },
	{ { KEY_PPAGE }, "PgUp", NULL, DTL_KEY_SCROLL, -DTL_KEY_PAGE, "scroll up a page" },
	{ { KEY_NPAGE }, "PgDn", NULL, DTL_KEY_SCROLL, DTL_KEY_PAGE, "scroll down a page" },
	{ { KEY_HOME, 'g' }, "Home, g", NULL, DTL_KEY_SCROLL, -DTL_KEY_ENDS, "go to the first row" },
	{ { KEY_END, 'G' }, "End, G", NULL, DTL_KEY_SCROLL, DTL_KEY_ENDS, "go to the last row" },
	{ { 12 }, "^L", NULL, DTL_KEY_REDRAW, 0, "redraw the screen" },
	{ { KEY_F(2), 'C' }, "F2, C", "F2 setup", DTL_KEY_SETUP, 0,
	  "setup: choose and order the columns, edit the thresholds (W keeps them)" },
	{ { 'W' }, "W", NULL, DTL_KEY_WRITE, 0,
	  "write the settings (delay, sort, group, events, columns, thresholds) to dtltoprc" },
};

const struct dtl_key *dtl_keys(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

const struct dtl_key *dtl_keys__find(int code)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		for (int j = 0; j < DTL_KEY_MAX_CODES && keys[i].codes[j]; j++)
			if (keys[i].codes[j] == code)
				return &keys[i];
	return NULL;
}
