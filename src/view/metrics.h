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

#endif
