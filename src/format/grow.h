/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * grow.h - room for one more element in a growing array: *p of *cap
 * elements of size bytes, n in use, doubled when full. 0, or -1 (out of
 * memory, *p left as it was).
 */
#ifndef DTL_GROW_H
#define DTL_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * n bytes of src after the *len of *p (*cap bytes, doubled from 64 KiB
 * until they fit): a chunk queued or kept. 0, or -1 (out of memory, *p
 * left as it was).
 */
static inline int dtl_grow__append(uint8_t **p, size_t *len, size_t *cap, const void *src,
				   size_t n)
{
	if (*len + n > *cap) {
		size_t c = *cap ? *cap : 1 << 16;
		uint8_t *q;

		while (c < *len + n)
			c *= 2;
		q = realloc(*p, c);
		if (!q)
			return -1;
		*p = q;
		*cap = c;
	}
	memcpy(*p + *len, src, n);
	*len += n;
	return 0;
}

#endif
