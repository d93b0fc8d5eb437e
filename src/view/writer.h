/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * writer.h - the output formats: --format, its --help line and the TUI's
 * export all come from this registry. A new format is one file defining a
 * struct dtl_writer and one line in writer.c.
 */
#ifndef DTL_WRITER_H
#define DTL_WRITER_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "model.h"

struct dtl_writer {
	const char *name;	/* --format=NAME, and an export's file extension */
	const char *help;
	/* Each may be NULL; the caller checks ferror(f). */
	void (*begin)(FILE *f, const struct dtl_model *m);
	void (*interval)(FILE *f, const struct dtl_model *m);
	void (*end)(FILE *f, const struct dtl_model *m);
};

const struct dtl_writer *const *dtl_writers(size_t *n);
const struct dtl_writer *dtl_writers__find(const char *name);
/* "text or csv" (sep " or "), "text|csv" (sep "|"). */
void dtl_writers__names(char *buf, size_t len, const char *sep);

/* The format's old name, for code that means it. */
#define DTL_FORMAT_CSV (dtl_writers__find("csv"))

/*
 * Write one interval with w to dir/dtltop-YYYYMMDD-HHMMSS.<w->name> (a -N
 * suffix if taken): created new under a temporary name, never following a
 * symlink, then linked into place so no half-written file has the final name.
 */
int dtl_snapshot__write_as(const struct dtl_writer *w, const char *dir,
			   const struct dtl_model *m, time_t now, char *path, size_t pathlen,
			   char *err, size_t errlen);

#endif
