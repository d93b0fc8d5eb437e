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
#include "source/sim.h"
#include "opts.h"
#include "view/columns.h"

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
};

#define FLAG(field) NULL, offsetof(struct dtl_opts, field)
#define PARSE(fn) fn, 0

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

static int set_read(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	o->src.kind = DTL_SOURCE_REPLAY;
	o->src.replay = a;
	return 0;
}

static int set_speed(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	char *end;

	o->have_speed = true;
	if (strcmp(a, "max") == 0) {
		o->speed = 0;
		return 0;
	}
	errno = 0;
	o->speed = strtod(a, &end);
	if (errno || end == a || *end || !isfinite(o->speed) || o->speed <= 0 || o->speed > 1e6) {
		snprintf(err, errlen, "bad --speed '%s' (want a factor > 0, or max)", a);
		return -1;
	}
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

static int set_sim(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	struct dtl_sim_params p;

	o->src.kind = DTL_SOURCE_SIM;
	o->src.sim_params = a ? a : "";
	return dtl_sim__parse(o->src.sim_params, &p, err, errlen);
}

static int set_source(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		enum dtl_source_kind kind;
	} kinds[] = {
		{ "auto", DTL_SOURCE_AUTO }, { "sim", DTL_SOURCE_SIM },
		{ "debugfs", DTL_SOURCE_DEBUGFS }, { "perf", DTL_SOURCE_PERF },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(a, kinds[i].name) == 0) {
			o->src.kind = kinds[i].kind;
			return 0;
		}
	snprintf(err, errlen, "bad --source '%s' (want auto, sim, debugfs or perf)", a);
	return -1;
}

static int set_seed(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	o->src.seed = strtoull(a, &end, 0);
	if (errno || end == a || *end || !isdigit((unsigned char)a[0])) {
		snprintf(err, errlen, "bad --seed '%s' (want an unsigned integer)", a);
		return -1;
	}
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
	if (strcmp(a, "text") == 0) {
		o->format = DTL_FORMAT_TEXT;
	} else if (strcmp(a, "csv") == 0) {
		o->format = DTL_FORMAT_CSV;
	} else {
		snprintf(err, errlen, "bad --format '%s' (want text or csv)", a);
		return -1;
	}
	return 0;
}

static int set_csv(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	return set_format(o, a ? a : "csv", err, errlen);
}

#define NO no_argument
#define REQ required_argument
static const struct opt opts[] = {
	{ "source", 0, REQ, "auto|sim|debugfs|perf", "Sources", "where entries come from (default auto)",
	  PARSE(set_source) },
	{ "sim", 0, optional_argument, "k=v,...", NULL, "the simulated shared-processor pool; keys: "
	  "vcpus ent pool load other busy slice faults poll smt clock=wall|virtual", PARSE(set_sim) },
	{ "seed", 0, REQ, "N", NULL, "simulator seed (default 1)", PARSE(set_seed) },
	{ "root", 0, REQ, "DIR", NULL, "read /proc, /sys and debugfs under DIR (default /)", PARSE(set_root) },
	{ "read", 'r', REQ, "FILE", NULL, "replay a recording made with -w, or a perf.data", PARSE(set_read) },
	{ "speed", 0, REQ, "N|max", NULL, "replay speed (default 1 in the TUI, max with -b)",
	  PARSE(set_speed) },
	{ "write", 'w', REQ, "FILE", NULL, "record every raw DTL entry to FILE (new file)", PARSE(set_write) },
	{ "events", 'e', REQ, "LIST", NULL, "event mask: cede,preempt,fault or all (default all)",
	  PARSE(set_events) },
	{ "cpu", 'C', REQ, "LIST", NULL, "CPUs to show, e.g. 0-7,16", PARSE(set_cpu) },
	{ "delay", 'd', REQ, "SECS", "Output", "interval, fractions allowed (default 1)", PARSE(set_delay) },
	{ "batch", 'b', NO, NULL, NULL, "print the table every interval, no TUI", FLAG(batch) },
	{ "iterations", 'n', REQ, "N", NULL, "stop after N intervals", PARSE(set_iterations) },
	{ "format", 0, REQ, "text|csv", NULL, "batch output format (default text)", PARSE(set_format) },
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
#define NR_OPTS (sizeof(opts) / sizeof(opts[0]))

/* "-d, --delay SECS" or "    --sim[=k=v,...]", as --help and --list-options show it. */
static void spell(const struct opt *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%c%s--%s%s%s%s", p->letter ? "-" : " ", p->letter ? p->letter : ' ',
		 p->letter ? ", " : "  ", p->name,
		 p->has_arg == optional_argument ? "[=" : !p->has_arg ? "" : p->letter ? " " : "=",
		 p->arg ? p->arg : "", p->has_arg == optional_argument ? "]" : "");
}

void dtl_opts__usage(FILE *f)
{
	char buf[128];

	fputs("Usage: dtltop [options] [interval [count]]\n"
	      "Live per-vCPU view of the POWER Dispatch Trace Log (DTL).\n", f);
	for (size_t i = 0; i < NR_OPTS; i++) {
		if (opts[i].section)
			fprintf(f, "\n%s:\n", opts[i].section);
		spell(&opts[i], buf, sizeof(buf));
		fprintf(f, "  %-26s", buf);
		if (strlen(buf) > 26)
			fprintf(f, "\n  %-26s", "");
		/* the help wrapped at 79 columns, under itself */
		for (const char *h = opts[i].help; *h;) {
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
	fputs("\nPrivileges: the perf source needs CAP_PERFMON (or root), the debugfs source\n"
	      "root (debugfs is root-only); the simulator and replays need none.\n", f);
}

void dtl_opts__list(FILE *f)
{
	char buf[128];

	for (size_t i = 0; i < NR_OPTS; i++) {
		spell(&opts[i], buf, sizeof(buf));
		fprintf(f, "%s\t%s\n", buf, opts[i].help);
	}
}

/* What only all options together can say. */
static int finish(struct dtl_opts *o, char *err, size_t errlen)
{
	if (o->sort) {
		const char *name = o->sort + (o->sort[0] == '-' || o->sort[0] == '+');

		o->sort_reverse = o->sort[0] == '-';
		o->sort_col = dtl_cols__find(name);
		if (o->sort_col < 0 || strcmp(name, "timestamp") == 0) {
			snprintf(err, errlen, "bad --sort field '%s' (see --list-fields)", o->sort);
			return -1;
		}
	}
	if (o->have_speed && o->src.kind != DTL_SOURCE_REPLAY) {
		snprintf(err, errlen, "--speed needs -r FILE");
		return -1;
	}
	if (o->have_mask && o->src.kind == DTL_SOURCE_REPLAY) {
		snprintf(err, errlen, "-e does not apply to -r: a recording keeps the mask it was "
			 "recorded with");
		return -1;
	}
	return 0;
}

int dtl_opts__parse(struct dtl_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	struct option longopts[NR_OPTS + 1];
	char shorts[2 + 2 * NR_OPTS + 1] = ":";
	size_t ns = 1;
	int c, idx;

	memset(o, 0, sizeof(*o));
	memset(longopts, 0, sizeof(longopts));
	o->src.kind = DTL_SOURCE_AUTO;
	o->src.root = "/";
	o->src.mask = DTL_MASK_ALL;
	o->src.seed = 1;
	o->interval_s = 1.0;
	o->sort_col = dtl_cols__find("cpu");
	for (size_t i = 0; i < NR_OPTS; i++) {
		/* val: the short letter, or 256 + the row for long-only options */
		longopts[i] = (struct option){ opts[i].name, opts[i].has_arg, NULL,
					       opts[i].letter ? opts[i].letter : 256 + (int)i };
		if (opts[i].letter) {
			shorts[ns++] = (char)opts[i].letter;
			if (opts[i].has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	optind = 0;	/* glibc: 0 also resets its internal state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, &idx)) != -1) {
		const struct opt *p = NULL;

		if (c == ':') {
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		}
		for (size_t i = 0; i < NR_OPTS && !p; i++)
			if (c == (opts[i].letter ? opts[i].letter : 256 + (int)i))
				p = &opts[i];
		if (!p) {
			snprintf(err, errlen, "unknown option '%s' (see dtltop --help)", argv[optind - 1]);
			return -1;
		}
		if (!p->parse)
			*(bool *)(void *)((char *)o + p->flag) = true;
		else if (p->parse(o, optarg, err, errlen))
			return -1;
	}
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
