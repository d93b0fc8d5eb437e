// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - the answer in words. The order of the rules is the answer's:
 * what the partition is (no data, dedicated), then what holds it back (its
 * cap, the pool, its VPs), and only then "nothing", so a full pool is never
 * called a cap because both show entc near 100 %.
 */
#include "verdict.h"
#include "judge.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const names[DTL_VERDICT__N] = {
	[DTL_VERDICT_UNKNOWN] = "unknown",
	[DTL_VERDICT_FREE] = "not_limited",
	[DTL_VERDICT_BORROWING] = "borrowing",
	[DTL_VERDICT_CAPPED] = "capped",
	[DTL_VERDICT_STARVED] = "starved",
	[DTL_VERDICT_VPS] = "vp_limited",
	[DTL_VERDICT_POOL_UNKNOWN] = "pool_unknown",
	[DTL_VERDICT_LATENCY] = "dispatch_latency",
	[DTL_VERDICT_DEDICATED] = "dedicated",
	[DTL_VERDICT_DONATING] = "donating",
};

const char *dtl_verdict__name(enum dtl_verdict_kind k)
{
	return k < DTL_VERDICT__N ? names[k] : "unknown";
}

const char *dtl_verdict__action(const char *text)
{
	size_t n = strlen(text);
	const char *p;

	if (n < 2 || text[n - 1] != '.' || strncmp(text, "why unknown", 11) == 0)
		return NULL;
	/* the sentence after the last ". " that starts one (a capital) */
	for (p = text + n - 2; p > text; p--)
		if (p[0] == '.' && p[1] == ' ' && p[2] >= 'A' && p[2] <= 'Z')
			return p + 2;
	return NULL;
}

__attribute__((format(printf, 3, 4)))
static void say(struct dtl_verdict *v, enum dtl_verdict_kind k, const char *fmt, ...)
{
	va_list ap;

	v->kind = k;
	va_start(ap, fmt);
	vsnprintf(v->text, sizeof(v->text), fmt, ap);
	va_end(ap);
}

/* The pool's idle as a clause, from its figures: "the pool has 0.00 of 4 idle", or unknown. */
static void pool_clause(const struct dtl_lparcfg *cfg, const struct dtl_lpar_figs *f, char *buf,
			size_t len)
{
	if (!(f->known & DTL_LPARF_APP))
		snprintf(buf, len, "the pool's idle is unknown");
	else if (cfg->have_pool && cfg->pool_capacity > 0)
		snprintf(buf, len, "the pool has %.2f of %.0f idle", f->app, cfg->pool_capacity);
	else
		snprintf(buf, len, "the pool has %.2f idle", f->app);
}

/* What the figures say of the partition, each known only where lparcfg had it. */
struct facts {
	double wait, ent, physc, entc;
	bool waits, ent_ok, entc_ok, at_ent, below_ent, held, vps_busy, app_ok, empty, holds;
	bool holds_known, nearly_empty;
};

static void facts(const struct dtl_lparcfg *cfg, const struct dtl_lpar_figs *f,
		  const struct dtl_row *all, double wait, struct facts *x)
{
	x->wait = wait;
	/*
	 * Waits as long as a wheel's rest are holds (the cap's, or the pool's past
	 * the entitlement); dispatch latency is far shorter. Too few samples: unknown.
	 */
	x->holds_known = all && all->samples >= DTL_MIN_SAMPLES;
	x->holds = x->holds_known && all->lat_p99_us >= DTL_VERDICT_HOLD_US;
	x->waits = wait >= DTL_VERDICT_WAIT_PCT;
	x->ent = cfg->entitlement;
	x->physc = f->physc;
	x->ent_ok = cfg->have_ent && cfg->entitlement > 0;
	x->entc_ok = x->ent_ok && (f->known & DTL_LPARF_ENTC) && f->entc_pct >= 0;
	x->entc = x->entc_ok ? f->entc_pct : 0;
	x->at_ent = x->entc_ok && f->entc_pct >= DTL_VERDICT_ENTC_PCT;
	x->below_ent = x->entc_ok && f->entc_pct < DTL_VERDICT_BELOW_PCT;
	/* weight 0 gets nothing above the entitlement: held there as if capped */
	x->held = cfg->capped || (cfg->have_weight && cfg->weight == 0);
	x->vps_busy = cfg->have_vps && cfg->active_vps &&
		      f->physc >= cfg->active_vps * DTL_VERDICT_VPS_PCT / 100;
	x->app_ok = f->known & DTL_LPARF_APP;
	x->empty = x->app_ok && cfg->have_pool &&
		   f->app < cfg->pool_capacity * DTL_VERDICT_POOL_PCT / 100;
	x->nearly_empty = x->app_ok && cfg->have_pool &&
			  f->app < cfg->pool_capacity * 4 * DTL_VERDICT_POOL_PCT / 100;
}

/* ...; its VPs are busy too: the second limit, and the action that lifts both. */
static void also_vps(const struct dtl_lparcfg *cfg, const struct facts *x, char *clause,
		     size_t len)
{
	if (x->vps_busy)
		snprintf(clause, len, "; its VPs are all busy too (%.2f of %u). Add virtual "
			 "processors and raise the entitlement.", x->physc, cfg->active_vps);
	else
		clause[0] = '\0';
}

/* Held at the entitlement by its cap, or by weight 0; also: the VPs' clause, or "". */
static void held(const struct dtl_lparcfg *cfg, const struct facts *x, const char *pool,
		 const char *also, struct dtl_verdict *v)
{
	if (cfg->capped)
		say(v, DTL_VERDICT_CAPPED, "capped at its entitlement (%.2f, entc %.0f%%): waits "
		    "%.0f%% of wanted CPU time; %s%s", x->ent, x->entc, x->wait, pool,
		    also[0] ? also : ". Raise the entitlement, or uncap it.");
	else
		say(v, DTL_VERDICT_CAPPED, "held at its entitlement (%.2f, entc %.0f%%): uncapped "
		    "with weight 0 gets nothing above it; waits %.0f%%%s", x->ent, x->entc, x->wait,
		    also[0] ? also : ". Give it a weight above 0, or raise the entitlement.");
}

static void shared(const struct dtl_lparcfg *cfg, const struct dtl_lpar_figs *f,
		   const struct dtl_row *all, double wait, struct dtl_verdict *v)
{
	struct facts x;
	char pool[64], also[160], ent[24];

	facts(cfg, f, all, wait, &x);
	pool_clause(cfg, f, pool, sizeof(pool));
	also_vps(cfg, &x, also, sizeof(also));
	if (x.waits && x.held && x.entc_ok && (x.holds || (!x.holds_known && x.at_ent))) {
		/* at the cap on average, or in the wheels its bursts pass it */
		held(cfg, &x, pool, also, v);
	} else if (x.waits && x.held && !x.entc_ok) {
		/* the cap's rule without the entitlement it is measured against */
		say(v, DTL_VERDICT_UNKNOWN, "why unknown: waits %.0f%%, %s, but lparcfg gives no "
		    "entitlement (or none above 0): its cap or dispatch latency?", x.wait,
		    cfg->capped ? "capped" : "uncapped with weight 0");
	} else if (x.waits && !x.held && !x.below_ent && x.entc_ok &&
		   ((x.holds && x.nearly_empty) || (!x.holds_known && x.empty))) {
		/* held past its entitlement, with next to nothing idle in the pool */
		say(v, DTL_VERDICT_STARVED, "starved by the pool: at its entitlement (entc %.0f%%), "
		    "%s; waits %.0f%%%s", x.entc, pool, x.wait,
		    also[0] ? also : ". Raise the entitlement or weight, or move load off the pool.");
	} else if (x.waits && !x.held && !x.below_ent && x.entc_ok && !x.app_ok && !x.vps_busy &&
		   (x.holds || !x.holds_known)) {
		say(v, DTL_VERDICT_POOL_UNKNOWN, "waits %.0f%% at its entitlement (entc %.0f%%), "
		    "the pool's idle unknown: pool or latency? Turn on the HMC's \"allow performance "
		    "information collection\".", x.wait, x.entc);
	} else if (x.vps_busy) {
		snprintf(ent, sizeof(ent), "%.2f", x.ent);
		say(v, DTL_VERDICT_VPS, "limited by its virtual processors: uses %.2f of %u "
		    "(entitlement %s); waits %.0f%%. Add virtual processors.", x.physc,
		    cfg->active_vps, x.ent_ok ? ent : "unknown", x.wait);
	} else if (x.waits && x.below_ent && x.holds) {
		say(v, DTL_VERDICT_LATENCY, "below its entitlement (entc %.0f%%), guaranteed per 10 "
		    "ms wheel: its bursts pass a wheel's share and wait for the next (waits %.0f%%). A "
		    "larger entitlement per VP (fewer VPs) shortens it.", x.entc, x.wait);
	} else if (x.waits && x.below_ent) {
		say(v, DTL_VERDICT_LATENCY, "below its entitlement (entc %.0f%%), which PowerVM "
		    "guarantees: the waits (%.0f%% of wanted time) are dispatch latency. A larger "
		    "entitlement per VP (fewer VPs) shortens it.", x.entc, x.wait);
	} else if (x.waits) {
		if (x.entc_ok)
			snprintf(ent, sizeof(ent), "%.0f%%", x.entc);
		else
			snprintf(ent, sizeof(ent), "unknown");
		say(v, DTL_VERDICT_LATENCY, "waits %.0f%% with no cap reached and %s (entc "
		    "%s): dispatch latency. A larger entitlement per VP (fewer VPs) shortens it.",
		    x.wait, pool, ent);
	} else if (!x.held && x.ent_ok && x.physc > x.ent * DTL_VERDICT_BORROW) {
		say(v, DTL_VERDICT_BORROWING, "not limited: borrowing %.2f above its entitlement "
		    "(%.2f); %s. Nothing to do now; raise the entitlement if that must be "
		    "guaranteed.", x.physc - x.ent, x.ent, pool);
	} else {
		say(v, DTL_VERDICT_FREE, "not limited by the hypervisor: waits %.0f%% of wanted CPU "
		    "time. Nothing to do at the hypervisor.", x.wait);
	}
}

void dtl_verdict__judge(const struct dtl_lparcfg *cfg, const struct dtl_lpar_figs *f,
			const struct dtl_row *all, struct dtl_verdict *v)
{
	double wanted = all ? all->steal_pct + all->run_pct : 0;
	double wait = wanted > 0 ? 100 * all->steal_pct / wanted : 0;

	if (!cfg || !cfg->present) {
		v->kind = DTL_VERDICT_UNKNOWN;
		snprintf(v->text, sizeof(v->text), "why unknown: no lparcfg (not a PowerVM LPAR, "
			 "or /proc/powerpc/lparcfg unreadable)");
	} else if (cfg->have_mode && !cfg->shared) {
		say(v, cfg->donating ? DTL_VERDICT_DONATING : DTL_VERDICT_DEDICATED,
		    cfg->donating ? "dedicated, donating idle cycles to the pool: the %.0f%% "
		    "waited is the hypervisor's work and donated cycles' return. Stop donating if "
		    "wake-up latency matters." :
		    "dedicated processors, no pool to wait for: the %.0f%% waited is the "
		    "hypervisor's own work. Nothing to do at the hypervisor.", wait);
	} else if (!f || !(f->known & DTL_LPARF_PHYSC)) {
		v->kind = DTL_VERDICT_UNKNOWN;
		snprintf(v->text, sizeof(v->text), "why unknown until a second lparcfg reading "
			 "(the next interval)");
	} else if (all && all->dispatches < DTL_VERDICT_MIN_DISP) {
		/* a wait still going on at the interval's end counts as running: too few to tell */
		v->kind = DTL_VERDICT_UNKNOWN;
		snprintf(v->text, sizeof(v->text), "why unknown: %llu dispatches in this interval, "
			 "too few to tell its waits (%d at least; a longer -d gathers more)",
			 (unsigned long long)all->dispatches, DTL_VERDICT_MIN_DISP);
	} else {
		shared(cfg, f, all, wait, v);
	}
}
