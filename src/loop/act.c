/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * act.c - what a person asks for, applied: the mask, an export, pause,
 * the span, the interval, a replay's moves. Every reaction ends in a
 * message on the status line and a redraw.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../dtl/dtl.h"
#include "../view/writer.h"
#include "internal.h"

void loop_set_mask(struct dtl_loop *l, unsigned int mask)
{
	char err[512], text[32], hvtext[32], partial[64], where[96];
	unsigned int hv;

	if (!mask) {
		snprintf(l->status, sizeof(l->status), "the event mask cannot be empty; 'a' selects all");
		return;
	}
	if (l->o.src.attach) {
		/* the service's: asked of it, shown when its intervals say so */
		dtl_mask__format(mask, text, sizeof(text));
		if (dtl_source__ask_mask(l->src, mask, err, sizeof(err)))
			snprintf(l->status, sizeof(l->status), "mask not changed: %.400s", err);
		else
			snprintf(l->status, sizeof(l->status), "asked the service for the event mask %s "
				 "(0x%x): its intervals say it from the next on", text, mask);
		return;
	}
	if (dtl_source__set_mask(l->src, mask, err, sizeof(err))) {
		snprintf(l->status, sizeof(l->status), "mask not changed: %.400s", err);
		return;
	}
	dtl_stats__set_mask(l->stats, mask);
	dtl_mask__format(mask, text, sizeof(text));
	/* say where the mask acts, and what the figures now leave out */
	hv = dtl_source__hv_mask(l->src);
	if (hv != mask) {
		dtl_mask__format(hv, hvtext, sizeof(hvtext));
		snprintf(where, sizeof(where), "filtered here, the hypervisor still logs %s (0x%x)",
			 hvtext, hv);
	} else {
		snprintf(where, sizeof(where), "in the hypervisor");
	}
	if (dtl_mask__partial(mask, partial, sizeof(partial)))
		snprintf(l->status, sizeof(l->status), "event mask now %s (0x%x) %s: "
			 "figures from the next interval are %s", text, mask, where, partial);
	else
		snprintf(l->status, sizeof(l->status), "event mask now %s (0x%x) %s: "
			 "figures complete from the next interval", text, mask, where);
	loop_rec_mask(l, mask);
	loop_serve_mask(l, mask);
}

/* The rows on screen, through the export format's writer, into the current directory. */
static void export(struct dtl_loop *l)
{
	char path[4096], err[4096];

	if (dtl_snapshot__write_as(l->o.export_format, ".", &l->model,
				   (time_t)(loop_now(l, CLOCK_REALTIME) / 1000000000ull), path,
				   sizeof(path), err, sizeof(err)))
		snprintf(l->status, sizeof(l->status), "export failed: %.400s", err);
	else
		snprintf(l->status, sizeof(l->status), "exported %zu rows to %.400s", l->table.n,
			 path);
}

/*
 * The next grouping: CPUs, VPs, then who pays (tasks, cgroups) where the
 * source has task switches, and back; new rows even when paused, as asked.
 */
static void group(struct dtl_loop *l)
{
	bool tasks = dtl_tasks__known(l->tasks), vps = dtl_source__topo(l->src)->known;
	struct dtl_table *t = &l->table;

	if (t->group == DTL_ROW_TASK) {
		t->group = DTL_ROW_CGROUP;
		snprintf(l->status, sizeof(l->status), "a row per cgroup: who pays, its tasks summed "
			 "(v: per CPU)");
	} else if (t->group == DTL_ROW_CGROUP) {
		t->group = DTL_ROW_CPU_VP;
		snprintf(l->status, sizeof(l->status), "a row per CPU (v: per virtual processor)");
	} else if (!t->by_vp && !vps && !tasks) {
		snprintf(l->status, sizeof(l->status), "no VP rows: which CPUs are threads of one VP is "
			 "unknown here (no thread_siblings_list, or a perf.data); no task rows: %s",
			 DTL_NO_TASKS);
		return;
	} else if (!t->by_vp && vps) {
		t->by_vp = true;
		snprintf(l->status, sizeof(l->status), "a row per virtual processor (its threads "
			 "folded; v: %s)", tasks ? "per task" : "per CPU");
	} else if (tasks) {
		t->by_vp = false;
		t->group = DTL_ROW_TASK;
		snprintf(l->status, sizeof(l->status), "a row per process: who pays, charged at each "
			 "preempt (v: per cgroup)");
	} else {
		/* no task rows to go to: said, not skipped in silence */
		t->by_vp = false;
		snprintf(l->status, sizeof(l->status), "a row per CPU (v: per virtual processor); no "
			 "task rows: %s", DTL_NO_TASKS);
	}
	loop_refill(l, l->table.ts_ns);
}

static void save(struct dtl_loop *l, const char *sort, const char *columns)
{
	struct dtl_saved now = { .interval_s = l->o.interval_s, .by_vp = l->table.by_vp,
				 .group = l->table.group,
				 .mask = dtl_source__mask(l->src) };
	char path[4096], err[512];

	snprintf(now.sort, sizeof(now.sort), "%s", sort);
	snprintf(now.columns, sizeof(now.columns), "%s", columns);
	if (dtl_opts__save(&l->o, &now, path, sizeof(path), err, sizeof(err)))
		snprintf(l->status, sizeof(l->status), "settings not written: %.400s", err);
	else
		snprintf(l->status, sizeof(l->status), "settings written to %.400s", path);
}

static void act(struct dtl_loop *l, const struct dtl_act *a)
{
	switch (a->what) {
	case DTL_ACT_NONE:
	case DTL_ACT_QUIT:
		break;
	case DTL_ACT_MASK_TOGGLE:
		loop_set_mask(l, dtl_source__mask(l->src) ^ a->bit);
		break;
	case DTL_ACT_MASK_ALL:
		loop_set_mask(l, DTL_MASK_ALL);
		break;
	case DTL_ACT_EXPORT:
		export(l);
		break;
	case DTL_ACT_WRITE:
		save(l, a->text, a->list);
		break;
	case DTL_ACT_SMOOTH:
		l->smooth_s = l->smooth_s > 0 ? 0 : l->o.smooth_s > 0 ? l->o.smooth_s : 10;
		loop_smooth_free(l);	/* an average starts again from the next interval */
		if (l->smooth_s > 0)
			snprintf(l->status, sizeof(l->status), "rows smoothed over %gs (the CSV and "
				 "exports are not)", l->smooth_s);
		else
			snprintf(l->status, sizeof(l->status), "rows as measured, interval by interval");
		loop_refill(l, l->table.ts_ns);
		break;
	case DTL_ACT_RESET:
		loop_totals_restart(l);
		snprintf(l->status, sizeof(l->status), "totals reset");
		break;
	case DTL_ACT_PAUSE:
		l->paused = !l->paused;
		l->status[0] = '\0';
		break;
	case DTL_ACT_SPAN:
		l->since_start = !l->since_start;
		loop_refill(l, l->table.ts_ns);	/* asked for: new rows even when paused */
		break;
	case DTL_ACT_INTERVAL:
		l->o.interval_s = a->interval_s;
		snprintf(l->status, sizeof(l->status), "interval now %.2fs (from the next one)",
			 a->interval_s);
		break;
	case DTL_ACT_REDRAW:
		l->status[0] = '\0';	/* a message lasts until the next key */
		break;
	case DTL_ACT_STEP:
		loop_step_by(l, a->step);
		break;
	case DTL_ACT_JUMP:
		loop_jump(l, a->text);
		break;
	case DTL_ACT_GROUP:
		group(l);
		break;
	}
}

bool dtl_loop__act(struct dtl_loop *l, struct dtl_view *v, struct dtl_act a)
{
	if (a.what == DTL_ACT_QUIT)
		return false;
	if (a.what == DTL_ACT_NONE)
		return true;
	l->view = v;
	act(l, &a);
	loop_redraw(l);
	return true;
}
