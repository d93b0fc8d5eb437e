/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replace.h - a file written whole or not at all: into a new temporary file
 * beside it (never through a symlink), then renamed over it, so a reader
 * (node_exporter, a browser, dtltop at start) never sees half of one.
 */
#ifndef DTL_REPLACE_H
#define DTL_REPLACE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * fill(f, ctx) writes the content: 0, or -1 for a failure it has already
 * described in err. path then holds it with mode; 0, or -1 with err naming
 * the file (the temporary one is gone either way).
 */
int dtl_replace__file(const char *path, mode_t mode, int (*fill)(FILE *f, void *ctx), void *ctx,
		      char *err, size_t errlen);

#endif
