/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * judge.h - what the figures mean: each judged column's thresholds (a cell
 * is ok, warn or crit), and the partition's figures said in words. Pure:
 * the TUI colours from it, the header prints it, tests call it directly.
 */
#ifndef DTL_JUDGE_H
#define DTL_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"
#include "table.h"

enum dtl_level { DTL_LEVEL_NONE, DTL_LEVEL_OK, DTL_LEVEL_WARN, DTL_LEVEL_CRIT };

/* Fewer latency samples than this in a row: its percentiles are shown as '-'. */
#define DTL_MIN_SAMPLES 20

/* The level of c's cell in r: NONE for a column nobody judges or a figure unknown. */
enum dtl_level dtl_judge__cell(const struct dtl_col *c, const struct dtl_row *r);
/*
 * "steal_pct=10:25,lat_p99_us=5000:10000": warn and crit per CSV field, in
 * the CSV's units; 0, or -1 with err naming the bad part. Only the named
 * fields change.
 */
int dtl_judge__set(const char *spec, char *err, size_t errlen);
/* The thresholds in the form dtl_judge__set() reads. */
void dtl_judge__format(char *buf, size_t len);
/* Back to the defaults (for tests). */
void dtl_judge__reset(void);

/*
 * The partition in words: "waiting 23% of wanted CPU time; p99 dispatch
 * wait 42ms (> 10ms dispatch wheel); 3 of 8 VPs above 50% steal".
 */
void dtl_judge__summary(const struct dtl_table *t, char *buf, size_t len);
/* Across the rows: "steal% min/p50/p90/max 1.0/5.2/12/40  p99 ...". */
void dtl_judge__spread(const struct dtl_table *t, char *buf, size_t len);
/* A duration in us as "850us", "12.3ms", "18.5s". */
void dtl_judge__us(double us, char *buf, size_t len);

/*
 * A cell as the screen and the batch text show it, right-aligned: times in
 * their own unit ("850us", "12ms"), percentiles '-' on too few samples.
 */
void dtl_judge__text(const struct dtl_col *c, const struct dtl_row *r, char *buf, size_t len);

#endif
