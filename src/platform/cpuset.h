/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuset.h - CPU lists in the kernel's "0-7,16" syntax, as a fixed bitmap.
 */
#ifndef DTL_CPUSET_H
#define DTL_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DTL_MAX_CPUS 8192

struct dtl_cpuset {
	uint64_t bits[DTL_MAX_CPUS / 64];
};

/* Returns 0, or -1 with a message naming the bad part in err. */
int dtl_cpuset__parse(struct dtl_cpuset *set, const char *s, char *err, size_t errlen);
void dtl_cpuset__clear(struct dtl_cpuset *set);
void dtl_cpuset__fill(struct dtl_cpuset *set, unsigned int nr);
void dtl_cpuset__and(struct dtl_cpuset *set, const struct dtl_cpuset *other);
unsigned int dtl_cpuset__count(const struct dtl_cpuset *set);
/*
 * The set in the kernel's syntax ("0-7,16"); returns the length it needs,
 * like snprintf. DTL_CPUSET_TEXT holds any set.
 */
#define DTL_CPUSET_TEXT (DTL_MAX_CPUS * 5 + 1)
size_t dtl_cpuset__format(const struct dtl_cpuset *set, char *buf, size_t len);
/* One past the highest CPU in the set, 0 if empty. */
unsigned int dtl_cpuset__end(const struct dtl_cpuset *set);

static inline bool dtl_cpuset__has(const struct dtl_cpuset *set, unsigned int cpu)
{
	return cpu < DTL_MAX_CPUS && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

static inline void dtl_cpuset__set(struct dtl_cpuset *set, unsigned int cpu)
{
	if (cpu < DTL_MAX_CPUS)
		set->bits[cpu / 64] |= 1ull << (cpu % 64);
}

static inline void dtl_cpuset__unset(struct dtl_cpuset *set, unsigned int cpu)
{
	if (cpu < DTL_MAX_CPUS)
		set->bits[cpu / 64] &= ~(1ull << (cpu % 64));
}

/* The first CPU of the set at or after cpu, DTL_MAX_CPUS if none: a word at a time. */
static inline unsigned int dtl_cpuset__next(const struct dtl_cpuset *set, unsigned int cpu)
{
	while (cpu < DTL_MAX_CPUS) {
		uint64_t w = set->bits[cpu / 64] >> (cpu % 64);

		if (w)
			return cpu + (unsigned int)__builtin_ctzll(w);
		cpu = (cpu | 63) + 1;
	}
	return DTL_MAX_CPUS;
}

/* Over the CPUs of the set in order; an empty word of 64 costs one test, not 64. */
#define dtl_cpuset__for_each(cpu, set) \
	for ((cpu) = dtl_cpuset__next((set), 0); (cpu) < DTL_MAX_CPUS; \
	     (cpu) = dtl_cpuset__next((set), (cpu) + 1))

#endif
