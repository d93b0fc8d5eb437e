/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aux.h - the vpa_dtl AUX stream and the perf main ring, parsed from ring
 * images: pure functions, no I/O, so tests build the images the kernel would.
 *
 * Two layouts exist. A fixed driver (kernel/vpa-dtl.c, and any kernel with
 * the fixes series) writes a true ring: 48-byte records back to back,
 * straddling the end of the buffer. Upstream 6.18 writes records only at
 * ring offsets k * 48 below threshold * 48, threshold = (size - 32) / 48,
 * and reports the bytes above as data at each wrap: those are junk, skipped
 * by position.
 *
 * No sysfs file says which one wrote a ring, so the head tells: the two
 * agree up to threshold * 48; past it a fixed driver's head is a multiple of
 * 48 (whole records since the start), upstream's the ring's end, or a lap on
 * (L * size + k * 48), which is not: a size of pages is a power of two, never
 * a multiple of 3. Learnt while the consumer is in its first lap; one that
 * joins later stays unknown (read as a ring) until upstream's head shows.
 */
#ifndef DTL_AUX_H
#define DTL_AUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dtl_aux_layout {
	DTL_AUX_UNKNOWN,	/* not yet told: the ring has not passed threshold * 48 */
	DTL_AUX_RING,		/* a fixed driver's */
	DTL_AUX_UPSTREAM,	/* the 6.18 driver's */
};

struct dtl_aux {
	uint64_t size;		/* AUX buffer bytes */
	enum dtl_aux_layout layout;
	uint64_t pos;		/* next byte to parse, absolute (== aux_tail) */
	bool header_seen;
	uint64_t boot_tb, tb_freq;
	uint64_t junk_bytes;	/* skipped: upstream's wrap fragments, misalignment */
};

/* layout DTL_AUX_UNKNOWN: learnt from the head (above) */
void dtl_aux__init(struct dtl_aux *a, uint64_t size, enum dtl_aux_layout layout);
/* "ring", "6.18" or "not yet known" */
const char *dtl_aux__layout_name(enum dtl_aux_layout layout);
/*
 * The next run of at most max whole entries in [a->pos, head), in place:
 * *run points into the ring, or at bounce for a record that straddles the
 * end. Advances a->pos past the run, so the caller must be done with it
 * before it tells the kernel a->pos is free (aux_tail). The stream's first
 * record, when it is the header (timebase 0), is taken aside; a later
 * timebase 0 is passed on for the stats to count bad. 0 when none is left.
 */
size_t dtl_aux__next(struct dtl_aux *a, const uint8_t *base, uint64_t head, size_t max,
		     uint8_t bounce[48], const uint8_t **run);
/*
 * Parse whole records in [a->pos, head) of the ring at base into out (at
 * most max entries, each 48 bytes, big-endian as written); advances a->pos
 * past what it used. Returns the number of entries. A head behind pos, or
 * more than a ring ahead of it, is garbage: everything up to head is
 * skipped as junk.
 */
size_t dtl_aux__consume(struct dtl_aux *a, const uint8_t *base, uint64_t head,
			uint8_t *out, size_t max);

/* What the perf main ring said since the last call. */
struct dtl_ring_news {
	uint64_t records;			/* of any type */
	uint64_t aux_records;
	uint64_t truncated, partial, collision;	/* PERF_RECORD_AUX flags */
	uint64_t lost;				/* PERF_RECORD_LOST */
	uint64_t bad;				/* records with impossible sizes */
};

/*
 * Walk the records of a perf data ring (data area base, size a power of
 * two) in [tail, head); returns the new tail (head, or where a bad record
 * stopped the walk, resynchronising at head).
 */
uint64_t dtl_ring__parse(const uint8_t *base, uint64_t size, uint64_t tail, uint64_t head,
			 struct dtl_ring_news *news);
/* len bytes at absolute position pos of a ring of size bytes, across its end. */
void dtl_ring__copy(const uint8_t *base, uint64_t size, uint64_t pos, void *dst, size_t len);

#endif
