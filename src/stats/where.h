/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * where.h - where a task's or cgroup's involuntary preempts hit, by kernel
 * function: the srr0 counts of the task table named through a symbol table and
 * summed per function, the most first. One answer for the payer pane, the
 * where format, the JSON rows and the report. Pure.
 */
#ifndef DTL_WHERE_H
#define DTL_WHERE_H

#include <stdint.h>

#include "../platform/ksyms.h"
#include "task.h"

#define DTL_WHERE_TOP 8		/* functions kept, the most first */
#define DTL_WHERE_NAME 64

struct dtl_where_fn {
	char name[DTL_WHERE_NAME];	/* a kernel function, or its address where unnamed */
	uint64_t n;
};

struct dtl_where {
	uint64_t all;		/* involuntary preempts */
	uint64_t user;		/* of them in user space (MSR[PR] in srr1) */
	uint64_t unkept;	/* past DTL_TASKS_PCS distinct addresses of a task: counted only here */
	uint64_t other;		/* in kernel functions past the top ones */
	int n;
	struct dtl_where_fn fn[DTL_WHERE_TOP];
};

/*
 * The row of group g whose id is id (a pid, or a cgroup's number), since
 * start; k NULL names every function by its address. Ties go by name, so
 * two runs of the same data print the same lines. -1 where id names none.
 */
int dtl_where__of(const struct dtl_tasks *t, enum dtl_task_group g, int id,
		  const struct dtl_ksyms *k, struct dtl_where *w);

/* srr0 in the kernel (the top of the address space on ppc64), as every view tells it. */
static inline int dtl_where__kernel(uint64_t pc)
{
	return pc >= 0xc000000000000000ull;
}

#endif
