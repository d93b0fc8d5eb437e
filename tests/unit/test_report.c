/* SPDX-License-Identifier: GPL-2.0-only */
/* The report's pure parts: downsampling, scales, ticks, colours, PNG; the page's facts. */
#include "t.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "dtl/dtl.h"
#include "stats/stats.h"
#include "view/report/png.h"
#include "view/report/report.h"
#include "view/report/scale.h"

TEST(report_downsample_keeps_min_mean_max_and_covers_every_interval)
{
	double v[10] = { 1, 5, 3, NAN, 2, 8, 0, 4, 4, 6 };
	struct dtl_bucket b[10];
	size_t n = dtl_downsample(v, 10, 4, b), covered = 0;

	CHECK_EQ(n, 4);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(b[i].first, covered);
		covered += b[i].n;
	}
	CHECK_EQ(covered, 10);
	/* bucket 0: [0, 2) = {1, 5}; bucket 1: [2, 5) = {3, NaN, 2} */
	CHECK_NEAR(b[0].min, 1, 0);
	CHECK_NEAR(b[0].mean, 3, 1e-12);
	CHECK_NEAR(b[0].max, 5, 0);
	CHECK_NEAR(b[1].mean, 2.5, 1e-12);	/* the NaN is skipped, not a zero */
	CHECK_NEAR(b[1].min, 2, 0);
	/* fewer values than columns: one bucket each, unchanged */
	n = dtl_downsample(v, 3, 100, b);
	CHECK_EQ(n, 3);
	CHECK_NEAR(b[2].mean, 3, 0);
	CHECK(b[2].min == b[2].max);
	/* a bucket of nothing known stays unknown */
	n = dtl_downsample((double[]){ NAN, NAN }, 2, 1, b);
	CHECK(n == 1 && isnan(b[0].mean));
}

TEST(report_scales_map_linear_and_log_and_clamp_below_a_log_domain)
{
	struct dtl_scale lin = { 0, 100, 200, 0, false }, lg = { 1, 1e4, 100, 0, true };

	CHECK_NEAR(dtl_scale__map(&lin, 0), 200, 1e-9);
	CHECK_NEAR(dtl_scale__map(&lin, 25), 150, 1e-9);
	CHECK_NEAR(dtl_scale__map(&lg, 100), 50, 1e-9);
	CHECK_NEAR(dtl_scale__map(&lg, 0), 100, 1e-9);	/* 0 on a log scale: the bottom */
	CHECK_NEAR(dtl_scale__nice_max(37, 10), 50, 0);
	CHECK_NEAR(dtl_scale__nice_max(3, 10), 10, 0);
	CHECK_NEAR(dtl_scale__nice_max(0.013, 0), 0.02, 1e-12);
	CHECK_NEAR(dtl_scale__nice_max(200, 1), 200, 0);
	CHECK_NEAR(dtl_scale__nice_max(NAN, 0), 1, 0);
}

TEST(report_ticks_are_round_and_inside_the_domain)
{
	double t[12];
	struct dtl_scale s = { 0, 50, 0, 1, false }, lg = { 10, 1e5, 0, 1, true };
	size_t n = dtl_scale__ticks(&s, t, 6);

	CHECK_EQ(n, 6);
	CHECK_NEAR(t[0], 0, 0);
	CHECK_NEAR(t[1], 10, 1e-9);
	CHECK_NEAR(t[5], 50, 1e-9);
	s.d1 = 3540;	/* an hour in seconds, 10 ticks at most */
	n = dtl_scale__ticks(&s, t, 10);
	CHECK(n >= 4 && n <= 10);
	CHECK_NEAR(t[1] - t[0], 500, 1e-9);
	CHECK(t[n - 1] <= 3540);
	n = dtl_scale__ticks(&lg, t, 12);
	CHECK_EQ(n, 5);
	CHECK_NEAR(t[4], 1e5, 1e-6);
}

TEST(report_viridis_runs_dark_to_light_and_categories_differ)
{
	uint8_t a[3], b[3], c[3];

	dtl_viridis(0, a);
	dtl_viridis(0.5, b);
	dtl_viridis(1, c);
	CHECK(a[0] == 68 && a[1] == 1 && a[2] == 84);
	CHECK(c[0] == 253 && c[1] == 231 && c[2] == 37);
	/* luminance rises: readable in grey */
	CHECK(a[0] + a[1] + a[2] < b[0] + b[1] + b[2] && b[0] + b[1] + b[2] < c[0] + c[1] + c[2]);
	dtl_viridis(7, b);	/* clamped */
	CHECK(b[0] == c[0] && b[1] == c[1] && b[2] == c[2]);
	for (unsigned int i = 0; i < 8; i++)
		for (unsigned int j = i + 1; j < 8; j++)
			CHECK(strcmp(dtl_category_colour(i), dtl_category_colour(j)) != 0);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

TEST(report_png_is_a_valid_indexed_image_that_inflates_to_its_pixels)
{
	uint8_t pix[3 * 2] = { 0, 1, 2, 2, 1, 0 }, pal[3][3] = { { 0, 0, 0 }, { 9, 9, 9 }, { 255, 0, 0 } };
	uint8_t raw[2 * 4];
	uLongf raw_n = sizeof(raw);
	size_t len = 0, off = 8;
	uint8_t *png = dtl_png__indexed(pix, 3, 2, (const uint8_t (*)[3])pal, 3, &len);
	const uint8_t *idat = NULL;
	uint32_t idat_n = 0;
	int chunks = 0;

	CHECK(png != NULL);
	if (!png)
		return;
	CHECK(memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
	while (off + 12 <= len) {	/* every chunk's CRC checks out */
		uint32_t n = be32(png + off);

		CHECK(off + 12 + n <= len);
		CHECK_EQ(be32(png + off + 8 + n), (uint32_t)crc32(0, png + off + 4, 4 + n));
		if (!memcmp(png + off + 4, "IHDR", 4)) {
			CHECK_EQ(be32(png + off + 8), 3);
			CHECK_EQ(be32(png + off + 12), 2);
			CHECK_EQ(png[off + 16], 8);
			CHECK_EQ(png[off + 17], 3);
		}
		if (!memcmp(png + off + 4, "PLTE", 4))
			CHECK_EQ(n, 9);
		if (!memcmp(png + off + 4, "IDAT", 4))
			idat = png + off + 8, idat_n = n;
		off += 12 + n;
		chunks++;
	}
	CHECK_EQ(off, len);
	CHECK_EQ(chunks, 4);
	CHECK(idat && uncompress(raw, &raw_n, idat, idat_n) == Z_OK);
	CHECK_EQ(raw_n, 8);
	CHECK(memcmp(raw, "\0\0\1\2\0\2\1\0", 8) == 0);	/* filter byte, then the row */
	free(png);
	CHECK(dtl_png__indexed(pix, 0, 2, (const uint8_t (*)[3])pal, 3, &len) == NULL);
}

/* A replay at --speed max paces at 1 us: the page gives the data's interval. */
TEST(report_states_the_datas_interval_and_shades_intervals_of_a_narrower_mask)
{
	char path[] = "/tmp/dtltop-report-XXXXXX";
	struct dtl_stats *st = dtl_stats__new(2, 512000000);
	struct dtl_lparcfg cfg = { .present = true, .have_mode = true, .shared = true,
				   .capped = true, .have_ent = true, .entitlement = 1 };
	struct dtl_lpar_figs figs = { .known = DTL_LPARF_PHYSC | DTL_LPARF_ENTC | DTL_LPARF_APP,
				      .physc = 1, .entc_pct = 100, .app = 3 };
	struct dtl_table t = { 0 };
	struct dtl_model m = { .table = &t, .stats = st, .interval_s = 1e-6, .source = "replay",
			       .detail = "of /home/admin/lpar7/day.dtl: sim on lpar7",
			       .lparcfg = &cfg, .lpar = &figs };
	struct dtl_view *v;
	char *html;
	size_t len = 0, narrow = 0;
	FILE *f;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	v = dtl_report__open(path, NULL);
	CHECK(v != NULL);
	for (int i = 0; i < 10; i++) {
		t.ts_ns = 1735689600000000000ull + (uint64_t)(i + 1) * 1000000000ull;
		t.all.interval_s = 1;
		t.all.steal_pct = 40, t.all.run_pct = 40;
		t.all.dispatches = t.all.samples = 500, t.all.lat_p99_us = 6000;	/* held */
		t.all.known = DTL_KNOWN_PHYSC | DTL_KNOWN_APP, t.all.physc = 1, t.all.app = 3;
		t.all.mask = i >= 6 ? DTL_MASK_PREEMPT | DTL_MASK_FAULT : DTL_MASK_ALL;
		v->ops->show(v, &m, true);
	}
	CHECK_EQ(dtl_report__close(v, 0), 0);
	f = fopen(path, "r");
	CHECK(f != NULL);
	html = calloc(1, 1 << 20);
	len = fread(html, 1, (1 << 20) - 1, f);
	fclose(f);
	unlink(path);
	CHECK(len > 0);
	CHECK_CONTAINS(html, "10 intervals of 1 s");
	CHECK_CONTAINS(html, "4 of 10 intervals traced only preempt,fault");
	CHECK_CONTAINS(html, "all in 6 of 10 intervals");
	CHECK(!strstr(html, "missing from every figure"));	/* all was traced in 6 */
	CHECK_CONTAINS(html, "why: capped at its entitlement (1.00, entc 100%): waits 50% of "
			     "wanted CPU time; the pool has 3.00 idle. Raise the entitlement, or "
			     "uncap it. (10 of 10 intervals");
	CHECK_CONTAINS(html, "data-series=\"pool idle (app)\"");
	/* for a reader elsewhere: the file's name, clock times, the action last, notes outside */
	CHECK_CONTAINS(html, "replay of day.dtl: sim on lpar7");
	CHECK(!strstr(html, "/home/admin"));
	CHECK_CONTAINS(html, ">00:00:04</text>");
	CHECK_CONTAINS(html, "time of day (UTC)");
	CHECK_CONTAINS(html, "<li><b>to do:</b> Raise the entitlement, or uncap it.</li>\n</ul>");
	CHECK_CONTAINS(html, "</svg>\n<p class=\"note\">shaded: traced with a narrower event mask");
	/* every time chart shades intervals 7 to 10, and only those */
	for (const char *p = html; (p = strstr(p, "class=\"narrow\" data-interval=\"")); p++) {
		int i = atoi(p + 30);

		CHECK(i >= 7 && i <= 10);
		narrow++;
	}
	CHECK(narrow >= 4 * 5);
	free(html);
	dtl_stats__delete(st);
}

/*
 * Clock ticks: the smallest round step that fits, labelled as a reader
 * says the time; a span that passes midnight names the day there.
 */
TEST(report_clock_ticks_are_round_times_and_dates_at_midnight)
{
	double t[12];
	char l[12][DTL_CLOCK_LABEL];
	const double day = 1765065600;	/* 2025-12-07 00:00:00 UTC */
	size_t n;

	/* 10 s from 12:00:03: every 2 s, with seconds */
	n = dtl_scale__clock_ticks(day + 43203, day + 43213, 6, t, l);
	CHECK_EQ(n, 5);
	CHECK_STR(l[0], "12:00:04");
	CHECK_NEAR(t[0], day + 43204, 1e-9);
	CHECK_STR(l[4], "12:00:12");
	/* 3 h: hourly, on the hour, no seconds */
	n = dtl_scale__clock_ticks(day + 3600 * 9 + 600, day + 3600 * 12 + 600, 6, t, l);
	CHECK_EQ(n, 3);
	CHECK_STR(l[0], "10:00");
	CHECK_STR(l[2], "12:00");
	/* 22:00 to 04:00 the next day: every 2 h, the day at midnight */
	n = dtl_scale__clock_ticks(day - 7200, day + 4 * 3600, 6, t, l);
	CHECK_EQ(n, 4);
	CHECK_STR(l[0], "22:00");
	CHECK_STR(l[1], "Dec 07");
	CHECK_STR(l[3], "04:00");
	/* 12 h: every 3 h; 2 days: every 12 h, the days named at midnight */
	n = dtl_scale__clock_ticks(day, day + 12 * 3600, 6, t, l);
	CHECK_EQ(n, 5);
	CHECK_STR(l[1], "03:00");
	CHECK_NEAR(t[1], day + 10800, 1e-9);
	n = dtl_scale__clock_ticks(day + 3600, day + 49 * 3600, 6, t, l);
	CHECK_EQ(n, 4);
	CHECK_STR(l[0], "12:00");
	CHECK_NEAR(t[0], day + 43200, 1e-9);
	CHECK_STR(l[1], "Dec 08");
	/* no span, no room: no tick */
	CHECK_EQ(dtl_scale__clock_ticks(day, day, 6, t, l), 0);
	CHECK_EQ(dtl_scale__clock_ticks(day, day + 60, 1, t, l), 0);
}
