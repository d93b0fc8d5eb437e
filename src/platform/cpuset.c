/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuset.c - parse "0-7,16" lists (sysfs "online", and the -C option).
 */
#include "cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dtl_cpuset__clear(struct dtl_cpuset *set)
{
	memset(set, 0, sizeof(*set));
}

void dtl_cpuset__fill(struct dtl_cpuset *set, unsigned int nr)
{
	dtl_cpuset__clear(set);
	for (unsigned int i = 0; i < nr && i < DTL_MAX_CPUS; i++)
		dtl_cpuset__set(set, i);
}

void dtl_cpuset__and(struct dtl_cpuset *set, const struct dtl_cpuset *other)
{
	for (size_t i = 0; i < DTL_MAX_CPUS / 64; i++)
		set->bits[i] &= other->bits[i];
}

unsigned int dtl_cpuset__count(const struct dtl_cpuset *set)
{
	unsigned int n = 0;

	for (size_t i = 0; i < DTL_MAX_CPUS / 64; i++)
		n += (unsigned int)__builtin_popcountll(set->bits[i]);
	return n;
}

unsigned int dtl_cpuset__end(const struct dtl_cpuset *set)
{
	for (size_t i = DTL_MAX_CPUS / 64; i-- > 0;)
		if (set->bits[i])
			return (unsigned int)(i * 64 + 64 - (size_t)__builtin_clzll(set->bits[i]));
	return 0;
}

size_t dtl_cpuset__format(const struct dtl_cpuset *set, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int cpu = 0;

	if (len)
		buf[0] = '\0';
	while (cpu < DTL_MAX_CPUS) {
		unsigned int first;
		size_t room;
		char *at;
		int n;

		if (!dtl_cpuset__has(set, cpu)) {
			/* whole empty words at once: a set is mostly empty */
			cpu = set->bits[cpu / 64] >> (cpu % 64) ? cpu + 1 : (cpu / 64 + 1) * 64;
			continue;
		}
		first = cpu;
		while (cpu + 1 < DTL_MAX_CPUS && dtl_cpuset__has(set, cpu + 1))
			cpu++;
		/* past the end of buf only the length is counted, as snprintf does */
		at = off < len ? buf + off : NULL;
		room = off < len ? len - off : 0;
		n = first == cpu ? snprintf(at, room, "%s%u", off ? "," : "", first) :
				   snprintf(at, room, "%s%u-%u", off ? "," : "", first, cpu);
		off += (size_t)n;
		cpu++;
	}
	return off;
}

static int parse_num(const char **p, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno || *v >= DTL_MAX_CPUS)
		return -1;
	*p = end;
	return 0;
}

int dtl_cpuset__parse(struct dtl_cpuset *set, const char *s, char *err, size_t errlen)
{
	const char *p = s;

	dtl_cpuset__clear(set);
	while (*p && *p != '\n') {
		const char *item = p;
		unsigned long a, b;

		if (parse_num(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &b) || b < a)
				goto bad;
		}
		if (*p && *p != ',' && *p != '\n')
			goto bad;
		for (unsigned long c = a; c <= b; c++)
			dtl_cpuset__set(set, (unsigned int)c);
		if (*p == ',') {
			p++;
			if (!*p || *p == '\n')
				goto bad;
		}
		continue;
bad:
		snprintf(err, errlen, "bad CPU list '%.*s' at '%.*s' (want e.g. 0-7,16; CPUs below %d)",
			 (int)strcspn(s, "\n"), s, (int)strcspn(item, ",\n"), item, DTL_MAX_CPUS);
		return -1;
	}
	if (p == s) {
		snprintf(err, errlen, "empty CPU list");
		return -1;
	}
	return 0;
}
