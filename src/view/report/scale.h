/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scale.h - the report's arithmetic, pure: downsampling a series to the
 * pixels there are, mapping values to pixels (linear or log), round tick
 * values, and the colour scales. Unit-tested without any output.
 */
#ifndef DTL_REPORT_SCALE_H
#define DTL_REPORT_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One pixel column of a series: what the intervals it covers held. */
struct dtl_bucket {
	double min, mean, max;	/* NaN where none of its intervals knew the value */
	size_t first, n;	/* the intervals it covers */
};

/*
 * n values into min(n, cols) buckets of consecutive intervals (bucket b
 * covers [b*n/cols, (b+1)*n/cols)); NaN values are skipped. The count.
 */
size_t dtl_downsample(const double *v, size_t n, size_t cols, struct dtl_bucket *out);

struct dtl_scale {
	double d0, d1;		/* the domain */
	double r0, r1;		/* the range, in pixels */
	bool log;		/* log10; the domain then > 0, values below d0 clamp to r0 */
};

double dtl_scale__map(const struct dtl_scale *s, double v);
/* 0..hi rounded up to a 1, 2 or 5 times a power of ten; at least min_hi. */
double dtl_scale__nice_max(double hi, double min_hi);
/* Up to max round values in [lo, hi] (a log scale: its powers of ten); the count. */
size_t dtl_scale__ticks(const struct dtl_scale *s, double *ticks, size_t max);
/*
 * Ticks on the clock (UTC) for a span of t0 to t1 seconds since the epoch:
 * at most max, at the smallest round step (1 s to 7 days) that allows,
 * each with its label: "HH:MM", "HH:MM:SS" for steps under a minute, and a
 * date ("Dec 07") at each midnight of a span that passes one. The count.
 */
#define DTL_CLOCK_LABEL 16
size_t dtl_scale__clock_ticks(double t0, double t1, size_t max, double *ticks,
			      char (*labels)[DTL_CLOCK_LABEL]);

/* Viridis at t in [0, 1] (clamped): dark blue to yellow, readable in grey and by the colour-blind. */
void dtl_viridis(double t, uint8_t rgb[3]);
/* Okabe and Ito's eight colours, told apart by colour-blind eyes: #rrggbb of i mod 8. */
const char *dtl_category_colour(unsigned int i);

#endif
