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

struct dtl_lparcfg {
	bool present;
	bool shared;		/* shared_processor_mode=1 */
	bool capped;
	bool have_ent, have_vps, have_pool, have_dispatches;
	double entitlement;	/* processor units (partition_entitled_capacity / 100) */
	unsigned int active_vps;
	double pool_capacity;	/* processor units */
	uint64_t dispatches;
};

/* root + "/" + rel; returns -1 if it does not fit. */
int dtl_sys__path(char *buf, size_t len, const char *root, const char *rel);
bool dtl_sys__exists(const char *root, const char *rel);
/* Reads up to len-1 bytes, NUL-terminated; returns bytes or -1 (errno set). */
long dtl_sys__read(const char *root, const char *rel, char *buf, size_t len);

/* "timebase : 512000000" from cpuinfo text; 0 if absent or garbage. */
uint64_t dtl_sys__parse_timebase(const char *cpuinfo);
/* From <root>/proc/cpuinfo; default 512 MHz, *note says why when defaulted. */
/* 0 with the reason in *note when cpuinfo names an impossible frequency. */
uint64_t dtl_sys__timebase(const char *root, const char **note);

void dtl_sys__parse_lparcfg(const char *text, struct dtl_lparcfg *cfg);
void dtl_sys__lparcfg(const char *root, struct dtl_lparcfg *cfg);

/* <root>/sys/devices/system/cpu/online; -1 with err naming the file. */
int dtl_sys__online(const char *root, struct dtl_cpuset *set, char *err, size_t errlen);

/* <root>/sys/devices/system/cpu/possible; -1 if absent or unparsable. */
int dtl_sys__possible(const char *root, struct dtl_cpuset *set);

#endif
