// SPDX-License-Identifier: GPL-2.0-only
/*
 * grid.c - make verdict-check: dtltop's verdict against the simulator's
 * ground truth over a grid of simulated LPARs (capped and uncapped, weight
 * 0, 128 and 255, entitlement 0.1 to 1 per VP, the pool idle to full, load
 * 0.05 to 0.95, SMT 1 to 8, dedicated and donating), each run through the
 * real interval loop as dtltop runs it. The truth of an interval is the
 * cause of most of its waited time (the cap, the pool above the
 * entitlement, dispatch latency), or, where it waited little, whether its
 * VPs were all busy. Also PowerVM's rules, checked on every interval from
 * lparcfg as lparstat reads it: physc <= VPs; capped and weight-0 physc <=
 * entitlement; never starved below 90 % entc; never capped when uncapped;
 * and, run twice with the others wanting nothing and four pools' worth, a
 * partition below its entitlement gets the same CPU within 2 % (its
 * threads' running time: what the guest wanted done).
 * Prints each disagreement with its parameters, the score last. An argument
 * N runs the first N LPARs only (the sanitizer build's run): the rules are
 * checked, the score only on the whole grid.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop/loop.h"
#include "opts/opts.h"
#include "source/sim.h"
#include "source/source.h"
#include "view/model.h"
#include "view/verdict.h"
#include "view/view.h"

#define LPARS 240
#define INTERVALS 5
#define GOAL_PCT 95.0

struct run {
	struct dtl_view v;
	struct dtl_source *src;
	const char *params;
	bool dedicated, capped, weight0, quiet;	/* quiet: a rerun, its verdicts not judged */
	double ent, vps;
	struct dtl_sim_causes last;
	double physc_sum;
	int physc_n, judged, agreed, broken, unknown;
};

static int judged_all, agreed_all, broken_all, unknown_all;

/* The class a verdict names, to compare with the truth's. */
static const char *verdict_class(enum dtl_verdict_kind k)
{
	switch (k) {
	case DTL_VERDICT_FREE:
	case DTL_VERDICT_BORROWING:
		return "not_limited";
	case DTL_VERDICT_CAPPED:
		return "cap";
	case DTL_VERDICT_STARVED:
	case DTL_VERDICT_POOL_UNKNOWN:
		return "pool";
	case DTL_VERDICT_VPS:
		return "vps";
	case DTL_VERDICT_LATENCY:
		return "latency";
	case DTL_VERDICT_DEDICATED:
	case DTL_VERDICT_DONATING:
		return "dedicated";
	default:
		return "unknown";
	}
}

/*
 * The simulator's: what most of the waited time was for, or why it hardly
 * waited. The pool's holds of a partition that uses less than 90 % of its
 * entitlement are its bursts passing its share of a wheel, which PowerVM
 * guarantees per wheel, not per burst: they wait for the next wheel's
 * dispatch, as the verdict says ("latency"). *alt: a second class accepted
 * where the waited share is within a quarter of the threshold, since an
 * interval's figures count a wait not yet ended as running.
 */
static const char *truth_class(const struct run *r, const struct dtl_sim_causes *d, double *wait,
			       const char **alt)
{
	uint64_t waited = d->cap + d->pool + d->latency;
	double busy = d->vp ? (double)d->run / (double)d->vp : 0;
	double entc = d->vp && r->ent > 0 ? 100.0 * (double)d->run /
					   ((double)d->vp * r->ent / r->vps) : 0;
	const char *quiet = busy * 100 >= DTL_VERDICT_VPS_PCT ? "vps" : "not_limited", *top;

	*wait = waited + d->threads_run ? 100.0 * (double)waited /
					   (double)(waited + d->threads_run) : 0;
	*alt = NULL;
	if (r->dedicated)
		return "dedicated";
	if (d->cap >= d->pool && d->cap >= d->latency)
		top = "cap";
	else if (d->pool >= d->latency)
		top = entc < DTL_VERDICT_BELOW_PCT ? "latency" : "pool";
	else
		top = busy * 100 >= DTL_VERDICT_VPS_PCT ? "vps" : "latency";
	if (fabs(*wait - DTL_VERDICT_WAIT_PCT) < DTL_VERDICT_WAIT_PCT / 4)
		*alt = *wait < DTL_VERDICT_WAIT_PCT ? top : quiet;
	return *wait < DTL_VERDICT_WAIT_PCT ? quiet : top;
}

static void broken(struct run *r, unsigned long long k, const char *rule)
{
	printf("broken rule: --sim=%s interval %llu: %s\n", r->params, k, rule);
	r->broken++;
}

/* PowerVM's rules on what lparcfg says, and the verdict's own promises. */
static void rules(struct run *r, const struct dtl_model *m, const struct dtl_verdict *v)
{
	const struct dtl_lpar_figs *f = m->lpar;
	const struct dtl_lparcfg *c = m->lparcfg;
	char why[160];

	if (!f || !c || !(f->known & DTL_LPARF_PHYSC))
		return;
	if (c->have_vps && f->physc > c->active_vps + 0.005) {
		snprintf(why, sizeof(why), "physc %.3f above its %u VPs", f->physc, c->active_vps);
		broken(r, m->intervals, why);
	}
	if ((r->capped || r->weight0) && c->have_ent && f->physc > c->entitlement + 0.005) {
		snprintf(why, sizeof(why), "physc %.3f above the entitlement %.2f (%s)", f->physc,
			 c->entitlement, r->capped ? "capped" : "weight 0");
		broken(r, m->intervals, why);
	}
	if (v->kind == DTL_VERDICT_STARVED && (f->known & DTL_LPARF_ENTC) && f->entc_pct < 90)
		broken(r, m->intervals, "starved below 90 % entc");
	if (v->kind == DTL_VERDICT_CAPPED && !r->capped && !r->weight0)
		broken(r, m->intervals, "capped for an uncapped LPAR");
}

static int show(struct dtl_view *view, const struct dtl_model *m, bool fresh)
{
	struct run *r = view->priv;
	struct dtl_sim_causes now, d;
	struct dtl_verdict v;
	const char *want, *got, *alt;
	double wait;

	if (!fresh || dtl_sim__causes(r->src, &now))
		return 0;
	d.cap = now.cap - r->last.cap;
	d.pool = now.pool - r->last.pool;
	d.latency = now.latency - r->last.latency;
	d.run = now.run - r->last.run;
	d.threads_run = now.threads_run - r->last.threads_run;
	d.vp = now.vp - r->last.vp;
	r->last = now;
	if (m->lpar && (m->lpar->known & DTL_LPARF_PHYSC))
		r->physc_sum += m->lpar->physc, r->physc_n++;
	if (m->intervals < 2)
		return 0;	/* no lparcfg figures before a second reading */
	dtl_model__verdict(m, &v);
	rules(r, m, &v);
	want = truth_class(r, &d, &wait, &alt);
	got = verdict_class(v.kind);
	if (r->quiet)
		return 0;
	if (v.kind == DTL_VERDICT_UNKNOWN) {
		r->unknown++;	/* said so, with why: neither right nor wrong */
		return 0;
	}
	r->judged++;
	if (strcmp(want, got) == 0 || (alt && strcmp(alt, got) == 0)) {
		r->agreed++;
		return 0;
	}
	printf("disagree: --sim=%s interval %llu: verdict %s, truth %s (waited %.1f%%: cap %.1f%% "
	       "pool %.1f%% latency %.1f%%; VPs busy %.1f%%)\n  why: %s\n", r->params,
	       m->intervals, got, want, wait,
	       100.0 * (double)d.cap / (double)(d.cap + d.pool + d.latency + 1),
	       100.0 * (double)d.pool / (double)(d.cap + d.pool + d.latency + 1),
	       100.0 * (double)d.latency / (double)(d.cap + d.pool + d.latency + 1),
	       d.vp ? 100.0 * (double)d.run / (double)d.vp : 0, v.text);
	return 0;
}

static const struct dtl_view_ops ops = { .interactive = false, .show = show };

/* One LPAR through dtltop's loop; its mean physc in *physc. -1 if it could not run. */
static int run_one(const char *params, struct run *r, double *physc, double *ran, bool quiet)
{
	char arg[320], n[16], err[8192], *argv[8];
	int argc = 0;
	struct dtl_opts o;
	struct dtl_source *src;
	struct dtl_loop *l;

	memset(r, 0, sizeof(*r));
	r->params = params;
	r->quiet = quiet;
	r->dedicated = strstr(params, "dedicated=1") || strstr(params, "donating=1");
	r->capped = strstr(params, "capped=1");
	r->weight0 = strstr(params, "weight=0,") != NULL;
	r->ent = strstr(params, "ent=") ? atof(strstr(params, "ent=") + 4) : 0;
	r->vps = atof(strstr(params, "vps=") + 4);
	r->v = (struct dtl_view){ &ops, r };
	snprintf(arg, sizeof(arg), "--sim=%s,clock=virtual", params);
	argv[argc++] = "dtltop";
	argv[argc++] = "--no-config";
	argv[argc++] = arg;
	argv[argc++] = "-b";
	argv[argc++] = "-n";
	snprintf(n, sizeof(n), "%d", INTERVALS);
	argv[argc++] = n;
	argv[argc] = NULL;
	if (dtl_opts__parse(&o, argc, argv, err, sizeof(err))) {
		printf("grid: --sim=%s: %s\n", params, err);
		return -1;
	}
	src = dtl_source__open(&o.src, err, sizeof(err));
	l = src ? dtl_loop__new(&o, src, &dtl_clock_real, NULL, err, sizeof(err)) : NULL;
	if (!l) {
		printf("grid: --sim=%s: %s\n", params, err);
		return -1;
	}
	r->src = src;
	dtl_loop__run(l, &r->v);
	*physc = r->physc_n ? r->physc_sum / r->physc_n : 0;
	*ran = (double)r->last.threads_run;
	dtl_loop__delete(l, 0);
	return 0;
}

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* The i-th LPAR of the grid: every axis's values met, the mix fixed by the seed. */
static void lpar(uint64_t *g, char *buf, size_t len, double *ent_share, double *load_out)
{
	static const unsigned int vps[] = { 1, 2, 4, 8 }, smt[] = { 1, 2, 4, 8 };
	static const unsigned int weight[] = { 0, 128, 255 };
	static const double per_vp[] = { 0.1, 0.25, 0.5, 0.75, 1.0 };
	static const double load[] = { 0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95 };
	static const double other[] = { 0, 0.5, 1.0, 2.0 };
	unsigned int n = vps[lcg(g) % 4], t = smt[lcg(g) % 4], kind = (unsigned int)(lcg(g) % 25);
	double l = load[lcg(g) % 7], e = per_vp[lcg(g) % 5] * n;
	unsigned int pool = (unsigned int)ceil(e) * (1u << (lcg(g) % 3));
	double o = other[lcg(g) % 4] * pool;

	*load_out = l;
	*ent_share = e;
	if (kind == 0 || kind == 1) {
		snprintf(buf, len, "vps=%u,smt=%u,load=%g,%s=1", n, t, l,
			 kind ? "donating" : "dedicated");
		return;
	}
	if (kind < 9)
		snprintf(buf, len, "vps=%u,smt=%u,ent=%g,pool=%u,other=%g,load=%g,capped=1", n, t,
			 e, pool, o, l);
	else
		snprintf(buf, len, "vps=%u,smt=%u,ent=%g,pool=%u,other=%g,load=%g,weight=%u,capped=0",
			 n, t, e, pool, o, l, weight[kind % 3]);
}

int main(int argc, char **argv)
{
	uint64_t g = 20261206;
	int lpars = argc > 1 ? atoi(argv[1]) : LPARS, demand_checked = 0;

	for (int i = 0; i < lpars; i++) {
		char params[200];
		struct run r;
		double physc, ran, ent, load;

		lpar(&g, params, sizeof(params), &ent, &load);
		if (run_one(params, &r, &physc, &ran, false))
			return 2;
		judged_all += r.judged;
		agreed_all += r.agreed;
		broken_all += r.broken;
		unknown_all += r.unknown;
		/* below the entitlement (what the VPs want is under it), the others take nothing */
		if (!r.dedicated && strstr(params, "vps=") && physc < 0.8 * ent) {
			char quiet[220], busy[220], *o = strstr(params, "other=");
			double p0, p1, t0, t1;
			struct run q;

			snprintf(quiet, sizeof(quiet), "%.*sother=0%s", (int)(o - params), params,
				 strchr(o, ','));
			snprintf(busy, sizeof(busy), "%.*sother=%u%s", (int)(o - params), params,
				 4 * (unsigned int)atoi(strstr(params, "pool=") + 5), strchr(o, ','));
			if (run_one(quiet, &q, &p0, &t0, true) || run_one(busy, &q, &p1, &t1, true))
				return 2;
			demand_checked++;
			if (fabs(t1 - t0) > 0.02 * t0) {
				printf("broken rule: --sim=%s: below its entitlement its threads ran %.3f s "
				       "with quiet neighbours, %.3f s with busy ones (more than 2 %% apart)\n",
				       params, t0 / 512e6, t1 / 512e6);
				broken_all++;
			}
		}
	}
	printf("entitlement guaranteed: %d LPARs below theirs checked against busy neighbours\n",
	       demand_checked);
	printf("PowerVM's rules: %d broken\n", broken_all);
	printf("unknown, and said why (too few dispatches): %d intervals\n", unknown_all);
	printf("verdict accuracy: %d of %d intervals (%.1f %%)\n", agreed_all, judged_all,
	       judged_all ? 100.0 * agreed_all / judged_all : 0);
	/* a shorter grid (the sanitizer build's) checks the rules, not the score */
	return broken_all || !judged_all ||
	       (lpars >= LPARS && 100.0 * agreed_all / judged_all < GOAL_PCT);
}
