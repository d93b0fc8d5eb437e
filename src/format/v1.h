/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * v1.h - recording format 1.x's entries (record kind 1): 48-byte byte
 * planes; man/dtltop-format.5 specifies the bytes. Pure. Read only since
 * format 2: every 1.x recording still replays.
 */
#ifndef DTL_FORMAT_V1_H
#define DTL_FORMAT_V1_H

#include <stddef.h>
#include <stdint.h>

/* n raw entries at src into n * 48 bytes of planes at dst. */
void dtl_rec_v1__pack(uint8_t *dst, const uint8_t *src, size_t n);
/* n * 48 bytes of planes at src back into n raw entries at dst. */
void dtl_rec_v1__unpack(uint8_t *dst, const uint8_t *src, size_t n);

#endif
