/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keys.h - the one table of the TUI's keys: the dispatch, the help screen,
 * the status line's hint, --list-keys and the man-page check all read it.
 */
#ifndef DTL_KEYS_H
#define DTL_KEYS_H

#include <stddef.h>

enum dtl_key_do {
	DTL_KEY_QUIT,
	DTL_KEY_HELP,
	DTL_KEY_MASK,		/* arg: the DTL_MASK_* bit to toggle */
	DTL_KEY_MASK_ALL,
	DTL_KEY_EXPORT,
	DTL_KEY_SORT_MOVE,	/* arg: -1 left, 1 right */
	DTL_KEY_SORT_REVERSE,
	DTL_KEY_INTERVAL,	/* prompts for seconds */
	DTL_KEY_PAUSE,
	DTL_KEY_STEP,		/* arg: 1 next, -1 previous interval */
	DTL_KEY_JUMP,		/* prompts for a time */
	DTL_KEY_SPAN,
	DTL_KEY_RESET,
	DTL_KEY_SCROLL,		/* arg: rows, or DTL_KEY_PAGE pages, or DTL_KEY_ENDS */
	DTL_KEY_REDRAW,
	DTL_KEY_GROUP,		/* rows per VP or per CPU */
	DTL_KEY_FILTER,		/* prompts for a filter */
	DTL_KEY_ACTIVE,		/* only rows that dispatched */
	DTL_KEY_DETAIL,		/* the row under the cursor in detail */
	DTL_KEY_WRITE,		/* the settings to dtltoprc */
	DTL_KEY_SMOOTH,		/* rows smoothed or as measured */
	DTL_KEY_SETUP,		/* the setup screen: columns and thresholds */
	DTL_KEY_SORT_STEAL,	/* sort by steal, or back to CPUs (top's P) */
	DTL_KEY_SORT_BY,	/* prompts for a field to sort by (htop's F6) */
};

#define DTL_KEY_PAGE 100000	/* SCROLL by this many rows is a page */
#define DTL_KEY_ENDS (1 << 30)	/* SCROLL by this many rows is the top or the bottom */
#define DTL_KEY_MAX_CODES 4

struct dtl_key {
	int codes[DTL_KEY_MAX_CODES];	/* what getch() returns; 0 ends the list */
	const char *names;		/* as a person reads them: "q, F10" */
	const char *hint;		/* its words on the status line ("q quit"), or NULL */
	enum dtl_key_do what;
	int arg;
	const char *help;		/* one line for the help screen and --list-keys */
};

const struct dtl_key *dtl_keys(size_t *n);
/* The key bound to code, or NULL. */
const struct dtl_key *dtl_keys__find(int code);

#endif
