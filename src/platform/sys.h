/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sys.h - facts read from /proc and /sys under a root that tests can fake.
 *
 * Parsers take text (pure, tested directly); the readers only add the file.
 */
#ifndef DTL_SYS_H
#define DTL_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"

/*
 * Processor units (hundredths) past which an entitlement or a pool is no
 * machine's: a million processors. Past it, as at 0, the key is unknown.
 */
#define DTL_LPARCFG_MAX_UNITS 100000000ull

struct dtl_lparcfg {
	bool present;
	bool shared;		/* shared_processor_mode=1 */
	bool have_mode;		/* shared_processor_mode was there: shared is known */
	bool donating;		/* DedDonMode=1: dedicated, donating idle cycles */
	bool capped;
	bool have_ent, have_vps, have_pool, have_dispatches;
	bool have_purr, have_tbr, have_pool_idle, have_weight, have_rg;
	double entitlement;	/* processor units (partition_entitled_capacity / 100); > 0 if have_ent */
	unsigned int active_vps;	/* > 0 if have_vps */
	double pool_capacity;	/* processor units; > 0 if have_pool */
	uint64_t dispatches;	/* sum of the threads' yield_count: two per cycle */
	uint64_t purr;		/* sum of the threads' PURR */
	uint64_t tbr;		/* the timebase when read */
	uint64_t pool_idle_time;	/* the pool's idle ticks, where the partition may read it */
	unsigned int pool_num_procs;
	unsigned int weight;	/* capacity_weight (uncapped share) */
	unsigned int rg_number, rg_procs;	/* resource group, on newer firmware */
	/*
	 * Who and where, as lparcfg's first lines give them (from the device
	 * tree): which partition of which frame, in which shared pool. Absent
	 * keys stay absent ("" and false), never made up.
	 */
	bool have_partition_id, have_pool_id;
	unsigned int partition_id, pool_id;
	char serial[48];	/* serial_number: "IBM,0221E1234" */
	char system_type[48];	/* system_type: "IBM,9080-HEX" */
};

/* v with prec decimals and unit when have, else "-": an lparcfg figure absent or out of range. */
const char *dtl_sys__fig(char *buf, size_t len, bool have, double v, int prec, const char *unit);

/* What lparstat shows, from two lparcfg reads; known says which (DTL_LPARF_*). */
#define DTL_LPARF_PHYSC 1u
#define DTL_LPARF_ENTC 2u
#define DTL_LPARF_APP 4u
#define DTL_LPARF_DISP 8u
struct dtl_lpar_figs {
	unsigned int known;
	double physc;		/* processors consumed: dPURR / dtimebase */
	double entc_pct;	/* physc / entitlement * 100 */
	double app;		/* idle pool processors: dpool_idle_time / dtimebase */
	double disp_per_s;	/* ddispatches / 2 / seconds: dispatch cycles per second */
};

/* From a to b (b later); unknown where a key is missing or went backwards. */
void dtl_sys__lpar_figs(const struct dtl_lparcfg *a, const struct dtl_lparcfg *b,
			uint64_t tb_freq, struct dtl_lpar_figs *f);

/* root + "/" + rel; returns -1 if it does not fit. */
int dtl_sys__path(char *buf, size_t len, const char *root, const char *rel);
bool dtl_sys__exists(const char *root, const char *rel);
/* Reads up to len-1 bytes, NUL-terminated; returns bytes or -1 (errno set). */
long dtl_sys__read(const char *root, const char *rel, char *buf, size_t len);
/*
 * A file a user named (a frame, a web configuration, a key): a regular file
 * of at most max bytes, read whole and NUL-terminated (*len bytes, *mode
 * its permissions), never a FIFO or device that would hang. NULL with why:
 * errno's text, "not a regular file", "larger than N bytes", "out of memory".
 */
char *dtl_sys__slurp(const char *path, size_t max, size_t *len, unsigned int *mode,
		     char *why, size_t whylen);

/* "timebase : 512000000" from cpuinfo text; 0 if absent or garbage. */
uint64_t dtl_sys__parse_timebase(const char *cpuinfo);
/* From <root>/proc/cpuinfo; default 512 MHz, *note says why when defaulted. */
/* 0 with the reason in *note when cpuinfo names an impossible frequency. */
uint64_t dtl_sys__timebase(const char *root, const char **note);

void dtl_sys__parse_lparcfg(const char *text, struct dtl_lparcfg *cfg);

/* <root>/sys/devices/system/cpu/online; -1 with err naming the file. */
int dtl_sys__online(const char *root, struct dtl_cpuset *set, char *err, size_t errlen);
/*
 * Per-CPU steal from /proc/stat text (the 8th figure of each cpuN line, in
 * USER_HZ ticks) into steal[0..nr); have[cpu] says which lines were whole.
 */
void dtl_sys__parse_stat_steal(const char *text, unsigned int nr, uint64_t *steal, bool *have);

/* <root>/sys/devices/system/cpu/possible; -1 if absent or unparsable. */
int dtl_sys__possible(const char *root, struct dtl_cpuset *set);

#endif
