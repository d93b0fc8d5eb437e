/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - the task table's state, shared by the files of src/stats/task/
 * and by nothing else: the rest of dtltop sees struct dtl_tasks through
 * task.h only.
 */
#ifndef DTL_STATS_TASK_INTERNAL_H
#define DTL_STATS_TASK_INTERNAL_H

#include "../../dtl/hash.h"
#include "../counts.h"
#include "../task.h"

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

/*
 * A switch waiting for the entries it precedes: its task found when it was
 * queued (names taken in then), so applying it is no lookup; half a
 * struct dtl_switch, as the queues of 1920 CPUs are most of the memory the
 * switch stream walks.
 */
struct queued {
	uint64_t tb;
	int32_t pid;		/* 0: the idle task; <0 unknown */
	int32_t task;		/* its index; -1 unknown */
};

struct cpuq {
	struct queued *q;
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

static inline size_t tasks_pid_slot(uint64_t key, int32_t pid)
{
	return (size_t)(dtl_hash__pid(key, pid) >> (64 - SLOT_BITS));
}

/* The cgroup row a task adds to: its own, "(unknown)", or the idle task's apart. */
static inline size_t tasks_cgrow_of(const struct dtl_tasks *t, const struct task *k)
{
	return k->pid == 0 ? t->ncg + 1 : k->cgroup >= 0 ? (size_t)k->cgroup : t->ncg;
}

/* table.c: the rows' table, its pid and cgroup hashes */
int tasks_cgroup_of(struct dtl_tasks *t, const char *path);
void tasks_set_name(struct task *k, int32_t pid, const char *comm);
struct task *tasks_grow(struct dtl_tasks *t);
/* A task's index from its row's id (its pid; OTHER_PID the "other" row); -1 none. */
long tasks_index_of(const struct dtl_tasks *t, int pid);

/* charge.c: switches and entries */
/* The woken task (index to) takes the pending cede's steal from the idle task. */
void tasks_wake(struct dtl_tasks *t, struct cpuq *q, int to);
/* 2 for an srr0 new to the task, 1 for one counted again, 0 for one not counted. */
int tasks_note_pc(struct task *k, uint64_t pc, uint64_t n);
void tasks_log_pc(struct dtl_tasks *t, uint64_t pc);
void tasks_keep_pc(struct task *k, uint64_t pc, uint64_t n);

#endif
