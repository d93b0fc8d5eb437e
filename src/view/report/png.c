/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * png.c - PNG by the book (RFC 2083): signature, IHDR, PLTE, one IDAT of
 * zlib-compressed rows, each with filter 0, and IEND; zlib gives both the
 * deflate stream and the chunks' CRC-32.
 */
#include "png.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return p + 4;
}

/* length, type, data, CRC over type and data */
static uint8_t *chunk(uint8_t *p, const char *type, const uint8_t *data, uint32_t n)
{
	uint8_t *t = p + 4;

	p = put32(p, n);
	memcpy(p, type, 4);
	if (n)
		memcpy(p + 4, data, n);
	p += 4 + n;
	return put32(p, (uint32_t)crc32(crc32(0, NULL, 0), t, 4 + n));
}

uint8_t *dtl_png__indexed(const uint8_t *pix, unsigned int w, unsigned int h,
			  const uint8_t (*pal)[3], unsigned int np, size_t *len)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t raw_n = (size_t)(w + 1) * h;
	uLongf z_n = compressBound((uLong)raw_n);
	uint8_t *raw = malloc(raw_n ? raw_n : 1), *z = malloc(z_n), *out = NULL, *p;
	uint8_t ihdr[13], plte[256 * 3];

	if (!raw || !z || !w || !h || !np || np > 256)
		goto done;
	for (unsigned int y = 0; y < h; y++) {
		raw[(size_t)y * (w + 1)] = 0;	/* filter: none */
		memcpy(raw + (size_t)y * (w + 1) + 1, pix + (size_t)y * w, w);
	}
	if (compress2(z, &z_n, raw, (uLong)raw_n, 9) != Z_OK)
		goto done;
	put32(ihdr, w);
	put32(ihdr + 4, h);
	memcpy(ihdr + 8, (const uint8_t[]){ 8, 3, 0, 0, 0 }, 5);	/* 8-bit, indexed */
	for (unsigned int i = 0; i < np; i++)
		memcpy(plte + 3 * i, pal[i], 3);
	out = malloc(8 + 12 * 4 + 13 + 3 * np + z_n);
	if (!out)
		goto done;
	memcpy(out, sig, 8);
	p = chunk(out + 8, "IHDR", ihdr, 13);
	p = chunk(p, "PLTE", plte, 3 * np);
	p = chunk(p, "IDAT", z, (uint32_t)z_n);
	p = chunk(p, "IEND", NULL, 0);
	*len = (size_t)(p - out);
done:
	free(raw);
	free(z);
	return out;
}
