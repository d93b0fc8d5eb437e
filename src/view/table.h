/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.h - the model every view draws: one interval's rows, sorted.
 */
#ifndef DTL_TABLE_H
#define DTL_TABLE_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "../stats/stats.h"
#include "../stats/task.h"

struct dtl_table {
	struct dtl_row *rows;
	size_t n, cap;
	struct dtl_row all;
	uint64_t ts_ns;		/* end of the interval, since the epoch */
	bool selected;		/* a CPU filter is on: the aggregate is not the partition */
	bool by_vp;		/* a row per VP (named by its first CPU), not per CPU */
	enum dtl_row_group group;	/* a row per task or cgroup (from tasks), not CPU or VP */
	const struct dtl_tasks *tasks;	/* who pays, where the source has a switch stream */
};

int dtl_table__fill(struct dtl_table *t, const struct dtl_stats *s, enum dtl_span span,
		    uint64_t ts_ns);
/* Why a task or cgroup grouping has no rows, for every view to say the same. */
/* Where who pays works, one sentence: README and man page carry it verbatim (tests/man.sh). */
#define DTL_NO_TASKS "who pays needs task switches: perf's switch stream comes beside the vpa_dtl " \
	"PMU (Linux 6.18 on, or kernel/vpa-dtl.c) and beside debugfs (root, any kernel with " \
	"CONFIG_DTL: RHEL, SLES, Ubuntu), as it does in a perf.data recorded with --switch-events, " \
	"a recording from format 1.3 on and the simulator's tasks=; the VPA, --no-tasks and older " \
	"files have none"
/* The first column's heading, "CPU" .. "CGROUP", and its width: the longest name up to max. */
const char *dtl_table__id_head(const struct dtl_table *t);
int dtl_table__id_width(const struct dtl_table *t, int max);
/* The first column's name in a file: "cpu", "vp", "task" or "cgroup". */
const char *dtl_table__id_name(const struct dtl_table *t);
/* CPU sorts ascending, figures descending; reverse flips either. */
void dtl_table__sort(struct dtl_table *t, int col, bool reverse);
void dtl_table__free(struct dtl_table *t);

void dtl_csv__header(FILE *f);
/* The header for t's rows: its first column is "vp" when they are VPs. */
void dtl_csv__header_of(FILE *f, const struct dtl_table *t);
void dtl_csv__rows(FILE *f, const struct dtl_table *t);
/* s as one CSV field: RFC 4180 quoting where it needs it (a task names itself). */
void dtl_csv__cell(FILE *f, const char *s);
/* Plain text, no escape codes: a title line, the totals, a heading, the rows. */
void dtl_text__table(FILE *f, const struct dtl_table *t, const char *title);

/*
 * Write t as CSV to dir/dtltop-YYYYMMDD-HHMMSS.csv (a -N suffix if taken):
 * created new under a temporary name, never following a symlink, then linked
 * into place so no half-written file ever has the final name.
 */
int dtl_snapshot__write(const char *dir, const struct dtl_table *t, time_t now,
			char *path, size_t pathlen, char *err, size_t errlen);

/*
 * A sort as ps's --sort takes it: "-FIELD" descending, "+FIELD" ascending,
 * "FIELD" in its own order (CPUs up, figures down); FIELD a CSV name or a
 * heading. Into the column and whether that is the reverse of its own
 * order; -1 if FIELD names no column.
 */
int dtl_table__sort_parse(const char *a, int *col, bool *reverse);
/* The same sort in that form, signed only when it is not the field's own order. */
/*
 * The grouping's own order, where no sort was chosen: CPUs and VPs by
 * number, tasks and cgroups by the seconds they paid, the most first.
 */
int dtl_table__default_sort(const struct dtl_table *t);
void dtl_table__sort_text(int col, bool reverse, char *buf, size_t len);

#endif
