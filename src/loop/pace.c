/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pace.c - when the next interval ends: on the wall clock, on a simulated
 * clock (no sleeping), or at a replay's recorded pace times --speed.
 */
#include "internal.h"

void loop_pace_begin(struct dtl_loop *l, struct dtl_pace *p)
{
	bool person = loop_interactive(l);
	double speed = l->o.src.have_speed ? l->o.src.speed : person ? 1.0 : 0;
	uint64_t clk_ns;

	/* A script reading a source with its own clock wants it as fast as it comes. */
	p->virt = !person && dtl_source__clock(l->src, &clk_ns);
	p->start = loop_now(l, CLOCK_MONOTONIC);
	if (!dtl_source__recorded(l->src))
		return;
	/* max (batch's default) never sleeps */
	p->virt = speed == 0 && !person;
	/* The recorded interval, times -d's grouping: the pace of what is shown. */
	l->o.interval_s = dtl_source__recorded_interval(l->src) / (speed > 0 ? speed : 1e6);
}

void loop_pace_next(struct dtl_loop *l, struct dtl_pace *p, uint64_t interval_ns,
		    uint64_t deadline)
{
	uint64_t now;

	if (p->virt) {
		p->start += interval_ns;
		return;
	}
	p->start = deadline;
	now = loop_now(l, CLOCK_MONOTONIC);
	if (now > p->start + interval_ns)
		p->start = now;		/* fell behind: don't burst */
}
