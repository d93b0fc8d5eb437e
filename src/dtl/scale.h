/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scale.h - nanoseconds to timebase ticks, exactly, without a 128-bit
 * division: gcc turns (unsigned __int128)ns * freq / 1000000000 into a call
 * to __udivti3 (tens of cycles, a third of what placing a switch cost), while
 * whole seconds and the rest each divide by a constant, which is a multiply.
 */
#ifndef DTL_SCALE_H
#define DTL_SCALE_H

#include <stdint.h>

/* floor(ns * freq / 1e9), modulo 2^64 as the 128-bit form cast down is. */
static inline uint64_t dtl_scale__ns_tb(uint64_t ns, uint64_t freq)
{
	const uint64_t s = 1000000000u;

	/* the rest times freq stays below 2^64 up to freq 2^34 (17 GHz): every timebase */
	if (freq < (1ull << 34))
		return ns / s * freq + ns % s * freq / s;
	return (uint64_t)((unsigned __int128)ns * freq / s);
}

#endif
