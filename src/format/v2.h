/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * v2.h - recording format 2's data chunks: the records as in 1.x, but each
 * entries record holds only a count, its entries' fields going to ten
 * columns that span the chunk, each compressed on its own where that pays;
 * man/dtltop-format.5 specifies the bytes. Pure but for zstd: the writer
 * fills a struct dtl_rec_v2_cols, the reader decodes from a struct
 * dtl_rec_v2_in.
 */
#ifndef DTL_FORMAT_V2_H
#define DTL_FORMAT_V2_H

#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#define DTL_V2_STREAMS 11	/* the records, then ten columns */
#define DTL_V2_PAD 32		/* zero bytes after each decoded stream: whole-word reads */
#define DTL_V2_BATCH 65536	/* entries a reader hands out at once, whatever a record says */
#define DTL_V2_CODEC 2		/* a chunk header's codec for such chunks */

/* The writer's columns of a chunk (stream 0, the records, is the caller's). */
struct dtl_rec_v2_cols {
	uint8_t *p[DTL_V2_STREAMS];
	size_t len[DTL_V2_STREAMS], cap[DTL_V2_STREAMS];
	uint64_t prev[DTL_V2_STREAMS];	/* each column's last value: differences span the chunk */
};

/* Appends n raw entries to the columns; -1 out of memory (nothing appended). */
int dtl_rec_v2__add(struct dtl_rec_v2_cols *c, const uint8_t *src, size_t n);
size_t dtl_rec_v2__bytes(const struct dtl_rec_v2_cols *c);
void dtl_rec_v2__clear(struct dtl_rec_v2_cols *c);
void dtl_rec_v2__free(struct dtl_rec_v2_cols *c);
/*
 * A chunk's payload from the records (rec, len) and the columns: into *out
 * (grown as needed, *cap), its length in *outlen, its raw length in *rawlen.
 * -1 out of memory or zstd failing.
 */
int dtl_rec_v2__seal(ZSTD_CCtx *cctx, const uint8_t *rec, size_t len,
		     const struct dtl_rec_v2_cols *c, uint8_t **out, size_t *cap,
		     size_t *outlen, size_t *rawlen);

/* A chunk being read: its streams decoded, each followed by DTL_V2_PAD zero bytes. */
struct dtl_rec_v2_in {
	uint8_t *buf;
	size_t cap;
	const uint8_t *p[DTL_V2_STREAMS], *end[DTL_V2_STREAMS];
	uint64_t prev[DTL_V2_STREAMS];
	int k[DTL_V2_STREAMS];		/* a Rice column's parameter, -1 for varints */
	uint64_t bit[DTL_V2_STREAMS];	/* a Rice column's next bit */
};

/*
 * Decodes a payload of len bytes whose streams are said to total at most
 * maxraw bytes; -1 with why in err. The records are then p[0] to end[0].
 */
int dtl_rec_v2__open(struct dtl_rec_v2_in *in, ZSTD_DCtx *dctx, const uint8_t *z, size_t len,
		     size_t maxraw, char *err, size_t errlen);
/*
 * For a reader that passes over the entries: the column header (DTL_V2_HEAD
 * bytes, of a payload of len bytes) checked as dtl_rec_v2__open checks it,
 * and *stored, the bytes of stream 0 that follow it; then those bytes, z0,
 * decoded alone: the records, with every column empty. -1 with why in err.
 */
#define DTL_V2_HEAD (1 + DTL_V2_STREAMS * 9)
int dtl_rec_v2__head(const uint8_t *head, size_t len, size_t maxraw, size_t *stored, char *err,
		     size_t errlen);
int dtl_rec_v2__open_records(struct dtl_rec_v2_in *in, ZSTD_DCtx *dctx, const uint8_t *head,
			     const uint8_t *z0, char *err, size_t errlen);
/*
 * How many more entries the columns hold at most (by the reason columns):
 * no count past it is believed.
 */
size_t dtl_rec_v2__left(const struct dtl_rec_v2_in *in);
/* The next n entries of the columns as raw entries at dst (n * 48 bytes); -1 if malformed. */
int dtl_rec_v2__take(struct dtl_rec_v2_in *in, uint8_t *dst, size_t n);
void dtl_rec_v2__close(struct dtl_rec_v2_in *in);

#endif
