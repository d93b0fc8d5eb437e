/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chart.c - SVG line, band and stacked-area charts over the report's time
 * axis. Each series carries its plotted values in data-values, so a test
 * (or a person with a text editor) can read the numbers behind a line.
 */
#include "chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rp_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void rp_duration(double s, char *buf, size_t len)
{
	if (s < 120)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 7200)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

void rp_us(double us, char *buf, size_t len)
{
	if (isnan(us))
		snprintf(buf, len, "-");
	else if (us < 1000)
		snprintf(buf, len, "%.3g \xc2\xb5s", us);
	else if (us < 1e6)
		snprintf(buf, len, "%.3g ms", us / 1e3);
	else
		snprintf(buf, len, "%.3g s", us / 1e6);
}

static int open_svg(struct rp_chart *c, FILE *f, const struct rp *r, const char *title,
		    int total_h)
{
	c->f = f;
	c->r = r;
	c->b = calloc(RP_COLS, sizeof(*c->b));
	if (!c->b)
		return -1;
	c->x = (struct dtl_scale){ 0, r->t[r->n - 1] - rp_t0(r), c->ml, c->ml + c->pw, false };
	fputs("<figure><figcaption>", f);
	rp_esc(f, title);
	fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", c->w, total_h,
		c->w, total_h);
	rp_esc(f, title);
	fputs("\">\n", f);
	return 0;
}

int rp_chart__begin(struct rp_chart *c, FILE *f, const struct rp *r, const char *title,
		    const char *ylabel, int height)
{
	memset(c, 0, sizeof(*c));
	c->h = height;
	c->ml = RP_ML, c->pw = RP_PW, c->w = RP_W;
	c->ylabel = ylabel;
	return open_svg(c, f, r, title, RP_MT + height + RP_MB);
}

int rp_chart__begin_small(struct rp_chart *c, FILE *f, const struct rp *r, const char *title,
			  int height)
{
	memset(c, 0, sizeof(*c));
	c->h = height;
	c->ml = 56, c->pw = 470, c->w = 540;
	c->ylabel = "";
	return open_svg(c, f, r, title, RP_MT + 2 * height + 14 + 34);
}

double rp_t0(const struct rp *r)
{
	return r->t[0] - r->interval_s;
}

/* A bucket's time: the mean of its intervals' ends, since the start. */
static double bucket_t(const struct rp_chart *c, const struct dtl_bucket *b)
{
	double sum = 0;

	for (size_t i = b->first; i < b->first + b->n; i++)
		sum += c->r->t[i];
	return sum / (double)(b->n ? b->n : 1) - rp_t0(c->r);
}

/*
 * Clock-time ticks and label under a plot whose bottom is at y0: a reader
 * of the page asks "what happened at 14:00", not "at minute 840".
 */
static void x_axis(struct rp_chart *c, int y0, bool label)
{
	double ticks[12], t0 = rp_t0(c->r);
	char labels[12][DTL_CLOCK_LABEL];
	size_t nx = dtl_scale__clock_ticks(t0, t0 + c->x.d1, c->pw > 600 ? 10 : 6, ticks, labels);
	bool dates = false;

	for (size_t i = 0; i < nx; i++) {
		double x = dtl_scale__map(&c->x, ticks[i] - t0);

		dates |= !strchr(labels[i], ':');
		fprintf(c->f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
			"<text class=\"xt\" x=\"%.1f\" y=\"%d\">%s</text>\n", x, x, y0, y0 + 4, x,
			y0 + 16, labels[i]);
	}
	fprintf(c->f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n",
		c->ml, c->ml + c->pw, y0, y0);
	if (label)
		fprintf(c->f, "<text class=\"xl\" x=\"%d\" y=\"%d\">%s (UTC)</text>\n",
			c->ml + c->pw / 2, y0 + 32, dates ? "date and time of day" : "time of day");
}

/* Ticks, grid lines and labels of the y scale between pixel rows top and bottom. */
static void y_axis(struct rp_chart *c, int top, int bottom, size_t max)
{
	double ticks[12];
	size_t n = dtl_scale__ticks(&c->y, ticks, max);

	for (size_t i = 0; i < n; i++) {
		double y = dtl_scale__map(&c->y, ticks[i]);
		char lbl[32];

		if (c->y.log)
			rp_us(ticks[i], lbl, sizeof(lbl));
		else
			snprintf(lbl, sizeof(lbl), "%g", ticks[i]);
		fprintf(c->f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"yt\" x=\"%d\" y=\"%.1f\">%s</text>\n", c->ml, c->ml + c->pw,
			y, y, c->ml - 6, y + 4, lbl);
	}
	fprintf(c->f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n",
		c->ml, c->ml, top, bottom);
}

/*
 * Intervals traced with a narrower event mask, shaded from top to bottom:
 * their figures leave events out, so a drop there is not a real one.
 */
static void narrow_bands(struct rp_chart *c, int top, int bottom)
{
	const struct rp *r = c->r;

	for (size_t i = 0; i < r->n; i++) {
		double x0, x1;

		if (!rp_narrow(r, i))
			continue;
		x0 = dtl_scale__map(&c->x, r->t[i] - r->interval_s - rp_t0(r));
		x1 = dtl_scale__map(&c->x, r->t[i] - rp_t0(r));
		fprintf(c->f, "<rect class=\"narrow\" data-interval=\"%zu\" x=\"%.1f\" y=\"%d\" "
			"width=\"%.1f\" height=\"%d\"/>\n", i + 1, x0, top, x1 - x0 < 1 ? 1 : x1 - x0,
			bottom - top);
	}
}

/* Incidents (--incidents): a line where each turned, its words on hovering. */
static void incident_marks(struct rp_chart *c, int top, int bottom)
{
	const struct rp *r = c->r;

	for (size_t k = 0; k < r->ninc; k++) {
		double x = dtl_scale__map(&c->x, r->t[r->inc[k].i] - rp_t0(r));

		fprintf(c->f, "<line class=\"incident\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\">"
			"<title>incident: ", x, x, top, bottom);
		rp_esc(c->f, r->inc[k].why);
		fputs(" (", c->f);
		rp_esc(c->f, r->inc[k].file);
		fputs(")</title></line>\n", c->f);
	}
}

void rp_chart__axes(struct rp_chart *c)
{
	narrow_bands(c, RP_MT, RP_MT + c->h);
	incident_marks(c, RP_MT, RP_MT + c->h);
	y_axis(c, RP_MT, RP_MT + c->h, 6);
	x_axis(c, RP_MT + c->h, true);
	fprintf(c->f, "<text class=\"yl\" transform=\"translate(14 %d) rotate(-90)\">",
		RP_MT + c->h / 2);
	rp_esc(c->f, c->ylabel);
	fputs("</text>\n", c->f);
}

void rp_chart__axes_x(struct rp_chart *c)
{
	narrow_bands(c, RP_MT, RP_MT + c->h);
	incident_marks(c, RP_MT, RP_MT + c->h);
	x_axis(c, RP_MT + c->h, true);
}

void rp_chart__small_axes(struct rp_chart *c, double smax, double p0, double p1)
{
	int top2 = RP_MT + c->h + 14;

	narrow_bands(c, RP_MT, top2 + c->h);
	c->y = (struct dtl_scale){ 0, smax, RP_MT + c->h, RP_MT, false };
	y_axis(c, RP_MT, RP_MT + c->h, 3);
	c->y = (struct dtl_scale){ p0, p1, top2 + c->h, top2, true };
	y_axis(c, top2, top2 + c->h, 4);
	x_axis(c, top2 + c->h, false);
	fprintf(c->f, "<text class=\"yl\" transform=\"translate(12 %d) rotate(-90)\">steal %%</text>"
		"<text class=\"yl\" transform=\"translate(12 %d) rotate(-90)\">p99</text>\n",
		RP_MT + c->h / 2, top2 + c->h / 2);
}

static void values_attr(FILE *f, const struct dtl_bucket *b, size_t nb)
{
	fputs(" data-values=\"", f);
	for (size_t i = 0; i < nb; i++)
		fprintf(f, i ? " %.4g" : "%.4g", b[i].mean);
	fputc('"', f);
}

void rp_chart__series(struct rp_chart *c, const double *v, const char *name,
		      const char *colour, bool dashed)
{
	bool pen = false, band = false;

	c->nb = dtl_downsample(v, c->r->n, RP_COLS, c->b);
	for (size_t i = 0; i < c->nb; i++)
		band |= c->b[i].n > 1 && c->b[i].max > c->b[i].min;
	if (band) {	/* min to max of each pixel column, under the mean */
		fprintf(c->f, "<path class=\"band\" fill=\"%s\" d=\"", colour);
		for (size_t i = 0, k = 0; i < c->nb; i++)
			if (!isnan(c->b[i].mean))
				fprintf(c->f, "%c%.1f %.1f", k++ ? 'L' : 'M', dtl_scale__map(&c->x,
					bucket_t(c, &c->b[i])), dtl_scale__map(&c->y, c->b[i].max));
		for (size_t i = c->nb; i-- > 0;)
			if (!isnan(c->b[i].mean))
				fprintf(c->f, "L%.1f %.1f", dtl_scale__map(&c->x, bucket_t(c, &c->b[i])),
					dtl_scale__map(&c->y, c->b[i].min));
		fputs("Z\"/>\n", c->f);
	}
	fprintf(c->f, "<path class=\"line%s\" stroke=\"%s\" data-series=\"%s\"", dashed ? " dash" : "",
		colour, name);
	values_attr(c->f, c->b, c->nb);
	fputs(" d=\"", c->f);
	for (size_t i = 0; i < c->nb; i++) {
		if (isnan(c->b[i].mean)) {	/* unknown: a gap in the line, not a zero */
			pen = false;
			continue;
		}
		fprintf(c->f, "%c%.1f %.1f", pen ? 'L' : 'M', dtl_scale__map(&c->x, bucket_t(c, &c->b[i])),
			dtl_scale__map(&c->y, c->b[i].mean));
		pen = true;
	}
	fputs("\"/>\n", c->f);
}

void rp_chart__legend(struct rp_chart *c, int i, const char *name, const char *colour,
		      bool area, bool dashed)
{
	int x = c->ml + c->pw + 14, y = RP_MT + 8 + 18 * i;

	if (area)
		fprintf(c->f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\"/>", x,
			y - 8, colour);
	else
		fprintf(c->f, "<line class=\"line%s\" stroke=\"%s\" x1=\"%d\" x2=\"%d\" y1=\"%d\" "
			"y2=\"%d\"/>", dashed ? " dash" : "", colour, x, x + 14, y - 3, y - 3);
	fprintf(c->f, "<text class=\"lg\" x=\"%d\" y=\"%d\">", x + 20, y);
	rp_esc(c->f, name);
	fputs("</text>\n", c->f);
}

void rp_chart__note(struct rp_chart *c)
{
	c->note = true;
}

/* Below the chart, not over its data: what the reader must know to read it. */
static void notes(const struct rp_chart *c)
{
	size_t per = c->r->n / (c->nb ? c->nb : 1);
	bool narrow = false;

	for (size_t i = 0; i < c->r->n && !narrow; i++)
		narrow = rp_narrow(c->r, i);
	if (narrow)
		fputs("<p class=\"note\">shaded: traced with a narrower event mask, those events "
		      "left out</p>\n", c->f);
	if (c->r->n > RP_COLS)
		fprintf(c->f, "<p class=\"note\">downsampled: each point is the mean of %zu-%zu "
			"intervals; the band spans their min to max</p>\n", per, per + 1);
}

/* Stacked areas of per-second rates, the largest first (at the bottom). */
void rp_chart__stack(struct rp_chart *c, double *const *v, const char *const *names, size_t nv)
{
	size_t nb = dtl_downsample(v[0], c->r->n, RP_COLS, c->b);
	double *base = calloc(nb ? nb : 1, sizeof(*base));
	struct dtl_bucket *b = calloc(RP_COLS, sizeof(*b));

	if (!base || !b) {
		free(base), free(b);
		return;
	}
	for (size_t k = 0; k < nv; k++) {
		dtl_downsample(v[k], c->r->n, RP_COLS, b);
		fprintf(c->f, "<path class=\"area\" fill=\"%s\" data-series=\"", dtl_category_colour((unsigned int)k));
		rp_esc(c->f, names[k]);
		fputc('"', c->f);
		values_attr(c->f, b, nb);
		fputs(" d=\"", c->f);
		for (size_t i = 0; i < nb; i++) {
			double top = base[i] + (isnan(b[i].mean) ? 0 : b[i].mean);

			fprintf(c->f, "%c%.1f %.1f", i ? 'L' : 'M', dtl_scale__map(&c->x, bucket_t(c, &c->b[i])),
				dtl_scale__map(&c->y, top));
		}
		for (size_t i = nb; i-- > 0;) {
			fprintf(c->f, "L%.1f %.1f", dtl_scale__map(&c->x, bucket_t(c, &c->b[i])),
				dtl_scale__map(&c->y, base[i]));
			base[i] += isnan(b[i].mean) ? 0 : b[i].mean;
		}
		fputs("Z\"/>\n", c->f);
		rp_chart__legend(c, (int)k, names[k], dtl_category_colour((unsigned int)k), true, false);
	}
	c->nb = nb;
	free(base);
	free(b);
}

void rp_chart__end(struct rp_chart *c)
{
	fputs("</svg>\n", c->f);
	if (c->note)
		notes(c);
	fputs("</figure>\n", c->f);
	free(c->b);
	c->b = NULL;
}
