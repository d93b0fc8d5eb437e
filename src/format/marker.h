/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * marker.h - a raw recording's writer keeps what a mark holds (mark.h) as
 * the records go by, and every DTL_REC_MARK_EVERY intervals (and at the
 * file's end) makes a mark chunk's records of it. Pure: no I/O.
 */
#ifndef DTL_FORMAT_MARKER_H
#define DTL_FORMAT_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dtl/switch.h"
#include "../platform/cpuset.h"

#define DTL_REC_MARK_EVERY 32		/* intervals between marks */
#define DTL_REC_MARK_DELTA (16u << 20)	/* names and symbols between marks, at most */

struct dtl_rec_marker;

/* For a file of nr_cpus CPUs, online and mask as its header says; NULL out of memory. */
struct dtl_rec_marker *dtl_rec_marker__new(unsigned int nr_cpus, const struct dtl_cpuset *online,
					   unsigned int mask);
void dtl_rec_marker__delete(struct dtl_rec_marker *k);
/* A set's next file begins, online and mask as its header says: the set's counters go on. */
void dtl_rec_marker__file(struct dtl_rec_marker *k, const struct dtl_cpuset *online,
			  unsigned int mask);
void dtl_rec_marker__switches(struct dtl_rec_marker *k, unsigned int cpu,
			      const struct dtl_switch *sw, size_t n);
/* One symbols record, as written. */
void dtl_rec_marker__symbols(struct dtl_rec_marker *k, const uint8_t *text, size_t len);
void dtl_rec_marker__mask(struct dtl_rec_marker *k, unsigned int mask);
void dtl_rec_marker__cpu(struct dtl_rec_marker *k, unsigned int cpu, bool online);
/* An interval ended there: true when a mark is due after its chunk. */
bool dtl_rec_marker__tick(struct dtl_rec_marker *k, uint64_t ts_ns, uint64_t tb);
/*
 * The mark's records (the mark, who runs on each CPU, the names and the
 * symbols since the mark before) into *buf (grown, *cap), its length in
 * *len; the deltas start again. -1 when none can be made: out of memory,
 * or the names between marks passed DTL_REC_MARK_DELTA (no mark after it).
 */
int dtl_rec_marker__build(struct dtl_rec_marker *k, bool final, uint8_t **buf, size_t *cap,
			  size_t *len);

#endif
