// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - --check's page: the facts, the run, and whether what was asked
 * works, which is the exit status.
 */
#include "check.h"

#include <stdarg.h>

#define CHECK_LINES 16

static const char *const mark[] = {
	[DTL_CHECK_OK] = "ok",
	[DTL_CHECK_NO] = "NO",
	[DTL_CHECK_INFO] = "--",
};

void dtl_check__say(struct dtl_check_line *l, enum dtl_check_state s, const char *what,
		    const char *fmt, ...)
{
	va_list ap;

	l->state = s;
	l->what = what;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
}

int dtl_check__print(const struct dtl_opts *o, FILE *f)
{
	struct dtl_check_line l[CHECK_LINES];
	size_t n = dtl_check__facts(o, l, CHECK_LINES), m = 0;
	bool works = dtl_check__run_source(o, l + n, CHECK_LINES - n, &m);

	fprintf(f, "dtltop --check: what works here (ok), what does not and why (NO), facts (--)\n");
	for (size_t i = 0; i < n + m; i++)
		fprintf(f, "%-2s  %-9s  %s\n", mark[l[i].state], l[i].what, l[i].text);
	fprintf(f, "%s\n", works ? "dtltop --check: what was asked works here" :
		"dtltop --check: what was asked does not work here (the NO lines above say why)");
	return works ? 0 : 1;
}
