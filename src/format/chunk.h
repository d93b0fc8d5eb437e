/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chunk.h - the framing of a dtltop recording, shared by its writer and its
 * reader (private to src/format/; dtltop-format(5) is its description).
 */
#ifndef DTL_FORMAT_CHUNK_H
#define DTL_FORMAT_CHUNK_H

#define FILE_MAGIC "DTLTOPRC"
#define CHUNK_MAGIC 0x434c5444u		/* "DTLC" little-endian */
#define CHUNK_META 1
#define CHUNK_DATA 2
#define CHUNK_MARK 3		/* 2.3: where a replay can start (mark.h) */
#define CODEC_ZSTD 1
#define FILE_HDR 16
#define CHUNK_HDR 24
#define REC_HDR 8
#define FLUSH_AT (4u << 20)

#include <stddef.h>
#include <stdint.h>

#include "le.h"

/* A record's 8-byte header at p (kind, 0, u16 CPU, u32 body length): its body's start. */
static inline uint8_t *rec_frame(uint8_t *p, int kind, unsigned int cpu, size_t body)
{
	p[0] = (uint8_t)kind;
	p[1] = 0;
	put16(p + 2, (uint16_t)cpu);
	put32(p + 4, (uint32_t)body);
	return p + REC_HDR;
}

#endif
