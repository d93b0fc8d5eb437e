// SPDX-License-Identifier: GPL-2.0-only
/*
 * where.c - srr0 counts into kernel functions. A task keeps its addresses
 * exact (task/charge.c); naming them here, not there, keeps symbols out of the
 * per-entry path.
 */
#include "where.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void func_of(const struct dtl_ksyms *k, uint64_t pc, char *buf, size_t len)
{
	if (!k || dtl_ksyms__name(k, pc, buf, len))
		snprintf(buf, len, "0x%016" PRIx64, pc);
	else
		buf[strcspn(buf, "+")] = '\0';	/* the function, not the offset in it */
}

static int by_count(const void *a, const void *b)
{
	const struct dtl_where_fn *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : strcmp(x->name, y->name);
}

int dtl_where__of(const struct dtl_tasks *t, enum dtl_task_group g, int id,
		  const struct dtl_ksyms *k, struct dtl_where *w)
{
	static struct dtl_task_pc pc[4 * DTL_TASKS_PCS];
	static struct dtl_where_fn f[4 * DTL_TASKS_PCS];
	uint64_t kept;
	int n, nf = 0;

	memset(w, 0, sizeof(*w));
	n = t ? dtl_tasks__pcs(t, g, id, pc, 4 * DTL_TASKS_PCS, &w->user, &w->all) : -1;
	if (n < 0)
		return -1;
	kept = w->user;		/* user space is one figure of its own, not a function */
	for (int i = 0; i < n; i++) {
		char name[DTL_WHERE_NAME];
		int j;

		if (!dtl_where__kernel(pc[i].pc))
			continue;
		func_of(k, pc[i].pc, name, sizeof(name));
		for (j = 0; j < nf && strcmp(f[j].name, name); j++)
			;
		if (j == nf) {
			snprintf(f[nf].name, sizeof(f[nf].name), "%s", name);
			f[nf++].n = 0;
		}
		f[j].n += pc[i].n;
		kept += pc[i].n;
	}
	qsort(f, (size_t)nf, sizeof(f[0]), by_count);
	w->unkept = w->all > kept ? w->all - kept : 0;
	w->n = nf < DTL_WHERE_TOP ? nf : DTL_WHERE_TOP;
	memcpy(w->fn, f, (size_t)w->n * sizeof(f[0]));
	for (int j = w->n; j < nf; j++)
		w->other += f[j].n;
	return 0;
}
