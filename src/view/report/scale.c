/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scale.c - downsampling, scales, ticks and colours for the report.
 */
#include "scale.h"

#include <math.h>
#include <time.h>

size_t dtl_downsample(const double *v, size_t n, size_t cols, struct dtl_bucket *out)
{
	size_t nb = n < cols ? n : cols;

	for (size_t b = 0; b < nb; b++) {
		size_t i0 = b * n / nb, i1 = (b + 1) * n / nb, k = 0;
		double sum = 0, lo = INFINITY, hi = -INFINITY;

		for (size_t i = i0; i < i1; i++) {
			if (isnan(v[i]))
				continue;
			sum += v[i];
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
			k++;
		}
		out[b] = (struct dtl_bucket){ k ? lo : NAN, k ? sum / (double)k : NAN, k ? hi : NAN,
					      i0, i1 - i0 };
	}
	return nb;
}

double dtl_scale__map(const struct dtl_scale *s, double v)
{
	double a = s->d0, b = s->d1, t;

	if (s->log) {
		v = log10(v > s->d0 ? v : s->d0);
		a = log10(a), b = log10(b);
	}
	t = b > a ? (v - a) / (b - a) : 0;
	return s->r0 + t * (s->r1 - s->r0);
}

double dtl_scale__nice_max(double hi, double min_hi)
{
	double p, m;

	if (!(hi > min_hi))
		hi = min_hi;
	if (!(hi > 0) || !isfinite(hi))
		return 1;
	p = pow(10, floor(log10(hi)));
	m = hi / p;
	/* a hair over a step (rounding) stays in it */
	m = m <= 1.000001 ? 1 : m <= 2.000001 ? 2 : m <= 5.000001 ? 5 : 10;
	return m * p;
}

size_t dtl_scale__ticks(const struct dtl_scale *s, double *ticks, size_t max)
{
	size_t n = 0;
	double span, step, p, t;

	if (s->log) {
		for (t = pow(10, ceil(log10(s->d0) - 1e-9)); t <= s->d1 * 1.000001 && n < max; t *= 10)
			ticks[n++] = t;
		return n;
	}
	span = s->d1 - s->d0;
	if (!(span > 0) || max < 2)
		return 0;
	/* the smallest 1-2-5 step that leaves at most max - 1 gaps */
	p = pow(10, floor(log10(span / (double)(max - 1))));
	step = p;
	if (span / step > (double)(max - 1))
		step = 2 * p;
	if (span / step > (double)(max - 1))
		step = 5 * p;
	if (span / step > (double)(max - 1))
		step = 10 * p;
	for (t = ceil(s->d0 / step - 1e-9) * step; t <= s->d1 + step * 1e-6 && n < max; t += step)
		ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	return n;
}

size_t dtl_scale__clock_ticks(double t0, double t1, size_t max, double *ticks,
			      char (*labels)[DTL_CLOCK_LABEL])
{
	static const double steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
					 7200, 10800, 21600, 43200, 86400, 172800, 604800 };
	double step = steps[sizeof(steps) / sizeof(steps[0]) - 1];
	bool days;
	size_t n = 0;
	struct tm a, b;
	time_t s0 = (time_t)floor(t0), s1 = (time_t)floor(t1);

	if (!(t1 > t0) || max < 2)
		return 0;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if ((t1 - t0) / steps[i] <= (double)(max - 1)) {
			step = steps[i];
			break;
		}
	gmtime_r(&s0, &a);
	gmtime_r(&s1, &b);
	days = a.tm_yday != b.tm_yday || a.tm_year != b.tm_year;
	/* multiples of the step since the epoch: on UTC's round minutes, hours and days */
	for (double t = ceil(t0 / step - 1e-9) * step; t <= t1 + 1e-6 && n < max; t += step) {
		time_t s = (time_t)t;
		struct tm tm;

		gmtime_r(&s, &tm);
		ticks[n] = t;
		if (days && !tm.tm_hour && !tm.tm_min && !tm.tm_sec)
			strftime(labels[n], DTL_CLOCK_LABEL, "%b %d", &tm);
		else
			strftime(labels[n], DTL_CLOCK_LABEL, step < 60 ? "%H:%M:%S" : "%H:%M", &tm);
		n++;
	}
	return n;
}

/* Viridis sampled at nine points; linear between them (within 2 % of the original). */
static const uint8_t viridis[9][3] = {
	{ 68, 1, 84 }, { 71, 44, 122 }, { 59, 81, 139 }, { 44, 113, 142 }, { 33, 144, 141 },
	{ 39, 173, 129 }, { 92, 200, 99 }, { 170, 220, 50 }, { 253, 231, 37 },
};

void dtl_viridis(double t, uint8_t rgb[3])
{
	double x;
	unsigned int i;

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	x = t * 8;
	i = x >= 8 ? 7 : (unsigned int)x;
	x -= i;
	for (int c = 0; c < 3; c++)
		rgb[c] = (uint8_t)lround(viridis[i][c] + x * (viridis[i + 1][c] - viridis[i][c]));
}

const char *dtl_category_colour(unsigned int i)
{
	static const char *const okabe_ito[8] = {
		"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442",
		"#000000",
	};

	return okabe_ito[i % 8];
}
