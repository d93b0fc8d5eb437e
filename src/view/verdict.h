/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict.h - the answer in words: what limits the partition (its cap, the
 * shared pool above its entitlement, its virtual processors, dispatch
 * latency, nothing), from lparcfg's figures and the DTL's waits, and the
 * one thing to do about it. PowerVM guarantees the entitlement, so below
 * it waits are never the pool's. Pure: tests call it directly.
 */
#ifndef DTL_VERDICT_H
#define DTL_VERDICT_H

#include <stddef.h>

#include "../platform/sys.h"
#include "../stats/stats.h"

enum dtl_verdict_kind {
	DTL_VERDICT_UNKNOWN,	/* no lparcfg, or not two readings yet */
	DTL_VERDICT_FREE,	/* waits little: not limited by the hypervisor */
	DTL_VERDICT_BORROWING,	/* uncapped, above its entitlement from an idle pool */
	DTL_VERDICT_CAPPED,	/* capped (or weight 0), held at its entitlement */
	DTL_VERDICT_STARVED,	/* uncapped, at its entitlement, the pool has nothing idle */
	DTL_VERDICT_VPS,	/* every VP busy: more VPs would take more */
	DTL_VERDICT_POOL_UNKNOWN,	/* at its entitlement and waiting, the pool's idle unreadable */
	DTL_VERDICT_LATENCY,	/* waiting with no cap or full pool to blame: dispatch latency */
	DTL_VERDICT_DEDICATED,	/* dedicated processors: no pool */
	DTL_VERDICT_DONATING,	/* dedicated, idle cycles donated to the pool */
	DTL_VERDICT__N
};

/* The rules' thresholds, named in the man page (VERDICT). */
#define DTL_VERDICT_WAIT_PCT 10.0	/* of wanted CPU time waited: below, not limited */
#define DTL_VERDICT_ENTC_PCT 95.0	/* entc at or above: at the entitlement */
#define DTL_VERDICT_BELOW_PCT 90.0	/* entc below: under it, the pool cannot hold it */
#define DTL_VERDICT_HOLD_US 2000.0	/* p99 wait at or past: held to a next wheel, not latency */
#define DTL_VERDICT_MIN_DISP 50		/* dispatches in the interval: fewer, waits are noise */
#define DTL_VERDICT_POOL_PCT 5.0	/* pool idle below this share of the pool: full */
#define DTL_VERDICT_VPS_PCT 95.0	/* physc at or above this share of the VPs: all busy */
#define DTL_VERDICT_BORROW 1.05		/* physc above ent x this: borrowing */

struct dtl_verdict {
	enum dtl_verdict_kind kind;
	char text[320];
};

/*
 * The one thing to do, as the words end with it ("Raise the entitlement, or
 * uncap it."): the last sentence of text; NULL where it has none (unknown).
 */
const char *dtl_verdict__action(const char *text);
/* "capped", "starved": the JSON field's and the exposition label's value. */
const char *dtl_verdict__name(enum dtl_verdict_kind k);
/*
 * cfg: the latest lparcfg (NULL: none); f: lparstat's figures over the
 * interval (NULL or none known: the first interval); all: the partition's row.
 */
void dtl_verdict__judge(const struct dtl_lparcfg *cfg, const struct dtl_lpar_figs *f,
			const struct dtl_row *all, struct dtl_verdict *v);

#endif
