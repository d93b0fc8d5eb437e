/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * view.h - a view as the interval loop drives it: the TUI and the batch
 * writer are two of these, and the loop knows nothing else about them.
 */
#ifndef DTL_VIEW_H
#define DTL_VIEW_H

#include <stdbool.h>

#include "model.h"

/* What a person asked for; the loop applies it (it owns the source and the stats). */
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
	DTL_ACT_GROUP,		/* rows per VP <-> per CPU */
	DTL_ACT_WRITE,		/* the settings to dtltoprc; text: the sort field */
	DTL_ACT_SMOOTH,		/* the rows smoothed or not */
};

struct dtl_act {
	enum dtl_action what;
	unsigned int bit;
	double interval_s;
	int step;
	char text[96];
	char list[640];		/* DTL_ACT_WRITE: the columns shown, in order */
};

struct dtl_view;

struct dtl_view_ops {
	/*
	 * A person watches: a replay paces at 1x and stays up when it ends, and
	 * messages go to the status line rather than stderr.
	 */
	bool interactive;
	/* Up to ms for input (NULL: the loop waits in the source's poll instead). */
	struct dtl_act (*wait)(struct dtl_view *v, int ms);
	/* A quit typed while a long interval is read; NULL if there is no input. */
	bool (*quit_pending)(struct dtl_view *v);
	void (*sort)(const struct dtl_view *v, int *col, bool *reverse);
	/*
	 * Show m: fresh is true for a new interval, false for a redraw of the
	 * one shown. 0 ok, 1 when the reader left (a closed pipe), -1 on error
	 * with a one-line message on stderr.
	 */
	int (*show)(struct dtl_view *v, const struct dtl_model *m, bool fresh);
};

struct dtl_view {
	const struct dtl_view_ops *ops;
	void *priv;
};

#endif
