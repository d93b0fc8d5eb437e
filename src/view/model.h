/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - one interval as every view sees it: the rows and the facts
 * around them, made once by the loop and read by the TUI and each writer.
 */
#ifndef DTL_MODEL_H
#define DTL_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "../platform/sys.h"
#include "syms.h"
#include "table.h"
#include "verdict.h"

/* The latency histogram's series in an exposition: bounded by default. */
enum dtl_hist_by { DTL_HIST_BY_VP, DTL_HIST_BY_PARTITION, DTL_HIST_BY_CPU };
/* The per-CPU families' series: per VP by default (a fleet's cardinality), or per CPU. */
enum dtl_metrics_by { DTL_METRICS_BY_VP, DTL_METRICS_BY_CPU };

struct dtl_model {
	const struct dtl_table *table;
	const struct dtl_stats *stats;	/* the since-start counters, for the expositions */
	unsigned long long intervals;	/* ended since the start */
	enum dtl_hist_by hist_by;
	enum dtl_metrics_by metrics_by;
	unsigned int metrics_cgroups;	/* who pays: this many cgroups by name, the rest other */
	const char *host;		/* where the figures come from (a recording's host) */
	const char *source;		/* "sim", "debugfs" */
	const char *detail;
	unsigned int mask;
	double interval_s;
	unsigned int nr_vcpus;
	unsigned int nr_vps, smt;	/* VPs and the most threads of one; nr_vps 0: unknown */
	bool paused;
	bool since_start;
	uint64_t totals_from_ns;	/* the totals begin there (r, a window, a seek); 0 the start */
	bool recorded;			/* a replay: times are the recording's */
	double recorded_interval_s;	/* a replay's interval as recorded (-d's grouping), else 0 */
	double smooth_s;		/* rows smoothed over this many seconds (the TUI); 0 not */
	const struct dtl_lparcfg *lparcfg;
	const struct dtl_lpar_figs *lpar;	/* physc, %entc, app over the span; NULL: none */
	const char *status;		/* message for the status line, or NULL */
	const char *incident;		/* a new interval's incident: "why<TAB>FILE" (--incidents), or NULL */
	const char *rec_rate;		/* "-w 1.2 MB/s (4.3 GB/h), 36 MB", or "" */
	const char *root;		/* stands in for "/" (--root): where /proc/kallsyms is */
	struct dtl_syms *syms;		/* the kernel's symbols, read at the first dtl_syms__get() */
	const char *partition_name;	/* the device tree's (or a recording's), or NULL */
};

/* "since start", or "since 01:55:00" where the totals begin later (r, a window, a jump). */
void dtl_model__since(const struct dtl_model *m, char *buf, size_t len);
/* "8 VPs x SMT8 = 64 CPUs", or "64 vCPUs" when which are threads of one VP is unknown. */
void dtl_model__cpus(const struct dtl_model *m, char *buf, size_t len);
/* "sim on 8 vCPUs ...  mask all  8 vCPUs": the batch title's facts. */
void dtl_model__title(const struct dtl_model *m, char *buf, size_t len);
/*
 * "LPAR ent 2.00  shared uncapped  VPs 2  pool 4.00  physc 1.23  entc 61.5%
 * app 2.10  disp/s 57", "-" for what is not known yet (the first interval,
 * a replay, a partition that may not read pool data); 0 with no lparcfg.
 */
int dtl_model__lpar(const struct dtl_model *m, char *buf, size_t len);
/*
 * "steal checked against the VPA (+0.4%)": the DTL's steal against the VPA's
 * counters, in words; past 1 % "(DTL and VPA disagree)"; 0 where the VPA
 * was not read.
 */
/*
 * "partition lpar7 (id 7), pool 2 of frame IBM,9080-HEX IBM,0221E1234":
 * which partition, in which pool of which frame, as far as lparcfg and the
 * device tree say; 0 where they say nothing of it.
 */
int dtl_model__identity(const struct dtl_model *m, char *buf, size_t len);
/*
 * The same as named fields, for the formats that key them (labels, JSON,
 * tags): only those known, in one order; the count.
 */
struct dtl_model_field {
	const char *key;	/* partition_id, partition_name, pool_id, frame_serial, frame_type */
	char value[64];
	bool number;
};
#define DTL_MODEL_FIELDS 5
size_t dtl_model__identity_fields(const struct dtl_model *m,
				  struct dtl_model_field out[DTL_MODEL_FIELDS]);
/* What limits the partition, in words (verdict.h); on every view. */
void dtl_model__verdict(const struct dtl_model *m, struct dtl_verdict *v);
int dtl_model__witness(const struct dtl_row *r, char *buf, size_t len);

#endif
