/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * charge.c - charge each DTL entry to the task and cgroup that ran when the
 * hypervisor preempted (or the guest ceded) the vCPU.
 *
 * A CPU's preempt instants only move forward (each entry's instant is after
 * the last one's dispatch), so its switches are a queue consumed up to each
 * instant: no search, no history beyond what no entry has reached yet.
 */
#include "internal.h"

#include "../where.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The task's index, made at first sight; past DTL_TASKS_MAX all share "other". */
static int task_of(struct dtl_tasks *t, const struct dtl_switch *sw)
{
	size_t h = tasks_pid_slot(t->key, sw->pid);
	struct task *k;

	while (t->slot[h]) {
		t->probes++;
		k = &t->task[t->slot[h] - 1];
		if (k->pid == sw->pid) {
			if (sw->comm)	/* exec: the name changes, the figures stay */
				tasks_set_name(k, sw->pid, sw->comm);
			if (sw->cgroup)
				k->cgroup = tasks_cgroup_of(t, sw->cgroup);
			return t->slot[h] - 1;
		}
		h = (h + 1) % t->nslot;
	}
	if (t->ntask >= DTL_TASKS_MAX)
		return DTL_TASKS_MAX - 1;
	if (t->ntask == DTL_TASKS_MAX - 1) {
		/* the table is full: this and every later task share one row */
		k = tasks_grow(t);
		if (!k)
			return -1;
		k->pid = OTHER_PID;	/* no pid's, and not -1: that is the partition's row id */
		k->cgroup = -1;
		snprintf(k->name, sizeof(k->name), "other");
		return DTL_TASKS_MAX - 1;
	}
	k = tasks_grow(t);
	if (!k)
		return -1;
	k->pid = sw->pid;
	k->cgroup = sw->pid == 0 ? -1 : sw->cgroup ? tasks_cgroup_of(t, sw->cgroup) : -1;
	tasks_set_name(k, sw->pid, sw->comm);
	t->slot[h] = (int)t->ntask;
	return (int)t->ntask - 1;
}

/*
 * Who ran is not known (before the CPU's first switch, after a stream lost
 * records): such entries have a row of their own, not the task before's.
 */
static int nobody(struct dtl_tasks *t)
{
	struct dtl_switch sw = { .pid = NOBODY_PID };

	return task_of(t, &sw);
}

/* The woken task (index to) takes the pending cede's steal from the idle task. */
void tasks_wake(struct dtl_tasks *t, struct cpuq *q, int to)
{
	struct dtl_counts *from = &t->task[q->wake_from].cur, *c = &t->task[to].cur;

	from->steal_ticks -= q->wake_steal;
	from->wake_ticks -= q->wake_steal;
	from->steal_raw -= q->wake_steal;
	from->e2d_raw -= q->wake_e2d;
	c->steal_ticks += q->wake_steal;
	c->wake_ticks += q->wake_steal;
	c->steal_raw += q->wake_steal;
	c->e2d_raw += q->wake_e2d;
	q->wake_from = -1;
}

/* Switch in: the task that leaves is charged its time on the CPU up to tb. */
static void apply(struct dtl_tasks *t, struct cpuq *q, const struct queued *sw)
{
	if (q->cur >= 0 && sw->tb > q->since)
		t->task[q->cur].run_cur += sw->tb - q->since;
	q->cur = sw->task;
	q->since = sw->tb;
	q->last_tb = sw->tb;
	if (q->wake_from >= 0 && sw->pid != 0 && sw->tb >= q->wake_tb) {
		if (q->cur >= 0)
			tasks_wake(t, q, q->cur);
		q->wake_from = -1;	/* who woke is unknown: idle keeps it */
	}
}

void dtl_tasks__switch(struct dtl_tasks *t, unsigned int cpu, const struct dtl_switch *sw)
{
	struct cpuq *q;
	struct queued *slot;

	if (cpu >= t->nr_cpus)
		return;
	q = &t->cpu[cpu];
	t->known = true;
	if (q->n && sw->tb < q->q[(q->head + q->n - 1) & (q->cap - 1)].tb)
		return;		/* out of order: the stream is broken, not the task */
	if (q->n == DTL_TASKS_QUEUE) {
		/* no entry came for long (a mask without cede): the oldest apply now */
		apply(t, q, &q->q[q->head]);
		q->head = (q->head + 1) & (q->cap - 1);
		q->n--;
	}
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		struct queued *n = malloc(cap * sizeof(*n));

		if (!n)
			return;
		for (size_t i = 0; i < q->n; i++)
			n[i] = q->q[(q->head + i) & (q->cap - 1)];
		free(q->q);
		q->q = n;
		q->cap = cap;
		q->head = 0;
	}
	/* names are taken in now, so the queue holds no pointer into the caller's buffers */
	slot = &q->q[(q->head + q->n) & (q->cap - 1)];
	slot->tb = sw->tb;
	slot->pid = sw->pid;
	slot->task = sw->pid < 0 ? -1 : task_of(t, sw);
	q->n++;
}

static inline uint32_t pc_slot(uint64_t pc, uint32_t cap)
{
	return (uint32_t)((pc >> 2) * 0x9e3779b97f4a7c15ull >> 40) & (cap - 1);
}

/*
 * Exact counts of the first DTL_TASKS_PCS distinct addresses; later new
 * ones go uncounted. 2 for an address new to the task, 1 for one counted
 * again, 0 for one not counted.
 */
int tasks_note_pc(struct task *k, uint64_t pc, uint64_t n)
{
	uint32_t h;

	if (k->npcs * 2 >= k->pccap && k->pccap < 2 * DTL_TASKS_PCS) {
		uint32_t cap = k->pccap ? 2 * k->pccap : 16;
		struct dtl_task_pc *tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return 0;
		for (uint32_t i = 0; i < k->pccap; i++)
			if (k->pcs[i].n) {
				for (h = pc_slot(k->pcs[i].pc, cap); tab[h].n; h = (h + 1) & (cap - 1))
					;
				tab[h] = k->pcs[i];
			}
		free(k->pcs);
		k->pcs = tab;
		k->pccap = cap;
	}
	if (!k->pccap)
		return 0;
	for (h = pc_slot(pc, k->pccap); k->pcs[h].n; h = (h + 1) & (k->pccap - 1))
		if (k->pcs[h].pc == pc) {
			k->pcs[h].n += n;
			return 1;
		}
	if (k->npcs >= DTL_TASKS_PCS)
		return 0;
	k->pcs[h].pc = pc;
	k->pcs[h].n = n;
	k->npcs++;
	return 2;
}

#define FRESH_MAX (1u << 20)	/* a recorder that never takes them costs at most 8 MB */

void tasks_log_pc(struct dtl_tasks *t, uint64_t pc)
{
	if (t->nfresh == t->freshcap) {
		size_t cap = t->freshcap ? 2 * t->freshcap : 256;
		uint64_t *n;

		if (cap > FRESH_MAX)
			return;
		n = realloc(t->fresh, cap * sizeof(*n));
		if (!n)
			return;
		t->fresh = n;
		t->freshcap = cap;
	}
	t->fresh[t->nfresh++] = pc;
}

/* An srr0 counted in this interval, for a summary: at most DTL_TASKS_PCS of them. */
void tasks_keep_pc(struct task *k, uint64_t pc, uint64_t n)
{
	for (uint32_t i = 0; i < k->nipcs; i++)
		if (k->ipcs[i].pc == pc) {
			k->ipcs[i].n += n;
			return;
		}
	if (k->nipcs == k->ipcap) {
		uint32_t cap = k->ipcap ? 2 * k->ipcap : 8;
		struct dtl_task_pc *p = realloc(k->ipcs, cap * sizeof(*p));

		if (!p)
			return;
		k->ipcs = p;
		k->ipcap = cap;
	}
	k->ipcs[k->nipcs++] = (struct dtl_task_pc){ pc, n };
}

static void charge(struct dtl_tasks *t, struct task *k, const struct dtl_rec *r)
{
	unsigned int p = r->preempt_reason < DTL_N_PREEMPT ? r->preempt_reason : DTL_N_PREEMPT;

	dtl_counts__entry(&k->cur, r);
	if ((DTL_PREEMPT_INVOLUNTARY_MASK >> p) & 1) {
		k->invol++;
		k->user += (r->srr1 >> 14) & 1;	/* MSR[PR]: problem state */
		int counted = tasks_note_pc(k, r->srr0, 1);

		if (counted == 2 && t->log_pcs && dtl_where__kernel(r->srr0))
			tasks_log_pc(t, r->srr0);
		if (counted && t->keep)
			tasks_keep_pc(k, r->srr0, 1);
	}
}

void dtl_tasks__log_pcs(struct dtl_tasks *t)
{
	t->log_pcs = true;
}

size_t dtl_tasks__take_pcs(struct dtl_tasks *t, uint64_t *out, size_t max)
{
	size_t n = t->nfresh < max ? t->nfresh : max;

	if (!n)
		return 0;	/* fresh may be NULL: no memcpy from it, even of 0 bytes */
	memcpy(out, t->fresh + t->nfresh - n, n * sizeof(*out));
	t->nfresh -= n;
	return n;
}

void dtl_tasks__add_entries(struct dtl_tasks *t, unsigned int cpu, const uint8_t *entries,
			    size_t n)
{
	struct cpuq *q;
	struct dtl_rec r;

	if (cpu >= t->nr_cpus || !t->known)
		return;
	q = &t->cpu[cpu];
	for (size_t i = 0; i < n; i++) {
		uint64_t wait, at;

		dtl_rec__decode(&r, entries + i * DTL_ENTRY_SIZE);
		if (!r.timebase)
			continue;	/* the AUX header's marker */
		wait = (uint64_t)r.enqueue_to_dispatch + r.ready_to_enqueue + r.waiting_to_ready;
		at = wait < r.timebase ? r.timebase - wait : 0;
		while (q->n && q->q[q->head].tb <= at) {
			apply(t, q, &q->q[q->head]);
			q->head = (q->head + 1) & (q->cap - 1);
			q->n--;
		}
		q->wake_from = -1;	/* ceded again before any task ran: no task woke */
		if (q->cur < 0) {
			int k = nobody(t);

			t->unattributed++;
			if (k >= 0)
				charge(t, &t->task[k], &r);
			continue;
		}
		charge(t, &t->task[q->cur], &r);
		/* the reason is the hypervisor's byte: bounded before it is a shift */
		if (!t->task[q->cur].pid && r.preempt_reason < DTL_N_PREEMPT &&
		    ((DTL_PREEMPT_CEDE_MASK >> r.preempt_reason) & 1)) {
			q->wake_from = q->cur;
			q->wake_tb = r.timebase;
			q->wake_steal = (uint64_t)r.enqueue_to_dispatch + r.ready_to_enqueue;
			q->wake_e2d = r.enqueue_to_dispatch;
		}
		if (at > q->last_tb)
			q->last_tb = at;
	}
}
