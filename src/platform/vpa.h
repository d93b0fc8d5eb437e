/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpa.h - a thread's Virtual Processor Area as debugfs shows it
 * (<debugfs>/powerpc/vpa/cpu-N, root, 0400): the raw 640-byte lppaca,
 * big-endian. It needs no lock and coexists with every DTL reader, so its
 * running counters witness what the DTL says.
 */
#ifndef DTL_VPA_H
#define DTL_VPA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DTL_VPA_SIZE 640
#define DTL_VPA_DIR "sys/kernel/debug/powerpc/vpa"

struct dtl_vpa {
	uint8_t dtl_enable_mask;
	uint32_t yield_count;		/* odd while yielded: two steps per cycle */
	uint32_t dispersion_count;
	uint64_t enqueue_dispatch_tb;	/* steal, with ready_enqueue_tb */
	uint64_t ready_enqueue_tb;
	uint64_t wait_ready_tb;		/* ceded wait */
	uint64_t dtl_idx;		/* entries the hypervisor wrote, ever */
};

/* 0, or -1 when buf is too short for the fields (a cut or foreign file). */
int dtl_vpa__decode(const uint8_t *buf, size_t len, struct dtl_vpa *v);
/* <root>/<DTL_VPA_DIR>/cpu-N; 0, or -1 with a one-line reason naming the file. */
int dtl_vpa__read(const char *root, unsigned int cpu, struct dtl_vpa *v, char *err,
		  size_t errlen);

/* What a thread's counters say of the time between two reads. */
struct dtl_vpa_delta {
	uint64_t dispatches;		/* preempt/dispatch cycles */
	uint64_t dispersions;
	uint64_t steal_ticks, idle_ticks;
};

/*
 * now against last: false when an accumulator went back (a new VPA, a CPU
 * back from offline), and counting must start again from now.
 */
bool dtl_vpa__delta(const struct dtl_vpa *last, const struct dtl_vpa *now, struct dtl_vpa_delta *d);

/*
 * Where counting starts for a DTL registered between two reads of its VPA.
 * Nobody logging before (an enable mask of 0): pseries' dtl.c registers the
 * buffer and sets dtl_idx to 0, so every entry since counts, however late
 * the second read. The kernel's own steal accounting (VIRT_CPU_ACCOUNTING_
 * NATIVE) keeps the buffer registered and logging preempts: the count runs
 * on from before the open.
 */
uint64_t dtl_vpa__registered_at(const struct dtl_vpa *before, const struct dtl_vpa *after);

#endif
