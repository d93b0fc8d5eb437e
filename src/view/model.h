/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - one interval as every view sees it: the rows and the facts
 * around them, made once by the loop and read by the TUI and each writer.
 */
#ifndef DTL_MODEL_H
#define DTL_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "../platform/sys.h"
#include "table.h"

struct dtl_model {
	const struct dtl_table *table;
	const char *source;		/* "sim", "debugfs" */
	const char *detail;
	unsigned int mask;
	double interval_s;
	unsigned int nr_vcpus;
	bool paused;
	bool since_start;
	const struct dtl_lparcfg *lparcfg;
	long long lpar_dispatches;	/* lparcfg delta over the interval, -1 unknown */
	const char *status;		/* message for the status line, or NULL */
};

/* "sim on 8 vCPUs ...  mask all  8 vCPUs": the batch title's facts. */
void dtl_model__title(const struct dtl_model *m, char *buf, size_t len);
/*
 * "LPAR ent 2.00  shared uncapped  VPs 2  pool 4.00  lparcfg dispatches +5",
 * the last part only when the delta is known; 0 when there is no lparcfg.
 */
int dtl_model__lpar(const struct dtl_model *m, char *buf, size_t len);

#endif
