/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - a replay's state, shared by the files of src/source/replay/
 * (the source is replay.c; the rest are its parts, one job each).
 */
#ifndef DTL_SOURCE_REPLAY_INTERNAL_H
#define DTL_SOURCE_REPLAY_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../format/record.h"
#include "../backend.h"

struct replay {
	FILE *f;
	char name[4096];
	struct dtl_cpuset filter;	/* -C */
	bool have_filter;
	struct dtl_rec_reader *r;
	struct dtl_rec_meta meta;
	uint64_t released, consumed;	/* ticks */
	uint64_t ts_ns;
	uint64_t tb;			/* the recorded source's timebase, 0 unknown */
	double interval_s;
	bool eof;
	bool eof_in_interval;		/* the file ended before this interval's end */
	bool pipe;			/* read once, no going back */
	bool attached;			/* a --serve socket (--attach) */
	bool follow;			/* --follow: the file is still being written */
	unsigned int follow_waits;	/* for a rotated set's next file, after an end marker */
	unsigned int group;		/* recorded intervals per shown one (-d) */
	bool converted;			/* from a perf.data */
	char import_warning[2048];	/* a damaged perf.data's */
	char cut_warning[4200];
	char marks_warning[4200];	/* its own marks (2.3) did not add up: not used */
	char lparcfg[DTL_REC_LPARCFG_MAX + 1];	/* the latest recorded (1.2) */
	/* a rotated set (recset.h): base.first, ..., base.seq being read */
	bool set;
	char base[4096];
	unsigned int first, seq;
	uint64_t set_id;		/* the file being read's set identity, 0 none */
	/*
	 * Kernel symbols: --kallsyms FILE's, or the recording's (2.2), which
	 * grow as its records come; a rewind reads again the records it has
	 * kept (skip), so none is kept twice.
	 */
	char *syms;
	size_t nsyms, symcap;
	bool own_syms;
	bool skim;			/* entries passed over: each reader opened is told */
	unsigned int sym_records, sym_skip;
	unsigned int sym_pos;		/* symbol records passed since the start */
	struct replay_marks *marks;	/* marks.c */
};

/* syms.c: kernel symbols, --kallsyms FILE's or the recording's */
bool replay__syms_add(struct replay *p, const uint8_t *text, size_t len);
int replay__own_syms(struct replay *p, const char *path, char *err, size_t errlen);

/* input.c: p->f reading a dtltop recording from its start, whatever -r named */
int replay__open_input(struct replay *p, const struct dtl_source_opts *o, char *err,
		       size_t errlen);

/* set.c: a rotated set's next file, and its last file's end */
bool replay__next_file(struct dtl_source *src);
bool replay__end_clock(const struct dtl_source *src, uint64_t *ns);

/* marks.c: where a seek can start from, kept as the replay reads */
void replay__marks_switches(struct dtl_source *src, unsigned int cpu, const struct dtl_switch *sw,
			    size_t n);
void replay__marks_tick(struct dtl_source *src);
int replay__marks_seek(struct dtl_source *src, uint64_t iv_max, uint64_t ns_max,
		       uint64_t *iv_at, char *err, size_t errlen);
int replay__marks_read(struct dtl_source *src, struct dtl_chunk *c);
void replay__marks_rewind(struct replay *p);
void replay__marks_free(struct replay *p);

/* follow.c: --follow, a file read as it is written */
struct dtl_rec_reader *replay__open_reader(struct replay *p, const struct dtl_source_opts *o,
					   char *err, size_t errlen);
int replay__follow_check(struct replay *p, const struct dtl_source_opts *o, char *err,
			 size_t errlen);
bool replay__follow_next_file(struct replay *p);
void replay__follow_within(struct replay *p);

#endif
