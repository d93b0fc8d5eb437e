/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chart.h - one SVG chart over the report's time axis: begin, set the y
 * scale, axes, series (or a stack), legend lines, end.
 */
#ifndef DTL_REPORT_CHART_H
#define DTL_REPORT_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "internal.h"
#include "scale.h"

/* The page's geometry: plot area PW wide, one pixel column per bucket at most. */
#define RP_W 1100
#define RP_ML 78
#define RP_MR 200
#define RP_MT 14
#define RP_MB 44
#define RP_PW (RP_W - RP_ML - RP_MR)
#define RP_COLS RP_PW

struct rp_chart {
	FILE *f;
	const struct rp *r;
	const char *ylabel;
	int h;			/* the plot's height */
	int ml, pw, w;		/* left margin, plot width, whole width */
	struct dtl_scale x, y;	/* x in seconds since the start */
	struct dtl_bucket *b;	/* the last series' buckets */
	size_t nb;
	bool note;		/* rp_chart__note: notes under it */
};

/* -1 out of memory (nothing written). y is the caller's to set before axes. */
int rp_chart__begin(struct rp_chart *c, FILE *f, const struct rp *r, const char *title,
		    const char *ylabel, int height);
/* A small chart of two plots of height h, one above the other (steal, then p99). */
int rp_chart__begin_small(struct rp_chart *c, FILE *f, const struct rp *r, const char *title,
			  int height);
void rp_chart__axes(struct rp_chart *c);
void rp_chart__axes_x(struct rp_chart *c);
/* The small chart's axes: steal 0..smax % above, p99 p0..p1 (log) below. */
void rp_chart__small_axes(struct rp_chart *c, double smax, double p0, double p1);
/* v has r->n values; NaN breaks the line. */
void rp_chart__series(struct rp_chart *c, const double *v, const char *name,
		      const char *colour, bool dashed);
void rp_chart__stack(struct rp_chart *c, double *const *v, const char *const *names, size_t nv);
void rp_chart__legend(struct rp_chart *c, int i, const char *name, const char *colour,
		      bool area, bool dashed);
/* Says so under the chart when a point stands for several intervals, or a mask was narrower. */
void rp_chart__note(struct rp_chart *c);
void rp_chart__end(struct rp_chart *c);

/* Where the span begins: the first interval's start, seconds since the epoch. */
double rp_t0(const struct rp *r);
void rp_esc(FILE *f, const char *s);
void rp_duration(double s, char *buf, size_t len);
/* "850 us", "12.3 ms", "1.2 s"; "-" for NaN. */
void rp_us(double us, char *buf, size_t len);

#endif
