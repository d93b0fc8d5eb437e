/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.c - the header facts, formatted once for every view.
 */
#include "model.h"

#include <stdio.h>

#include "../dtl/dtl.h"

void dtl_model__title(const struct dtl_model *m, char *buf, size_t len)
{
	char mask[32];

	dtl_mask__format(m->mask, mask, sizeof(mask));
	snprintf(buf, len, "%s %s  mask %s  %u vCPUs", m->source, m->detail, mask, m->nr_vcpus);
}

int dtl_model__lpar(const struct dtl_model *m, char *buf, size_t len)
{
	const struct dtl_lparcfg *l = m->lparcfg;
	char disp[48] = "";

	if (!l || !l->present)
		return 0;
	if (m->lpar_dispatches >= 0)
		snprintf(disp, sizeof(disp), "  lparcfg dispatches +%lld", m->lpar_dispatches);
	snprintf(buf, len, "LPAR ent %.2f  %s %s  VPs %u  pool %.2f%s", l->entitlement,
		 l->shared ? "shared" : "dedicated", l->capped ? "capped" : "uncapped",
		 l->active_vps, l->pool_capacity, disp);
	return 1;
}
