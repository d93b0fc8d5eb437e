/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loop.h - the interval loop: drain the source until the interval ends,
 * fold entries into the stats, show the interval through a view; apply what
 * the view's user asks (mask, pause, replay navigation).
 */
#ifndef DTL_LOOP_H
#define DTL_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "../opts/opts.h"
#include "../source/source.h"
#include "../view/view.h"

struct dtl_loop;

/* The loop's time, so tests can run it on a clock of their own. */
struct dtl_clock {
	uint64_t (*now)(void *ctx, clockid_t clk);	/* ns */
	void *ctx;
};

extern const struct dtl_clock dtl_clock_real;

/*
 * Takes src (closed by dtl_loop__delete); opens o->write's recording.
 * stop is set from a signal handler and read between chunks. NULL with err.
 */
struct dtl_loop *dtl_loop__new(const struct dtl_opts *o, struct dtl_source *src,
			       const struct dtl_clock *clock, const volatile sig_atomic_t *stop,
			       char *err, size_t errlen);
/* Shows the first (empty) frame, then runs until done; the exit status. */
int dtl_loop__run(struct dtl_loop *l, struct dtl_view *v);
/* One action as a view's key gives it; false to quit. */
bool dtl_loop__act(struct dtl_loop *l, struct dtl_view *v, struct dtl_act act);
/* The model as last shown (for tests and the views' end). */
const struct dtl_model *dtl_loop__model(struct dtl_loop *l);
/* Intervals ended since the start or a rewind. */
uint64_t dtl_loop__shown(const struct dtl_loop *l);
/* Closes the recording, then the stats, then the source; rc, or 1 if closing failed. */
int dtl_loop__delete(struct dtl_loop *l, int rc);

#endif
