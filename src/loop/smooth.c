/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smooth.c - --smooth SECS and the S key: the rows' rates and shares as
 * exponentially decayed averages, like the load average, so a table of
 * 1920 CPUs stops reordering itself every second. Only what a person
 * watches is smoothed: the batch formats keep each interval's own figures.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The figures smoothed, each a double of struct dtl_row. */
static const size_t fields[] = {
	offsetof(struct dtl_row, dispatch_per_s), offsetof(struct dtl_row, preempt_ratio),
	offsetof(struct dtl_row, steal_us), offsetof(struct dtl_row, steal_pct),
	offsetof(struct dtl_row, idle_us), offsetof(struct dtl_row, idle_pct),
	offsetof(struct dtl_row, run_pct),
};
#define NF (sizeof(fields) / sizeof(fields[0]))

struct smooth {
	unsigned int n;		/* rows: one per CPU id, and the partition's last */
	bool by_vp;
	bool *seen;
	double (*v)[NF];
};

static double *field(struct dtl_row *r, size_t k)
{
	return (double *)(void *)((char *)r + fields[k]);
}

static struct smooth *state(struct dtl_loop *l)
{
	unsigned int n = dtl_stats__nr_cpus(l->stats) + 1;
	struct smooth *s = l->smooth;

	if (s && s->n == n && s->by_vp == l->table.by_vp)
		return s;
	if (s) {	/* regrouped: start again */
		free(s->seen), free(s->v), free(s);
	}
	s = calloc(1, sizeof(*s));
	if (s) {
		s->seen = calloc(n, sizeof(*s->seen));
		s->v = calloc(n, sizeof(*s->v));
		if (!s->seen || !s->v) {
			free(s->seen), free(s->v), free(s);
			s = NULL;
		} else {
			s->n = n;
			s->by_vp = l->table.by_vp;
		}
	}
	l->smooth = s;
	return s;
}

/* One row: into the average on a new interval, then the average into the row. */
static void one(struct smooth *s, unsigned int k, struct dtl_row *r, double a, bool fresh)
{
	for (size_t f = 0; f < NF; f++) {
		double *x = field(r, f);

		if (fresh)
			s->v[k][f] = s->seen[k] ? s->v[k][f] + a * (*x - s->v[k][f]) : *x;
		if (s->seen[k] || fresh)
			*x = s->v[k][f];
	}
	/* DISP beside a smoothed DISP/s says the same: the count the rate stands for */
	if (s->seen[k] || fresh)
		r->dispatches = (uint64_t)llround(r->dispatch_per_s * r->interval_s);
	s->seen[k] |= fresh;
}

void loop_smooth(struct dtl_loop *l, bool fresh)
{
	struct smooth *s;
	double a;

	if (l->smooth_s <= 0 || l->since_start || !loop_interactive(l) || !(s = state(l)))
		return;
	a = 1 - exp(-l->o.interval_s / l->smooth_s);
	for (size_t i = 0; i < l->table.n; i++) {
		struct dtl_row *r = &l->table.rows[i];

		/* a task's row is its own interval's: pids are no CPU's slots */
		if (r->group == DTL_ROW_CPU_VP && r->cpu >= 0 && (unsigned int)r->cpu < s->n - 1)
			one(s, (unsigned int)r->cpu, r, a, fresh);
	}
	one(s, s->n - 1, &l->table.all, a, fresh);
}

void loop_smooth_free(struct dtl_loop *l)
{
	struct smooth *s = l->smooth;

	if (s) {
		free(s->seen), free(s->v), free(s);
	}
	l->smooth = NULL;
}
