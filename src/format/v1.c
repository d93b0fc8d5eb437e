/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * v1.c - format 1.x's entries: 48 byte planes (byte k of every entry, then
 * byte k + 1 ...), each timebase as the difference to the entry before:
 * neighbouring bytes then look alike, which is what zstd needs (about half
 * the size of the entries as they are).
 */
#include "v1.h"

#include <string.h>

#include "../dtl/dtl.h"

void dtl_rec_v1__pack(uint8_t *dst, const uint8_t *src, size_t n)
{
	uint64_t prev = 0;

	for (size_t i = 0; i < n; i++) {
		uint8_t e[DTL_ENTRY_SIZE];
		uint64_t tb = dtl__be64(src + i * DTL_ENTRY_SIZE + 16), d = tb - prev;

		memcpy(e, src + i * DTL_ENTRY_SIZE, DTL_ENTRY_SIZE);
		for (int b = 0; b < 8; b++)
			e[16 + b] = (uint8_t)(d >> (56 - 8 * b));
		prev = tb;
		for (int k = 0; k < DTL_ENTRY_SIZE; k++)
			dst[(size_t)k * n + i] = e[k];
	}
}

void dtl_rec_v1__unpack(uint8_t *dst, const uint8_t *src, size_t n)
{
	uint64_t prev = 0;

	for (size_t i = 0; i < n; i++) {
		uint8_t *e = dst + i * DTL_ENTRY_SIZE;
		uint64_t tb;

		for (int k = 0; k < DTL_ENTRY_SIZE; k++)
			e[k] = src[(size_t)k * n + i];
		tb = prev + dtl__be64(e + 16);
		for (int b = 0; b < 8; b++)
			e[16 + b] = (uint8_t)(tb >> (56 - 8 * b));
		prev = tb;
	}
}
