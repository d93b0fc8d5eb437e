/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hv.h - PowerVM's rules for a shared-processor LPAR, as the simulator
 * obeys them: pure, I/O-free, the same answer for the same figures.
 */
#ifndef DTL_SIM_HV_H
#define DTL_SIM_HV_H

#include <stdbool.h>

/* What the pool holds for one dispatch wheel, in processor units. */
struct dtl_hv_pool {
	unsigned int vps;	/* our active virtual processors */
	double ent;		/* our entitled capacity */
	double want;		/* what our VPs want on average (at most vps) */
	bool capped;
	unsigned int weight;	/* 0-255; 0: never above the entitlement */
	double pool;		/* processors in the shared pool */
	double other;		/* what the other LPARs want */
	double other_ent;	/* what they are entitled to (at most pool - ent) */
};

/* Why a VP is held at its budget: the cap (or weight 0), or the pool's idle taken by others. */
enum dtl_hv_hold { DTL_HV_HOLD_CAP, DTL_HV_HOLD_POOL };

struct dtl_hv_share {
	double budget;		/* a VP's share of each wheel, 0..1: it is held past it */
	double ceiling;		/* the partition's most in the wheel: its entitlement and excess */
	double reserve;		/* what a VP is expected to use of its entitlement */
	enum dtl_hv_hold hold;	/* the cause of that hold */
	double other_use;	/* what the other LPARs get, in processor units */
	double busy;		/* the pool's busy share when we use what we want, 0..1 */
};

/*
 * One wheel's shares: each side's entitlement first, as far as it wants it,
 * then the idle capacity to the uncapped by weight (ours against theirs at
 * 128), a VP never past one processor.
 */
void dtl_hv__share(const struct dtl_hv_pool *p, struct dtl_hv_share *s);

/*
 * A frame's pool, each LPAR of it described (frame=): every simulated LPAR
 * of the pool works the same division from the same figures, so what they
 * take adds up to at most the pool without their talking to each other.
 */
struct dtl_hv_lpar {
	double ent;		/* entitled capacity */
	double want;		/* what its VPs want on average (at most vps) */
	unsigned int vps;
	unsigned int weight;	/* 0-255; 0: never above the entitlement */
	bool capped;
};

#define DTL_HV_FRAME_MAX 32	/* LPARs of one frame file */

/*
 * One wheel of a pool of n LPARs: each one's expected use (use[i], summing
 * to at most pool) and, into s, lpars[self]'s share. Each LPAR first gets
 * its entitlement as far as it wants it; the idle rest goes to the uncapped
 * by weight, each up to what it wants; what is still idle then is room to
 * burst, by weight, up to the VPs. use may be NULL.
 */
void dtl_hv__frame(const struct dtl_hv_lpar *lpars, unsigned int n, unsigned int self,
		   double pool, double *use, struct dtl_hv_share *s);

/* The mean wait for a physical processor at a dispatch, in seconds, at busy share b. */
double dtl_hv__latency_s(double busy);

/* The chance the hypervisor takes the processor back at a time slice's end. */
double dtl_hv__slice_preempt(double busy);

#endif
