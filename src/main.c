/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c - wire one source, the interval loop and one view, and take them
 * down in reverse order.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check/check.h"
#include "info.h"
#include "loop/loop.h"
#include "opts/opts.h"
#include "tui/tui.h"
#include "view/batch.h"
#include "view/exporter.h"
#include "view/report/report.h"

static volatile sig_atomic_t stop;
static const int ending[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM };

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int run_report(struct dtl_loop *l, const struct dtl_opts *o)
{
	struct dtl_view *v, *inner = NULL;

	/* with -b or -o, the batch output goes on beside it */
	if ((o->batch_given || o->output) &&
	    !(inner = dtl_batch__open(o->format, o->output, o->sort_col, o->sort_reverse)))
		return 2;
	v = dtl_report__open(o->report, inner);
	if (!v)
		return dtl_batch__close(inner, 2);
	return dtl_batch__close(inner, dtl_report__close(v, dtl_loop__run(l, v)));
}

static int run_tui(struct dtl_loop *l, const struct dtl_opts *o)
{
	struct dtl_tui *tui = dtl_tui__new(!o->no_color && !getenv("NO_COLOR"), o->sort_col,
					   o->sort_reverse, o->sort != NULL);
	char err[256];
	int rc;

	if (!tui) {
		fprintf(stderr, "dtltop: cannot start the terminal UI (TERM=%s); try -b\n",
			getenv("TERM") ? getenv("TERM") : "");
		return 2;
	}
	if (o->columns && dtl_tui__columns(tui, o->columns, err, sizeof(err))) {
		dtl_tui__delete(tui);
		fprintf(stderr, "dtltop: %s\n", err);
		return 2;
	}
	rc = dtl_loop__run(l, dtl_tui__view(tui));
	dtl_tui__delete(tui);
	return rc;
}

/*
 * One view: the exporter where asked, the report, the batch view where -b
 * asks or no terminal is there (as atop), else the TUI.
 */
static int run(struct dtl_loop *l, const struct dtl_opts *o)
{
	struct dtl_view *v;

	if (o->listen || o->textfile || o->serve) {
		v = dtl_exporter__open(o->listen, o->web_config, o->textfile);
		return v ? dtl_exporter__close(v, dtl_loop__run(l, v)) : 2;
	}
	if (o->report)
		return run_report(l, o);
	if (o->batch) {
		v = dtl_batch__open(o->format, o->output, o->sort_col, o->sort_reverse);
		return v ? dtl_batch__close(v, dtl_loop__run(l, v)) : 2;
	}
	return run_tui(l, o);
}

int main(int argc, char **argv)
{
	struct dtl_opts o;
	struct dtl_source *src;
	struct dtl_loop *l;
	char err[8192];
	int rc = dtl_opts__parse(&o, argc, argv, err, sizeof(err));

	if (rc)
		return rc > 0 ? 0 : (fprintf(stderr, "dtltop: %s\n", err), 2);
	if (dtl_info__print(&o))
		return 0;
	if (o.have_interval)
		o.src.replay_interval_s = o.interval_s;
	if (o.check)
		return dtl_check__print(&o, stdout);
	o.batch_given = o.batch;
	o.batch |= !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO) || o.report;
	if (o.output && !o.batch) {
		fprintf(stderr, "dtltop: -o needs -b (in the TUI, 'e' exports a snapshot)\n");
		return 2;
	}
	if (!(src = dtl_source__open(&o.src, err, sizeof(err))) ||
	    !(l = dtl_loop__new(&o, src, &dtl_clock_real, &stop, err, sizeof(err))))	/* takes src */
		goto fail;
	/* ending signals end it the clean way: -o renamed in, the recording's end, dtl_up 0 */
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		signal(ending[i], on_signal);
	signal(SIGPIPE, SIG_IGN);
	return dtl_loop__delete(l, run(l, &o));
fail:
	fprintf(stderr, "dtltop: %s\n", err);
	return 2;
}
