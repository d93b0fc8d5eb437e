/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * filter.h - which rows to show: "steal_pct>20 cpu=0-63" (every term must
 * hold), any CSV field or heading compared with a number, cpu or vp with a
 * CPU list; and "only rows with dispatches" (o). Pure: parsed once, matched
 * per row.
 */
#ifndef DTL_FILTER_H
#define DTL_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "../platform/cpuset.h"
#include "../stats/stats.h"

#define DTL_FILTER_TERMS 8

struct dtl_filter {
	unsigned int n;
	struct {
		int col;		/* index into dtl_cols(), or -1 for a CPU list */
		char op[3];		/* "<" "<=" ">" ">=" "=" "!=" */
		double v;
		struct dtl_cpuset cpus;	/* col -1: cpu= / vp= */
	} t[DTL_FILTER_TERMS];
	bool active;			/* only rows that dispatched in the span */
	char text[96];			/* as typed */
};

/* s into f (empty: no terms); 0, or -1 with err naming the bad term (f unchanged). */
int dtl_filter__parse(struct dtl_filter *f, const char *s, char *err, size_t errlen);
bool dtl_filter__match(const struct dtl_filter *f, const struct dtl_row *r);
/* Anything to filter by at all. */
bool dtl_filter__on(const struct dtl_filter *f);

#endif
