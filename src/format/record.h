/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - dtltop recordings (-w FILE, -r FILE); the format is specified
 * in man/dtltop-format.5.
 *
 * A file is a 16-byte file header, then chunks, each independently
 * decodable: a 24-byte chunk header (magic, type, length, raw length,
 * CRC-32 of the stored bytes) and a zstd-compressed payload. A file cut off
 * anywhere replays up to its last whole chunk.
 */
#ifndef DTL_RECORD_H
#define DTL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../dtl/counts.h"
#include "../dtl/switch.h"
#include "../platform/cpuset.h"
#include "../platform/topo.h"

#define DTL_REC_MAJOR 2		/* written; every major from 1 read */
#define DTL_REC_SUMMARY_MAJOR 3	/* a summary (format 2's chunks, counts for entries) */
#define DTL_REC_MINOR 3
#define DTL_REC_MAX_RAW (64u << 20)	/* no chunk decompresses past this */
#define DTL_REC_LPARCFG_MAX 4095	/* bytes of lparcfg text kept per record */
#define DTL_REC_SYMBOLS_MAX (1u << 20)	/* bytes of kallsyms lines per record */

struct dtl_rec_meta {
	char dtltop_version[32];
	char host[256];
	char source[32];
	char detail[256];
	uint64_t tb_freq;
	uint64_t boot_tb;		/* 0 if unknown */
	uint64_t start_tb;		/* the source's timebase at start; 0 if unknown (1.1) */
	uint64_t start_ns;		/* wall clock at start, since the epoch */
	double interval_s;		/* as recorded (-d) */
	unsigned int mask;
	unsigned int nr_cpus;
	struct dtl_cpuset cpus;		/* captured at start */
	struct dtl_topo topo;		/* VP membership; known false if not said (1.2) */
	unsigned int core_threads;	/* threads of a physical core; 0 if not said (1.2) */
	char lparcfg[4096];		/* /proc/powerpc/lparcfg at start, verbatim */
	unsigned int major, minor;	/* of the file read */
	/*
	 * A rotated set's identity (2.1): drawn once per run, and this file's N
	 * in FILE.N. A reader goes on to FILE.N+1 only where it carries the same
	 * id and N + 1. 0: not said (a single file, or an older writer).
	 */
	uint64_t set_id;
	unsigned int set_seq;
	char partition_name[64];	/* the device tree's ibm,partition-name; "" unknown (2.2) */
	bool summary;			/* intervals' counts, no entries: format 3 (written, read) */
};

enum dtl_rec_kind {
	DTL_REC_ENTRIES = 1,		/* cpu, n raw entries */
	DTL_REC_LOST = 2,		/* cpu, count */
	DTL_REC_BAD = 3,		/* cpu, count */
	DTL_REC_MASK = 4,		/* the event mask changed */
	DTL_REC_CPU = 5,		/* cpu went online (value 1) or offline (0) */
	DTL_REC_TICK = 6,		/* an interval ended: ts_ns, interval_s[, end_tb (1.1)] */
	DTL_REC_GAP = 7,		/* cpu, flagged AUX gaps (1.1) */
	DTL_REC_END = 8,		/* the writer closed the file (1.1) */
	DTL_REC_LPARCFG = 9,		/* /proc/powerpc/lparcfg at the interval's end, text (1.2) */
	DTL_REC_VPA_STEAL = 10,		/* cpu, the VPA's steal over the interval in ticks (1.2) */
	DTL_REC_STAT_STEAL = 11,	/* cpu, /proc/stat's steal over the interval in ticks (1.2) */
	DTL_REC_SWITCHES = 12,		/* cpu, task switches: who pays (1.3, switches.c) */
	DTL_REC_SYMBOLS = 13,		/* kallsyms lines: the functions srr0s fell in so far (2.2) */
	DTL_REC_COUNTS = 14,		/* cpu, its interval's counts: a summary's (3.0, summary.c) */
	DTL_REC_TASK = 15,		/* a task's interval's counts: a summary's who pays (3.0) */
	DTL_REC_INCIDENT = 16,		/* text: why, a tab, the raw recording written of it (3.0) */
	DTL_REC_DROPPED = 17,		/* intervals a service dropped for this slow viewer so far */
	DTL_REC_MARK = 18,		/* a mark chunk's: where the replay stands (2.3, mark.h) */
	DTL_REC_LAST = 19,		/* a mark chunk's: cpu, who ran on it last (2.3) */
};

struct dtl_rec_event {
	enum dtl_rec_kind kind;
	unsigned int cpu;
	uint64_t value;			/* count, mask or online */
	size_t n;
	const uint8_t *data;		/* n * 48 bytes (LPARCFG, SYMBOLS: n bytes of text), valid until the next call */
	uint64_t ts_ns;
	double interval_s;
	uint64_t end_tb;		/* the source's timebase at the tick; 0 unknown */
	const struct dtl_switch *switches;	/* SWITCHES: n of them, valid until the next call */
	const struct dtl_interval_cpu *counts;	/* COUNTS, valid until the next call */
	unsigned int flags;		/* COUNTS: DTL_SUM_TOLD */
	const struct dtl_task_interval *task;	/* TASK, valid until the next call */
};

struct dtl_rec_writer;
/* Creates path new (never over an existing file, never through a symlink). */
struct dtl_rec_writer *dtl_rec_writer__open(const char *path, const struct dtl_rec_meta *m,
					    char *err, size_t errlen);
/* The same on a descriptor of the caller's (dup'ed: close() leaves it open). */
struct dtl_rec_writer *dtl_rec_writer__open_fd(int fd, const char *name,
					       const struct dtl_rec_meta *m,
					       char *err, size_t errlen);
/*
 * The same into memory: the file's bytes as a file holds them, in pieces
 * to sink(ctx, what, bytes, len): the file header (what 0), the header
 * chunk (1), then each data chunk whole (2) as a tick or the size ends it;
 * compressed on the caller's thread. For a ring of the last minutes, or a
 * stream to a viewer. A sink's -1 is the writer's error (ENOMEM).
 */
typedef int (*dtl_rec_sink)(void *ctx, int what, const uint8_t *bytes, size_t len);
struct dtl_rec_writer *dtl_rec_writer__open_sink(const struct dtl_rec_meta *m, dtl_rec_sink sink,
						 void *ctx, char *err, size_t errlen);
/*
 * A data chunk a sink was given, as it is, after what was written so far:
 * a ring's intervals into a file of their own (an incident's).
 */
int dtl_rec_writer__chunk(struct dtl_rec_writer *w, const uint8_t *chunk, size_t len);
int dtl_rec_writer__entries(struct dtl_rec_writer *w, unsigned int cpu, const uint8_t *data,
			    size_t n, uint64_t lost, uint64_t bad);
int dtl_rec_writer__gaps(struct dtl_rec_writer *w, unsigned int cpu, uint64_t gaps);
int dtl_rec_writer__mask(struct dtl_rec_writer *w, unsigned int mask);
int dtl_rec_writer__cpu(struct dtl_rec_writer *w, unsigned int cpu, bool online);
/* lparcfg's text as the interval ends (before its tick), for a replay's physc and app. */
int dtl_rec_writer__lparcfg(struct dtl_rec_writer *w, const char *text);
/* The VPA's steal of a CPU over the interval, for a replay's steal_vpa_diff_pct. */
int dtl_rec_writer__vpa_steal(struct dtl_rec_writer *w, unsigned int cpu, uint64_t ticks);
int dtl_rec_writer__stat_steal(struct dtl_rec_writer *w, unsigned int cpu, uint64_t ticks);
/*
 * Kernel symbols as /proc/kallsyms lines ("ADDR T NAME"), len bytes: each
 * function an involuntary preempt's srr0 fell in, written before the tick
 * of the interval that first had it, so a replay names what the run named.
 */
int dtl_rec_writer__symbols(struct dtl_rec_writer *w, const char *text, size_t len);
/* A CPU's task switches, written before the entries they came with. */
int dtl_rec_writer__switches(struct dtl_rec_writer *w, unsigned int cpu,
			     const struct dtl_switch *sw, size_t n);
/* A CPU's interval as counts (a summary's: meta's summary set); nothing when all are 0. */
int dtl_rec_writer__counts(struct dtl_rec_writer *w, unsigned int cpu,
			   const struct dtl_interval_cpu *k, unsigned int flags);
/*
 * A service's stream: the intervals this viewer was too slow for, so far,
 * and where the interval that follows begins (the reader's end_tb), which
 * its window starts at rather than at the last one it had.
 */
int dtl_rec_writer__dropped(struct dtl_rec_writer *w, uint64_t n, uint64_t start_tb);
/* An incident: "why<TAB>FILE", the raw recording of the minutes before it (a summary's). */
int dtl_rec_writer__incident(struct dtl_rec_writer *w, const char *note);
/* A task's interval (a summary's who pays). */
int dtl_rec_writer__task(struct dtl_rec_writer *w, const struct dtl_task_interval *ti);
/* Ends an interval and writes the chunk: what is ticked is on disk. */
int dtl_rec_writer__tick(struct dtl_rec_writer *w, uint64_t ts_ns, double interval_s,
			 uint64_t end_tb);
/*
 * A raw file's marks (2.3): the writer feeds k what it writes and puts a
 * mark chunk after every DTL_REC_MARK_EVERY intervals and at its close.
 * k is the caller's, kept across a rotated set's files.
 */
struct dtl_rec_marker;
void dtl_rec_writer__use_marker(struct dtl_rec_writer *w, struct dtl_rec_marker *k);
int dtl_rec_writer__close(struct dtl_rec_writer *w, char *err, size_t errlen);
uint64_t dtl_rec_writer__bytes(const struct dtl_rec_writer *w);

struct dtl_rec_reader;
/* Reads the file header and the meta chunk; NULL with "FILE: offset N: why". */
struct dtl_rec_reader *dtl_rec_reader__open(FILE *f, const char *name, struct dtl_rec_meta *m,
					    char *err, size_t errlen);
/*
 * 1 and *ev, or 0 at the end. Damage after valid data also ends it, with
 * a one-line warning in dtl_rec_reader__warning().
 */
int dtl_rec_reader__next(struct dtl_rec_reader *r, struct dtl_rec_event *ev);
const char *dtl_rec_reader__warning(const struct dtl_rec_reader *r);
/*
 * A file still being written (--follow): true when next() can go on now,
 * with records left of the chunk read or the next chunk whole on disk
 * (then its end of file is forgotten, so reading goes on), or the reader
 * is done (next() says how). False: the writer has not written it yet.
 */
bool dtl_rec_reader__ready(struct dtl_rec_reader *r);
/*
 * Where a reader just opened ends: the last whole interval's tick, found by
 * walking the chunk headers and reading only the last chunks (a day's file
 * in milliseconds). 0 and *ts_ns, or -1 when no interval ends in it. The
 * reader is then at its end: open another to replay.
 */
int dtl_rec_reader__last_tick(struct dtl_rec_reader *r, uint64_t *ts_ns);
/*
 * A file's marks (2.3), by their chunk headers from where the reader stands
 * (after its open) to the last whole chunk: fn gets each mark chunk's
 * records and the offset of the chunk after it, in order, until it returns
 * non-zero. The reader is left where it stood. -1 where the file cannot be
 * walked (a pipe).
 */
typedef int (*dtl_rec_mark_fn)(void *ctx, uint64_t next_off, const uint8_t *recs, size_t len);
int dtl_rec_reader__marks(struct dtl_rec_reader *r, dtl_rec_mark_fn fn, void *ctx);
/* The file ended with the writer's end marker (1.1): it was not cut short. */
/*
 * Entries passed over from the next chunk on (a window's start sought):
 * every other record still comes, so the CPUs, the mask, the tasks and the
 * symbols stand as they would; in a file, a format 2 chunk's columns are not
 * even read. Off again from the next chunk on: a chunk ends each interval.
 */
void dtl_rec_reader__skim(struct dtl_rec_reader *r, bool on);
bool dtl_rec_reader__complete(const struct dtl_rec_reader *r);
/*
 * Between two chunks (every record of the last one handed out): true, and
 * where the next begins, so a replay can come back to it; a chunk ends each
 * interval, so after a tick it is.
 */
bool dtl_rec_reader__boundary(const struct dtl_rec_reader *r, uint64_t *off);
/*
 * A reader just opened, moved to a chunk boundary found by ..._boundary()
 * in the same file: 0, or -1 where the file cannot seek (the reader is then
 * done). An offset that is no boundary reads as damage, as any would.
 */
int dtl_rec_reader__seek(struct dtl_rec_reader *r, uint64_t off);
void dtl_rec_reader__close(struct dtl_rec_reader *r);

#endif
