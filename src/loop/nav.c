/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nav.c - moving through a replay: the next or previous interval, or a
 * jump to a time. Back means from the start again, with fresh stats, so the
 * totals since start stay true.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* Why a move is refused here, or NULL. */
static const char *refused(const struct dtl_loop *l)
{
	if (l->o.src.attach)
		return "attached: the service's intervals go by as they come (its summary recording "
		       "goes back: dtltop -r)";
	if (l->rec)
		return "t, T and b are off while writing a recording (-w)";
	if (!dtl_source__recorded(l->src))
		return "t, T and b move through a replay (-r FILE)";
	return NULL;
}

/* To the first interval with fresh stats; *ts where the replay's clock stands. */
static int rewind_replay(struct dtl_loop *l, uint64_t *ts)
{
	struct dtl_stats *fresh = dtl_stats__new(dtl_source__nr_cpus(l->src),
						 dtl_source__tb_freq(l->src));
	char err[512];

	if (!fresh || dtl_source__rewind(l->src, err, sizeof(err))) {
		dtl_stats__delete(fresh);
		snprintf(l->status, sizeof(l->status), "cannot go back: %.400s",
			 fresh ? err : "out of memory");
		return -1;
	}
	dtl_stats__delete(l->stats);
	l->stats = fresh;
	if (l->rec && l->o.summary && dtl_stats__keep(fresh)) {
		snprintf(l->status, sizeof(l->status), "recording stopped: out of memory");
		loop_rec_failed(l);
	}
	if (l->tasks) {
		/* a replay's switches start over too */
		struct dtl_tasks *t = dtl_tasks__new(dtl_source__nr_cpus(l->src),
						     dtl_source__tb_freq(l->src));

		if (t) {
			if (l->rec)
				dtl_tasks__log_pcs(t);
			if (l->rec && l->o.summary)
				dtl_tasks__keep(t);
			l->rec_told = 0;	/* a new table: its tasks are new to every reader */
			dtl_tasks__delete(l->tasks);
			l->tasks = t;
			l->table.tasks = t;
		}
	}
	/* a summary's own interval starts over with them */
	loop_sumiv_close(l);
	if (l->rec && l->o.summary && loop_sumiv_open(l)) {
		snprintf(l->status, sizeof(l->status), "recording stopped: out of memory");
		loop_rec_failed(l);
	}
	l->shown = 0;
	l->totals_from_ns = 0;
	loop_start_stats(l);
	loop_sync_online(l);
	*ts = l->replay_start_ns;
	/* a window (--begin) starts there again, its totals its own */
	if (!loop_window_skip(l, (uint64_t)(l->o.interval_s * 1e9))) {
		snprintf(l->status, sizeof(l->status), "cannot go back to --begin %.400s", l->o.begin);
		return -1;
	}
	if (!dtl_source__clock(l->src, ts))
		*ts = l->replay_start_ns;
	return 0;
}

static void paused_status(struct dtl_loop *l, uint64_t ts)
{
	time_t t = (time_t)(ts / 1000000000ull);
	char when[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(l->status, sizeof(l->status), "interval %llu, ending %s UTC (paused; space "
		 "resumes)", (unsigned long long)l->shown, when);
}

/* What a seek goes to, for its progress line: "interval 12", "00:12:00 UTC". */
static void to_text(uint64_t target, uint64_t at_ns, char *buf, size_t len)
{
	time_t t = (time_t)(at_ns / 1000000000ull);
	struct tm tm;

	if (target) {
		snprintf(buf, len, "interval %llu", (unsigned long long)target);
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S UTC", &tm);
}

/* To interval target (1 is the first) or, when target is 0, the first ending at or after at_ns. */
void loop_seek(struct dtl_loop *l, uint64_t target, uint64_t at_ns)
{
	uint64_t ts = l->table.ts_ns, interval_ns = (uint64_t)(l->o.interval_s * 1e9);
	uint64_t rec_ns = (uint64_t)(dtl_source__recorded_interval(l->src) * 1e9);
	const char *why = refused(l), *warning;
	uint64_t skim_iv, skim_ns;
	bool ended = false;
	char to[64];

	if (why) {
		snprintf(l->status, sizeof(l->status), "%s", why);
		return;
	}
	if ((target ? target <= l->shown : at_ns < ts) && rewind_replay(l, &ts))
		return;
	/*
	 * Far from it: skimmed to the interval before, entries passed over (a
	 * day's recording is gigabytes); the totals then begin there, and the
	 * header says since when.
	 */
	skim_iv = target;
	skim_ns = target || at_ns < rec_ns ? 0 : at_ns - rec_ns;
	/* never past a window's end: the steps below stop there, and say so */
	if (l->win_end_iv && skim_iv > l->win_end_iv)
		skim_iv = l->win_end_iv;
	if (l->win_end_ns && skim_ns > l->win_end_ns)
		skim_ns = l->win_end_ns;
	to_text(target, at_ns, to, sizeof(to));
	if (!loop_window_over(l) && !loop_skim_to(l, interval_ns, skim_iv, skim_ns, to)) {
		dtl_source__ended(l->src, &warning);
		loop_end_status(l, warning);
		ended = true;
	}
	if (!dtl_source__clock(l->src, &ts))
		ts = l->table.ts_ns;
	while (!ended && (target ? l->shown < target : ts < at_ns)) {
		if (loop_window_over(l)) {
			snprintf(l->status, sizeof(l->status), "end of the window (--end %.400s) after "
				 "interval %llu", l->o.end, (unsigned long long)l->shown);
			break;
		}
		if (!loop_step(l, interval_ns, loop_now(l, CLOCK_MONOTONIC), &ts)) {
			dtl_source__ended(l->src, &warning);
			loop_end_status(l, warning);
			break;
		}
		l->status[0] = '\0';
	}
	if (!l->status[0])
		paused_status(l, ts);
	l->paused = true;
	loop_refill(l, ts);
}

void loop_step_by(struct dtl_loop *l, int step)
{
	l->status[0] = '\0';
	if (refused(l))
		snprintf(l->status, sizeof(l->status), "%s", refused(l));
	else if (step < 0 && l->shown <= (l->win_first > 1 ? l->win_first : 1))
		snprintf(l->status, sizeof(l->status), "already at the first interval%s",
			 l->win_first > 1 ? " of the window (--begin)" : "");
	else
		loop_seek(l, step < 0 ? l->shown - 1 : l->shown + 1, 0);
}

void loop_jump(struct dtl_loop *l, const char *when)
{
	uint64_t at_ns, target, end = 0;
	char err[256];

	l->status[0] = '\0';
	if (when[0] == '-')	/* back from the end: read from the recording's last chunks */
		dtl_source__end_clock(l->src, &end);
	if (dtl_opts__parse_time(when, l->replay_start_ns, end, &at_ns, &target, err, sizeof(err)))
		snprintf(l->status, sizeof(l->status), "%s", err);
	else
		loop_seek(l, target, at_ns);
}
