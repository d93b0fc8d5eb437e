/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tbclock.h - samples of the timebase beside CLOCK_MONOTONIC_RAW, the clock
 * dtltop has perf stamp a switch stream with where no AUX header maps it.
 */
#ifndef DTL_TBCLOCK_H
#define DTL_TBCLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../dtl/tbmap.h"

/* The perf clock (perf_event_attr.clockid) the samples pair with the timebase. */
#define DTL_TBCLOCK_ID CLOCK_MONOTONIC_RAW

/*
 * n samples, back to back. POWER reads its timebase register; elsewhere
 * (a fake root on x86) CLOCK_MONOTONIC_RAW at freq stands in, which is what
 * a test writing the fake root's entries stamps them with. False when the
 * clock cannot be read.
 */
bool dtl_tbclock__sample(uint64_t freq, struct dtl_tb_sample *s, size_t n);
/* Whether the timebase here is the register (POWER) or the stand-in. */
bool dtl_tbclock__is_register(void);

#endif
