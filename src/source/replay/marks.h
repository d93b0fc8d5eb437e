/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * marks.h - a replay's marks, shared by marks.c (kept as it reads, and the
 * seek from one) and filemarks.c (the recording's own, loaded), and by
 * nothing else.
 */
#ifndef DTL_SOURCE_REPLAY_MARKS_H
#define DTL_SOURCE_REPLAY_MARKS_H

#include "../../format/record.h"
#include "../../format/switches.h"
#include "internal.h"

#define MARKS_MAX 256
#define SPACING 32		/* intervals between marks, to begin with */

struct last {
	uint64_t tb;
	int32_t pid;
	bool have;
};

/* A switch that named its task, as it came. */
struct named {
	unsigned int cpu;
	int32_t pid;
	bool has_comm, has_cgroup;
	char comm[DTL_REC_COMM_MAX + 1];
	char cgroup[DTL_REC_CGROUP_MAX + 1];
};

struct mark {
	unsigned int seq;		/* the file of a set */
	uint64_t set_id;
	uint64_t off;			/* the chunk after the mark's tick */
	uint64_t consumed, ts_ns, tb;	/* the replay's clock there */
	unsigned int mask;
	struct dtl_cpuset cpus;
	size_t names;			/* of the log */
	unsigned int sym_pos;		/* symbol records passed */
	struct last *last;		/* by CPU */
};

/* A symbols record a file's marks told, for a seek past where the replay read. */
struct told_sym {
	size_t off, len;		/* in the text */
};

struct replay_marks {
	unsigned int nr_cpus;
	bool loaded;			/* the recording's own marks read (2.3) */
	uint8_t *symtext;
	size_t nsymtext, symcap;
	struct told_sym *syms;
	size_t nsyms, symsize;
	struct last *last;		/* now */
	struct named *log;
	size_t nlog, logcap, log_pos;	/* log_pos: named switches passed since the start */
	struct mark m[MARKS_MAX];
	size_t n;
	uint64_t spacing;
	bool broken;			/* a name not logged (no memory): no mark after it */
	/* after a seek: the restatement still to hand out, CPU by CPU */
	bool pending;
	unsigned int pend_cpu;
	struct dtl_switch *out;
	size_t outcap;
};


/* Past MARKS_MAX, every other mark goes and the spacing doubles. */
void replay__marks_thin(struct replay_marks *k);
/* A switch that named its task onto the log, past its end. */
void replay__marks_log(struct replay_marks *k, unsigned int cpu, const struct dtl_switch *sw);
/* filemarks.c: the recording's own marks, at the first seek, in place of the replay's. */
void replay__marks_load(struct dtl_source *src, struct replay_marks *k);
/* Symbol records the file's marks told up to m that the replay has not read: added now. */
void replay__marks_told_syms(struct replay *p, const struct replay_marks *k, const struct mark *m,
			     struct dtl_source *src);

#endif
