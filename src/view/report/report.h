/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - --report OUT.html: a view that keeps each interval's figures
 * and, when capture ends, writes one self-contained HTML page of charts.
 */
#ifndef DTL_REPORT_H
#define DTL_REPORT_H

#include <stdio.h>

#include "../view.h"

/*
 * Collects for path; inner (the batch view of a -b run, or NULL) still
 * shows each interval. NULL with a message on stderr.
 */
struct dtl_view *dtl_report__open(const char *path, struct dtl_view *inner);
/*
 * Writes the page (when rc is 0), from the last model shown: call it before
 * the loop is deleted. inner stays the caller's. rc, or 1 if writing failed.
 */
int dtl_report__close(struct dtl_view *v, int rc);

#endif
