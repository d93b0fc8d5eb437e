/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hash.h - slots for pids and names a file or a guest chooses.
 *
 * A recording, a perf.data or a guest names the pids; with a fixed hash
 * they could all be chosen to share a slot (pids 8192 apart do under a
 * multiply and a modulo), and every lookup would walk them. A key drawn at
 * start and a full-avalanche finalizer make the cost of a lookup the same
 * whatever the pids are.
 */
#ifndef DTL_HASH_H
#define DTL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

/* A key per table; the clock and an address where the kernel has no entropy yet. */
static inline uint64_t dtl_hash__key(const void *salt)
{
	uint64_t k;

	if (getrandom(&k, sizeof(k), GRND_NONBLOCK) != sizeof(k))
		k = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uintptr_t)salt;
	return k;
}

/* 64 well-mixed bits of pid under key: take the top bits for a power-of-two table. */
static inline uint64_t dtl_hash__pid(uint64_t key, int32_t pid)
{
	uint64_t x = (uint64_t)(uint32_t)pid ^ key;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* The same of a name's first max bytes; each step is a bijection of the state. */
static inline uint64_t dtl_hash__name(uint64_t key, const char *s, size_t max)
{
	uint64_t h = key;
	size_t i = 0;

	while (i < max && s[i]) {
		uint64_t w = 0;

		for (int b = 0; b < 8 && i < max && s[i]; b++, i++)
			w |= (uint64_t)(unsigned char)s[i] << (8 * b);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h ^= i;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ h >> 29;
}

#endif
