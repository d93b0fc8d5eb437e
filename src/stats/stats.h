/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - per-vCPU DTL figures, pure: entries in, numbers out.
 *
 * Entries are folded into the current interval only; dtl_stats__end_interval()
 * turns the interval into rows and adds it to the since-start totals, so the
 * per-entry cost is one pass over a few counters and one histogram bucket.
 */
#ifndef DTL_STATS_H
#define DTL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dtl/counts.h"
#include "../dtl/dtl.h"

struct dtl_stats;

enum dtl_span {
	DTL_SPAN_INTERVAL,	/* the last completed interval */
	DTL_SPAN_TOTAL,		/* since start or the last reset */
};

#define DTL_ROW_ALL (-1)
#define DTL_ROW_SELECTED (-2)	/* the aggregate row when -C picks CPUs */

/* Whom a row is of, beside CPUs and VPs (task.h): cpu is then a pid or a cgroup's number. */
enum dtl_row_group { DTL_ROW_CPU_VP, DTL_ROW_TASK, DTL_ROW_CGROUP };

struct dtl_row {
	int cpu;			/* DTL_ROW_ALL for the partition; a VP's first CPU */
	bool is_vp;			/* a VP's row: vp is its number, 0..N-1 (lparstat's) */
	int vp;
	enum dtl_row_group group;
	const char *name;		/* a task's "comm[pid]", a cgroup's path; else NULL */
	double oncpu_s;			/* a task's (cgroup's) time on its CPUs, as the guest saw it */
	double interval_s;
	uint64_t dispatches;
	double dispatch_per_s;
	double preempt_ratio;		/* involuntary preempts / dispatches */
	double steal_us;		/* enqueue_to_dispatch + ready_to_enqueue */
	double wake_us;			/* of it, after cedes (a task's: at its wake-up) */
	double steal_pct;		/* of the interval (per vCPU for "all") */
	double idle_us;			/* waiting_to_ready */
	double idle_pct;		/* of the interval, like steal_pct */
	double lat_p50_us, lat_p99_us, lat_max_us;
	uint64_t migrations;
	uint64_t migr_core, migr_other;	/* of them: within the same physical core, or not */
	uint64_t faults;
	uint64_t lost;
	uint64_t gaps;			/* flagged AUX gaps: entries lost, count unknown */
	uint64_t bad;
	unsigned int mask;		/* DTL_MASK_* traced through the whole span */
	uint64_t preempt[DTL_N_PREEMPT + 1];	/* last slot: "other" */
	uint64_t dispatch[DTL_N_DISPATCH + 1];
	uint64_t threads;		/* CPUs folded in: 1, a VP's online threads, or all */
	/*
	 * The three waits, each whole at the dispatch that ends it (never split
	 * at an interval's edge): since-start sums that only grow, for counters.
	 */
	double e2d_s, r2e_s, w2r_s;	/* enqueue_to_dispatch, ready_to_enqueue, waiting_to_ready */
	double run_pct;			/* 100 - steal_pct - idle_pct: running, as far as traced */
	uint64_t samples;		/* latency samples behind the percentiles (DTL entries) */
	/* Figures known only sometimes; known says which (DTL_KNOWN_*). */
	unsigned int known;
	double physc, entc_pct, app;	/* the partition's lparcfg figures (aggregate row) */
	double steal_vpa_us;		/* the VPA's steal accumulators over the span */
	double steal_vpa_diff_pct;	/* (steal_us - steal_vpa_us) / steal_vpa_us * 100 */
	double steal_stat_diff_pct;	/* the same against /proc/stat's steal */
};

#define DTL_KNOWN_PHYSC 1u
#define DTL_KNOWN_ENTC 2u
#define DTL_KNOWN_APP 4u
#define DTL_KNOWN_VPA 8u	/* every CPU of the row had its VPA read */
#define DTL_KNOWN_DTL 16u	/* from DTL entries: latency, reasons, faults are known */
#define DTL_KNOWN_STAT 32u	/* every CPU of the row had /proc/stat steal */

struct dtl_stats *dtl_stats__new(unsigned int nr_cpus, uint64_t tb_freq);
void dtl_stats__delete(struct dtl_stats *s);

unsigned int dtl_stats__nr_cpus(const struct dtl_stats *s);
void dtl_stats__set_online(struct dtl_stats *s, unsigned int cpu, bool online);
bool dtl_stats__online(const struct dtl_stats *s, unsigned int cpu);
unsigned int dtl_stats__nr_online(const struct dtl_stats *s);

/* Fold n raw big-endian entries of one CPU. Out-of-range CPUs are ignored. */
void dtl_stats__add_entries(struct dtl_stats *s, unsigned int cpu,
			    const uint8_t *entries, size_t n);
void dtl_stats__add(struct dtl_stats *s, unsigned int cpu, const struct dtl_rec *r);
void dtl_stats__add_lost(struct dtl_stats *s, unsigned int cpu, uint64_t n);
void dtl_stats__add_bad(struct dtl_stats *s, unsigned int cpu, uint64_t n);
/*
 * The VPA's steal (enqueue_dispatch_tb + ready_enqueue_tb) over the
 * interval, in timebase ticks: the DTL's steal should add up to it.
 */
void dtl_stats__add_witness(struct dtl_stats *s, unsigned int cpu, uint64_t steal_ticks);
/* /proc/stat's steal of the CPU over the interval, converted to timebase ticks. */
void dtl_stats__add_stat_steal(struct dtl_stats *s, unsigned int cpu, uint64_t steal_ticks);
/*
 * A CPU's interval as counters tell it, without entries (--source=vpa):
 * from then on, rows say latency, reasons and faults are unknown.
 */
void dtl_stats__add_summary(struct dtl_stats *s, unsigned int cpu, uint64_t dispatches,
			    uint64_t steal_ticks, uint64_t idle_ticks, uint64_t dispersions);
/*
 * A summary recording's CPU interval (src/format/summary.c), folded as its
 * entries were when it was kept; told: it was told by counters, not entries.
 */
void dtl_stats__add_interval(struct dtl_stats *s, unsigned int cpu,
			     const struct dtl_interval_cpu *k, bool told);
/*
 * For a summary recording (-w --summary): from now on each interval's end
 * keeps what each CPU's came to; -1 out of memory. dtl_stats__kept(): a
 * CPU's last ended interval (NULL without keeping, or past nr_cpus).
 */
int dtl_stats__keep(struct dtl_stats *s);
const struct dtl_interval_cpu *dtl_stats__kept(const struct dtl_stats *s, unsigned int cpu);
/* Where the last ended interval's window ended on the timebase: a summary's tick. */
uint64_t dtl_stats__ended_at(const struct dtl_stats *s);
/* Intervals are told by counters (dtl_stats__add_summary), not entries. */
bool dtl_stats__told(const struct dtl_stats *s);
/* A gap of unknown size (a perf AUX record flagged TRUNCATED/PARTIAL/COLLISION). */
void dtl_stats__add_gaps(struct dtl_stats *s, unsigned int cpu, uint64_t n);
/* The event mask from now on; an interval's rows carry the bits on throughout it. */
void dtl_stats__set_mask(struct dtl_stats *s, unsigned int mask);
/*
 * The source's timebase where capture starts, and where the interval about
 * to be ended ends. Sources without a clock call neither: the latest entry
 * then stands in for the end, and the first interval is clipped to its length.
 */
void dtl_stats__start_at(struct dtl_stats *s, uint64_t tb);
/* The interval under way begins at tb, not where the last ended (intervals were dropped). */
void dtl_stats__restart_at(struct dtl_stats *s, uint64_t tb);
void dtl_stats__end_at(struct dtl_stats *s, uint64_t tb);

void dtl_stats__end_interval(struct dtl_stats *s, double interval_s);
void dtl_stats__reset_totals(struct dtl_stats *s);
uint64_t dtl_stats__intervals(const struct dtl_stats *s);

/*
 * VPs: vp[cpu] is the first CPU of cpu's VP (for every CPU below nr_cpus);
 * core_threads the hardware threads of a physical core, which tells a
 * migration within a core from one to another. -1 out of memory.
 */
int dtl_stats__set_vps(struct dtl_stats *s, const uint16_t *vp, unsigned int core_threads);
/* A VP's row, its online threads folded; -1 when vp names none or all are offline. */
int dtl_stats__vp_row(const struct dtl_stats *s, int vp, enum dtl_span span, struct dtl_row *row);

/* Fills *row; returns -1 if cpu is out of range or offline. */
int dtl_stats__row(const struct dtl_stats *s, int cpu, enum dtl_span span,
		   struct dtl_row *row);

uint64_t dtl_stats__tb_freq(const struct dtl_stats *s);
/* The first CPU of cpu's VP (cpu itself where VPs are unknown); -1 out of range. */
/* The number of cpu's VP, 0..N-1 in the order of their first CPUs (cpu without VPs). */
int dtl_stats__vp_index(const struct dtl_stats *s, unsigned int cpu);
int dtl_stats__vp_of(const struct dtl_stats *s, unsigned int cpu);
/*
 * The since-start latency histogram (DTL_HIST_BUCKETS counts) of a CPU, a
 * VP (vp true, id its first CPU) or the partition (DTL_ROW_ALL), online
 * CPUs only; -1 where none is online or id names nothing.
 */
int dtl_stats__hist(const struct dtl_stats *s, int id, bool vp, uint64_t *hist);

struct dtl_proc_count {
	uint32_t proc;		/* physical processor id */
	uint64_t n;		/* sampled dispatches on it since start (one in 8) */
};
/*
 * The physical processors a CPU (or a VP's threads) was dispatched on since
 * start, sampled one dispatch in 8, the most used first: up to max into
 * out, the rest added into *other. The count written.
 */
int dtl_stats__procs(const struct dtl_stats *s, int id, bool vp, struct dtl_proc_count *out,
		     int max, uint64_t *other);

/* The latency histogram's buckets: dtl_hist__bucket() and __value() in ../dtl/counts.h. */

#endif
