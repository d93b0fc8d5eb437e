/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opts.c - getopt_long over dtltop's options; every bad value gets a
 * message naming it.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtl/dtl.h"
#include "opts.h"
#include "view/columns.h"
#include "view/writer.h"
#include "source/backend.h"

/*
 * One row per option: getopt_long's arrays, --help and --list-options are
 * all made from it. A new option is a parser and a line here.
 */
struct opt {
	const char *name;
	int letter;		/* the short option, or 0 */
	int has_arg;		/* no_argument, required_argument, optional_argument */
	const char *arg;	/* its value in --help: "SECS", "FILE" */
	const char *section;	/* starts a --help section, or NULL */
	const char *help;
	/* NULL for a flag: the option then sets the bool at offset flag */
	int (*parse)(struct dtl_opts *o, const char *arg, char *err, size_t errlen);
	size_t flag;
	const char *(*values)(void);	/* makes arg from a registry */
	const struct dtl_source_opt *backend;	/* a backend's row, parsed by it */
};

#define FLAG(field) NULL, offsetof(struct dtl_opts, field), NULL, NULL
#define PARSE(fn) fn, 0, NULL, NULL
/* a parser whose values a registry lists */
#define PARSE_ONE_OF(fn, values) fn, 0, values, NULL

static int parse_interval(const char *s, double *v, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*v) || *v <= 0 || *v > 86400) {
		snprintf(err, errlen, "bad interval '%s' (want seconds > 0, e.g. 0.5)", s);
		return -1;
	}
	if (*v < 0.01) {
		snprintf(err, errlen, "interval '%s' is below 0.01 s", s);
		return -1;
	}
	return 0;
}

static int parse_count(const char *s, long *v, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno || end == s || *end || *v < 1) {
		snprintf(err, errlen, "bad iteration count '%s' (want an integer >= 1)", s);
		return -1;
	}
	return 0;
}

static int set_iterations(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	return parse_count(a, &o->iterations, err, errlen);
}

static int set_delay(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	o->have_interval = true;
	return parse_interval(a, &o->interval_s, err, errlen);
}

static int set_write(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	o->write = a;
	return 0;
}

static int set_output(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (!a[0]) {
		snprintf(err, errlen, "-o needs a file name ('-' is standard output)");
		return -1;
	}
	o->output = a;
	return 0;
}

static int set_events(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	const char *bad;

	if (dtl_mask__parse(a, &o->src.mask, &bad)) {
		snprintf(err, errlen, "bad event list '%s' at '%s' (want cede, preempt, fault, or all, "
			 "joined by commas)", a, bad);
		return -1;
	}
	o->have_mask = true;
	return 0;
}

static int set_cpu(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	o->src.have_cpus = true;
	return dtl_cpuset__parse(&o->src.cpus, a, err, errlen);
}

/* The column is looked up once all options are in (see finish()). */
static int set_sort(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	o->sort = a;
	return 0;
}

/* "auto|perf|debugfs|sim": the backends --source can name, from the registry. */
static const char *source_names(void)
{
	static char buf[128];
	size_t n, off;
	const struct dtl_source_ops *const *b = dtl_backends(&n);

	off = (size_t)snprintf(buf, sizeof(buf), "auto");
	for (size_t i = 0; i < n && off < sizeof(buf); i++)
		if (b[i]->help)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "|%s", b[i]->name);
	return buf;
}

static int set_source(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	const struct dtl_source_ops *b = dtl_backends__find(a);

	if (strcmp(a, "auto") != 0 && (!b || !b->help)) {
		snprintf(err, errlen, "bad --source '%s' (want %s)", a, source_names());
		return -1;
	}
	o->src.backend = a;
	return 0;
}

static int set_root(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (!a[0] || strlen(a) > 3000) {
		snprintf(err, errlen, "bad --root '%s'", a);
		return -1;
	}
	o->src.root = a;
	return 0;
}

static int set_format(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	char names[128];

	o->format = dtl_writers__find(a);
	if (!o->format) {
		dtl_writers__names(names, sizeof(names), " or ");
		snprintf(err, errlen, "bad --format '%s' (want %s)", a, names);
		return -1;
	}
	return 0;
}

static int set_export(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	char names[128];

	o->export_format = dtl_writers__find(a);
	if (!o->export_format) {
		dtl_writers__names(names, sizeof(names), " or ");
		snprintf(err, errlen, "bad --export-format '%s' (want %s)", a, names);
		return -1;
	}
	return 0;
}

static int set_csv(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	return set_format(o, a ? a : "csv", err, errlen);
}

static const char *writer_names(void)
{
	static char buf[128];

	dtl_writers__names(buf, sizeof(buf), "|");
	return buf;
}

#define NO no_argument
#define REQ required_argument
static const struct opt opts[] = {
	/* the backends' own rows follow this one (see rows()) */
	{ "source", 0, REQ, NULL, "Sources", "where entries come from (default auto)",
	  PARSE_ONE_OF(set_source, source_names) },
	{ "root", 0, REQ, "DIR", NULL, "read /proc, /sys and debugfs under DIR (default /)", PARSE(set_root) },
	{ "write", 'w', REQ, "FILE", NULL, "record every raw DTL entry to FILE (new file)", PARSE(set_write) },
	{ "events", 'e', REQ, "LIST", NULL, "event mask: cede,preempt,fault or all (default all)",
	  PARSE(set_events) },
	{ "cpu", 'C', REQ, "LIST", NULL, "CPUs to show, e.g. 0-7,16", PARSE(set_cpu) },
	{ "delay", 'd', REQ, "SECS", "Output", "interval, fractions allowed (default 1)", PARSE(set_delay) },
	{ "batch", 'b', NO, NULL, NULL, "print the table every interval, no TUI", FLAG(batch) },
	{ "iterations", 'n', REQ, "N", NULL, "stop after N intervals", PARSE(set_iterations) },
	{ "format", 0, REQ, NULL, NULL, "batch output format (default text)", PARSE_ONE_OF(set_format, writer_names) },
	{ "export-format", 0, REQ, NULL, NULL, "the format of the TUI's export key (default csv)",
	  PARSE_ONE_OF(set_export, writer_names) },
	{ "csv", 0, NO, NULL, NULL, "same as --format=csv", PARSE(set_csv) },
	{ "output", 'o', REQ, "FILE", NULL, "batch output to FILE instead of stdout", PARSE(set_output) },
	{ "sort", 's', REQ, "[+-]FIELD", NULL, "sort by a CSV field name or a heading (- reverses)",
	  PARSE(set_sort) },
	{ "list-fields", 0, NO, NULL, NULL, "print the columns with their units and exit",
	  FLAG(list_fields) },
	{ "list-keys", 0, NO, NULL, NULL, "print the TUI's keys and exit", FLAG(list_keys) },
	{ "list-options", 0, NO, NULL, NULL, "print every option, one per line, and exit",
	  FLAG(list_options) },
	{ "no-color", 0, NO, NULL, NULL, "monochrome (NO_COLOR is honoured too)", FLAG(no_color) },
	{ "help", 'h', NO, NULL, NULL, "this help", FLAG(help) },
	{ "version", 'V', NO, NULL, NULL, "version, libperf's origin, build", FLAG(version) },
};
#undef NO
#undef REQ
#define NR_OWN (sizeof(opts) / sizeof(opts[0]))
#define MAX_OPTS (NR_OWN + 32)

/* The table with each backend's rows after --source, made once. */
static const struct opt *rows(size_t *n)
{
	static struct opt all[MAX_OPTS];
	static size_t nr;
	bool made = nr > 0;
	size_t nb;
	const struct dtl_source_ops *const *b = dtl_backends(&nb);

	for (size_t i = 0; !made && i < NR_OWN; i++) {
		all[nr++] = opts[i];
		if (opts[i].values)
			all[nr - 1].arg = opts[i].values();
		if (strcmp(opts[i].name, "source") != 0)
			continue;
		for (size_t k = 0; k < nb; k++)
			for (const struct dtl_source_opt *r = b[k]->opts; r && r->name &&
			     nr < MAX_OPTS - NR_OWN; r++)
				all[nr++] = (struct opt){ r->name, r->letter, r->has_arg, r->arg,
							  NULL, r->help, NULL, 0, NULL, r };
	}
	*n = nr;
	return all;
}

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
	const struct opt *o = rows(&n);
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
	const struct opt *o = rows(&n);
	char buf[128];

	for (size_t i = 0; i < n; i++) {
		spell(&o[i], buf, sizeof(buf));
		fprintf(f, "%s\t%s\n", buf, o[i].help);
	}
}

/* What only all options together can say. */
static int finish(struct dtl_opts *o, char *err, size_t errlen)
{
	bool replay = o->src.backend && strcmp(o->src.backend, "replay") == 0;

	if (o->sort) {
		const char *name = o->sort + (o->sort[0] == '-' || o->sort[0] == '+');

		o->sort_reverse = o->sort[0] == '-';
		o->sort_col = dtl_cols__find(name);
		if (o->sort_col < 0 || strcmp(name, "timestamp") == 0) {
			snprintf(err, errlen, "bad --sort field '%s' (see --list-fields)", o->sort);
			return -1;
		}
	}
	if (o->src.have_speed && !replay) {
		snprintf(err, errlen, "--speed needs -r FILE");
		return -1;
	}
	if (o->have_mask && replay) {
		snprintf(err, errlen, "-e does not apply to -r: a recording keeps the mask it was "
			 "recorded with");
		return -1;
	}
	return 0;
}

static void defaults(struct dtl_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->src.backend = "auto";
	o->src.root = "/";
	o->src.mask = DTL_MASK_ALL;
	o->src.seed = 1;
	o->interval_s = 1.0;
	o->sort_col = dtl_cols__find("cpu");
	o->format = dtl_writers__find("text");
	o->export_format = dtl_writers__find("csv");
}

/* getopt_long's arrays from the table: val is the letter, or 256 + the row. */
static void getopt_arrays(const struct opt *o, size_t n, struct option *longopts, char *shorts)
{
	size_t ns = 0;

	shorts[ns++] = ':';
	for (size_t i = 0; i < n; i++) {
		longopts[i] = (struct option){ o[i].name, o[i].has_arg, NULL,
					       o[i].letter ? o[i].letter : 256 + (int)i };
		if (o[i].letter) {
			shorts[ns++] = (char)o[i].letter;
			if (o[i].has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = '\0';
}

/* One option as getopt_long returned it: 0, -1 with err, or 1 to exit at once. */
static int apply(struct dtl_opts *o, const struct opt *rows_, size_t n, int c, const char *arg,
		 const char *spelled, char *err, size_t errlen)
{
	const struct opt *p = NULL;

	if (c == ':') {
		snprintf(err, errlen, "option '%s' needs a value", spelled);
		return -1;
	}
	for (size_t i = 0; i < n && !p; i++)
		if (c == (rows_[i].letter ? rows_[i].letter : 256 + (int)i))
			p = &rows_[i];
	if (!p) {
		snprintf(err, errlen, "unknown option '%s' (see dtltop --help)", spelled);
		return -1;
	}
	if (p->backend)
		return p->backend->parse(&o->src, arg, err, errlen);
	if (!p->parse) {
		*(bool *)(void *)((char *)o + p->flag) = true;
		return 0;
	}
	return p->parse(o, arg, err, errlen);
}

/* top's habit: "dtltop 2 10" is every 2 s, 10 times. */
static int positional(struct dtl_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	if (optind < argc) {
		if (parse_interval(argv[optind++], &o->interval_s, err, errlen))
			return -1;
		o->have_interval = true;
	}
	if (optind < argc && parse_count(argv[optind++], &o->iterations, err, errlen))
		return -1;
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

int dtl_opts__parse(struct dtl_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	size_t n;
	const struct opt *all = rows(&n);
	struct option longopts[MAX_OPTS + 1];
	char shorts[2 + 2 * MAX_OPTS + 1];
	int c, idx, rc;

	defaults(o);
	getopt_arrays(all, n, longopts, shorts);
	optind = 0;	/* glibc: 0 also resets its internal state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, &idx)) != -1)
		if ((rc = apply(o, all, n, c, optarg, argv[optind - 1], err, errlen)))
			return rc;
	if (positional(o, argc, argv, err, errlen))
		return -1;
	return finish(o, err, errlen);
}

int dtl_opts__parse_when(const char *s, uint64_t start_ns, uint64_t *at_ns, uint64_t *interval,
			 char *err, size_t errlen)
{
	unsigned int h, m, sec = 0;
	char *end, tail;
	double v;

	*at_ns = 0;
	*interval = 0;
	if (s[0] == '#') {
		errno = 0;
		unsigned long long n = strtoull(s + 1, &end, 10);

		if (end != s + 1 && !*end && !errno && n >= 1 && s[1] != '-') {
			*interval = n;
			return 0;
		}
	} else if (strchr(s, ':')) {
		int k = sscanf(s, "%2u:%2u:%2u%c", &h, &m, &sec, &tail);

		if ((k == 2 || k == 3) && h < 24 && m < 60 && sec < 60 &&
		    strspn(s, "0123456789:") == strlen(s)) {
			uint64_t day = start_ns / 86400000000000ull * 86400000000000ull;

			*at_ns = day + ((uint64_t)h * 3600 + m * 60 + sec) * 1000000000ull;
			if (*at_ns < start_ns)
				*at_ns += 86400000000000ull;
			return 0;
		}
	} else {
		v = strtod(s[0] == '+' ? s + 1 : s, &end);
		if (end != s + (s[0] == '+') && !*end && v >= 0 && v < 1e9) {
			*at_ns = start_ns + (uint64_t)(v * 1e9);
			return 0;
		}
	}
	snprintf(err, errlen, "bad time '%s' (want HH:MM[:SS] UTC, +seconds or #interval)", s);
	return -1;
}
