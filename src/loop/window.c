/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * window.c - a replay's window (--begin, --end): the intervals before it
 * are read without being shown, the totals since start are the window's,
 * and the replay ends where the window does, as sar -s/-e and atop -b/-e do.
 * An interval is the window's when it starts at or after --begin and ends
 * at or before --end, give or take half an interval.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static uint64_t half(const struct dtl_loop *l)
{
	return (uint64_t)(dtl_source__recorded_interval(l->src) * 0.5e9);
}

static uint64_t clock_now(const struct dtl_loop *l)
{
	uint64_t ns;

	return dtl_source__clock(l->src, &ns) ? ns : 0;
}

int loop_window_init(struct dtl_loop *l, char *err, size_t errlen)
{
	uint64_t end = 0;
	char why[256];

	if (!l->o.begin && !l->o.end)
		return 0;
	/* counting back from the end: where the recording ends, read from its last chunks */
	if ((l->o.begin && l->o.begin[0] == '-') || (l->o.end && l->o.end[0] == '-'))
		dtl_source__end_clock(l->src, &end);
	if (l->o.begin && dtl_opts__parse_time(l->o.begin, l->replay_start_ns, end, &l->win_begin_ns,
					       &l->win_begin_iv, why, sizeof(why))) {
		snprintf(err, errlen, "--begin: %s", why);
		return -1;
	}
	if (l->o.end && dtl_opts__parse_time(l->o.end, l->replay_start_ns, end, &l->win_end_ns,
					     &l->win_end_iv, why, sizeof(why))) {
		snprintf(err, errlen, "--end: %s", why);
		return -1;
	}
	if ((l->win_begin_ns && l->win_end_ns && l->win_end_ns <= l->win_begin_ns) ||
	    (l->win_begin_iv && l->win_end_iv && l->win_end_iv < l->win_begin_iv)) {
		snprintf(err, errlen, "--end %s is not after --begin %s", l->o.end, l->o.begin);
		return -1;
	}
	return 0;
}

/* Whether the interval after the next k (one recorded interval each) is before the window. */
static bool before_at(const struct dtl_loop *l, uint64_t k)
{
	if (l->win_begin_iv)
		return l->shown + k + 1 < l->win_begin_iv;
	return l->win_begin_ns && clock_now(l) + k * 2 * half(l) + half(l) < l->win_begin_ns;
}

static bool before(const struct dtl_loop *l)
{
	return before_at(l, 0);
}

bool loop_window_over(struct dtl_loop *l)
{
	if (l->win_end_iv)
		return l->shown >= l->win_end_iv;
	return l->win_end_ns && clock_now(l) + half(l) > l->win_end_ns;
}

/* Where the skipping is, every half second it takes: the status line, or a terminal's stderr. */
static void progress(struct dtl_loop *l, bool done)
{
	time_t t = (time_t)(clock_now(l) / 1000000000ull);
	char when[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (loop_interactive(l)) {
		snprintf(l->status, sizeof(l->status), "to --begin %s: at %s UTC, interval %llu",
			 l->o.begin, when, (unsigned long long)l->shown);
		loop_redraw(l);
	} else if (isatty(STDERR_FILENO)) {
		fprintf(stderr, "\rdtltop: to --begin %s: at %s UTC, interval %llu%s", l->o.begin,
			when, (unsigned long long)l->shown, done ? "\n" : "");
	}
}

bool loop_window_skip(struct dtl_loop *l, uint64_t interval_ns)
{
	uint64_t t0 = loop_now(l, CLOCK_MONOTONIC), last = t0, ts;
	bool said = false;

	if (!before(l))
		return true;
	while (before(l)) {
		uint64_t now;

		/*
		 * The intervals before it are read without their entries, but
		 * for the last: the window's first entries take up where those
		 * left off (a VP's processor, for its migrations).
		 */
		dtl_source__skim(l->src, before_at(l, 1));
		/* followed (--follow), a window may begin after what is written yet */
		while (!dtl_source__ready(l->src) && !loop_stopped(l))
			dtl_source__poll(l->src, 200);
		if (!loop_step(l, interval_ns, loop_now(l, CLOCK_MONOTONIC), &ts)) {
			dtl_source__skim(l->src, false);
			return false;	/* it ends before the window: the caller says so */
		}
		now = loop_now(l, CLOCK_MONOTONIC);
		if (now - last >= 500000000ull && now - t0 >= 500000000ull) {
			progress(l, false);
			last = now;
			said = true;
		}
		if (loop_stopped(l)) {
			dtl_source__skim(l->src, false);
			return false;
		}
	}
	dtl_source__skim(l->src, false);
	if (said)
		progress(l, true);
	l->win_first = l->shown + 1;
	/* the window's totals: from its first interval on */
	dtl_stats__reset_totals(l->stats);
	if (l->tasks)
		dtl_tasks__reset_totals(l->tasks);
	l->status[0] = '\0';
	return true;
}
