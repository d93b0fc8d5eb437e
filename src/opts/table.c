/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.c - dtltop's options, one row each, with the parser of each value;
 * every bad value gets a message naming it.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../view/columns.h"
#include "../view/http.h"
#include "../view/judge.h"
#include "../view/table.h"
#include "../view/writer.h"
#include "rows.h"

#define FLAG(field) NULL, offsetof(struct dtl_opts, field), NULL, NULL
#define PARSE(fn) fn, 0, NULL, NULL
/* a parser whose values a registry lists */
#define PARSE_ONE_OF(fn, values) fn, 0, values, NULL

int dtl_opts__interval(const char *s, double *v, char *err, size_t errlen)
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

int dtl_opts__count(const char *s, long *v, char *err, size_t errlen)
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
	return dtl_opts__count(a, &o->iterations, err, errlen);
}

static int set_delay(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	o->have_interval = true;
	return dtl_opts__interval(a, &o->interval_s, err, errlen);
}

static int set_summary_interval(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (dtl_opts__interval(a, &o->summary_s, err, errlen)) {
		snprintf(err, errlen, "bad --summary-interval '%s' (want seconds, a multiple of -d)", a);
		return -1;
	}
	return 0;
}

static int set_write(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	o->write = a;
	return 0;
}

/*
 * SIZE (k, M, G: powers of 1000) or DURATION (s, m, h, d), then ,KEEP.
 * The floor is the 4k the help states (4000 bytes); the ceilings keep the
 * double-to-integer conversion defined (C leaves it undefined past the
 * target's range) and are far past any disk or lifetime.
 */
#define ROTATE_MIN_BYTES 4e3
#define ROTATE_MAX_BYTES 1e18
#define ROTATE_MAX_S (100.0 * 365 * 86400)

static int set_socket(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (!a[0] || strlen(a) > 107) {
		snprintf(err, errlen, "bad --socket '%.200s' (a path of 1 to 107 bytes)", a);
		return -1;
	}
	o->socket = a;
	return 0;
}

/* TIME[,COUNT[,SIZE]]: the ring's minutes, the files kept, the ring's bytes at most. */
static int set_incidents(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	double secs = 0, mb = 256;
	long files = 10;
	char unit = 0, size_unit = 'M';
	int used = 0, n = sscanf(a, "%lf%c%n", &secs, &unit, &used);

	if (n == 2 && a[used] == ',') {
		int more = 0;

		n = sscanf(a + used, ",%ld%n", &files, &more);
		used += n == 1 ? more : 0;
		if (n == 1 && a[used] == ',') {
			n = sscanf(a + used, ",%lf%c%n", &mb, &size_unit, &more);
			used += n == 2 ? more : 0;
		}
	}
	secs *= unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : 0;
	mb *= size_unit == 'M' ? 1 : size_unit == 'G' ? 1000 : 0;
	if (a[used] || !(secs >= 1 && secs <= 86400) || files < 1 || files > 100000 ||
	    !(mb >= 1 && mb <= 64000)) {
		snprintf(err, errlen, "bad --incidents '%s' (want TIME as 5m, from 1s to 24h, then "
			 "optionally ,COUNT files kept (1 to 100000) and ,SIZE of the ring (1M to 64G))", a);
		return -1;
	}
	o->incident_s = secs;
	o->incident_files = (unsigned int)files;
	o->incident_bytes = (uint64_t)(mb * 1e6);
	return 0;
}

static int set_rotate(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	char *end, *keep_end;
	double v, bytes = 0, secs = 0;
	long keep = 0;

	errno = 0;
	v = strtod(a, &end);
	if (errno || end == a || !(v > 0) || !isfinite(v))
		goto bad;
	switch (*end) {
	case 'k': bytes = v * 1e3; break;
	case 'M': bytes = v * 1e6; break;
	case 'G': bytes = v * 1e9; break;
	case 's': secs = v; break;
	case 'm': secs = v * 60; break;
	case 'h': secs = v * 3600; break;
	case 'd': secs = v * 86400; break;
	default: goto bad;
	}
	end++;
	if (*end == ',') {
		errno = 0;
		keep = strtol(end + 1, &keep_end, 10);
		if (errno || keep_end == end + 1 || *keep_end || keep < 1 || keep > 100000)
			goto bad;
		end = keep_end;
	}
	if (*end || (bytes && (bytes < ROTATE_MIN_BYTES || bytes > ROTATE_MAX_BYTES)) ||
	    secs > ROTATE_MAX_S)
		goto bad;
	o->rotate_bytes = (uint64_t)bytes;
	o->rotate_s = secs;
	o->rotate_keep = (unsigned int)keep;
	return 0;
bad:
	o->rotate_bytes = 0, o->rotate_s = 0;
	snprintf(err, errlen, "bad --rotate '%s' (want SIZE as 500M or 2G, from 4k to 1000000000G, "
		 "or a time as 30m or 1d, up to 100 years; then ,KEEP to keep the newest KEEP files)",
		 a);
	return -1;
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

/* Checked here, not at the end: a bad sort= in dtltoprc is then named by file and line. */
static int set_sort(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	const char *name = a + (a[0] == '-' || a[0] == '+');
	int col;
	bool reverse;

	if (strcmp(a, "auto") == 0) {
		/* each grouping's own: CPUs by number, payers by the seconds paid */
		o->sort = NULL;
		o->sort_col = dtl_cols__find("cpu");
		o->sort_reverse = false;
		return 0;
	}
	if (dtl_table__sort_parse(a, &col, &reverse) || strcmp(name, "timestamp") == 0) {
		snprintf(err, errlen, "bad --sort field '%s' (a heading or a CSV field, see "
			 "--list-fields)", a);
		return -1;
	}
	o->sort = a;
	o->sort_col = col;
	o->sort_reverse = reverse;
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

/* A writer by name, for the option named opt. */
static int pick_writer(const char *opt, const char *a, const struct dtl_writer **w, char *err,
		       size_t errlen)
{
	char names[128];

	*w = dtl_writers__find(a);
	if (*w)
		return 0;
	dtl_writers__names(names, sizeof(names), " or ");
	snprintf(err, errlen, "bad --%s '%s' (want %s)", opt, a, names);
	return -1;
}

static int set_format(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	o->have_format = true;
	return pick_writer("format", a, &o->format, err, errlen);
}

static int set_export(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	return pick_writer("export-format", a, &o->export_format, err, errlen);
}

/* --config and --no-config act before the other options (dtl_opts__load_config()). */
static int read_before(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	(void)o, (void)a, (void)err, (void)errlen;
	return 0;
}

static int set_group(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	static const char *const names[] = { "cpu", "vp", "task", "cgroup" };
	size_t i;

	for (i = 0; i < 4 && strcmp(a, names[i]); i++)
		;
	if (i == 4) {
		snprintf(err, errlen, "bad --group '%s' (want cpu, vp, task or cgroup)", a);
		return -1;
	}
	o->by_vp = i == 1;
	o->have_group = true;
	o->group = i == 2 ? DTL_ROW_TASK : i == 3 ? DTL_ROW_CGROUP : DTL_ROW_CPU_VP;
	return 0;
}

static int set_csv(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	return set_format(o, a ? a : "csv", err, errlen);
}

static int set_hist_by(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	static const char *const by[] = { "vp", "partition", "cpu" };

	for (unsigned int i = 0; i < 3; i++)
		if (strcmp(a, by[i]) == 0) {
			o->hist_by = (enum dtl_hist_by)i;
			return 0;
		}
	snprintf(err, errlen, "bad --hist-by '%s' (want vp, partition or cpu)", a);
	return -1;
}

static int set_metrics_by(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (strcmp(a, "vp") && strcmp(a, "cpu")) {
		snprintf(err, errlen, "bad --metrics-by '%s' (want vp or cpu)", a);
		return -1;
	}
	o->metrics_by = a[0] == 'v' ? DTL_METRICS_BY_VP : DTL_METRICS_BY_CPU;
	return 0;
}

static int set_metrics_cgroups(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(a, &end, 10);
	if (errno || end == a || *end || v < 0 || v > 1000) {
		snprintf(err, errlen, "bad --metrics-cgroups '%s' (want 0 to 1000)", a);
		return -1;
	}
	o->metrics_cgroups = (unsigned int)v;
	return 0;
}

static int set_listen(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	struct dtl_listen_addr addr;

	o->listen = a;
	return dtl_http__parse_addr(a, &addr, err, errlen);
}

static int set_when(const char **dst, const char *name, const char *a, char *err, size_t errlen)
{
	uint64_t at, iv;
	char why[256];

	/* the recording's start and end are not known yet: the form is checked now, the time at open */
	if (dtl_opts__parse_time(a, 0, UINT64_MAX / 2, &at, &iv, why, sizeof(why))) {
		snprintf(err, errlen, "--%s: %s", name, why);
		return -1;
	}
	*dst = a;
	return 0;
}

static int set_begin(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	return set_when(&o->begin, "begin", a, err, errlen);
}

static int set_end(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	return set_when(&o->end, "end", a, err, errlen);
}

static int set_web_config(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (!a[0] || strlen(a) >= 4096) {
		snprintf(err, errlen, "bad --web-config file '%.80s'", a);
		return -1;
	}
	o->web_config = a;
	return 0;
}

static int set_textfile(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (!a[0] || strlen(a) > 3000) {
		snprintf(err, errlen, "bad --textfile directory '%s'", a);
		return -1;
	}
	o->textfile = a;
	return 0;
}

static int set_thresholds(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	(void)o;
	return dtl_judge__set(a, err, errlen);
}

/* The TUI's columns: each a CSV field or heading with a place on screen. */
static int set_columns(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	for (const char *p = a; *p;) {
		size_t len = strcspn(p, ",");
		char name[64];
		int i;

		snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), p);
		i = dtl_cols__find(name);
		if (i < 0 || !c[i].head[0]) {
			snprintf(err, errlen, "bad --columns: '%s' has no place on screen (a CSV field "
				 "with a heading, as --list-fields shows)", name);
			return -1;
		}
		p += len + (p[len] == ',');
	}
	o->columns = a;
	return 0;
}

static int set_smooth(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (dtl_opts__interval(a, &o->smooth_s, err, errlen)) {
		snprintf(err, errlen, "bad --smooth '%s' (want seconds, e.g. 10)", a);
		return -1;
	}
	return 0;
}

static int set_report(struct dtl_opts *o, const char *a, char *err, size_t errlen)
{
	if (!a[0] || strlen(a) > 3000) {
		snprintf(err, errlen, "bad --report file name '%s'", a);
		return -1;
	}
	o->report = a;
	return 0;
}

static const char *writer_names(void)
{
	static char buf[128];

	dtl_writers__names(buf, sizeof(buf), "|");
	return buf;
}

#define NO no_argument
#define REQ required_argument
/* The last field is the setting's key in dtltoprc, NULL for the command line only. */
static const struct opt opts[] = {
	/* the backends' own rows follow this one (see dtl_opts__rows()) */
	{ "source", 0, REQ, NULL, "Sources", "where entries come from (default auto)",
	  PARSE_ONE_OF(set_source, source_names), NULL },
	{ "root", 0, REQ, "DIR", NULL, "read /proc, /sys and debugfs under DIR (default /)",
	  PARSE(set_root), NULL },
	{ "write", 'w', REQ, "FILE", NULL, "record every raw DTL entry to FILE (new file)",
	  PARSE(set_write), NULL },
	{ "rotate", 0, REQ, "SIZE|TIME[,KEEP]", NULL, "with -w: FILE.1, FILE.2, ..., a new one "
	  "past SIZE (500M) or TIME (1h), the newest KEEP kept; -r FILE replays the set",
	  PARSE(set_rotate), NULL },
	{ "summary", 0, NO, NULL, NULL, "with -w: record each interval's figures, not its entries "
	  "(a day in megabytes; no raw entries to replay or convert)", FLAG(summary), NULL },
	{ "summary-interval", 0, REQ, "SECS", NULL, "with --summary: its intervals this long, a "
	  "multiple of -d (the service: 10 s to disk, 1 s to its viewers)", PARSE(set_summary_interval),
	  NULL },
	{ "serve", 0, NO, NULL, NULL, "be the partition's one DTL reader: no output of its own "
	  "(beside --listen, --textfile, -w), each interval to the viewers attached to its socket "
	  "(dtltop --attach)", FLAG(serve), NULL },
	{ "socket", 0, REQ, "PATH", NULL, "--serve's and --attach's socket (default "
	  "/run/dtltop/dtltop.sock)", PARSE(set_socket), NULL },
	{ "incidents", 0, REQ, "TIME[,COUNT[,SIZE]]", NULL, "with --summary: keep the last TIME (5m) of "
	  "raw entries in memory, at most SIZE (256M), and write them to FILE.incident.N when the "
	  "partition turns capped, starved or VP-limited, its p99 wait critical, or entries are "
	  "lost; the newest COUNT (10) kept", PARSE(set_incidents), NULL },
	{ "events", 'e', REQ, "LIST", NULL, "event mask: cede,preempt,fault or all (default all)",
	  PARSE(set_events), "events" },
	{ "cpu", 'C', REQ, "LIST", NULL, "CPUs to show, e.g. 0-7,16", PARSE(set_cpu), "cpu" },
	{ "delay", 'd', REQ, "SECS", "Output", "interval, fractions allowed (default 1)",
	  PARSE(set_delay), "delay" },
	{ "batch", 'b', NO, NULL, NULL, "print the table every interval, no TUI",
	  FLAG(batch), NULL },
	{ "begin", 0, REQ, "TIME", NULL, "with -r, start at TIME: HH:MM[:SS] UTC, YYYY-MM-DD[THH:MM"
	  "[:SS]], +N or -N (from the end) with s, m, h or d, #interval", PARSE(set_begin), NULL },
	{ "end", 0, REQ, "TIME", NULL, "with -r, end at TIME (as --begin)", PARSE(set_end), NULL },
	{ "iterations", 'n', REQ, "N", NULL, "stop after N intervals",
	  PARSE(set_iterations), NULL },
	{ "format", 0, REQ, NULL, NULL, "batch output format (default text)",
	  PARSE_ONE_OF(set_format, writer_names), "format" },
	{ "export-format", 0, REQ, NULL, NULL, "the format of the TUI's export key (default csv)",
	  PARSE_ONE_OF(set_export, writer_names), "export-format" },
	{ "csv", 0, NO, NULL, NULL, "same as --format=csv", PARSE(set_csv), NULL },
	{ "output", 'o', REQ, "FILE", NULL, "batch output to FILE instead of stdout",
	  PARSE(set_output), NULL },
	{ "report", 0, REQ, "FILE", NULL, "at the end, write FILE: one HTML page of charts of the "
	  "whole run or replay", PARSE(set_report), NULL },
	{ "sort", 's', REQ, "[+-]FIELD|auto", NULL, "sort by a heading or CSV field: -FIELD "
	  "descending, +FIELD ascending, as ps; auto (the default): CPUs by number, tasks and "
	  "cgroups by the seconds they paid",
	  PARSE(set_sort), "sort" },
	{ "group", 0, REQ, "cpu|vp|task|cgroup", NULL, "a row per logical CPU (default), per "
	  "virtual processor (its threads folded), or who pays: per process or cgroup, from the "
	  "source's task switches", PARSE(set_group), "group" },
	{ "list-fields", 0, NO, NULL, NULL, "print the columns with their units and exit",
	  FLAG(list_fields), NULL },
	{ "list-keys", 0, NO, NULL, NULL, "print the TUI's keys and exit", FLAG(list_keys), NULL },
	{ "list-options", 0, NO, NULL, NULL, "print every option, one per line, and exit",
	  FLAG(list_options), NULL },
	{ "check", 0, NO, NULL, NULL, "say what works on this machine and why not, one line "
	  "each (sources, privileges, the switch stream's clock, lparcfg, steal against the VPA "
	  "over a few intervals); exit 0 when what the other options ask for works",
	  FLAG(check), NULL },
	{ "columns", 0, REQ, "LIST", NULL, "the TUI's columns, in order (CSV fields or headings; "
	  "F2 chooses them too)", PARSE(set_columns), "columns" },
	{ "smooth", 0, REQ, "SECS", NULL, "the TUI's rates and shares as averages decaying over "
	  "SECS, so the order holds still (key S)", PARSE(set_smooth), "smooth" },
	{ "thresholds", 0, REQ, "LIST", NULL, "cell colours: FIELD=WARN:CRIT,... in CSV units "
	  "(default steal_pct=10:25,lat_p99_us=5000:10000,...)", PARSE(set_thresholds), "thresholds" },
	{ "no-color", 0, NO, NULL, NULL, "monochrome (NO_COLOR is honoured too)",
	  FLAG(no_color), "no-color" },
	{ "listen", 0, REQ, "[ADDR:]PORT", "Exporter", "serve the counters to Prometheus at "
	  "http://ADDR:PORT/metrics (default ADDR 127.0.0.1), no TUI", PARSE(set_listen), "listen" },
	{ "web-config", 0, REQ, "FILE", NULL, "--listen over TLS and with basic authentication, "
	  "as node_exporter's web configuration FILE gives them", PARSE(set_web_config), NULL },
	{ "textfile", 0, REQ, "DIR", NULL, "write DIR/dtltop.prom each interval for "
	  "node_exporter's textfile collector, no TUI", PARSE(set_textfile), "textfile" },
	{ "hist-by", 0, REQ, "vp|partition|cpu", NULL, "the latency histogram's series in an "
	  "exposition (default vp)", PARSE(set_hist_by), "hist-by" },
	{ "metrics-by", 0, REQ, "vp|cpu", NULL, "the per-CPU families' series in an exposition: "
	  "one per VP (default) or per CPU", PARSE(set_metrics_by), "metrics-by" },
	{ "metrics-cgroups", 0, REQ, "N", NULL, "who pays in an exposition: the N cgroups "
	  "that lost the most (default 10, 0 none), the rest as other",
	  PARSE(set_metrics_cgroups), "metrics-cgroups" },
	{ "config", 0, REQ, "FILE", "Settings", "read settings from FILE instead of "
	  "$XDG_CONFIG_HOME/dtltop/dtltoprc", PARSE(read_before), NULL },
	{ "no-config", 0, NO, NULL, NULL, "read no settings file", PARSE(read_before), NULL },
	{ "help", 'h', NO, NULL, NULL, "this help", FLAG(help), NULL },
	{ "version", 'V', NO, NULL, NULL, "version, libperf's origin, build", FLAG(version), NULL },
};
#undef NO
#undef REQ
#define NR_OWN (sizeof(opts) / sizeof(opts[0]))

/* Backends that read the same stream share its options: listed once. */
static bool shared(const struct dtl_source_ops *const *b, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (b[j]->opts == b[k]->opts)
			return true;
	return false;
}

/* The table with each backend's rows after --source, made once. */
const struct opt *dtl_opts__rows(size_t *n)
{
	static struct opt all[DTL_OPTS_MAX];
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
			     nr < DTL_OPTS_MAX - NR_OWN && !shared(b, k); r++)
				all[nr++] = (struct opt){ r->name, r->letter, r->has_arg, r->arg,
							  NULL, r->help, NULL, 0, NULL, r, NULL };
	}
	*n = nr;
	return all;
}

