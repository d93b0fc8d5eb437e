// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - --check's few seconds with the source asked for: the loop drives a
 * view that keeps what each interval showed, and the lines say what came.
 */
#include "check.h"

#include <signal.h>
#include <string.h>

#include "../loop/loop.h"
#include "../source/source.h"
#include "../view/table.h"
#include "../view/view.h"

#define CHECK_INTERVALS 3

struct seen {
	unsigned int intervals;
	uint64_t dispatches;
	double steal_us, vpa_us, stat_us;
	bool vpa, stat, tasks;
	char source[32];
	char detail[512];
};

static int keep(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct seen *s = v->priv;
	const struct dtl_row *r = &m->table->all;

	if (!fresh || !m->intervals)
		return 0;
	s->intervals++;
	s->dispatches += r->dispatches;
	s->steal_us += r->steal_us;
	/* each witness counts only where every interval had it */
	s->vpa = (s->intervals == 1 || s->vpa) && (r->known & DTL_KNOWN_VPA);
	s->stat = (s->intervals == 1 || s->stat) && (r->known & DTL_KNOWN_STAT);
	s->vpa_us += r->steal_vpa_us;
	if (r->known & DTL_KNOWN_STAT && r->steal_stat_diff_pct > -100)
		s->stat_us += r->steal_us / (1 + r->steal_stat_diff_pct / 100);
	s->tasks |= dtl_tasks__known(m->table->tasks);
	snprintf(s->source, sizeof(s->source), "%s", m->source ? m->source : "?");
	snprintf(s->detail, sizeof(s->detail), "%s", m->detail ? m->detail : "");
	return 0;
}

static const struct dtl_view_ops keep_ops = { .interactive = false, .show = keep };

/* A share of b that a differs by, in words; "" where b is nothing. */
static void diff(char *buf, size_t len, double a, double b)
{
	if (b > 0)
		snprintf(buf, len, " (%+.1f%%)", 100 * (a - b) / b);
	else
		snprintf(buf, len, "%s", a > 0 ? " (it counts none)" : "");
}

/* The switch stream's part of the source's detail: from "no task switches" or "task switches". */
static const char *stream_part(const char *detail)
{
	const char *no = strstr(detail, "no task switches"), *p = strstr(detail, "task switches");

	return no ? no : p ? p : "";
}

static void lines(const struct dtl_opts *o, const struct seen *s, struct dtl_check_line *out,
		  size_t *n, bool *works)
{
	bool want_tasks = o->group == DTL_ROW_TASK || o->group == DTL_ROW_CGROUP;
	/* the VPA alone works where it was asked for, not where auto fell back to it */
	bool fallback = strcmp(s->source, "vpa") == 0 &&
			(!o->src.backend || strcmp(o->src.backend, "vpa") != 0);
	char a[48], b[48];

	dtl_check__say(&out[(*n)++], fallback ? DTL_CHECK_NO : DTL_CHECK_OK, "source",
	    "%s: %.300s; %llu dispatches in %u intervals", s->source, s->detail,
	    (unsigned long long)s->dispatches, s->intervals);
	if (fallback)
		*works = false;
	if (s->tasks)
		dtl_check__say(&out[(*n)++], DTL_CHECK_OK, "who pays", "%.400s", *stream_part(s->detail) ?
		    stream_part(s->detail) : "task switches came");
	else
		dtl_check__say(&out[(*n)++], want_tasks ? DTL_CHECK_NO : DTL_CHECK_INFO, "who pays",
		    "%.400s", *stream_part(s->detail) ? stream_part(s->detail) :
		    "no task switch came: this source has no switch stream");
	if (want_tasks && !s->tasks)
		*works = false;
	if (!s->vpa && !s->stat) {
		dtl_check__say(&out[(*n)++], DTL_CHECK_INFO, "steal", "not cross-checked: neither the VPA nor "
		    "/proc/stat gave this source's CPUs their steal");
		return;
	}
	diff(a, sizeof(a), s->steal_us, s->vpa_us);
	diff(b, sizeof(b), s->steal_us, s->stat_us);
	{
		char va[64] = "unknown", st[64] = "unknown";

		if (s->vpa)
			snprintf(va, sizeof(va), "%.1f ms%s", s->vpa_us / 1e3, a);
		if (s->stat)
			snprintf(st, sizeof(st), "%.1f ms%s", s->stat_us / 1e3, b);
		dtl_check__say(&out[(*n)++], DTL_CHECK_OK, "steal", "the DTL's %.1f ms over %u intervals "
		    "against the VPA's %s and /proc/stat's %s", s->steal_us / 1e3, s->intervals,
		    va, st);
	}
}

bool dtl_check__run_source(const struct dtl_opts *o, struct dtl_check_line *out, size_t max,
			   size_t *n)
{
	static volatile sig_atomic_t never;
	struct dtl_opts ro = *o;
	struct seen s = { 0 };
	struct dtl_view v = { &keep_ops, &s };
	struct dtl_source *src;
	struct dtl_loop *l;
	char err[8192];
	bool works = true;
	int rc;

	*n = 0;
	if (max < 3)
		return false;
	ro.iterations = o->iterations ? o->iterations : CHECK_INTERVALS;
	ro.write = NULL;
	ro.report = NULL;
	src = dtl_source__open(&ro.src, err, sizeof(err));
	if (!src) {
		dtl_check__say(&out[(*n)++], DTL_CHECK_NO, "source", "%.460s", err);
		return false;
	}
	l = dtl_loop__new(&ro, src, &dtl_clock_real, &never, err, sizeof(err));
	if (!l) {
		dtl_check__say(&out[(*n)++], DTL_CHECK_NO, "source", "%.460s", err);
		return false;
	}
	rc = dtl_loop__delete(l, dtl_loop__run(l, &v));
	if (rc || !s.intervals) {
		dtl_check__say(&out[(*n)++], DTL_CHECK_NO, "source", "%s: no interval came to an end (exit %d)",
		    s.source[0] ? s.source : "the source", rc);
		return false;
	}
	lines(o, &s, out, n, &works);
	return works;
}
