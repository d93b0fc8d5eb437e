/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pdtasks.h - the task switches of a perf.data (perf record --switch-events),
 * gathered in the importer's first pass and handed out per CPU, on the DTL's
 * timebase, in its second. Names come from the file alone (comm records,
 * the comm a fork inherits), as of each switch's time: never from this
 * machine's /proc. A perf.data says nothing of cgroups.
 */
#ifndef DTL_PDTASKS_H
#define DTL_PDTASKS_H

#include <stddef.h>
#include <stdint.h>

#include "../dtl/sideband.h"
#include "../dtl/switch.h"

struct dtl_pdtasks;

struct dtl_pdtasks *dtl_pdtasks__new(void);
void dtl_pdtasks__free(struct dtl_pdtasks *t);

/* One parsed side-band record, in file order. -1: out of memory. */
int dtl_pdtasks__add(struct dtl_pdtasks *t, const struct dtl_sb *e);

/* After the last add: the switches sorted by time and named. -1: out of memory. */
int dtl_pdtasks__index(struct dtl_pdtasks *t);

/*
 * The next switches of cpu before the timebase edge, up to max into out
 * (a comm only where the process's name is new to the reader; valid until
 * the pdtasks is freed). Returns how many; 0 when none is left before edge.
 */
size_t dtl_pdtasks__take(struct dtl_pdtasks *t, unsigned int cpu, uint64_t edge,
			 uint64_t boot_tb, uint64_t tb_freq, struct dtl_switch *out, size_t max);

/* The timebase of cpu's next switch not yet taken; UINT64_MAX when none is left. */
uint64_t dtl_pdtasks__next_tb(const struct dtl_pdtasks *t, unsigned int cpu, uint64_t boot_tb,
			      uint64_t tb_freq);

/* Switches kept, and those not kept (past the cap, or of no CPU we know). */
uint64_t dtl_pdtasks__switches(const struct dtl_pdtasks *t);
uint64_t dtl_pdtasks__dropped(const struct dtl_pdtasks *t);

#endif
