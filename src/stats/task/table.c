/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.c - the task table: rows made at first sight, found by pid through
 * a hash whose key is drawn at start, cgroups interned the same way.
 */
#include "internal.h"

#include "../../dtl/name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int tasks_cgroup_of(struct dtl_tasks *t, const char *path)
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

size_t dtl_tasks__queued(const struct dtl_tasks *t, unsigned int cpu)
{
	return cpu < t->nr_cpus ? t->cpu[cpu].n : 0;
}

void tasks_set_name(struct task *k, int32_t pid, const char *comm)
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

struct task *tasks_grow(struct dtl_tasks *t)
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

long tasks_index_of(const struct dtl_tasks *t, int pid)
{
	size_t h;

	if (pid == OTHER_PID)
		return t->ntask == DTL_TASKS_MAX ? DTL_TASKS_MAX - 1 : -1;
	for (h = tasks_pid_slot(t->key, pid); t->slot[h]; h = (h + 1) & (t->nslot - 1))
		if (t->task[t->slot[h] - 1].pid == pid)
			return t->slot[h] - 1;
	return -1;
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
