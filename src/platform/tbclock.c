// SPDX-License-Identifier: GPL-2.0-only
/*
 * tbclock.c - the timebase and the raw clock, read side by side.
 */
#include "tbclock.h"

#include <time.h>

static bool raw_ns(uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(DTL_TBCLOCK_ID, &ts))
		return false;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return true;
}

bool dtl_tbclock__is_register(void)
{
#if defined(__powerpc64__)
	return true;
#else
	return false;
#endif
}

bool dtl_tbclock__sample(uint64_t freq, struct dtl_tb_sample *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
#if defined(__powerpc64__)
		(void)freq;
		s[i].tb_before = __builtin_ppc_get_timebase();
		if (!raw_ns(&s[i].ns))
			return false;
		s[i].tb_after = __builtin_ppc_get_timebase();
#else
		if (!raw_ns(&s[i].ns))
			return false;
		s[i].tb_before = s[i].tb_after =
			(uint64_t)((unsigned __int128)s[i].ns * freq / 1000000000u);
#endif
	}
	return true;
}
