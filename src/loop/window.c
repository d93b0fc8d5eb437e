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

/* Whether the interval after the next k (one recorded interval each) ends before the target. */
static bool before_at(const struct dtl_loop *l, uint64_t k, uint64_t iv, uint64_t ns)
{
	if (iv)
		return l->shown + k + 1 < iv;
	return ns && clock_now(l) + k * 2 * half(l) + half(l) < ns;
}

static bool before(const struct dtl_loop *l)
{
	return before_at(l, 0, l->win_begin_iv, l->win_begin_ns);
}

bool loop_window_over(struct dtl_loop *l)
{
	if (l->win_end_iv)
		return l->shown >= l->win_end_iv;
	return l->win_end_ns && clock_now(l) + half(l) > l->win_end_ns;
}

/* Where the skimming is, every half second it takes: the status line, or a terminal's stderr. */
static void progress(struct dtl_loop *l, const char *to, bool done)
{
	time_t t = (time_t)(clock_now(l) / 1000000000ull);
	char when[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (loop_interactive(l)) {
		snprintf(l->status, sizeof(l->status), "to %s: at %s UTC, interval %llu", to, when,
			 (unsigned long long)l->shown);
		loop_redraw(l);
	} else if (isatty(STDERR_FILENO)) {
		fprintf(stderr, "\rdtltop: to %s: at %s UTC, interval %llu%s", to, when,
			(unsigned long long)l->shown, done ? "\n" : "");
	}
}

void loop_totals_restart(struct dtl_loop *l)
{
	dtl_stats__reset_totals(l->stats);
	if (l->tasks)
		dtl_tasks__reset_totals(l->tasks);
	/* the partition's counters too: physc, %entc and app since the same instant */
	if (l->lparcfg.present)
		l->lparcfg0 = l->lparcfg;
	/* a replay stands at its clock (a skim moves it, not the table); 1: at the very start */
	l->totals_from_ns = dtl_source__recorded(l->src) && clock_now(l) ? clock_now(l) :
			    l->table.ts_ns;
	if (!l->totals_from_ns)
		l->totals_from_ns = 1;
}

/*
 * A replay keeps marks as it reads (a T or b back finds them): from the
 * last one two intervals or more before the one read whole, the skim goes
 * on as it would have from the start. False with the status where the
 * recording could not be read there.
 */
static bool jump(struct dtl_loop *l, uint64_t iv, uint64_t ns, bool *skimmed)
{
	uint64_t margin = 5 * half(l), at = 0;
	char err[512];
	int rc;

	if ((iv && iv <= 3) || (!iv && ns <= margin))
		return true;
	rc = dtl_source__seek(l->src, iv ? iv - 3 : 0, iv ? 0 : ns - margin, &at, err, sizeof(err));
	if (rc < 0) {
		snprintf(l->status, sizeof(l->status), "cannot go there: %.400s", err);
		return false;
	}
	if (rc == 0) {
		l->shown = at;
		*skimmed = true;
	}
	return true;
}

bool loop_skim_to(struct dtl_loop *l, uint64_t interval_ns, uint64_t iv, uint64_t ns,
		  const char *to)
{
	uint64_t t0 = loop_now(l, CLOCK_MONOTONIC), last = t0, ts;
	bool said = false, ok = true, skimmed = false, skim;

	if (!before_at(l, 0, iv, ns))
		return true;
	if (!jump(l, iv, ns, &skimmed))
		return false;
	while (ok && before_at(l, 0, iv, ns)) {
		uint64_t now;

		/* followed (--follow), a window may begin after what is written yet */
		while (!dtl_source__ready(l->src) && !loop_stopped(l))
			dtl_source__poll(l->src, 200);
		/*
		 * The intervals before it are read without their entries, but
		 * for the last: the target's first entries take up where those
		 * left off (a VP's processor, for its migrations; who ran).
		 */
		skim = before_at(l, 1, iv, ns);
		skimmed |= skim;
		dtl_source__skim(l->src, skim);
		ok = loop_step(l, interval_ns, loop_now(l, CLOCK_MONOTONIC), &ts) && !loop_stopped(l);
		now = loop_now(l, CLOCK_MONOTONIC);
		if (ok && now - last >= 500000000ull && now - t0 >= 500000000ull) {
			progress(l, to, false);
			last = now;
			said = true;
		}
	}
	dtl_source__skim(l->src, false);
	if (!ok)
		return false;	/* it ends before the target: the caller says so */
	if (said)
		progress(l, to, true);
	/* entries passed over: the totals can only begin after them */
	if (skimmed)
		loop_totals_restart(l);
	l->status[0] = '\0';
	return true;
}

bool loop_window_skip(struct dtl_loop *l, uint64_t interval_ns)
{
	char to[300];

	if (!before(l))
		return true;
	snprintf(to, sizeof(to), "--begin %.280s", l->o.begin);
	if (!loop_skim_to(l, interval_ns, l->win_begin_iv, l->win_begin_ns, to))
		return false;
	loop_totals_restart(l);	/* the window's, from its first interval on */
	l->win_first = l->shown + 1;
	return true;
}
