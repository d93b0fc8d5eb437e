/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * task.h - who pays: each DTL entry charged to the guest task (and its
 * cgroup) that ran on the CPU at the instant the hypervisor took it away.
 *
 * That instant is the entry's dispatch timebase minus its three waits. The
 * task running then comes from the CPU's switch stream (perf's
 * context_switch records, sched_switch, the simulator's scheduler), fed in
 * time order per CPU; entries are fed after the switches up to them, so a
 * CPU's switches wait in a queue until an entry's instant passes them.
 * Pure: no I/O, the tests feed both streams by hand.
 */
#ifndef DTL_TASK_H
#define DTL_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dtl/switch.h"
#include "stats.h"

struct dtl_tasks;


enum dtl_task_group { DTL_TASKS_BY_TASK, DTL_TASKS_BY_CGROUP };

/* Most tasks (and cgroups) kept apart; later ones are summed as "other". */
#define DTL_TASKS_MAX 4096
/*
 * Switches a CPU holds waiting for its entries; past this the oldest apply.
 * No switch happens between an entry's instant and its dispatch (the vCPU
 * is not running), and a source hands out a CPU's switches and entries
 * drained together, so the queue only spans what came since a drain (a
 * 64 KiB switch ring wakes dtltop at 500 switches). Kept small: a CPU whose
 * kernel mask logs nothing (-e preempt on an idle CPU) fills it, and 1920 of
 * them hold 32 KiB each.
 */
#define DTL_TASKS_QUEUE 1024
/* Where involuntary preempts hit, per task: this many distinct srr0 values, exactly. */
#define DTL_TASKS_PCS 256

struct dtl_tasks *dtl_tasks__new(unsigned int nr_cpus, uint64_t tb_freq);
void dtl_tasks__delete(struct dtl_tasks *t);

/* A switch on cpu; out of order (before the CPU's last) counts as bad and is dropped. */
void dtl_tasks__switch(struct dtl_tasks *t, unsigned int cpu, const struct dtl_switch *sw);
/* n raw big-endian entries of cpu, after the switches up to them. */
void dtl_tasks__add_entries(struct dtl_tasks *t, unsigned int cpu, const uint8_t *entries,
			    size_t n);
void dtl_tasks__end_interval(struct dtl_tasks *t, double interval_s, unsigned int mask);
void dtl_tasks__reset_totals(struct dtl_tasks *t);

/* Table slots looked at since the start: the tests bound it per switch. */
uint64_t dtl_tasks__probes(const struct dtl_tasks *t);
/* Switches the CPU holds for entries still to come (at most DTL_TASKS_QUEUE). */
size_t dtl_tasks__queued(const struct dtl_tasks *t, unsigned int cpu);
/* Whether any switch was ever fed: without, there is no task data to show. */
bool dtl_tasks__known(const struct dtl_tasks *t);
/* Rows of a grouping; row i fills *row (and its name, which lives as long as t). */
size_t dtl_tasks__count(const struct dtl_tasks *t, enum dtl_task_group g);
int dtl_tasks__row(const struct dtl_tasks *t, enum dtl_task_group g, size_t i,
		   enum dtl_span span, struct dtl_row *row);
/*
 * Entries no known task ran at (before the CPU's first switch, or after a
 * switch to DTL_SWITCH_UNKNOWN), since start; their row is "(unknown)".
 */
uint64_t dtl_tasks__unattributed(const struct dtl_tasks *t);

/*
 * From now on, keep each kernel srr0 new to a task (a recording names them);
 * take them with dtl_tasks__take_pcs(): up to max into out, the count.
 */
void dtl_tasks__log_pcs(struct dtl_tasks *t);
size_t dtl_tasks__take_pcs(struct dtl_tasks *t, uint64_t *out, size_t max);

/*
 * Where a row's involuntary preempts hit since start (a task's, or summed
 * over a cgroup's tasks): up to max srr0 values, the most first, and how
 * many were in user space (MSR[PR] set in srr1) and in all; past a task's
 * DTL_TASKS_PCS distinct values, later new ones count in *all only. id is the
 * row's cpu field (a pid, or a cgroup's number). The count written; -1
 * where id names none.
 */
int dtl_tasks__pcs(const struct dtl_tasks *t, enum dtl_task_group g, int id,
		   struct dtl_task_pc *out, int max, uint64_t *user, uint64_t *all);

/*
 * For summaries (a recording, a service's stream): from now on each
 * interval's end keeps what each task's came to. dtl_tasks__kept(): task i
 * (i below dtl_tasks__count()) of the last ended interval into *ti (its
 * pointers live until the next interval ends): 1 when it has something to
 * say (figures, or it is new to the reader whose cursor *told counts the
 * tasks named to it, 0 for a new file or stream), else 0.
 */
void dtl_tasks__keep(struct dtl_tasks *t);
int dtl_tasks__kept(const struct dtl_tasks *t, size_t i, size_t *told, struct dtl_task_interval *ti);
/*
 * Task i as a switch would name it: its pid, comm (into comm, len bytes) and
 * cgroup's path (NULL none); -1 for a row that is no task (idle, "other",
 * "(unknown)") or past the table. So a raw recording that begins later (an
 * incident's) can name the tasks told before it.
 */
int dtl_tasks__named(const struct dtl_tasks *t, size_t i, int32_t *pid, char *comm, size_t len,
		     const char **cgroup);
/* A summary's task interval, folded into the current interval as its entries were. */
void dtl_tasks__add_interval(struct dtl_tasks *t, const struct dtl_task_interval *ti);

#endif
