/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary.h - a summary recording's counts (format 3, record kind 14): one
 * CPU's interval as its counters (src/dtl/counts.h), not its entries; a
 * bitmap of the fields said, then LEB128 varints; man/dtltop-format.5
 * specifies the bytes. Pure, fuzzed through the recording target.
 */
#ifndef DTL_FORMAT_SUMMARY_H
#define DTL_FORMAT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dtl/counts.h"

/* The most bytes one CPU's interval takes. */
#define DTL_SUM_MAX 4096
/* The interval was told by counters, not entries (--source=vpa): its flags byte. */
#define DTL_SUM_TOLD 1u

/* Nothing to say: every counter 0 (no record is written). */
bool dtl_sum__empty(const struct dtl_interval_cpu *k);
/* k into out (at least DTL_SUM_MAX bytes): the length. */
size_t dtl_sum__pack(const struct dtl_interval_cpu *k, unsigned int flags, uint8_t *out);
/*
 * len bytes back into *k and *flags: 0, or -1 with why (bytes cut off,
 * counters that do not add up: the reasons, the histogram and the
 * dispatches must agree, as the stats rely on).
 */
int dtl_sum__unpack(const uint8_t *p, size_t len, struct dtl_interval_cpu *k,
		    unsigned int *flags, const char **why);

/* A task's interval (record kind 15): the pid, its row's name and cgroup, its srr0s, its counts. */
#define DTL_SUM_NAME_MAX 127	/* bytes of a name or a cgroup's path */
#define DTL_SUM_PCS_MAX 256	/* srr0s a record holds (task.h's DTL_TASKS_PCS) */
#define DTL_SUM_TASK_MAX (DTL_SUM_MAX + 2 * (DTL_SUM_NAME_MAX + 2) + 40 + DTL_SUM_PCS_MAX * 20)

/* Where a task record unpacks to: its names and srr0s live here. */
struct dtl_sum_task {
	struct dtl_task_interval ti;
	char name[DTL_SUM_NAME_MAX + 1], cgroup[DTL_SUM_NAME_MAX + 1];
	struct dtl_task_pc pcs[DTL_SUM_PCS_MAX];
};

/* ti into out (at least DTL_SUM_TASK_MAX bytes): the length; names cut, srr0s past the bound left out. */
size_t dtl_sum__pack_task(const struct dtl_task_interval *ti, uint8_t *out);
/* len bytes into *t (t->ti points into t): 0, or -1 with why. Names come out clean. */
int dtl_sum__unpack_task(const uint8_t *p, size_t len, struct dtl_sum_task *t, const char **why);

#endif
