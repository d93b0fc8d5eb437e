/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * png.h - an 8-bit indexed PNG, for the report's heatmap: a million cells
 * as SVG rectangles would be megabytes; as a PNG they are a few hundred KB.
 */
#ifndef DTL_REPORT_PNG_H
#define DTL_REPORT_PNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * w x h palette indices, row by row, with np (<= 256) RGB palette entries:
 * the PNG file's bytes in a malloc'd buffer of *len; NULL out of memory.
 */
uint8_t *dtl_png__indexed(const uint8_t *pix, unsigned int w, unsigned int h,
			  const uint8_t (*pal)[3], unsigned int np, size_t *len);

#endif
