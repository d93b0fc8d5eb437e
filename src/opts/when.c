/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * when.c - a replay's jump target, as a person types it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

int dtl_opts__parse_when(const char *s, uint64_t start_ns, uint64_t *at_ns, uint64_t *interval,
			 char *err, size_t errlen)
{
	unsigned int h, m, sec = 0;
	char *end, tail;
	double v;

	*at_ns = 0;
	*interval = 0;
	if (s[0] == '#') {
		errno = 0;
		unsigned long long n = strtoull(s + 1, &end, 10);

		if (end != s + 1 && !*end && !errno && n >= 1 && s[1] != '-') {
			*interval = n;
			return 0;
		}
	} else if (strchr(s, ':')) {
		int k = sscanf(s, "%2u:%2u:%2u%c", &h, &m, &sec, &tail);

		if ((k == 2 || k == 3) && h < 24 && m < 60 && sec < 60 &&
		    strspn(s, "0123456789:") == strlen(s)) {
			uint64_t day = start_ns / 86400000000000ull * 86400000000000ull;

			*at_ns = day + ((uint64_t)h * 3600 + m * 60 + sec) * 1000000000ull;
			if (*at_ns < start_ns)
				*at_ns += 86400000000000ull;
			return 0;
		}
	} else {
		v = strtod(s[0] == '+' ? s + 1 : s, &end);
		if (end != s + (s[0] == '+') && !*end && v >= 0 && v < 1e9) {
			*at_ns = start_ns + (uint64_t)(v * 1e9);
			return 0;
		}
	}
	snprintf(err, errlen, "bad time '%s' (want HH:MM[:SS] UTC, +seconds or #interval)", s);
	return -1;
}
