/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * interval.c - a task table's interval end: pending wake-ups settled, time
 * on the CPU charged, counters moved into the totals, cgroups summed.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cgroup's row: its tasks' counters summed; the idle task is no cgroup's, but has a row. */
static void sum_cgroups(struct dtl_tasks *t)
{
	struct task *rows = realloc(t->cgrow, (t->ncg + 2) * sizeof(*rows));

	if (!rows)
		return;
	t->cgrow = rows;
	t->ncgrow = t->ncg + 2;
	memset(rows, 0, t->ncgrow * sizeof(*rows));
	for (size_t i = 0; i < t->ncg; i++)
		snprintf(rows[i].name, sizeof(rows[i].name), "%s", t->cg[i].name);
	snprintf(rows[t->ncg].name, sizeof(rows[t->ncg].name), "(unknown)");
	snprintf(rows[t->ncg + 1].name, sizeof(rows[t->ncg + 1].name), "idle");
	for (size_t i = 0; i < t->ntask; i++) {
		const struct task *k = &t->task[i];
		struct task *g = &rows[tasks_cgrow_of(t, k)];

		dtl_counts__add(&g->last, &k->last);
		dtl_counts__add(&g->total, &k->total);
		g->run_last += k->run_last;
		g->run_total += k->run_total;
		g->pid = 1;	/* has tasks */
	}
}

/*
 * A wake-up still pending at the interval's end goes to the task its queue
 * says runs first after the dispatch, so no interval's figures move later;
 * where none has come yet, the idle task keeps it.
 */
static void settle_wake(struct dtl_tasks *t, struct cpuq *q)
{
	for (size_t i = 0; q->wake_from >= 0 && i < q->n; i++) {
		const struct queued *sw = &q->q[(q->head + i) & (q->cap - 1)];

		if (sw->tb < q->wake_tb || !sw->pid)
			continue;
		if (sw->task >= 0)
			tasks_wake(t, q, sw->task);
		break;
	}
	q->wake_from = -1;
}

/* The interval's srr0s become the last one's; the preempts counted in it, differences. */
static void keep(struct task *k)
{
	struct dtl_task_pc *p = k->lpcs;
	uint32_t cap = k->lpcap;

	k->lpcs = k->ipcs;
	k->lpcap = k->ipcap;
	k->nlpcs = k->nipcs;
	k->ipcs = p;
	k->ipcap = cap;
	k->nipcs = 0;
	k->user_last = k->user - k->user_mark;
	k->invol_last = k->invol - k->invol_mark;
	k->user_mark = k->user;
	k->invol_mark = k->invol;
}

void dtl_tasks__end_interval(struct dtl_tasks *t, double interval_s, unsigned int mask)
{
	/* the running task's time so far is this interval's: charged up to the last instant seen */
	for (unsigned int c = 0; c < t->nr_cpus; c++) {
		struct cpuq *q = &t->cpu[c];

		settle_wake(t, q);
		if (q->cur >= 0 && q->last_tb > q->since) {
			t->task[q->cur].run_cur += q->last_tb - q->since;
			q->since = q->last_tb;
		}
	}
	for (size_t i = 0; i < t->ntask; i++) {
		struct task *k = &t->task[i];

		if (t->keep)
			keep(k);
		k->last = k->cur;
		dtl_counts__add(&k->total, &k->cur);
		memset(&k->cur, 0, sizeof(k->cur));
		k->run_last = k->run_cur;
		k->run_total += k->run_cur;
		k->run_cur = 0;
	}
	t->mask = mask;
	t->last_s = interval_s;
	t->total_s += interval_s;
	t->total_n++;
	sum_cgroups(t);
}

void dtl_tasks__reset_totals(struct dtl_tasks *t)
{
	for (size_t i = 0; i < t->ntask; i++) {
		memset(&t->task[i].total, 0, sizeof(t->task[i].total));
		free(t->task[i].pcs);
		t->task[i].pcs = NULL;
		t->task[i].npcs = t->task[i].pccap = 0;
		t->task[i].run_total = t->task[i].user = t->task[i].invol = 0;
		t->task[i].user_mark = t->task[i].invol_mark = 0;
	}
	t->total_s = 0;
	t->total_n = 0;
	t->unattributed = 0;
	sum_cgroups(t);
}
