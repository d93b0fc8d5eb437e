/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * task.c - charge each DTL entry to the task and cgroup that ran when the
 * hypervisor preempted (or the guest ceded) the vCPU.
 *
 * A CPU's preempt instants only move forward (each entry's instant is after
 * the last one's dispatch), so its switches are a queue consumed up to each
 * instant: no search, no history beyond what no entry has reached yet.
 */
#include "task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/hash.h"
#include "../dtl/name.h"
#include "counts.h"
#include "where.h"

#define NAME_LEN 128
#define OTHER_PID INT32_MAX	/* the row of every task past DTL_TASKS_MAX */
#define NOBODY_PID (INT32_MAX - 1)	/* the row of entries no known task ran at */
/* the pid and cgroup tables: twice the tasks they hold, a power of two */
#define SLOT_BITS 13
_Static_assert(1u << SLOT_BITS == 2 * DTL_TASKS_MAX, "two slots per task");

struct task {
	int32_t pid;
	int cgroup;		/* index into cgroups[], -1 unknown */
	char name[NAME_LEN];	/* "db[1234]", "idle", "other" */
	struct dtl_counts cur, last, total;
	uint64_t run_cur, run_last, run_total;	/* ticks on the CPU, as the guest saw it */
	struct dtl_task_pc *pcs;	/* since start: srr0 -> count, open addressing */
	uint32_t npcs, pccap;
	uint64_t user, invol;	/* involuntary preempts in user space, and all */
	/* kept for a summary (dtl_tasks__keep): the interval's srr0s, and the last one's */
	struct dtl_task_pc *ipcs, *lpcs;
	uint32_t nipcs, nlpcs, ipcap, lpcap;
	uint64_t user_mark, invol_mark, user_last, invol_last;
};

struct cgroup {
	char name[NAME_LEN];
	uint64_t hash;
};

struct cpuq {
	struct dtl_switch *q;	/* comm and cgroup already taken in: NULL here */
	size_t head, n, cap;	/* cap a power of two: an index is masked, not divided */
	int cur;		/* the running task's index, -1 unknown */
	uint64_t since;		/* when it was switched in */
	uint64_t last_tb;	/* the latest switch or instant applied */
	/*
	 * A cede's steal waits for the task its wake-up was for: the first
	 * switched in after the entry's dispatch, before the next instant.
	 * Charged to the idle task (wake_from) until then; -1 none pending.
	 */
	int wake_from;
	uint64_t wake_tb, wake_steal, wake_e2d;
};

struct dtl_tasks {
	unsigned int nr_cpus;
	uint64_t tb_freq;
	struct cpuq *cpu;
	struct task *task;
	size_t ntask, cap;
	int *slot;		/* pid hash: index + 1, 0 empty */
	size_t nslot;
	struct cgroup *cg;
	size_t ncg;
	int *cgslot;		/* cgroup hash: index + 1, 0 empty */
	/*
	 * Drawn at start: the pids and names a file or a guest chooses cannot be
	 * made to share slots, so a switch costs the same whatever they are.
	 */
	uint64_t key, cgkey;
	uint64_t probes;	/* slots looked at, for the tests' bound */
	unsigned int mask;
	double last_s, total_s;
	uint64_t total_n;
	uint64_t unattributed;
	bool known;
	/* rows of the cgroup grouping, summed at each interval's end */
	struct task *cgrow;
	size_t ncgrow;
	/* kernel srr0s new to a task, for a recording's symbols (dtl_tasks__log_pcs) */
	bool log_pcs;
	uint64_t *fresh;
	size_t nfresh, freshcap;
	bool keep;		/* a summary is being written: dtl_tasks__kept() */
};

struct dtl_tasks *dtl_tasks__new(unsigned int nr_cpus, uint64_t tb_freq)
{
	struct dtl_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nr_cpus = nr_cpus;
	t->tb_freq = tb_freq ? tb_freq : 512000000;
	t->nslot = 2 * DTL_TASKS_MAX;
	t->cpu = calloc(nr_cpus ? nr_cpus : 1, sizeof(*t->cpu));
	t->slot = calloc(t->nslot, sizeof(*t->slot));
	t->cg = calloc(DTL_TASKS_MAX + 1, sizeof(*t->cg));
	t->cgslot = calloc(t->nslot, sizeof(*t->cgslot));
	t->key = dtl_hash__key(t);
	t->cgkey = dtl_hash__key(t->cpu) * 0xbf58476d1ce4e5b9ull;
	if (!t->cpu || !t->slot || !t->cg || !t->cgslot) {
		dtl_tasks__delete(t);
		return NULL;
	}
	for (unsigned int c = 0; c < nr_cpus; c++)
		t->cpu[c].cur = t->cpu[c].wake_from = -1;
	return t;
}

void dtl_tasks__delete(struct dtl_tasks *t)
{
	if (!t)
		return;
	for (unsigned int c = 0; t->cpu && c < t->nr_cpus; c++)
		free(t->cpu[c].q);
	for (size_t i = 0; i < t->ntask; i++) {
		free(t->task[i].pcs);
		free(t->task[i].ipcs);
		free(t->task[i].lpcs);
	}
	free(t->cpu);
	free(t->task);
	free(t->slot);
	free(t->cg);
	free(t->cgslot);
	free(t->cgrow);
	free(t->fresh);
	free(t);
}

static int cgroup_of(struct dtl_tasks *t, const char *path)
{
	uint64_t hash = dtl_hash__name(t->cgkey, path, NAME_LEN - 1);	/* what a row keeps */
	size_t h = hash >> (64 - SLOT_BITS);

	for (; t->cgslot[h]; h = (h + 1) & (t->nslot - 1)) {
		const struct cgroup *g = &t->cg[t->cgslot[h] - 1];

		t->probes++;
		if (g->hash == hash && strncmp(g->name, path, sizeof(g->name) - 1) == 0)
			return t->cgslot[h] - 1;
	}
	if (t->ncg >= DTL_TASKS_MAX)
		return -1;
	snprintf(t->cg[t->ncg].name, sizeof(t->cg[t->ncg].name), "%s", path);
	t->cg[t->ncg].hash = hash;
	t->cgslot[h] = (int)++t->ncg;
	return (int)t->ncg - 1;
}

uint64_t dtl_tasks__probes(const struct dtl_tasks *t)
{
	return t->probes;
}

static void set_name(struct task *k, int32_t pid, const char *comm)
{
	char clean[17];
	size_t i;

	if (pid == 0) {
		snprintf(k->name, sizeof(k->name), "idle");
		return;
	}
	if (pid == NOBODY_PID) {
		snprintf(k->name, sizeof(k->name), "(unknown)");
		return;
	}
	/* the sources clean names as they come in; cut to 16 bytes, a character may split */
	snprintf(clean, sizeof(clean), "%s", comm ? comm : "");
	i = dtl_name__clean(clean);
	snprintf(k->name, sizeof(k->name), "%s[%d]", i ? clean : "?", (int)pid);
}

static struct task *grow(struct dtl_tasks *t)
{
	if (t->ntask == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct task *n = realloc(t->task, cap * sizeof(*n));

		if (!n)
			return NULL;
		t->task = n;
		t->cap = cap;
	}
	memset(&t->task[t->ntask], 0, sizeof(t->task[0]));
	return &t->task[t->ntask++];
}

static size_t pid_slot(uint64_t key, int32_t pid)
{
	return (size_t)(dtl_hash__pid(key, pid) >> (64 - SLOT_BITS));
}

/* The task's index, made at first sight; past DTL_TASKS_MAX all share "other". */
static int task_of(struct dtl_tasks *t, const struct dtl_switch *sw)
{
	size_t h = pid_slot(t->key, sw->pid);
	struct task *k;

	while (t->slot[h]) {
		t->probes++;
		k = &t->task[t->slot[h] - 1];
		if (k->pid == sw->pid) {
			if (sw->comm)	/* exec: the name changes, the figures stay */
				set_name(k, sw->pid, sw->comm);
			if (sw->cgroup)
				k->cgroup = cgroup_of(t, sw->cgroup);
			return t->slot[h] - 1;
		}
		h = (h + 1) % t->nslot;
	}
	if (t->ntask >= DTL_TASKS_MAX)
		return DTL_TASKS_MAX - 1;
	if (t->ntask == DTL_TASKS_MAX - 1) {
		/* the table is full: this and every later task share one row */
		k = grow(t);
		if (!k)
			return -1;
		k->pid = OTHER_PID;	/* no pid's, and not -1: that is the partition's row id */
		k->cgroup = -1;
		snprintf(k->name, sizeof(k->name), "other");
		return DTL_TASKS_MAX - 1;
	}
	k = grow(t);
	if (!k)
		return -1;
	k->pid = sw->pid;
	k->cgroup = sw->pid == 0 ? -1 : sw->cgroup ? cgroup_of(t, sw->cgroup) : -1;
	set_name(k, sw->pid, sw->comm);
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
static void wake(struct dtl_tasks *t, struct cpuq *q, int to)
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
static void apply(struct dtl_tasks *t, struct cpuq *q, const struct dtl_switch *sw)
{
	if (q->cur >= 0 && sw->tb > q->since)
		t->task[q->cur].run_cur += sw->tb - q->since;
	q->cur = sw->pid < 0 ? -1 : task_of(t, sw);
	q->since = sw->tb;
	q->last_tb = sw->tb;
	if (q->wake_from >= 0 && sw->pid != 0 && sw->tb >= q->wake_tb) {
		if (q->cur >= 0)
			wake(t, q, q->cur);
		q->wake_from = -1;	/* who woke is unknown: idle keeps it */
	}
}

void dtl_tasks__switch(struct dtl_tasks *t, unsigned int cpu, const struct dtl_switch *sw)
{
	struct cpuq *q;
	struct dtl_switch *slot;

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
		struct dtl_switch *n = malloc(cap * sizeof(*n));

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
	*slot = *sw;
	if ((sw->comm || sw->cgroup) && sw->pid >= 0)
		task_of(t, sw);
	slot->comm = slot->cgroup = NULL;
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
static int note_pc(struct task *k, uint64_t pc, uint64_t n)
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

static void log_pc(struct dtl_tasks *t, uint64_t pc)
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
static void keep_pc(struct task *k, uint64_t pc, uint64_t n)
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
		int counted = note_pc(k, r->srr0, 1);

		if (counted == 2 && t->log_pcs && dtl_where__kernel(r->srr0))
			log_pc(t, r->srr0);
		if (counted && t->keep)
			keep_pc(k, r->srr0, 1);
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

/* The cgroup row a task adds to: its own, "(unknown)", or the idle task's apart. */
static size_t cgrow_of(const struct dtl_tasks *t, const struct task *k)
{
	return k->pid == 0 ? t->ncg + 1 : k->cgroup >= 0 ? (size_t)k->cgroup : t->ncg;
}

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
		struct task *g = &rows[cgrow_of(t, k)];

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
		const struct dtl_switch *sw = &q->q[(q->head + i) & (q->cap - 1)];
		int k;

		if (sw->tb < q->wake_tb || !sw->pid)
			continue;
		k = sw->pid < 0 ? -1 : task_of(t, sw);
		if (k >= 0)
			wake(t, q, k);
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

bool dtl_tasks__known(const struct dtl_tasks *t)
{
	return t && t->known;
}

size_t dtl_tasks__count(const struct dtl_tasks *t, enum dtl_task_group g)
{
	return g == DTL_TASKS_BY_CGROUP ? t->ncgrow : t->ntask;
}

uint64_t dtl_tasks__unattributed(const struct dtl_tasks *t)
{
	return t->unattributed;
}

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

/* A task's index from its row's id (its pid; OTHER_PID the "other" row); -1 none. */
static long index_of(const struct dtl_tasks *t, int pid)
{
	size_t h;

	if (pid == OTHER_PID)
		return t->ntask == DTL_TASKS_MAX ? DTL_TASKS_MAX - 1 : -1;
	for (h = pid_slot(t->key, pid); t->slot[h]; h = (h + 1) & (t->nslot - 1))
		if (t->task[t->slot[h] - 1].pid == pid)
			return t->slot[h] - 1;
	return -1;
}

int dtl_tasks__pcs(const struct dtl_tasks *t, enum dtl_task_group g, int id,
		   struct dtl_task_pc *out, int max, uint64_t *user, uint64_t *all)
{
	struct dtl_task_pc acc[4 * DTL_TASKS_PCS];
	long idx = g == DTL_TASKS_BY_TASK ? index_of(t, id) : id;
	size_t i;
	int n = 0;

	*user = *all = 0;
	if (!t || idx < 0 || (size_t)idx >= dtl_tasks__count(t, g))
		return -1;
	i = (size_t)idx;
	for (size_t j = 0; j < t->ntask; j++) {
		const struct task *k = &t->task[j];

		if (g == DTL_TASKS_BY_TASK ? j != i : cgrow_of(t, k) != i)
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
	long idx = index_of(t, ti->pid);
	struct task *k;
	size_t h;

	if (idx >= 0)
		return &t->task[idx];
	if (t->ntask >= DTL_TASKS_MAX)
		return &t->task[DTL_TASKS_MAX - 1];
	k = grow(t);
	if (!k)
		return NULL;
	k->pid = ti->pid;
	k->cgroup = -1;
	for (h = pid_slot(t->key, ti->pid); t->slot[h]; h = (h + 1) & (t->nslot - 1))
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
		k->cgroup = cgroup_of(t, ti->cgroup);
	dtl_counts__add(&k->cur, &ti->c);
	k->run_cur += ti->run;
	k->user += ti->user;
	k->invol += ti->invol;
	for (size_t i = 0; i < ti->npcs; i++) {
		int counted = note_pc(k, ti->pcs[i].pc, ti->pcs[i].n);

		if (counted == 2 && t->log_pcs && dtl_where__kernel(ti->pcs[i].pc))
			log_pc(t, ti->pcs[i].pc);
		if (counted && t->keep)
			keep_pc(k, ti->pcs[i].pc, ti->pcs[i].n);
	}
	if (ti->pid == NOBODY_PID)
		t->unattributed += ti->c.dispatches;
}

int dtl_tasks__named(const struct dtl_tasks *t, size_t i, int32_t *pid, char *comm, size_t len,
		     const char **cgroup)
{
	const struct task *k;
	const char *open;

	if (i >= t->ntask)
		return -1;
	k = &t->task[i];
	open = strrchr(k->name, '[');
	if (k->pid <= 0 || k->pid >= NOBODY_PID || !open)
		return -1;
	*pid = k->pid;
	snprintf(comm, len, "%.*s", (int)(open - k->name), k->name);
	*cgroup = k->cgroup >= 0 ? t->cg[k->cgroup].name : NULL;
	return 0;
}
