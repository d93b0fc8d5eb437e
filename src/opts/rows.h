/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rows.h - the option table's row, shared by the files of src/opts/ only.
 */
#ifndef DTL_OPTS_ROWS_H
#define DTL_OPTS_ROWS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "../source/backend.h"
#include "opts.h"

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
	const char *key;	/* its name in dtltoprc, or NULL: not a setting */
};

/* The whole table, each backend's rows after --source's. */
const struct opt *dtl_opts__rows(size_t *n);
#define DTL_OPTS_MAX 64

/* Values every part reads the same way. */
int dtl_opts__interval(const char *s, double *v, char *err, size_t errlen);
int dtl_opts__count(const char *s, long *v, char *err, size_t errlen);

/*
 * dtltoprc's text (changed in place: values point into it) into o; 0, or -1
 * with err naming name and the line. Unknown keys leave a warning in warn.
 */
int dtl_opts__config(struct dtl_opts *o, char *text, const char *name, char *err, size_t errlen,
		     char *warn, size_t warnlen);
/* The file --config names, else $XDG_CONFIG_HOME/dtltop/dtltoprc, unless --no-config. */
int dtl_opts__load_config(struct dtl_opts *o, int argc, char **argv, char *err, size_t errlen);

#endif
