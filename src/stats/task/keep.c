/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keep.c - a summary's side of the task table: each task's interval, kept
 * for the writer, and such intervals folded back in by a replay exactly as
 * the switches and entries were.
 */
#include "internal.h"

#include "../where.h"

#include <stdio.h>
#include <string.h>

void dtl_tasks__keep(struct dtl_tasks *t)
{
	t->keep = true;
}

int dtl_tasks__kept(const struct dtl_tasks *t, size_t i, size_t *told, struct dtl_task_interval *ti)
{
	const struct task *k;
	bool fresh;

	if (!t->keep || i >= t->ntask)
		return 0;
	k = &t->task[i];
	fresh = i >= *told;	/* a row with nothing yet is still a row */
	if (fresh)
		*told = i + 1;
	/* a woken task may take steal without a dispatch of its own */
	if (!fresh && !k->last.dispatches && !k->last.steal_raw && !k->last.steal_ticks &&
	    !k->run_last && !k->invol_last)
		return 0;
	memset(ti, 0, sizeof(*ti));
	ti->pid = k->pid;
	ti->name = k->name;
	ti->cgroup = k->cgroup >= 0 ? t->cg[k->cgroup].name : NULL;
	ti->c = k->last;
	ti->run = k->run_last;
	ti->user = k->user_last;
	ti->invol = k->invol_last;
	ti->pcs = k->lpcs;
	ti->npcs = k->nlpcs;
	return 1;
}

/* The task a summary names: found by pid, else made in the next row (past the last, "other"). */
static struct task *task_named(struct dtl_tasks *t, const struct dtl_task_interval *ti)
{
	long idx = tasks_index_of(t, ti->pid);
	struct task *k;
	size_t h;

	if (idx >= 0)
		return &t->task[idx];
	if (t->ntask >= DTL_TASKS_MAX)
		return &t->task[DTL_TASKS_MAX - 1];
	k = tasks_grow(t);
	if (!k)
		return NULL;
	k->pid = ti->pid;
	k->cgroup = -1;
	for (h = tasks_pid_slot(t->key, ti->pid); t->slot[h]; h = (h + 1) & (t->nslot - 1))
		t->probes++;
	t->slot[h] = (int)t->ntask;
	return k;
}

void dtl_tasks__add_interval(struct dtl_tasks *t, const struct dtl_task_interval *ti)
{
	struct task *k = task_named(t, ti);

	t->known = true;
	if (!k)
		return;
	snprintf(k->name, sizeof(k->name), "%s", ti->name ? ti->name : "?");
	if (ti->cgroup)
		k->cgroup = tasks_cgroup_of(t, ti->cgroup);
	dtl_counts__add(&k->cur, &ti->c);
	k->run_cur += ti->run;
	k->user += ti->user;
	k->invol += ti->invol;
	for (size_t i = 0; i < ti->npcs; i++) {
		int counted = tasks_note_pc(k, ti->pcs[i].pc, ti->pcs[i].n);

		if (counted == 2 && t->log_pcs && dtl_where__kernel(ti->pcs[i].pc))
			tasks_log_pc(t, ti->pcs[i].pc);
		if (counted && t->keep)
			tasks_keep_pc(k, ti->pcs[i].pc, ti->pcs[i].n);
	}
	if (ti->pid == NOBODY_PID)
		t->unattributed += ti->c.dispatches;
}
