/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.c - the command line (and dtltoprc before it) through the option
 * table into struct dtl_opts.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../platform/usock.h"
#include "../view/columns.h"
#include "rows.h"

/* What only all options together can say. */
static int finish(struct dtl_opts *o, char *err, size_t errlen)
{
	bool replay = o->src.backend && strcmp(o->src.backend, "replay") == 0;

	if ((o->src.have_speed || o->src.kallsyms) && !replay) {
		snprintf(err, errlen, "%s needs -r FILE", o->src.have_speed ? "--speed" : "--kallsyms");
		return -1;
	}
	/* where is of processes or cgroups: processes unless said */
	if (o->format == dtl_writers__find("where") && !o->have_group)
		o->group = DTL_ROW_TASK;
	if (o->format == dtl_writers__find("where") && o->group != DTL_ROW_TASK &&
	    o->group != DTL_ROW_CGROUP) {
		snprintf(err, errlen, "--format where names where processes' preempts hit: it takes "
			 "--group=task or --group=cgroup");
		return -1;
	}
	if ((o->begin || o->end) && !o->src.replay) {
		snprintf(err, errlen, "--%s takes a window of a replay (-r FILE)", o->begin ? "begin" : "end");
		return -1;
	}
	if ((o->begin || o->end) && o->write) {
		snprintf(err, errlen, "--begin and --end are not written to a recording (-w): it would "
			 "begin before the window");
		return -1;
	}
	if (o->web_config && !o->listen) {
		snprintf(err, errlen, "--web-config is for --listen");
		return -1;
	}
	if ((o->listen || o->textfile) && (o->batch || o->output || o->have_format || o->report)) {
		snprintf(err, errlen, "%s makes dtltop an exporter, with no output of its own: "
			 "-b, -o, --format and --report need a dtltop of their own",
			 o->listen ? "--listen" : "--textfile");
		return -1;
	}
	/* who pays: the worst first, as top puts the busiest first */
	if (o->group != DTL_ROW_CPU_VP && !o->sort)
		o->sort_col = dtl_cols__find("steal_us");
	if ((o->rotate_bytes || o->rotate_s) && !o->write) {
		snprintf(err, errlen, "--rotate needs -w FILE");
		return -1;
	}
	if (o->src.attach && !o->src.replay)
		o->src.replay = o->socket ? o->socket : DTL_USOCK_DEFAULT;
	if (o->socket && !o->serve && !o->src.attach) {
		snprintf(err, errlen, "--socket is --serve's or --attach's");
		return -1;
	}
	if (o->serve && (o->report || o->batch || o->output || o->have_format)) {
		snprintf(err, errlen, "--serve has no output of its own: -b, -o, --format and --report "
			 "are a viewer's (dtltop --attach)");
		return -1;
	}
	if (o->src.attach && (o->write || o->serve || o->begin || o->end)) {
		snprintf(err, errlen, "--attach shows the service's intervals as they come: -w, --serve, "
			 "--begin and --end are the service's or a replay's");
		return -1;
	}
	if (o->summary && !o->write) {
		snprintf(err, errlen, "--summary needs -w FILE");
		return -1;
	}
	if (o->summary_s && !o->summary) {
		snprintf(err, errlen, "--summary-interval is a summary's: it needs -w FILE --summary");
		return -1;
	}
	if (o->summary_s && (o->summary_s < o->interval_s - 1e-9 ||
			     fabs(o->summary_s / o->interval_s - round(o->summary_s / o->interval_s)) >
			     1e-6)) {
		snprintf(err, errlen, "--summary-interval %g is not a multiple of the interval (-d %g)",
			 o->summary_s, o->interval_s);
		return -1;
	}
	if (o->incident_s && !o->summary) {
		snprintf(err, errlen, "--incidents keeps raw entries beside a summary: it needs -w FILE "
			 "--summary");
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
	o->metrics_cgroups = 10;
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
		if (dtl_opts__interval(argv[optind++], &o->interval_s, err, errlen))
			return -1;
		o->have_interval = true;
	}
	if (optind < argc && dtl_opts__count(argv[optind++], &o->iterations, err, errlen))
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
	const struct opt *all = dtl_opts__rows(&n);
	struct option longopts[DTL_OPTS_MAX + 1];
	char shorts[2 + 2 * DTL_OPTS_MAX + 1];
	int c, idx, rc;

	defaults(o);
	if (dtl_opts__load_config(o, argc, argv, err, errlen))
		return -1;
	/* Kept settings are defaults, not choices made for this run. */
	o->have_mask = o->have_interval = o->have_format = false;
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

