/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * batch.h - the batch view (-b): a writer into standard output or -o FILE.
 */
#ifndef DTL_BATCH_H
#define DTL_BATCH_H

#include <stdbool.h>

#include "view.h"
#include "writer.h"

/*
 * path NULL or "-" is standard output; a device or FIFO is written in place;
 * a file is written under a temporary name and renamed at a clean close.
 * NULL with a one-line message on stderr.
 */
struct dtl_view *dtl_batch__open(const struct dtl_writer *w, const char *path, int sort_col,
				 bool reverse);
/* Ends the output; rc is the run's status so far, the result the final one. */
int dtl_batch__close(struct dtl_view *v, int rc);

#endif
