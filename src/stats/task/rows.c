/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rows.c - a task's or cgroup's row, and where in the kernel it was
 * preempted (its srr0s, merged and ranked).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int dtl_tasks__row(const struct dtl_tasks *t, enum dtl_task_group g, size_t i,
		   enum dtl_span span, struct dtl_row *row)
{
	const struct task *k;
	bool total = span == DTL_SPAN_TOTAL;
	uint64_t run;
	double secs = total ? t->total_s : t->last_s, on_us;

	if (i >= dtl_tasks__count(t, g))
		return -1;
	k = g == DTL_TASKS_BY_CGROUP ? &t->cgrow[i] : &t->task[i];
	if (g == DTL_TASKS_BY_CGROUP && !k->pid)
		return -1;	/* a cgroup whose tasks all left the table */
	run = total ? k->run_total : k->run_last;
	dtl_counts__row(total ? &k->total : &k->last, t->tb_freq, false,
			g == DTL_TASKS_BY_CGROUP ? (int)i : (int)k->pid, secs,
			(uint64_t)(secs * (double)t->tb_freq), t->mask, 1, total ? t->total_n : 1, row);
	/* a task's steal is a share of its own time on the CPU, not of the interval */
	on_us = (double)run * 1e6 / (double)t->tb_freq;
	row->oncpu_s = on_us / 1e6;
	row->steal_pct = on_us > 0 ? 100.0 * row->steal_us / on_us : 0;
	row->idle_pct = on_us > 0 ? 100.0 * row->idle_us / on_us : 0;
	if (row->steal_pct > 100)
		row->steal_pct = 100;
	if (row->idle_pct > 100 - row->steal_pct)
		row->idle_pct = 100 - row->steal_pct;
	row->run_pct = 100 - row->steal_pct - row->idle_pct;
	row->name = k->name;
	row->group = g == DTL_TASKS_BY_CGROUP ? DTL_ROW_CGROUP : DTL_ROW_TASK;
	return 0;
}

static void merge_pcs(struct dtl_task_pc *acc, int *n, int cap, const struct task *k)
{
	for (uint32_t j = 0; j < k->pccap; j++) {
		int i;

		if (!k->pcs[j].n)
			continue;
		for (i = 0; i < *n && acc[i].pc != k->pcs[j].pc; i++)
			;
		if (i == *n) {
			if (*n == cap)
				continue;
			acc[(*n)++] = (struct dtl_task_pc){ k->pcs[j].pc, 0 };
		}
		acc[i].n += k->pcs[j].n;
	}
}

static int by_count(const void *a, const void *b)
{
	const struct dtl_task_pc *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : (x->pc > y->pc) - (x->pc < y->pc);
}

int dtl_tasks__pcs(const struct dtl_tasks *t, enum dtl_task_group g, int id,
		   struct dtl_task_pc *out, int max, uint64_t *user, uint64_t *all)
{
	struct dtl_task_pc acc[4 * DTL_TASKS_PCS];
	long idx = g == DTL_TASKS_BY_TASK ? tasks_index_of(t, id) : id;
	size_t i;
	int n = 0;

	*user = *all = 0;
	if (!t || idx < 0 || (size_t)idx >= dtl_tasks__count(t, g))
		return -1;
	i = (size_t)idx;
	for (size_t j = 0; j < t->ntask; j++) {
		const struct task *k = &t->task[j];

		if (g == DTL_TASKS_BY_TASK ? j != i : tasks_cgrow_of(t, k) != i)
			continue;
		merge_pcs(acc, &n, (int)(sizeof(acc) / sizeof(acc[0])), k);
		*user += k->user;
		*all += k->invol;
	}
	qsort(acc, (size_t)n, sizeof(acc[0]), by_count);
	if (n > max)
		n = max;
	memcpy(out, acc, (size_t)n * sizeof(*out));
	return n;
}
