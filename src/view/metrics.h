/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics.h - the Prometheus / OpenMetrics exposition of the since-start
 * counters, for --format=prom|openmetrics, --textfile and --listen.
 */
#ifndef DTL_METRICS_H
#define DTL_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "writer.h"

/*
 * The exposition of m's stats to f: OpenMetrics 1.0 (om) or the text
 * format 0.0.4. -1 out of memory (nothing written); f's errors are the
 * caller's to check.
 */
int dtl_metrics__write(FILE *f, const struct dtl_model *m, bool om);
/* The same without OpenMetrics' closing "# EOF": a view adds families of its own first. */
int dtl_metrics__families(FILE *f, const struct dtl_model *m, bool om);
/* One counter family of a view's own: HELP, TYPE and its one sample. */
void dtl_metrics__counter(FILE *f, bool om, const char *name, const char *help,
			  unsigned long long v);
/* "# EOF", where the format has one. */
void dtl_metrics__end(FILE *f, bool om);
/* What an exporter that has stopped leaves behind: dtl_up 0 and nothing else. */
void dtl_metrics__down(FILE *f, bool om);

#endif
