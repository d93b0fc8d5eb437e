/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * opts.h - dtltop's settings, parsed from the command line in one place.
 */
#ifndef DTL_OPTS_H
#define DTL_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "../source/source.h"
#include "../view/writer.h"

struct dtl_opts {
	struct dtl_source_opts src;
	bool batch;
	long iterations;	/* 0 = forever */
	double interval_s;
	const struct dtl_writer *format;	/* -b's */
	const struct dtl_writer *export_format;	/* the TUI's 'e' */
	const char *output;
	bool list_fields;
	bool list_keys;
	bool list_options;
	bool check;		/* --check: what works here, then exit */
	const char *sort;	/* -s as given, resolved into sort_col */
	bool help, version;
	bool no_color;
	bool by_vp;		/* --group=vp */
	enum dtl_row_group group;	/* --group=task|cgroup; DTL_ROW_CPU_VP otherwise */
	bool have_group;		/* --group given (or in dtltoprc) */
	int sort_col;		/* index into dtl_cols() */
	bool sort_reverse;
	const char *write;	/* -w FILE */
	uint64_t rotate_bytes;	/* --rotate: a new FILE.N past this size, or */
	double rotate_s;	/* this many seconds of data; 0 neither */
	unsigned int rotate_keep;	/* the newest this many kept; 0 all */
	bool summary;		/* --summary: -w records intervals' counts, not entries */
	double summary_s;	/* --summary-interval: the summary's own interval; 0 -d's */
	bool serve;		/* --serve: the viewers attached to a socket take each interval */
	const char *socket;	/* --socket PATH: --serve's and --attach's */
	double incident_s;	/* --incidents: the raw ring's length; 0 none */
	unsigned int incident_files;	/* the newest this many kept */
	uint64_t incident_bytes;	/* the ring's bound */
	bool have_interval;
	bool have_mask;		/* -e given */
	bool have_format;	/* --format or --csv given */
	enum dtl_hist_by hist_by;	/* --hist-by */
	enum dtl_metrics_by metrics_by;	/* --metrics-by */
	unsigned int metrics_cgroups;	/* --metrics-cgroups: who pays, bounded */
	const char *begin, *end;	/* --begin, --end: a replay's window, as typed */
	const char *listen;	/* --listen [ADDR:]PORT */
	const char *web_config;	/* --web-config FILE: TLS and users for --listen */
	const char *textfile;	/* --textfile DIR */
	const char *report;	/* --report FILE.html */
	bool batch_given;	/* -b on the command line, not implied by a pipe */
	const char *columns;	/* --columns: the TUI's, in order */
	double smooth_s;	/* --smooth: the TUI's rows as decayed averages; 0 off */
	const char *config_file;	/* --config's, where W writes; NULL: the XDG one */
};

/*
 * 0 ok, -1 with a one-line message in err (exit status 2), 1 when an
 * option printed what was asked (--sim=help) and dtltop should exit 0.
 */
int dtl_opts__parse(struct dtl_opts *o, int argc, char **argv, char *err, size_t errlen);
/*
 * A replay's jump target ('b'): "#N" is interval N (in *interval); "+S" or
 * "S" is S seconds after start_ns, "HH:MM[:SS]" that UTC time on the day of
 * start_ns, or the next day if it is earlier (in *at_ns). 0, or -1 with err.
 */
int dtl_opts__parse_when(const char *s, uint64_t start_ns, uint64_t *at_ns, uint64_t *interval,
			 char *err, size_t errlen);
/*
 * The same, and YYYY-MM-DD[THH:MM[:SS][Z]] (UTC), units on +N (s, m, h, d),
 * and -N back from end_ns, the recording's end (0: not known, refused).
 */
int dtl_opts__parse_time(const char *s, uint64_t start_ns, uint64_t end_ns, uint64_t *at_ns,
			 uint64_t *interval, char *err, size_t errlen);
void dtl_opts__usage(FILE *f);

/* What W keeps: the settings as they are now on screen. */
struct dtl_saved {
	double interval_s;
	char sort[64];		/* "-steal_pct" */
	bool by_vp;
	enum dtl_row_group group;	/* task or cgroup, else by_vp says */
	unsigned int mask;
	char columns[640];	/* "cpu,dispatch_per_s,..." */
};
/*
 * now into dtltoprc (--config's file, or the XDG one), keeping its other
 * lines; the file in path. 0, or -1 with err.
 */
int dtl_opts__save(const struct dtl_opts *o, const struct dtl_saved *now, char *path,
		   size_t pathlen, char *err, size_t errlen);
/*
 * One line per option, "-d, --delay SECS<TAB>help", then "<TAB>setting KEY"
 * when dtltoprc may set it: for scripts, completions and the man-page check.
 */
void dtl_opts__list(FILE *f);

#endif
