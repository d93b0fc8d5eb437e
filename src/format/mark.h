/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mark.h - a mark chunk (format 2.3): where a replay can start reading
 * without the chunks before it, and what it needs of them (dtltop-format(5)).
 * Pure: the writer packs, the reader unpacks, the recording fuzz target
 * reaches both.
 */
#ifndef DTL_FORMAT_MARK_H
#define DTL_FORMAT_MARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dtl/switch.h"
#include "../platform/cpuset.h"
#include "switches.h"

/* The body of a mark record (kind DTL_REC_MARK), less its online CPUs. */
#define DTL_REC_MARK_HEAD 56
#define DTL_REC_LAST_BODY 12

struct dtl_rec_mark {
	uint64_t set_ticks, file_ticks;	/* intervals written up to it: the set's, this file's */
	uint64_t ts_ns, tb;		/* where the last of them ended */
	uint32_t mask;
	uint32_t set_syms, file_syms;	/* symbol records written up to it */
	uint32_t set_names, file_names;	/* switches written that named their task */
	bool final;			/* the file's end: counted, not a place to start */
	struct dtl_cpuset online;
};

/* The mark record's body: its length, then packed into p (that many bytes). */
size_t dtl_rec_mark__size(const struct dtl_rec_mark *m);
void dtl_rec_mark__pack(uint8_t *p, const struct dtl_rec_mark *m);
/*
 * A body read back: 0, or -1 where it is cut, its CPUs run past nr_cpus,
 * or its counters go backwards (a file's past the set's, a mask of none).
 */
int dtl_rec_mark__unpack(const uint8_t *p, size_t len, unsigned int nr_cpus,
			 struct dtl_rec_mark *m);
/* Who ran on a CPU last (kind DTL_REC_LAST): its switch's instant and pid. */
void dtl_rec_mark__pack_last(uint8_t *p, uint64_t tb, int32_t pid);
int dtl_rec_mark__unpack_last(const uint8_t *p, size_t len, uint64_t *tb, int32_t *pid);

/*
 * What a mark chunk's records tell besides the mark: handed to the caller as
 * read (its scratch: sw and text, room for swcap switches' names).
 */
struct dtl_rec_mark_told {
	void *ctx;
	int (*last)(void *ctx, unsigned int cpu, uint64_t tb, int32_t pid);
	int (*name)(void *ctx, unsigned int cpu, const struct dtl_switch *sw);
	int (*sym)(void *ctx, const uint8_t *text, size_t len);
	struct dtl_switch *sw;
	size_t swcap;
	char *text;
	size_t textcap;
};
#define DTL_REC_MARK_TEXT(swcap) ((swcap) * (DTL_REC_COMM_MAX + DTL_REC_CGROUP_MAX + 2))

/*
 * A mark chunk's records (its stream 0) read: the mark into *h, then each
 * CPU's last switch, each name told and each symbols record to t's
 * callbacks, in order. 0, or -1 where a record is cut or malformed, the
 * mark is not first, a told switch names nothing, more come than swcap, or a
 * callback says -1. Records of kinds it does not know are passed over.
 */
int dtl_rec_mark__read(const uint8_t *recs, size_t len, unsigned int nr_cpus,
		       struct dtl_rec_mark *h, const struct dtl_rec_mark_told *t);

#endif
