/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * switch.h - the second stream beside the DTL: which guest task a CPU ran
 * from when (perf's context_switch records, sched_switch, the simulator's
 * scheduler), on the DTL's timebase so the two line up.
 */
#ifndef DTL_SWITCH_H
#define DTL_SWITCH_H

#include <stdint.h>

/*
 * Who runs from here on is not known (a switch stream that lost records, a
 * clock map that moved): the CPU's entries go to nobody until its next switch.
 */
#define DTL_SWITCH_UNKNOWN (-1)

/* A task switched in on a CPU at tb; comm and cgroup may be NULL (known, or unknown). */
struct dtl_switch {
	uint64_t tb;		/* on the DTL's timebase */
	int32_t pid;		/* the process (threads folded); 0: the idle task; <0 unknown */
	const char *comm;
	const char *cgroup;	/* "/system.slice/db.service" */
};

#endif
