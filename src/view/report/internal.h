/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - what the report keeps per interval, shared by collect.c
 * (which fills it) and html.c (which draws it).
 */
#ifndef DTL_REPORT_INTERNAL_H
#define DTL_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../dtl/dtl.h"
#include "../../stats/stats.h"
#include "../../stats/where.h"
#include "../model.h"

/* The partition's series, one value per interval (NaN: unknown then). */
enum rp_series {
	RP_STEAL, RP_IDLE, RP_DISP, RP_P50, RP_P99, RP_MAX, RP_PHYSC, RP_ENT, RP_APP, RP_LOST,
	RP_GAPS, RP_N
};

#define RP_NO_STEAL UINT16_MAX	/* a row offline in an interval */

/* Who pays: steal in cores per interval, by name (payers.c); past the last slot, "other". */
#define RP_PAYER_NAMES 256
struct rp_payers {
	size_t n;
	char name[RP_PAYER_NAMES][128];
	double *v[RP_PAYER_NAMES];	/* [k][interval] */
	/* where the top payers' involuntary preempts hit, since start: taken at the end */
	size_t nwhere;
	size_t where_at[5];		/* whose: an index into name */
	struct dtl_where where[5];
};
#define RP_WHERE_TOP 5

struct rp {
	size_t n, cap;			/* intervals kept */
	double *t;			/* each interval's end, seconds since the epoch */
	double *s[RP_N];
	double *preempt[DTL_N_PREEMPT + 1];	/* per second, by reason */
	double *dispatch[DTL_N_DISPATCH + 1];
	/* the heatmap's rows: VPs (by first CPU) where known, else CPUs */
	unsigned int nrows;
	int *row_id;
	bool by_vp;
	uint16_t *steal;		/* [interval * nrows + row]: steal % x 100 */
	float *p99;			/* [interval * nrows + row]: us, NaN unknown */
	double interval_s;
	/* facts of the span */
	char host[256], source[64], detail[256];
	char identity[256];		/* which partition, pool and frame; "" unknown */
	unsigned int mask;		/* traced throughout */
	unsigned int mask_any;		/* traced in some interval */
	unsigned int *imask;		/* each interval's: below mask_any, marked on the charts */
	uint8_t *verdict;		/* each interval's enum dtl_verdict_kind */
	char why[DTL_VERDICT__N][200];	/* each kind's words, as last said */
	unsigned int nr_vcpus, nr_vps, smt;
	struct dtl_lparcfg lparcfg;
	struct dtl_row total;		/* the partition since start */
	bool have_total;
	struct rp_payers payers[2];	/* by process, by cgroup */
	bool payers_known;		/* the source gave task switches */
	bool where_named;		/* kernel symbols were there; else where_why */
	char where_why[400];
	struct rp_incident {
		size_t i;		/* the interval it turned in */
		char why[200], file[200];	/* the file's name, not its path */
	} *inc;
	size_t ninc, inccap;
};

/* A row of the heatmap and its mean steal over the span: rows rank worst first. */
struct rp_ranked {
	unsigned int k;		/* index into row_id */
	double mean;		/* %, NaN if never known */
};

/* An interval traced with fewer events than others of the span. */
static inline bool rp_narrow(const struct rp *r, size_t i)
{
	return r->imask[i] != r->mask_any;
}

/* html.c: "VP 3" (VPs by number, 0..N-1) or "CPU 17", for row k. */
void rp_row_name(const struct rp *r, unsigned int k, char *buf, size_t len);
/* html.c: the page, to f; 0, or -1 out of memory. */
int rp_write_html(FILE *f, const struct rp *r);
/* rows.c: the heatmap and the small multiples of the worst rows (o: the ranking). */
int rp_heatmap(FILE *f, const struct rp *r, const struct rp_ranked *o);
int rp_multiples(FILE *f, const struct rp *r, const struct rp_ranked *o);
/* payers.c: who pays, kept at each interval i and drawn at the end. */
bool rp_payers__grow(struct rp *r, size_t cap);
void rp_payers__keep(struct rp *r, const struct dtl_model *m, size_t i);
void rp_payers__free(struct rp *r);
int rp_payers__html(FILE *f, const struct rp *r);
/* At the end: where the top payers' preempts hit, from the model's tasks and symbols. */
void rp_payers__where(struct rp *r, const struct dtl_model *m);

#endif
