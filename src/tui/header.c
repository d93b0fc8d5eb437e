/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * header.c - the header pane: what is captured and how, what the figures
 * leave out, the partition's totals and its lparcfg facts.
 */
#include <stdio.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../version.h"
#include "../view/columns.h"
#include "pane.h"

/* The partial-mask warning and the lparcfg line come and go. */
static int header_height(const struct dtl_tui *t, const struct dtl_model *m)
{
	char partial[64], lpar[256];

	(void)t;
	return 2 + (dtl_mask__partial(m->table->all.mask, partial, sizeof(partial)) > 0) +
	       dtl_model__lpar(m, lpar, sizeof(lpar));
}

static void header_draw(struct dtl_tui *t, const struct dtl_model *m, int y, int height)
{
	const struct dtl_row *a = &m->table->all;
	char mask[32], partial[64], gaps[48] = "", lpar[256], cpus[64], witness[64] = "";

	(void)height;
	dtl_mask__format(m->mask, mask, sizeof(mask));
	dtl_model__cpus(m, cpus, sizeof(cpus));
	dtl_tui__line(y++, A_BOLD | (t->color ? COLOR_PAIR(DTL_PAIR_TITLE) : 0),
	              "dtltop %s%s%s  mask %s (0x%x)  every %.2fs  %s  %s %s", DTLTOP_VERSION,
	              m->paused ? "  [PAUSED]" : "", m->since_start ? "  [since start]" : "",
	              mask, m->mask, m->interval_s, cpus, m->source, m->detail);
	/* What the figures leave out comes first, where it cannot be cut off. */
	if (dtl_mask__partial(a->mask, partial, sizeof(partial)))
		dtl_tui__line(y++, A_BOLD | (t->color ? COLOR_PAIR(DTL_PAIR_WARN) : A_REVERSE),
		              "%s: these figures leave those events out", partial);
	if (a->gaps)
		snprintf(gaps, sizeof(gaps), "+  gaps %llu", (unsigned long long)a->gaps);
	if (dtl_model__witness(a, witness + 2, sizeof(witness) - 2))
		memcpy(witness, "  ", 2);
	if (!(a->known & DTL_KNOWN_DTL))
		dtl_tui__line(y++, 0, "%s %.0f disp/s  steal %.1f%%  idle %.0fms  (VPA counters, no DTL: "
			      "latency, reasons and faults unknown)", dtl_row__label(a),
			      a->dispatch_per_s, a->steal_pct, a->idle_us / 1000);
	else
		dtl_tui__line(y++, 0, "%s %.0f disp/s  invol %.1f%%  steal %.1f%%  idle %.0fms  "
			      "lat p50/p99/max %.1f/%.0f/%.0fus  migr %llu  flt %llu  lost %llu%s  "
			      "bad %llu%s", dtl_row__label(a), a->dispatch_per_s,
			      a->preempt_ratio * 100, a->steal_pct, a->idle_us / 1000, a->lat_p50_us,
			      a->lat_p99_us, a->lat_max_us, (unsigned long long)a->migrations,
			      (unsigned long long)a->faults, (unsigned long long)a->lost, gaps,
			      (unsigned long long)a->bad, witness);
	/* lparcfg's dispatch cycles next to the DTL's, which the mask may leave short */
	if (dtl_model__lpar(m, lpar, sizeof(lpar)))
		dtl_tui__line(y++, 0, "%s (DTL %.0f)", lpar, a->dispatch_per_s);
}

const struct dtl_pane dtl_pane_header = {
	.name = "header",
	.height = header_height,
	.draw = header_draw,
};
