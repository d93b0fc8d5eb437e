/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.c - the header facts, formatted once for every view.
 */
#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "../dtl/dtl.h"

void dtl_model__since(const struct dtl_model *m, char *buf, size_t len)
{
	time_t t = (time_t)(m->totals_from_ns / 1000000000ull);
	char when[16];
	struct tm tm;

	if (!m->totals_from_ns) {
		snprintf(buf, len, "since start");
		return;
	}
	if (m->recorded)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(buf, len, "since %s", when);
}

void dtl_model__cpus(const struct dtl_model *m, char *buf, size_t len)
{
	if (m->nr_vps)
		snprintf(buf, len, "%u VP%s x SMT%u = %u CPUs", m->nr_vps, m->nr_vps == 1 ? "" : "s",
			 m->smt, m->nr_vcpus);
	else
		snprintf(buf, len, "%u vCPUs", m->nr_vcpus);
}

void dtl_model__title(const struct dtl_model *m, char *buf, size_t len)
{
	char mask[32], cpus[64];

	dtl_mask__format(m->mask, mask, sizeof(mask));
	dtl_model__cpus(m, cpus, sizeof(cpus));
	snprintf(buf, len, "%s %s  mask %s  %s", m->source, m->detail, mask, cpus);
}

/* v with prec decimals and unit when bit is known, else "-". */
static const char *fig(char *buf, size_t len, const struct dtl_lpar_figs *f, unsigned int bit,
		       double v, int prec, const char *unit)
{
	return dtl_sys__fig(buf, len, f && (f->known & bit), v, prec, unit);
}

int dtl_model__witness(const struct dtl_row *r, char *buf, size_t len)
{
	double d = r->steal_vpa_diff_pct;

	if (!(r->known & DTL_KNOWN_VPA))
		return 0;
	/*
	 * In words a newcomer reads: the hypervisor's own counters (the VPA)
	 * against the DTL's steal. The VPA counts every dispatch: a partial mask
	 * explains a shortfall, no alarm; lost entries make the DTL's smaller.
	 */
	if ((r->mask & DTL_MASK_ALL) != DTL_MASK_ALL && d < 0)
		snprintf(buf, len, "steal %+.1f%% off the VPA's (the mask leaves the rest out)", d);
	else if (d > 1 || d < -1)
		snprintf(buf, len, "steal %+.1f%% off the VPA's (DTL and VPA disagree%s)", d,
			 d < 0 ? ": entries lost?" : "");
	else
		snprintf(buf, len, "steal checked against the VPA (%+.1f%%)", d);
	return 1;
}

int dtl_model__lpar(const struct dtl_model *m, char *buf, size_t len)
{
	const struct dtl_lparcfg *l = m->lparcfg;
	const struct dtl_lpar_figs *f = m->lpar;
	char weight[24] = "", rg[48] = "", a[24], b[24], c[24], d[24], e[24], v[24], p[24];

	if (!l || !l->present)
		return 0;
	if (!l->capped && l->have_weight)
		snprintf(weight, sizeof(weight), " weight %u", l->weight);
	if (l->have_rg)
		snprintf(rg, sizeof(rg), "  group %u (%u procs)", l->rg_number, l->rg_procs);
	dtl_sys__fig(v, sizeof(v), l->have_vps, l->active_vps, 0, "");
	if (l->have_mode && !l->shared) {
		/* no pool, no cap: what lparstat shows of a dedicated partition */
		snprintf(buf, len, "LPAR dedicated%s  procs %s  physc %s  disp/s %s",
			 l->donating ? " donating" : "", v,
			 fig(a, sizeof(a), f, DTL_LPARF_PHYSC, f ? f->physc : 0, 2, ""),
			 fig(d, sizeof(d), f, DTL_LPARF_DISP, f ? f->disp_per_s : 0, 0, ""));
		return 1;
	}
	snprintf(buf, len, "LPAR ent %s  shared %s%s  VPs %s  pool %s%s  physc %s  entc %s  app %s  "
		 "disp/s %s", dtl_sys__fig(e, sizeof(e), l->have_ent, l->entitlement, 2, ""),
		 l->capped ? "capped" : "uncapped", weight, v,
		 dtl_sys__fig(p, sizeof(p), l->have_pool, l->pool_capacity, 2, ""), rg,
		 fig(a, sizeof(a), f, DTL_LPARF_PHYSC, f ? f->physc : 0, 2, ""),
		 fig(b, sizeof(b), f, DTL_LPARF_ENTC, f ? f->entc_pct : 0, 1, "%"),
		 fig(c, sizeof(c), f, DTL_LPARF_APP, f ? f->app : 0, 2, ""),
		 fig(d, sizeof(d), f, DTL_LPARF_DISP, f ? f->disp_per_s : 0, 0, ""));
	return 1;
}

int dtl_model__identity(const struct dtl_model *m, char *buf, size_t len)
{
	const struct dtl_lparcfg *l = m->lparcfg && m->lparcfg->present ? m->lparcfg : NULL;
	char who[96] = "", id[24] = "", pool[24] = "", frame[112] = "";

	if (m->partition_name && m->partition_name[0])
		snprintf(who, sizeof(who), " %s", m->partition_name);
	if (l && l->have_partition_id)
		snprintf(id, sizeof(id), who[0] ? " (id %u)" : " id %u", l->partition_id);
	if (l && l->have_pool_id)
		snprintf(pool, sizeof(pool), "%s pool %u", who[0] || id[0] ? "," : "", l->pool_id);
	if (l && (l->system_type[0] || l->serial[0]))
		snprintf(frame, sizeof(frame), "%s frame %s%s%s", pool[0] ? " of" :
			 who[0] || id[0] ? ", on" : "", l->system_type,
			 l->system_type[0] && l->serial[0] ? " " : "", l->serial);
	if (!who[0] && !id[0] && !pool[0] && !frame[0])
		return 0;
	snprintf(buf, len, "partition%s%s%s%s", who, id, pool, frame);
	return 1;
}

__attribute__((format(printf, 5, 6)))
static void field(struct dtl_model_field *out, size_t *n, const char *key, bool number,
		  const char *fmt, ...)
{
	va_list ap;

	out[*n].key = key;
	out[*n].number = number;
	va_start(ap, fmt);
	vsnprintf(out[*n].value, sizeof(out[*n].value), fmt, ap);
	va_end(ap);
	(*n)++;
}

size_t dtl_model__identity_fields(const struct dtl_model *m,
				  struct dtl_model_field out[DTL_MODEL_FIELDS])
{
	const struct dtl_lparcfg *l = m->lparcfg && m->lparcfg->present ? m->lparcfg : NULL;
	size_t n = 0;

	if (l && l->have_partition_id)
		field(out, &n, "partition_id", true, "%u", l->partition_id);
	if (m->partition_name && m->partition_name[0])
		field(out, &n, "partition_name", false, "%s", m->partition_name);
	if (l && l->have_pool_id)
		field(out, &n, "pool_id", true, "%u", l->pool_id);
	if (l && l->serial[0])
		field(out, &n, "frame_serial", false, "%s", l->serial);
	if (l && l->system_type[0])
		field(out, &n, "frame_type", false, "%s", l->system_type);
	return n;
}

void dtl_model__verdict(const struct dtl_model *m, struct dtl_verdict *v)
{
	dtl_verdict__judge(m->lparcfg, m->lpar, &m->table->all, v);
}
