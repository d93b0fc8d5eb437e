/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tbmap.h - a perf clock time on the DTL's timebase.
 *
 * With the PMU, the AUX header says where the perf clock (sched_clock)
 * started on the timebase. Without it (debugfs, the kernels fleets run),
 * dtltop asks perf to stamp the switch stream with CLOCK_MONOTONIC_RAW,
 * which on POWER is the timebase scaled by its nominal frequency: only the
 * offset is unknown. A sample brackets one clock read between two timebase
 * reads; the narrowest bracket of a batch anchors the map, and half its
 * width is how far off the map may be (the residual). New samples check it
 * each drain: a map that moved past its bound (a partition migration, a
 * clock that is not the timebase) is re-anchored and the check says so,
 * because switches placed by the old map may have charged the wrong task.
 * Pure: tests hand in the samples.
 */
#ifndef DTL_TBMAP_H
#define DTL_TBMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * How far a check may find the map moved, beyond both samples' brackets,
 * before the switches it placed are in doubt: a task runs for tens of
 * microseconds at the least between switches, so 20 us moves few preempts.
 */
#define DTL_TBMAP_BOUND_NS 20000ull

struct dtl_tb_sample {
	uint64_t tb_before;	/* the timebase, read before */
	uint64_t ns;		/* the clock perf stamps with */
	uint64_t tb_after;	/* and after */
};

struct dtl_tbmap {
	uint64_t freq;		/* timebase ticks a second; 0: no map yet */
	uint64_t ns0, tb0;	/* the anchor: ns0 on the clock is tb0 */
	uint64_t residual_ns;	/* half the anchor's bracket */
	int64_t off_ns;		/* what the last check found the map off by */
	uint64_t checks, drifts;
};

/* The PMU's map: the clock is sched_clock, 0 at boot_tb. */
void dtl_tbmap__fixed(struct dtl_tbmap *m, uint64_t freq, uint64_t boot_tb);
/* Anchor on the narrowest of n samples; -1 (m unchanged) when none is usable or freq is 0. */
int dtl_tbmap__calibrate(struct dtl_tbmap *m, uint64_t freq, const struct dtl_tb_sample *s,
			 size_t n);
bool dtl_tbmap__ok(const struct dtl_tbmap *m);
/* ns on the timebase (0 before the timebase's start); 0 without a map. */
uint64_t dtl_tbmap__tb(const struct dtl_tbmap *m, uint64_t ns);
/*
 * Check the map by n new samples and re-anchor on the narrowest: 1 it held
 * within bound_ns (beyond the brackets), 0 it had moved past (counted in
 * drifts), -1 no usable sample or no map (m unchanged).
 */
int dtl_tbmap__check(struct dtl_tbmap *m, const struct dtl_tb_sample *s, size_t n,
		     uint64_t bound_ns);

#endif
