/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * grow.h - room for one more element in a growing array: *p of *cap
 * elements of size bytes, n in use, doubled when full. 0, or -1 (out of
 * memory, *p left as it was).
 */
#ifndef DTL_GROW_H
#define DTL_GROW_H

#include <stdlib.h>

static inline int dtl_grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap * 2 : 64;
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

#endif
