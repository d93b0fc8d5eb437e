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

/*
 * A value as the screen shows it, in c's CSV unit: "20ms" for a time
 * (microseconds), "20%" for a share; a bare number is in CSV units, or in
 * the screen's when the field was named by its heading (INVOL% 20 is 20 %).
 */
static int value(const struct dtl_col *c, bool by_head, const char *s, double *v)
{
	static const struct { const char *unit; double us; } times[] = {
		{ "us", 1 }, { "\xc2\xb5s", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { "m", 60e6 },
	};
	char *end;
	double x = strtod(s, &end);

	if (end == s || !isfinite(x))
		return -1;
	if (!*end) {
		*v = by_head ? x / c->scale : x;
		return 0;
	}
	if (strcmp(end, "%") == 0 && (strcmp(c->unit, "%") == 0 || c->scale == 100)) {
		*v = x / c->scale;
		return 0;
	}
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (strcmp(c->unit, "us") == 0 && strcmp(end, times[i].unit) == 0) {
			*v = x * times[i].us;
			return 0;
		}
	return -1;
}

static int term(struct dtl_filter *f, const char *s, size_t n, char *err, size_t errlen)
{
	char buf[96], *op = NULL;
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
		const struct dtl_col *c;
		size_t nc;

		f->t[k].col = dtl_cols__find(buf);
		if (f->t[k].col < 0) {
			snprintf(err, errlen, "no field '%s' to filter by (a heading on screen or a CSV "
				 "field, --list-fields)", buf);
			return -1;
		}
		c = &dtl_cols(&nc)[f->t[k].col];
		if (value(c, strcmp(c->name, buf) != 0, op, &f->t[k].v)) {
			snprintf(err, errlen, "bad value '%s' for %s (a number%s)", op, buf,
				 strcmp(c->unit, "us") == 0 ? ", with us, ms or s if you like" :
				 strcmp(c->unit, "%") == 0 || c->scale == 100 ? ", % if you like" : "");
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
			int id = r->is_vp ? r->vp : r->cpu;	/* a VP by its number */

			if (id < 0 || !dtl_cpuset__has(&f->t[i].cpus, (unsigned int)id))
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
