/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * judge.c - thresholds and the partition's figures in words. The default
 * thresholds, and why (man dtltop, READING THE FIGURES):
 *   steal_pct      10 / 25 %   a tenth of the time waiting is felt; a quarter hurts
 *   preempt_ratio  .25 / .5    time slices and faults, not cedes, end the waits
 *   lat_p50_us     1 / 5 ms    half the dispatches wait longer than this
 *   lat_p99_us     5 / 10 ms   10 ms is PHYP's dispatch wheel: past it, a VP
 *                              waited a whole rotation
 *   lat_max_us     10 / 50 ms
 *   lost, gaps, bad  any       the figures of that row are partial
 */
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct threshold {
	const char *field;
	double warn, crit;
};

static const struct threshold defaults[] = {
	{ "steal_pct", 10, 25 },
	{ "preempt_ratio", 0.25, 0.5 },
	{ "lat_p50_us", 1000, 5000 },
	{ "lat_p99_us", 5000, 10000 },
	{ "lat_max_us", 10000, 50000 },
	{ "lost", 1, 1 },
	{ "bad", 1, 1 },
};

#define NR_T (sizeof(defaults) / sizeof(defaults[0]))
static struct threshold now[NR_T];
static bool set_up;

static void setup(void)
{
	if (!set_up)
		memcpy(now, defaults, sizeof(now));
	set_up = true;
}

void dtl_judge__reset(void)
{
	set_up = false;
	setup();
}

static const struct threshold *find(const char *field)
{
	setup();
	for (size_t i = 0; i < NR_T; i++)
		if (strcmp(now[i].field, field) == 0)
			return &now[i];
	return NULL;
}

enum dtl_level dtl_judge__cell(const struct dtl_col *c, const struct dtl_row *r)
{
	const struct threshold *t = find(c->name);
	double v;

	if (!t || !dtl_col__known(c, r))
		return DTL_LEVEL_NONE;
	if (c->kind == DTL_COL_LOST && r->gaps)
		return DTL_LEVEL_CRIT;	/* entries lost, how many unknown */
	if (strncmp(c->name, "lat_p", 5) == 0 && r->dispatches < DTL_MIN_SAMPLES)
		return DTL_LEVEL_NONE;	/* too few samples to judge */
	v = dtl_col__value(c, r);
	return v >= t->crit ? DTL_LEVEL_CRIT : v >= t->warn ? DTL_LEVEL_WARN : DTL_LEVEL_OK;
}

static int set_one(const char *part, size_t n, char *err, size_t errlen)
{
	char buf[96], *eq, *colon, *end1, *end2;
	struct threshold *t;
	double w, c;

	if (n >= sizeof(buf)) {
		snprintf(err, errlen, "bad threshold '%.*s'", (int)n, part);
		return -1;
	}
	memcpy(buf, part, n);
	buf[n] = '\0';
	eq = strchr(buf, '=');
	colon = eq ? strchr(eq, ':') : NULL;
	if (!eq || !colon) {
		snprintf(err, errlen, "bad threshold '%s' (want FIELD=WARN:CRIT, e.g. steal_pct=10:25)",
			 buf);
		return -1;
	}
	*eq = '\0';
	t = (struct threshold *)find(buf);
	if (!t) {
		char names[160] = "";

		for (size_t i = 0; i < NR_T; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", now[i].field);
		snprintf(err, errlen, "no threshold for '%s' (fields judged: %s)", buf, names);
		return -1;
	}
	w = strtod(eq + 1, &end1);
	c = strtod(colon + 1, &end2);
	if (end1 != colon || *end2 || end2 == colon + 1 || !isfinite(w) || !isfinite(c) || w < 0 ||
	    c < w) {
		snprintf(err, errlen, "bad threshold '%s=%s' (want WARN:CRIT, 0 <= WARN <= CRIT)", buf,
			 eq + 1);
		return -1;
	}
	t->warn = w;
	t->crit = c;
	return 0;
}

int dtl_judge__set(const char *spec, char *err, size_t errlen)
{
	struct threshold keep[NR_T];

	setup();
	memcpy(keep, now, sizeof(keep));
	while (*spec) {
		size_t n = strcspn(spec, ",");

		if (n && set_one(spec, n, err, errlen)) {
			memcpy(now, keep, sizeof(now));	/* all or nothing */
			return -1;
		}
		spec += n + (spec[n] == ',');
	}
	return 0;
}

void dtl_judge__format(char *buf, size_t len)
{
	size_t off = 0;

	setup();
	buf[0] = '\0';
	for (size_t i = 0; i < NR_T && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s=%g:%g", i ? "," : "", now[i].field,
					now[i].warn, now[i].crit);
}

void dtl_judge__us(double us, char *buf, size_t len)
{
	if (!isfinite(us))
		snprintf(buf, len, "-");
	else if (us < 1000)
		snprintf(buf, len, "%.0fus", us);
	else if (us < 1e6)
		snprintf(buf, len, us < 1e4 ? "%.1fms" : "%.0fms", us / 1e3);
	else
		snprintf(buf, len, us < 1e7 ? "%.1fs" : "%.0fs", us / 1e6);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void dtl_judge__summary(const struct dtl_table *t, char *buf, size_t len)
{
	const struct dtl_row *a = &t->all;
	const struct threshold *p99 = find("lat_p99_us");
	size_t above = 0, off = 0;
	char lat[16];

	buf[0] = '\0';
	for (size_t i = 0; i < t->n; i++)
		above += t->rows[i].steal_pct > 50;
	if (a->steal_pct + a->run_pct > 0)
		off += (size_t)snprintf(buf + off, len - off, "waiting %.0f%% of wanted CPU time",
					100 * a->steal_pct / (a->steal_pct + a->run_pct));
	if ((a->known & DTL_KNOWN_DTL) && a->dispatches >= DTL_MIN_SAMPLES && off < len) {
		dtl_judge__us(a->lat_p99_us, lat, sizeof(lat));
		off += (size_t)snprintf(buf + off, len - off, "%sp99 dispatch wait %s%s", off ? "; " : "",
					lat, a->lat_p99_us >= p99->crit ? " (> 10ms dispatch wheel)" : "");
	} else if (off < len) {
		off += (size_t)snprintf(buf + off, len - off, "%sp99 dispatch wait: too few samples",
					off ? "; " : "");
	}
	if (off < len)
		snprintf(buf + off, len - off, "; %zu of %zu %s above 50%% steal", above, t->n,
			 t->group == DTL_ROW_TASK ? "tasks" : t->group == DTL_ROW_CGROUP ? "cgroups" :
			 t->by_vp ? "VPs" : "CPUs");
}

/* min/p50/p90/max of one figure across the rows, "-" where no row knows it. */
static size_t spread_of(const struct dtl_table *t, double *v, bool lat, char *buf, size_t len,
			const char *name)
{
	size_t n = 0;
	char q[4][16];

	for (size_t i = 0; i < t->n; i++) {
		const struct dtl_row *r = &t->rows[i];

		if (!lat)
			v[n++] = r->steal_pct;
		else if ((r->known & DTL_KNOWN_DTL) && r->dispatches >= DTL_MIN_SAMPLES)
			v[n++] = r->lat_p99_us;
	}
	if (!n)
		return (size_t)snprintf(buf, len, "%s min/p50/p90/max -", name);
	qsort(v, n, sizeof(*v), cmp_double);
	for (int k = 0; k < 4; k++) {
		double x = v[k == 0 ? 0 : k == 3 ? n - 1 : (size_t)((k == 1 ? 0.5 : 0.9) * (double)(n - 1))];

		if (lat)
			dtl_judge__us(x, q[k], sizeof(q[k]));
		else
			snprintf(q[k], sizeof(q[k]), "%.1f", x);
	}
	return (size_t)snprintf(buf, len, "%s min/p50/p90/max %s/%s/%s/%s", name, q[0], q[1], q[2],
				q[3]);
}

void dtl_judge__spread(const struct dtl_table *t, char *buf, size_t len)
{
	double *v = malloc((t->n ? t->n : 1) * sizeof(*v));
	size_t off;

	buf[0] = '\0';
	if (!v)
		return;
	off = (size_t)snprintf(buf, len, "%zu %s: ", t->n, t->group == DTL_ROW_TASK ? "tasks" :
			       t->group == DTL_ROW_CGROUP ? "cgroups" : t->by_vp ? "VPs" : "CPUs");
	if (off < len)
		off += spread_of(t, v, false, buf + off, len - off, "steal%");
	if (off + 2 < len) {
		memcpy(buf + off, "  ", 3);
		off += 2;
		spread_of(t, v, true, buf + off, len - off, "p99");
	}
	free(v);
}

void dtl_judge__text(const struct dtl_col *c, const struct dtl_row *r, char *buf, size_t len)
{
	char v[24];

	if (strcmp(c->unit, "us") == 0 && dtl_col__known(c, r) &&
	    (strncmp(c->name, "lat_p", 5) != 0 || r->samples >= DTL_MIN_SAMPLES)) {
		dtl_judge__us(dtl_col__value(c, r), v, sizeof(v));
		snprintf(buf, len, "%*s", c->width, v);
	} else if (strncmp(c->name, "lat_p", 5) == 0 && r->samples < DTL_MIN_SAMPLES) {
		snprintf(buf, len, "%*s", c->width, "-");
	} else {
		dtl_col__text(c, r, buf, len);
	}
}
