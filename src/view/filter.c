/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * filter.c - parse and match the row filter of the TUI's '/' key.
 */
#include "filter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"

static const char *const ops[] = { "<=", ">=", "!=", "<", ">", "=" };

static int term(struct dtl_filter *f, const char *s, size_t n, char *err, size_t errlen)
{
	char buf[96], *op = NULL, *end;
	const char *which = NULL;
	unsigned int k = f->n;

	if (n >= sizeof(buf) || k >= DTL_FILTER_TERMS) {
		snprintf(err, errlen, "filter too long at '%.*s'", (int)n, s);
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]) && !op; i++)
		if ((op = strstr(buf, ops[i])))
			which = ops[i];
	if (!op || op == buf) {
		snprintf(err, errlen, "bad filter term '%s' (want FIELD>N, FIELD<N, FIELD=N or "
			 "cpu=LIST)", buf);
		return -1;
	}
	snprintf(f->t[k].op, sizeof(f->t[k].op), "%s", which);
	*op = '\0';
	op += strlen(which);
	if ((strcmp(buf, "cpu") == 0 || strcmp(buf, "vp") == 0) && strcmp(which, "=") == 0) {
		f->t[k].col = -1;
		if (dtl_cpuset__parse(&f->t[k].cpus, op, err, errlen))
			return -1;
	} else {
		f->t[k].col = dtl_cols__find(buf);
		f->t[k].v = strtod(op, &end);
		if (f->t[k].col < 0) {
			snprintf(err, errlen, "no field '%s' to filter by (--list-fields)", buf);
			return -1;
		}
		if (end == op || *end || !isfinite(f->t[k].v)) {
			snprintf(err, errlen, "bad number '%s' in the filter", op);
			return -1;
		}
	}
	f->n++;
	return 0;
}

int dtl_filter__parse(struct dtl_filter *f, const char *s, char *err, size_t errlen)
{
	struct dtl_filter nf = { .active = f->active };

	snprintf(nf.text, sizeof(nf.text), "%s", s);
	while (*s) {
		size_t n = strcspn(s, " ,");

		if (n && term(&nf, s, n, err, errlen))
			return -1;
		s += n;
		s += strspn(s, " ,");
	}
	*f = nf;
	return 0;
}

static bool holds(double x, const char *op, double v)
{
	if (op[0] == '<')
		return op[1] ? x <= v : x < v;
	if (op[0] == '>')
		return op[1] ? x >= v : x > v;
	return op[0] == '!' ? x != v : x == v;
}

bool dtl_filter__match(const struct dtl_filter *f, const struct dtl_row *r)
{
	size_t nc;
	const struct dtl_col *c = dtl_cols(&nc);

	if (f->active && !r->dispatches)
		return false;
	for (unsigned int i = 0; i < f->n; i++) {
		if (f->t[i].col < 0) {
			if (r->cpu < 0 || !dtl_cpuset__has(&f->t[i].cpus, (unsigned int)r->cpu))
				return false;
			continue;
		}
		/* an unknown figure passes no comparison */
		if (!dtl_col__known(&c[f->t[i].col], r) ||
		    !holds(dtl_col__value(&c[f->t[i].col], r), f->t[i].op, f->t[i].v))
			return false;
	}
	return true;
}

bool dtl_filter__on(const struct dtl_filter *f)
{
	return f->n || f->active;
}
