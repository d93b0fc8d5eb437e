/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * taskfeed.h - a live CPU's switch stream as a chunk's switches: perf's
 * side-band records put on the DTL's timebase, named from /proc at first
 * sight. Shared by the sources that read the stream beside their DTL (perf,
 * debugfs); what differs between them is only the clock map.
 *
 * Where who runs is not known (the kernel dropped records, the clock map
 * moved), the CPU gets a switch to DTL_SWITCH_UNKNOWN: its entries then go
 * to nobody until the next switch, rather than to the task before.
 */
#ifndef DTL_TASKFEED_H
#define DTL_TASKFEED_H

#include <stdbool.h>
#include <stdint.h>

#include "../dtl/sideband.h"
#include "../dtl/tbmap.h"
#include "../platform/perf.h"
#include "backend.h"
#include "source.h"

struct dtl_taskfeed;

/* --no-tasks, for every backend that reads the stream: their .opts */
extern const struct dtl_source_opt dtl_taskfeed__opts[];

/* Names from root/proc; NULL when out of memory. */
struct dtl_taskfeed *dtl_taskfeed__new(const char *root);
void dtl_taskfeed__delete(struct dtl_taskfeed *f);
/*
 * cpu's records since the last call, on the timebase through map, into c's
 * switches (valid until the next call). True when the ring has more.
 */
bool dtl_taskfeed__take(struct dtl_taskfeed *f, struct dtl_perf_cpus *cpus, unsigned int cpu,
			const struct dtl_tbmap *map, struct dtl_chunk *c);
/*
 * The same from records already parsed (n of at most 1024; the rest are
 * passed over): the pure step, for tests and make bench.
 */
void dtl_taskfeed__feed(struct dtl_taskfeed *f, unsigned int cpu, const struct dtl_tbmap *map,
			const struct dtl_sb *sb, size_t n, struct dtl_chunk *c);
/* Who runs on cpu is unknown from tb on: records before it are dropped. */
void dtl_taskfeed__forget(struct dtl_taskfeed *f, unsigned int cpu, uint64_t tb);
/* Records the kernel dropped, records that could not be parsed, switches dropped by a forget. */
uint64_t dtl_taskfeed__lost(const struct dtl_taskfeed *f);
uint64_t dtl_taskfeed__bad(const struct dtl_taskfeed *f);
uint64_t dtl_taskfeed__dropped(const struct dtl_taskfeed *f);

#endif
