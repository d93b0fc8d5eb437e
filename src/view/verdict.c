// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - the answer in words. The order of the rules is the answer's:
 * what the partition is (no data, dedicated), then what holds it back (its
 * cap, the pool, its VPs), and only then "nothing", so a full pool is never
 * called a cap because both show entc near 100 %.
 */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>

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

__attribute__((format(printf, 3, 4)))
static void say(struct dtl_verdict *v, enum dtl_verdict_kind k, const char *fmt, ...)
{
	va_list ap;

	v->kind = k;
	va_start(ap, fmt);
	vsnprintf(v->text, sizeof(v->text), fmt, ap);
	va_end(ap);
}

/* The pool's idle as a clause: " pool has 24.0 idle", or that it is unknown. */
static void pool_clause(const struct dtl_lpar_figs *f, char *buf, size_t len)
{
	if (f->known & DTL_LPARF_APP)
		snprintf(buf, len, "pool has %.1f idle", f->app);
	else
		snprintf(buf, len, "pool idle unknown");
}

static void shared(const struct dtl_lparcfg *cfg, const struct dtl_lpar_figs *f, double wait,
		   struct dtl_verdict *v)
{
	double ent = cfg->entitlement, physc = f->physc;
	bool app = f->known & DTL_LPARF_APP, waits = wait >= DTL_VERDICT_WAIT_PCT;
	bool empty = app && cfg->have_pool && f->app < cfg->pool_capacity * DTL_VERDICT_POOL_PCT / 100;
	bool vps_busy = cfg->have_vps && physc >= cfg->active_vps * DTL_VERDICT_VPS_PCT / 100;
	char pool[40];

	pool_clause(f, pool, sizeof(pool));
	if (cfg->capped && (f->known & DTL_LPARF_ENTC) && f->entc_pct >= DTL_VERDICT_ENTC_PCT) {
		v->kind = DTL_VERDICT_CAPPED;
		snprintf(v->text, sizeof(v->text), "capped at its entitlement (%.2f): %s", ent, pool);
	} else if (!cfg->capped && empty && waits) {
		say(v, DTL_VERDICT_STARVED, "uncapped, starved by the shared pool (%.2f idle of "
		    "%.0f): other LPARs take it", f->app, cfg->pool_capacity);
	} else if (!cfg->capped && vps_busy) {
		say(v, DTL_VERDICT_VPS, "limited by its virtual processors: uses %.2f of %.0f "
		    "(entitlement %.2f)", physc, (double)cfg->active_vps, ent);
	} else if (!cfg->capped && physc > ent * DTL_VERDICT_BORROW && (!waits || (app && !empty))) {
		v->kind = DTL_VERDICT_BORROWING;
		snprintf(v->text, sizeof(v->text), "borrowing %.2f above entitlement (%.2f) from an "
			 "idle pool; %s%s", physc - ent, ent, pool,
			 waits ? "; waits come from dispatch latency" : "");
	} else if (!waits) {
		say(v, DTL_VERDICT_FREE, "not limited by the hypervisor: waits %.0f%% of wanted "
		    "CPU time", wait);
	} else if (!cfg->capped && !app) {
		say(v, DTL_VERDICT_POOL_UNKNOWN, "uncapped, waits %.0f%%: pool idle unknown (the "
		    "HMC's \"allow performance information collection\" is off)", wait);
	} else {
		say(v, DTL_VERDICT_LATENCY, "waits %.0f%% with no cap reached and a pool not full "
		    "(entc %.0f%%): dispatch latency", wait, f->entc_pct);
	}
}

void dtl_verdict__judge(const struct dtl_lparcfg *cfg, const struct dtl_lpar_figs *f,
			const struct dtl_row *all, struct dtl_verdict *v)
{
	double wanted = all ? all->steal_pct + all->run_pct : 0;
	double wait = wanted > 0 ? 100 * all->steal_pct / wanted : 0;

	if (!cfg || !cfg->present) {
		v->kind = DTL_VERDICT_UNKNOWN;
		snprintf(v->text, sizeof(v->text), "why unknown: no lparcfg");
	} else if (cfg->have_mode && !cfg->shared) {
		say(v, cfg->donating ? DTL_VERDICT_DONATING : DTL_VERDICT_DEDICATED,
		    cfg->donating ? "dedicated, donating idle cycles to the pool: the %.0f%% "
		    "waited is the hypervisor's work and donated cycles' return" :
		    "dedicated processors, no pool to wait for: the %.0f%% waited is the "
		    "hypervisor's own work", wait);
	} else if (!f || !(f->known & DTL_LPARF_PHYSC)) {
		v->kind = DTL_VERDICT_UNKNOWN;
		snprintf(v->text, sizeof(v->text), "why unknown until a second lparcfg reading");
	} else {
		shared(cfg, f, wait, v);
	}
}
