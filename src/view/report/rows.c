/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rows.c - the report's per-row pictures: a heatmap of every VP (or CPU) by
 * time, worst first, and small multiples of the ten worst. The heatmap is a
 * PNG inside the SVG: a cell per row per pixel column as SVG would be
 * megabytes at 1920 CPUs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "internal.h"
#include "png.h"
#include "scale.h"

#define TOP_ROWS 20	/* labelled, 12 px each */
#define TOP_H 12
#define REST_MAX 400	/* pixel rows for all the others */
#define UNKNOWN 255	/* the palette's grey */

static void base64(FILE *f, const uint8_t *p, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		fputc(a[v >> 18], f);
		fputc(a[(v >> 12) & 63], f);
		fputc(i + 1 < n ? a[(v >> 6) & 63] : '=', f);
		fputc(i + 2 < n ? a[v & 63] : '=', f);
	}
}

/* The mean steal % of rows [r0, r1) of the ranking over a bucket's intervals; NaN unknown. */
static double cell(const struct rp *r, const struct rp_ranked *o, unsigned int r0, unsigned int r1,
		   const struct dtl_bucket *b)
{
	double sum = 0;
	size_t n = 0;

	for (unsigned int k = r0; k < r1; k++)
		for (size_t i = b->first; i < b->first + b->n; i++) {
			uint16_t v = r->steal[i * r->nrows + o[k].k];

			if (v != RP_NO_STEAL) {
				sum += v / 100.0;
				n++;
			}
		}
	return n ? sum / (double)n : NAN;
}

/* Rows [r0, r1) of the ranking in h pixel rows (several rows to one where h is less), as a PNG. */
static int image(FILE *f, const struct rp *r, const struct rp_ranked *o, unsigned int r0,
		 unsigned int r1, unsigned int h, const struct dtl_bucket *b, size_t nb, double vmax,
		 int y, int disp_h)
{
	static uint8_t pal[256][3];
	uint8_t *pix = malloc((size_t)h * nb), *png;
	size_t len;

	if (!pix)
		return -1;
	for (unsigned int i = 0; i < 255; i++)
		dtl_viridis(i / 254.0, pal[i]);
	memcpy(pal[UNKNOWN], (const uint8_t[]){ 208, 208, 208 }, 3);
	for (unsigned int py = 0; py < h; py++) {
		unsigned int a = r0 + (unsigned int)((uint64_t)py * (r1 - r0) / h);
		unsigned int z = r0 + (unsigned int)((uint64_t)(py + 1) * (r1 - r0) / h);

		for (size_t x = 0; x < nb; x++) {
			double v = cell(r, o, a, z > a ? z : a + 1, &b[x]);

			pix[(size_t)py * nb + x] = isnan(v) ? UNKNOWN :
				(uint8_t)lround(254 * (v > vmax ? 1 : v / vmax));
		}
	}
	png = dtl_png__indexed(pix, (unsigned int)nb, h, (const uint8_t (*)[3])pal, 256, &len);
	free(pix);
	if (!png)
		return -1;
	fprintf(f, "<image x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" preserveAspectRatio=\"none\" "
		"style=\"image-rendering:pixelated\" href=\"data:image/png;base64,", RP_ML, y, RP_PW,
		disp_h);
	base64(f, png, len);
	fputs("\"/>\n", f);
	free(png);
	return 0;
}

/* The colour scale: viridis from 0 to vmax %, grey for unknown. */
static void colour_scale(FILE *f, double vmax, int y)
{
	int x = RP_ML + RP_PW + 60;
	uint8_t c[3];

	fputs("<defs><linearGradient id=\"viridis\" x1=\"0\" x2=\"0\" y1=\"1\" y2=\"0\">", f);
	for (int i = 0; i <= 8; i++) {
		dtl_viridis(i / 8.0, c);
		fprintf(f, "<stop offset=\"%.3f\" stop-color=\"#%02x%02x%02x\"/>", i / 8.0, c[0], c[1], c[2]);
	}
	fputs("</linearGradient></defs>\n", f);
	fprintf(f, "<text class=\"lg\" x=\"%d\" y=\"%d\">steal %%</text>"
		"<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"160\" fill=\"url(#viridis)\"/>\n",
		x, y - 6, x, y);
	for (int i = 0; i <= 4; i++)
		fprintf(f, "<text class=\"lg\" x=\"%d\" y=\"%d\">%g</text>", x + 20, y + 164 - 40 * i,
			vmax * i / 4);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"#d0d0d0\"/>"
		"<text class=\"lg\" x=\"%d\" y=\"%d\">offline</text>\n", x, y + 176, x + 20, y + 185);
}

/* The 99th percentile of every known cell, so one hot spot does not wash out the rest. */
static double cells_p99(const struct rp *r)
{
	size_t n = r->n * r->nrows, k = 0, seen = 0;
	size_t *count = calloc(10001, sizeof(*count));
	unsigned int v;

	if (!count)
		return 100;
	for (size_t i = 0; i < n; i++)
		if (r->steal[i] != RP_NO_STEAL) {
			count[r->steal[i] > 10000 ? 10000 : r->steal[i]]++;
			k++;
		}
	for (v = 0; v < 10000 && (seen += count[v]) < (size_t)(0.99 * (double)k); v++)
		;
	free(count);
	return v / 100.0;
}

int rp_heatmap(FILE *f, const struct rp *r, const struct rp_ranked *o)
{
	struct rp_chart c;
	unsigned int top = r->nrows < TOP_ROWS ? r->nrows : TOP_ROWS, rest = r->nrows - top;
	unsigned int rest_h = rest > REST_MAX ? REST_MAX : rest;
	int rest_disp = rest ? (rest * 2 > REST_MAX ? REST_MAX : (int)rest * 2) : 0;
	int h = (int)top * TOP_H + (rest ? 8 + rest_disp : 0), rc = 0;
	double vmax;
	char title[160];

	vmax = dtl_scale__nice_max(cells_p99(r), 10);
	if (vmax > 100)
		vmax = 100;
	snprintf(title, sizeof(title), "Steal %% by %s and time, the worst first (mean over the "
		 "span), the worst %u labelled", r->by_vp ? "virtual processor" : "CPU", top);
	if (rp_chart__begin(&c, f, r, title, "", h < 200 ? 200 : h))
		return -1;
	c.nb = dtl_downsample(r->t, r->n, RP_COLS, c.b);	/* buckets of intervals */
	rc |= image(f, r, o, 0, top, top, c.b, c.nb, vmax, RP_MT, (int)top * TOP_H);
	for (unsigned int k = 0; k < top; k++) {
		int y = RP_MT + (int)k * TOP_H + TOP_H - 2;
		char name[32];

		rp_row_name(r, o[k].k, name, sizeof(name));
		fprintf(f, "<text class=\"yt\" x=\"%d\" y=\"%d\">%s</text>", RP_ML - 6, y, name);
		fprintf(f, "<text class=\"lg\" x=\"%d\" y=\"%d\">%.1f</text>\n", RP_ML + RP_PW + 4, y,
			o[k].mean);
	}
	if (rest) {
		int y = RP_MT + (int)top * TOP_H + 8;

		rc |= image(f, r, o, top, r->nrows, rest_h, c.b, c.nb, vmax, y, rest_disp);
		fprintf(f, "<text class=\"yt\" x=\"%d\" y=\"%d\">the other</text><text class=\"yt\" "
			"x=\"%d\" y=\"%d\">%u%s</text>\n", RP_ML - 6, y + 12, RP_ML - 6, y + 25, rest,
			rest > rest_h ? ", mean" : "");
	}
	colour_scale(f, vmax, RP_MT + 40);
	rp_chart__axes_x(&c);
	rp_chart__note(&c);
	rp_chart__end(&c);
	return rc ? -1 : 0;
}

int rp_multiples(FILE *f, const struct rp *r, const struct rp_ranked *o)
{
	unsigned int n = r->nrows < 10 ? r->nrows : 10;
	double *steal = malloc(r->n * sizeof(*steal)), *p99 = malloc(r->n * sizeof(*p99));
	double smax = 0, pmax = 1, pmin = INFINITY;
	char title[96], name[32];

	if (!steal || !p99) {
		free(steal), free(p99);
		return -1;
	}
	for (unsigned int k = 0; k < n; k++)
		for (size_t i = 0; i < r->n; i++) {
			uint16_t s = r->steal[i * r->nrows + o[k].k];
			float p = r->p99[i * r->nrows + o[k].k];

			smax = s != RP_NO_STEAL && s / 100.0 > smax ? s / 100.0 : smax;
			pmax = p > pmax ? p : pmax;
			pmin = p > 0 && p < pmin ? p : pmin;
		}
	fprintf(f, "<h2>The %u worst %s: steal %% and p99 dispatch latency (same scales)</h2>\n"
		"<div class=\"grid\">\n", n, r->by_vp ? "virtual processors" : "CPUs");
	for (unsigned int k = 0; k < n; k++) {
		struct rp_chart c;

		for (size_t i = 0; i < r->n; i++) {
			uint16_t s = r->steal[i * r->nrows + o[k].k];

			steal[i] = s == RP_NO_STEAL ? NAN : s / 100.0;
			p99[i] = r->p99[i * r->nrows + o[k].k];
		}
		rp_row_name(r, o[k].k, name, sizeof(name));
		snprintf(title, sizeof(title), "%s: mean steal %.1f %%", name, o[k].mean);
		if (rp_chart__begin_small(&c, f, r, title, 70))
			break;
		c.y = (struct dtl_scale){ 0, dtl_scale__nice_max(smax, 10), RP_MT + c.h, RP_MT, false };
		rp_chart__series(&c, steal, "steal %", dtl_category_colour(0), false);
		c.y = (struct dtl_scale){ pow(10, floor(log10(isfinite(pmin) ? pmin : 1))),
					  pow(10, ceil(log10(pmax))), RP_MT + 2 * c.h + 14,
					  RP_MT + c.h + 14, true };
		rp_chart__series(&c, p99, "p99", dtl_category_colour(1), false);
		rp_chart__small_axes(&c, dtl_scale__nice_max(smax, 10), c.y.d0, c.y.d1);
		rp_chart__end(&c);
	}
	fputs("</div>\n", f);
	free(steal);
	free(p99);
	return 0;
}
