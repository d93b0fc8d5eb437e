/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * when.c - a time in a recording, as a person types it: a replay's jump
 * target (b) and its window (--begin, --end).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opts.h"

#define DAY_NS 86400000000000ull

/* "N", "N.N" with an optional unit s, m, h or d: seconds into *s; false if not one. */
static bool span(const char *p, double *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(p, &end);
	if (end == p || errno || !(v >= 0 && v < 1e9) || (*p < '0' || *p > '9'))
		return false;
	switch (*end) {
	case '\0': case 's': break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	default: return false;
	}
	if (*end && end[1])
		return false;
	*s = v;
	return true;
}

/* "YYYY-MM-DD" and an optional "[T ]HH:MM[:SS][Z]", in UTC; false if not one. */
static bool date(const char *s, uint64_t *ns)
{
	unsigned int y, mo, d, h = 0, mi = 0, sec = 0;
	int n = 0, k;
	struct tm tm = { 0 };
	time_t t;

	if (sscanf(s, "%4u-%2u-%2u%n", &y, &mo, &d, &n) != 3 || n != 10)
		return false;
	s += n;
	if (*s == 'T' || *s == ' ') {
		n = 0;
		k = sscanf(s + 1, "%2u:%2u%n:%2u%n", &h, &mi, &n, &sec, &n);
		if (k < 2 || !n)
			return false;
		s += 1 + n;
	}
	if (*s == 'Z')
		s++;
	if (*s || y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || sec > 59)
		return false;
	tm.tm_year = (int)y - 1900;
	tm.tm_mon = (int)mo - 1;
	tm.tm_mday = (int)d;
	tm.tm_hour = (int)h;
	tm.tm_min = (int)mi;
	tm.tm_sec = (int)sec;
	t = timegm(&tm);
	if (t < 0 || tm.tm_mday != (int)d)	/* 2025-02-30 came back as March */
		return false;
	*ns = (uint64_t)t * 1000000000ull;
	return true;
}

int dtl_opts__parse_time(const char *s, uint64_t start_ns, uint64_t end_ns, uint64_t *at_ns,
			 uint64_t *interval, char *err, size_t errlen)
{
	unsigned int h, m, sec = 0;
	char tail;
	double v;

	*at_ns = 0;
	*interval = 0;
	if (s[0] == '#') {
		char *end;

		errno = 0;
		unsigned long long n = strtoull(s + 1, &end, 10);

		if (end != s + 1 && !*end && !errno && n >= 1 && s[1] != '-') {
			*interval = n;
			return 0;
		}
	} else if (date(s, at_ns)) {
		return 0;
	} else if (strchr(s, ':')) {
		int k = sscanf(s, "%2u:%2u:%2u%c", &h, &m, &sec, &tail);

		if ((k == 2 || k == 3) && h < 24 && m < 60 && sec < 60 &&
		    strspn(s, "0123456789:") == strlen(s)) {
			uint64_t day = start_ns / DAY_NS * DAY_NS;

			*at_ns = day + ((uint64_t)h * 3600 + m * 60 + sec) * 1000000000ull;
			if (*at_ns < start_ns)
				*at_ns += DAY_NS;
			return 0;
		}
	} else if (s[0] == '-' && span(s + 1, &v)) {
		if (!end_ns) {
			snprintf(err, errlen, "'%s' counts back from the recording's end, which is not "
				 "known here", s);
			return -1;
		}
		*at_ns = end_ns > (uint64_t)(v * 1e9) ? end_ns - (uint64_t)(v * 1e9) : 0;
		return 0;
	} else if (span(s[0] == '+' ? s + 1 : s, &v)) {
		*at_ns = start_ns + (uint64_t)(v * 1e9);
		return 0;
	}
	snprintf(err, errlen, "bad time '%.80s' (want HH:MM[:SS] UTC, YYYY-MM-DD[THH:MM[:SS]], "
		 "+N or -N with s, m, h or d, or #interval)", s);
	return -1;
}

int dtl_opts__parse_when(const char *s, uint64_t start_ns, uint64_t *at_ns, uint64_t *interval,
			 char *err, size_t errlen)
{
	return dtl_opts__parse_time(s, start_ns, 0, at_ns, interval, err, errlen);
}
