/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * columns.h - the one table of output columns: CSV schema, batch text, TUI,
 * help legend, --list-fields and the man-page check all read it.
 */
#ifndef DTL_COLUMNS_H
#define DTL_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../stats/stats.h"

enum dtl_col_kind {
	DTL_COL_TIMESTAMP,	/* supplied by the caller, not the row */
	DTL_COL_INTERVAL,
	DTL_COL_CPU,
	DTL_COL_U64,		/* a uint64_t field of struct dtl_row */
	DTL_COL_DOUBLE,		/* a double field of struct dtl_row */
	DTL_COL_PREEMPT,	/* sum of preempt[] over codes */
	DTL_COL_DISPATCH,	/* sum of dispatch[] over codes */
	DTL_COL_LOST,		/* lost, marked on screen when gaps add an unknown count */
	DTL_COL_MASK,		/* the row's event mask, CSV only */
	DTL_COL_KNOWN,		/* a double known when row->lpar has the bit in codes; else empty */
};

struct dtl_col {
	char name[48];		/* CSV name */
	char head[12];		/* text and TUI heading; "" = CSV only */
	const char *unit;
	char legend[112];
	enum dtl_col_kind kind;
	size_t off;
	uint32_t codes;		/* reason codes; bit N is "other" */
	int prec;		/* decimals in CSV and text */
	int width;		/* text and TUI width */
	int prio;		/* TUI: lower survives narrower terminals */
	double scale;		/* TUI and text show value * scale */
};

const struct dtl_col *dtl_cols(size_t *n);
/*
 * Index of a column by CSV name, or by its heading in any case, with or
 * without a time column's unit ("P99", "P99us", "STEAL%", "VP"); -1 if none.
 */
int dtl_cols__find(const char *name);
/* c's heading on screen and in text: the CPU column says VP when rows are VPs. */
const char *dtl_col__heading(const struct dtl_col *c, bool by_vp);
/* "all" or "selected" for the aggregate row, NULL for a CPU's. */
const char *dtl_row__label(const struct dtl_row *r);

/* False where the row cannot know c's figure (it is then blank, never 0). */
bool dtl_col__known(const struct dtl_col *c, const struct dtl_row *r);
double dtl_col__value(const struct dtl_col *c, const struct dtl_row *r);
/* The CSV form of one cell; timestamp is only used by DTL_COL_TIMESTAMP. */
void dtl_col__csv(const struct dtl_col *c, const struct dtl_row *r, const char *timestamp,
		  char *buf, size_t len);
/* The text/TUI form, right-aligned to c->width. */
void dtl_col__text(const struct dtl_col *c, const struct dtl_row *r, char *buf, size_t len);

/* The heading as the screen shows it: a time column's without its unit ("P99", "STEAL"). */
const char *dtl_col__screen_head(const struct dtl_col *c, bool by_vp, char *buf, size_t len);

/* "2025-01-01T00:00:01.000Z" */
void dtl_timestamp(uint64_t ns_since_epoch, char *buf, size_t len);

#endif
