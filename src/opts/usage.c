/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usage.c - --help and --list-options, printed from the option table.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "rows.h"

/* "-d, --delay SECS" or "    --sim[=k=v,...]", as --help and --list-options show it. */
static void spell(const struct opt *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%c%s--%s%s%s%s", p->letter ? "-" : " ", p->letter ? p->letter : ' ',
		 p->letter ? ", " : "  ", p->name,
		 p->has_arg == optional_argument ? "[=" : !p->has_arg ? "" : p->letter ? " " : "=",
		 p->arg ? p->arg : "", p->has_arg == optional_argument ? "]" : "");
}

/* h wrapped at 79 columns, each line under the first. */
static void help_text(FILE *f, const char *h)
{
	while (*h) {
		size_t n = strlen(h);

		if (n > 50) {
			n = 50;
			while (n > 0 && h[n] != ' ')
				n--;
			if (!n)
				n = strcspn(h, " ");
		}
		fprintf(f, " %.*s\n", (int)n, h);
		h += n;
		h += *h == ' ';
		if (*h)
			fprintf(f, "  %-26s", "");
	}
}

void dtl_opts__usage(FILE *f)
{
	size_t n;
	const struct opt *o = dtl_opts__rows(&n);
	char buf[128];

	fputs("Usage: dtltop [options] [interval [count]]\n"
	      "Live per-vCPU view of the POWER Dispatch Trace Log (DTL).\n", f);
	for (size_t i = 0; i < n; i++) {
		if (o[i].section)
			fprintf(f, "\n%s:\n", o[i].section);
		spell(&o[i], buf, sizeof(buf));
		fprintf(f, "  %-26s", buf);
		if (strlen(buf) > 26)
			fprintf(f, "\n  %-26s", "");
		help_text(f, o[i].help);
	}
	fputs("\nPrivileges: the perf source needs CAP_PERFMON (or root), the debugfs source\n"
	      "root (debugfs is root-only); the simulator and replays need none.\n", f);
}

void dtl_opts__list(FILE *f)
{
	size_t n;
	const struct opt *o = dtl_opts__rows(&n);
	char buf[128];

	for (size_t i = 0; i < n; i++) {
		spell(&o[i], buf, sizeof(buf));
		fprintf(f, "%s\t%s%s%s\n", buf, o[i].help, o[i].key ? "\tsetting " : "",
			o[i].key ? o[i].key : "");
	}
}

