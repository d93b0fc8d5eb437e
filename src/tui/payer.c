/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * payer.c - the detail pane of a task or cgroup (Enter on its row): what it
 * paid, why it was preempted, and where in the code its involuntary
 * preempts hit: the kernel functions of srr0 (from /proc/kallsyms, or why
 * they cannot be named) and the share in user space (MSR[PR] in srr1).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../dtl/name.h"
#include "../stats/where.h"
#include "../view/judge.h"
#include "pane.h"

/* The pane's body scrolls (arrows, PgUp/PgDn): line y of it lands at y - top, kept in view. */
static int body_top, body_y0, body_end;

__attribute__((format(printf, 3, 4)))
static void line(int y, int attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	y -= body_top;
	if (y < body_y0 || y >= body_end)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	dtl_tui__line(y, attr, "%s", buf);
}

static const struct dtl_row *find_row(const struct dtl_tui *t, const struct dtl_model *m)
{
	for (size_t i = 0; i < m->table->n; i++)
		if (m->table->rows[i].cpu == t->detail_id &&
		    m->table->rows[i].group == t->detail_group)
			return &m->table->rows[i];
	return NULL;
}

/* The reasons that occurred, most first, one line each: the count and its share. */
static int reasons(int y, int rows, const char *title, uint64_t *c, unsigned int n,
		   const char *(*name)(unsigned int))
{
	uint64_t total = 0, done = 0;
	int used = 0;

	for (unsigned int i = 0; i < n; i++)
		total += c[i];
	line(y + used++, A_BOLD, "%s", title);
	while (used < rows && done < total) {
		unsigned int best = 0;

		for (unsigned int i = 1; i < n; i++)
			if (c[i] > c[best])
				best = i;
		if (!c[best])
			break;
		line(y + used++, 0, "  %-36s %8" PRIu64 "  %5.1f%%",
			      best < n - 1 ? name(best) : "other", c[best],
			      100.0 * (double)c[best] / (double)total);
		done += c[best];
		c[best] = 0;	/* the caller's copy */
	}
	return used;
}

/* Where involuntary preempts hit since start (or r, a window, a jump), by function, most first; the lines used. */
static int where(struct dtl_tui *t, const struct dtl_model *m, int y, int rows)
{
	enum dtl_task_group g = t->detail_group == DTL_ROW_CGROUP ? DTL_TASKS_BY_CGROUP :
			       DTL_TASKS_BY_TASK;
	const char *why = "";
	const struct dtl_ksyms *k = m->syms ? dtl_syms__get(m->syms, &why) : NULL;
	char since[24];
	struct dtl_where w;
	int used = 0;

	dtl_model__since(m, since, sizeof(since));
	line(y + used++, A_BOLD, "Where its involuntary preempts hit (srr0, %s)", since);
	if (dtl_where__of(m->table->tasks, g, t->detail_id, k, &w) || !w.all) {
		line(y + used++, 0, "  none yet");
		return used;
	}
	/* user space is said once, here: no function of its own */
	line(y + used++, 0, "  in user space (MSR[PR] in srr1): %" PRIu64 " of %" PRIu64
	     " (%.1f%%)", w.user, w.all, 100.0 * (double)w.user / (double)w.all);
	for (int i = 0; i < w.n && used < rows; i++)
		line(y + used++, 0, "  %-44s %8" PRIu64 "  %5.1f%%", w.fn[i].name, w.fn[i].n,
		     100.0 * (double)w.fn[i].n / (double)w.all);
	if (w.other && used < rows)
		line(y + used++, 0, "  %-44s %8" PRIu64 "  %5.1f%%", "(other functions)", w.other,
		     100.0 * (double)w.other / (double)w.all);
	if (w.unkept && used < rows)
		line(y + used++, 0, "  %-44s %8" PRIu64 "  (past %d distinct addresses a task)",
		     "not kept", w.unkept, DTL_TASKS_PCS);
	if (!k && used < rows)
		line(y + used++, 0, "  kernel functions unknown: %s", why);
	return used;
}

/* The pane; the screen line below its last, or INT_MAX with no row to show. */
static int payer_body(struct dtl_tui *t, const struct dtl_model *m, int y, int rows)
{
	const struct dtl_row *r = find_row(t, m);
	struct dtl_row c;
	char steal[16], p50[16], p99[16], name[256], since[24];
	const char *kind = t->detail_group == DTL_ROW_CGROUP ? "cgroup" : "process";
	int end = y + rows;

	for (int i = y; i < end; i++) {
		move(i, 0);
		clrtoeol();
	}
	if (!r) {
		dtl_tui__line(y, 0, "%s %d has no row in this span (it did not run; Esc returns)",
			      t->detail_group == DTL_ROW_CGROUP ? "cgroup" : "pid", t->detail_id);
		return INT_MAX;
	}
	c = *r;
	dtl_judge__us(c.steal_us, steal, sizeof(steal));
	dtl_judge__us(c.lat_p50_us, p50, sizeof(p50));
	dtl_judge__us(c.lat_p99_us, p99, sizeof(p99));
	/* the name in the width there is, elided in the middle: a scope's hash stays */
	dtl_name__elide(name, sizeof(name), c.name, COLS - (int)strlen(kind) - 11 > 8 ?
			COLS - (int)strlen(kind) - 11 : 8);
	dtl_tui__line(y++, A_BOLD, "Who pays: %s %s", kind, name);
	body_top = t->detail_top, body_y0 = y, body_end = end;
	/* every figure of the first lines is of one span, said: this interval, or since start */
	dtl_model__since(m, since, sizeof(since));
	since[0] = 'S';
	line(y++, 0, "%s: %" PRIu64 " preempts charged (%.1f%% involuntary)",
	     m->since_start ? since : "This interval", c.dispatches, c.preempt_ratio * 100);
	line(y++, 0, "  steal %s = %.1f%% of its %.2fs on its CPUs", steal, c.steal_pct, c.oncpu_s);
	line(y++, 0, "  dispatch wait p50 %s p99 %s", c.samples >= DTL_MIN_SAMPLES ? p50 : "-",
	     c.samples >= DTL_MIN_SAMPLES ? p99 : "-");
	y++;
	y += reasons(y, end + body_top - y, "Preempted by", c.preempt, DTL_N_PREEMPT + 1,
		     dtl_preempt__name) + 1;
	return y + where(t, m, y, end + body_top - y) - body_top;
}

static void payer_draw(struct dtl_tui *t, const struct dtl_model *m, int y, int rows)
{
	if (dtl_tui__unscroll(t, payer_body(t, m, y, rows), y, rows))
		payer_body(t, m, y, rows);	/* it clears its lines itself */
}

static int payer_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	(void)t, (void)m;
	return DTL_PANE_FILL;
}

static bool payer_focused(const struct dtl_tui *t)
{
	return t->detail;
}

const struct dtl_pane dtl_pane_payer = {
	.name = "payer",
	.height = payer_height,
	.draw = payer_draw,
	.key = dtl_tui__detail_key,
	.focused = payer_focused,
};
