/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hv.c - PowerVM's rules for a shared-processor LPAR (IBM's PowerVM
 * Virtualization Performance guide, and lparstat's figures): in every 10 ms
 * dispatch wheel an LPAR is guaranteed its entitled capacity whatever the
 * others want, its VPs sharing it; what it does not use goes to the pool;
 * an uncapped LPAR may take more from the pool's idle capacity, shared
 * among those that want it in proportion to their weights; weight 0 and
 * capped LPARs never go past the entitlement; a virtual processor is at
 * most one physical processor. A VP's budget is expected, not counted
 * across its siblings: VPs are simulated one at a time.
 */
#include "hv.h"

#include <math.h>

/* Our weight against the others', who are uncapped at the default 128. */
#define OTHER_WEIGHT 128.0

/* idle split by weight between two claims, each at most what it asks: ours */
static double waterfill(double idle, double ours, double w_ours, double theirs, double w_theirs)
{
	double mine, left;

	if (idle <= 0 || ours <= 0)
		return 0;
	if (theirs <= 0 || w_theirs <= 0)
		return ours < idle ? ours : idle;
	mine = idle * w_ours / (w_ours + w_theirs);
	if (mine > ours)
		return ours;
	left = idle - mine;	/* what they leave of theirs comes back to us */
	if (theirs < left)
		mine += left - theirs;
	return mine < ours ? mine : ours;
}

void dtl_hv__share(const struct dtl_hv_pool *p, struct dtl_hv_share *s)
{
	double n = p->vps ? p->vps : 1, e = p->ent / n, want = p->want < n ? p->want : n;
	double their_ent = p->other_ent;
	double ours_used = want < p->ent ? want : p->ent;
	double theirs_used = p->other < their_ent ? p->other : their_ent;
	double idle = p->pool - ours_used - theirs_used, ours_claim, theirs_claim, mine = 0;
	double ours_extra, left;

	if (idle < 0)
		idle = 0;
	/* a VP may burst to a whole processor: our claim is what the VPs could take */
	ours_claim = p->capped || !p->weight ? 0 : n * (1 - e);
	theirs_claim = p->other - theirs_used;
	if (ours_claim > 0)
		mine = waterfill(idle, ours_claim, p->weight, theirs_claim, OTHER_WEIGHT);
	/*
	 * The entitlement is the partition's in each wheel: a VP may use what its
	 * siblings leave of theirs (expected, as they want less than their share).
	 */
	s->budget = e + mine / n + (want < p->ent ? (p->ent - want) * (n - 1) / n : 0);
	if (s->budget > 1)
		s->budget = 1;
	s->ceiling = p->ent + mine < n ? p->ent + mine : n;
	s->reserve = want / n < e ? want / n : e;
	s->hold = p->capped || !p->weight ? DTL_HV_HOLD_CAP : DTL_HV_HOLD_POOL;
	/* what they get of the idle is what we leave of it, at most what they want */
	ours_extra = want > p->ent ? want - p->ent : 0;
	if (ours_extra > mine)
		ours_extra = mine;
	left = idle - ours_extra;
	s->other_use = theirs_used + (theirs_claim < left ? theirs_claim : left);
	s->busy = (ours_used + ours_extra + s->other_use) / (p->pool > 0 ? p->pool : 1);
	if (s->busy > 1)
		s->busy = 1;
}

/*
 * idle among claims by weight, none given past its claim, what one leaves
 * shared again among the rest (PowerVM's uncapped weights): into got[].
 */
static double waterfill_n(double idle, const double *claim, const unsigned int *weight,
			  unsigned int n, double *got)
{
	bool open[DTL_HV_FRAME_MAX];
	unsigned int i, left = 0;

	for (i = 0; i < n; i++) {
		got[i] = 0;
		open[i] = claim[i] > 0 && weight[i] > 0;
		left += open[i];
	}
	while (left && idle > 1e-12) {
		double w = 0;
		bool full = false;

		for (i = 0; i < n; i++)
			w += open[i] ? weight[i] : 0;
		/* those whose fair share covers their claim take it, and the rest share again */
		for (i = 0; i < n; i++)
			if (open[i] && claim[i] - got[i] <= idle * weight[i] / w) {
				full = true;
				open[i] = false;
				left--;
			}
		for (i = 0; i < n && full; i++)
			if (!open[i] && claim[i] > got[i] && weight[i] > 0) {
				idle -= claim[i] - got[i];
				got[i] = claim[i];
			}
		if (full)
			continue;
		for (i = 0; i < n; i++)
			got[i] += open[i] ? idle * weight[i] / w : 0;
		idle = 0;
	}
	return idle > 0 ? idle : 0;
}

void dtl_hv__frame(const struct dtl_hv_lpar *l, unsigned int n, unsigned int self, double pool,
		   double *use, struct dtl_hv_share *s)
{
	double used[DTL_HV_FRAME_MAX] = { 0 }, claim[DTL_HV_FRAME_MAX] = { 0 };
	double extra[DTL_HV_FRAME_MAX], room[DTL_HV_FRAME_MAX] = { 0 }, burst[DTL_HV_FRAME_MAX];
	unsigned int weight[DTL_HV_FRAME_MAX] = { 0 }, i;
	double idle = pool, total = 0, vps, e, want, ceiling, mine;

	if (n > DTL_HV_FRAME_MAX)
		n = DTL_HV_FRAME_MAX;
	if (self >= n) {
		*s = (struct dtl_hv_share){ .hold = DTL_HV_HOLD_POOL };
		return;
	}
	for (i = 0; i < n; i++) {
		double w = l[i].want < l[i].vps ? l[i].want : l[i].vps;

		used[i] = w < l[i].ent ? w : l[i].ent;
		idle -= used[i];
		weight[i] = l[i].capped ? 0 : l[i].weight;
		claim[i] = w - used[i];
	}
	idle = waterfill_n(idle > 0 ? idle : 0, claim, weight, n, extra);
	/* what no one wants on average: each uncapped LPAR may burst into it */
	for (i = 0; i < n; i++)
		room[i] = l[i].vps - used[i] - extra[i];
	waterfill_n(idle, room, weight, n, burst);
	for (i = 0; i < n; i++) {
		if (use)
			use[i] = used[i] + extra[i];
		total += used[i] + extra[i];
	}
	vps = l[self].vps ? l[self].vps : 1;
	e = l[self].ent / vps;
	want = l[self].want < vps ? l[self].want : vps;
	ceiling = used[self] + extra[self] + burst[self];
	if (ceiling < l[self].ent)
		ceiling = l[self].ent;	/* the entitlement is its own, wanted or not */
	if (ceiling > vps)
		ceiling = vps;
	mine = ceiling - l[self].ent;
	/* as dtl_hv__share(): a VP may use what its siblings leave of the entitlement */
	s->budget = e + mine / vps + (want < l[self].ent ? (l[self].ent - want) * (vps - 1) / vps : 0);
	if (s->budget > 1)
		s->budget = 1;
	s->ceiling = ceiling;
	s->reserve = want / vps < e ? want / vps : e;
	s->hold = !weight[self] ? DTL_HV_HOLD_CAP : DTL_HV_HOLD_POOL;
	s->other_use = total - used[self] - extra[self];
	s->busy = pool > 0 ? total / pool : 1;
	if (s->busy > 1)
		s->busy = 1;
}

/*
 * A VP dispatched while processors are free waits microseconds; as the pool
 * fills it waits for one to come free, up to a good part of a millisecond
 * (its entitlement is still served within the wheel).
 */
double dtl_hv__latency_s(double busy)
{
	double b = busy < 0 ? 0 : busy > 1 ? 1 : busy;

	return 3e-6 + 600e-6 * pow(b, 6);
}

/*
 * With idle processors a VP at the end of its time slice is dispatched again
 * at once, so it is not preempted at all; only a nearly full pool takes the
 * processor for someone else.
 */
double dtl_hv__slice_preempt(double busy)
{
	return busy <= 0.9 ? 0 : busy >= 1 ? 0.5 : (busy - 0.9) * 5;
}
