/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collect.c - the report view: each fresh interval's figures into growing
 * arrays (the partition's series, reasons per second, each VP's steal and
 * p99), and at the end the page, written under a temporary name and renamed.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../platform/replace.h"
#include "internal.h"

struct report {
	struct dtl_view view;
	struct dtl_view *inner;
	const char *path;
	struct rp rp;
	bool failed;		/* out of memory once: say so at the end */
	char err[512];		/* why the page was not written */
	const struct dtl_model *last;	/* the loop's, alive until the page is written */
};

static bool grow(struct rp *r)
{
	size_t cap = r->cap ? r->cap * 2 : 64;
	void *p;

#define GROW(ptr, n) \
	do { p = realloc((ptr), (n) * sizeof(*(ptr))); if (!p) return false; (ptr) = p; } while (0)
	GROW(r->t, cap);
	for (int i = 0; i < RP_N; i++)
		GROW(r->s[i], cap);
	for (int i = 0; i <= DTL_N_PREEMPT; i++)
		GROW(r->preempt[i], cap);
	for (int i = 0; i <= DTL_N_DISPATCH; i++)
		GROW(r->dispatch[i], cap);
	GROW(r->imask, cap);
	GROW(r->verdict, cap);
	GROW(r->steal, cap * r->nrows);
	GROW(r->p99, cap * r->nrows);
#undef GROW
	if (!rp_payers__grow(r, cap))
		return false;
	r->cap = cap;
	return true;
}

/* The heatmap's rows, fixed at the first interval: every VP, or every CPU. */
static bool pick_rows(struct rp *r, const struct dtl_model *m)
{
	unsigned int n = dtl_stats__nr_cpus(m->stats);

	r->by_vp = m->nr_vps > 0;
	r->row_id = calloc(n ? n : 1, sizeof(*r->row_id));
	if (!r->row_id)
		return false;
	for (unsigned int c = 0; c < n; c++)
		if (!r->by_vp || dtl_stats__vp_of(m->stats, c) == (int)c)
			r->row_id[r->nrows++] = (int)c;
	return true;
}

static double known(const struct dtl_row *w, unsigned int bit, double v)
{
	return w->known & bit ? v : NAN;
}

/*
 * A replay's "of /home/me/lpar7/day.dtl: ..." as "of day.dtl: ...": a page
 * that travels says which recording, not where it lay on one machine.
 */
static void detail_of(char *buf, size_t len, const char *detail)
{
	const char *colon = strncmp(detail, "of ", 3) == 0 ? strstr(detail, ": ") : NULL;
	const char *slash = NULL;

	for (const char *p = detail + 3; colon && p < colon; p++)
		if (*p == '/')
			slash = p;
	if (slash)
		snprintf(buf, len, "of %s", slash + 1);
	else
		snprintf(buf, len, "%s", detail);
}

static void keep_facts(struct rp *r, const struct dtl_model *m)
{
	snprintf(r->host, sizeof(r->host), "%s", m->host ? m->host : "");
	snprintf(r->source, sizeof(r->source), "%s", m->source ? m->source : "");
	detail_of(r->detail, sizeof(r->detail), m->detail ? m->detail : "");
	if (!dtl_model__identity(m, r->identity, sizeof(r->identity)))
		r->identity[0] = '\0';
	r->nr_vcpus = m->nr_vcpus;
	r->nr_vps = m->nr_vps;
	r->smt = m->smt;
	if (m->lparcfg)
		r->lparcfg = *m->lparcfg;
	r->have_total = dtl_stats__row(m->stats, DTL_ROW_ALL, DTL_SPAN_TOTAL, &r->total) == 0;
}

/* "why<TAB>path": the file by its name, as the page names the recording. */
static void keep_incident(struct rp *r, const char *text, size_t i)
{
	const char *tab = strchr(text, '\t'), *file = tab ? tab + 1 : "", *slash = strrchr(file, '/');
	struct rp_incident *p;

	if (r->ninc == r->inccap) {
		size_t cap = r->inccap ? 2 * r->inccap : 8;

		p = realloc(r->inc, cap * sizeof(*p));
		if (!p)
			return;
		r->inc = p;
		r->inccap = cap;
	}
	p = &r->inc[r->ninc++];
	p->i = i;
	snprintf(p->why, sizeof(p->why), "%.*s", (int)(tab ? (size_t)(tab - text) : strlen(text)),
		 text);
	snprintf(p->file, sizeof(p->file), "%s", slash ? slash + 1 : file);
}

static void keep(struct rp *r, const struct dtl_model *m)
{
	const struct dtl_row *a = &m->table->all;
	size_t i = r->n;
	double per_s = a->interval_s > 0 ? 1 / a->interval_s : 0;
	bool dtl = a->known & DTL_KNOWN_DTL;
	struct dtl_verdict v;

	/* the data's interval, not the pace of a replay at --speed max */
	if (!i)
		r->interval_s = a->interval_s;
	r->t[i] = (double)m->table->ts_ns / 1e9;
	r->s[RP_STEAL][i] = a->steal_pct;
	r->s[RP_IDLE][i] = a->idle_pct;
	r->s[RP_DISP][i] = a->dispatch_per_s;
	r->s[RP_P50][i] = dtl && a->dispatches ? a->lat_p50_us : NAN;
	r->s[RP_P99][i] = dtl && a->dispatches ? a->lat_p99_us : NAN;
	r->s[RP_MAX][i] = dtl && a->dispatches ? a->lat_max_us : NAN;
	r->s[RP_PHYSC][i] = known(a, DTL_KNOWN_PHYSC, a->physc);
	r->s[RP_ENT][i] = m->lparcfg && m->lparcfg->have_ent ? m->lparcfg->entitlement : NAN;
	r->s[RP_APP][i] = known(a, DTL_KNOWN_APP, a->app);
	r->s[RP_LOST][i] = (double)a->lost;
	r->s[RP_GAPS][i] = (double)a->gaps;
	for (int k = 0; k <= DTL_N_PREEMPT; k++)
		r->preempt[k][i] = dtl ? (double)a->preempt[k] * per_s : NAN;
	for (int k = 0; k <= DTL_N_DISPATCH; k++)
		r->dispatch[k][i] = dtl ? (double)a->dispatch[k] * per_s : NAN;
	r->mask = i ? r->mask & a->mask : a->mask;
	r->mask_any = i ? r->mask_any | a->mask : a->mask;
	r->imask[i] = a->mask;
	dtl_model__verdict(m, &v);
	r->verdict[i] = (uint8_t)v.kind;
	memcpy(r->why[v.kind], v.text, sizeof(v.text));
	for (unsigned int k = 0; k < r->nrows; k++) {
		struct dtl_row w;
		int ok = r->by_vp ? dtl_stats__vp_row(m->stats, r->row_id[k], DTL_SPAN_INTERVAL, &w)
				  : dtl_stats__row(m->stats, r->row_id[k], DTL_SPAN_INTERVAL, &w);
		double st = ok ? NAN : w.steal_pct;

		r->steal[i * r->nrows + k] = isnan(st) ? RP_NO_STEAL :
			(uint16_t)lround(st < 0 ? 0 : st > 100 ? 10000 : st * 100);
		r->p99[i * r->nrows + k] = ok || !(w.known & DTL_KNOWN_DTL) || !w.dispatches ?
			NAN : (float)w.lat_p99_us;
	}
	rp_payers__keep(r, m, i);
	if (m->incident)
		keep_incident(r, m->incident, i);
	r->n++;
}

static int report_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct report *rep = v->priv;
	struct rp *r = &rep->rp;

	if (fresh && m->stats && !rep->failed) {
		if ((!r->row_id && !pick_rows(r, m)) || (r->n == r->cap && !grow(r)))
			rep->failed = true;
		else
			keep(r, m);
		rep->last = m;
	}
	return rep->inner ? rep->inner->ops->show(rep->inner, m, fresh) : 0;
}

static void report_sort(const struct dtl_view *v, int *col, bool *reverse)
{
	const struct report *rep = v->priv;

	if (rep->inner && rep->inner->ops->sort)
		rep->inner->ops->sort(rep->inner, col, reverse);
}

static const struct dtl_view_ops report_ops = {
	.interactive = false,
	.sort = report_sort,
	.show = report_show,
};

static bool dir_writable(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (n >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return false;
	}
	memcpy(dir, path, n);
	dir[n] = '\0';
	return access(slash ? (n ? dir : "/") : ".", W_OK) == 0;
}

struct dtl_view *dtl_report__open(const char *path, struct dtl_view *inner)
{
	struct report *rep = calloc(1, sizeof(*rep));

	if (!rep) {
		fprintf(stderr, "dtltop: out of memory\n");
		return NULL;
	}
	rep->view = (struct dtl_view){ &report_ops, rep };
	rep->inner = inner;
	rep->path = path;
	if (!dir_writable(path)) {	/* say so now, not after an hour of capture */
		fprintf(stderr, "dtltop: cannot write --report %s: %s\n", path, strerror(errno));
		free(rep);
		return NULL;
	}
	return &rep->view;
}

static int fill_page(FILE *f, void *ctx)
{
	struct report *rep = ctx;

	if (rp_write_html(f, &rep->rp)) {
		snprintf(rep->err, sizeof(rep->err), "out of memory writing %s", rep->path);
		return -1;
	}
	return 0;
}

static int write_page(struct report *rep)
{
	if (dtl_replace__file(rep->path, 0644, fill_page, rep, rep->err, sizeof(rep->err))) {
		fprintf(stderr, "dtltop: %s\n", rep->err);
		return 1;
	}
	return 0;
}

static void rp_free(struct rp *r)
{
	free(r->t);
	for (int i = 0; i < RP_N; i++)
		free(r->s[i]);
	for (int i = 0; i <= DTL_N_PREEMPT; i++)
		free(r->preempt[i]);
	for (int i = 0; i <= DTL_N_DISPATCH; i++)
		free(r->dispatch[i]);
	free(r->row_id);
	free(r->steal);
	free(r->p99);
	free(r->imask);
	free(r->verdict);
	free(r->inc);
	rp_payers__free(r);
}

int dtl_report__close(struct dtl_view *v, int rc)
{
	struct report *rep;

	if (!v)
		return rc;
	rep = v->priv;
	if (!rc && rep->failed) {
		fprintf(stderr, "dtltop: out of memory keeping the report's intervals\n");
		rc = 1;
	} else if (!rc && !rep->rp.n) {
		fprintf(stderr, "dtltop: no interval ended: no report written to %s\n", rep->path);
		rc = 1;
	} else if (!rc) {
		keep_facts(&rep->rp, rep->last);	/* the span's, once: at its end */
		rp_payers__where(&rep->rp, rep->last);
		rc = write_page(rep);
	}
	rp_free(&rep->rp);
	free(rep);
	return rc;
}
