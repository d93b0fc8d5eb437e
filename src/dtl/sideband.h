/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sideband.h - perf's side-band records that say who runs where: CPU-wide
 * context switches, comm (exec, rename), fork, exit, and lost records. Parsed from
 * a ring image or a perf.data record; pure, so tests and fuzzers feed bytes.
 *
 * Times are the perf clock, the kernel's sched_clock(), which on powerpc is
 * (tb - boot_tb) * 1e9 / tb_freq: the AUX header's two figures turn a
 * record's time back into the DTL's timebase, as upstream perf turns the
 * DTL's timebase into its clock.
 */
#ifndef DTL_SIDEBAND_H
#define DTL_SIDEBAND_H

#include <stddef.h>
#include <stdint.h>

/* sample_type bits that make up a record's sample_id trailer, in its order */
#define DTL_SAMPLE_TID (1u << 1)
#define DTL_SAMPLE_TIME (1u << 2)
#define DTL_SAMPLE_ID (1u << 6)
#define DTL_SAMPLE_CPU (1u << 7)
#define DTL_SAMPLE_STREAM_ID (1u << 9)
#define DTL_SAMPLE_IDENTIFIER (1u << 16)

enum dtl_sb_kind { DTL_SB_OTHER, DTL_SB_SWITCH, DTL_SB_COMM, DTL_SB_EXIT, DTL_SB_LOST, DTL_SB_FORK };

struct dtl_sb {
	enum dtl_sb_kind kind;
	uint64_t ns;		/* the perf clock */
	int32_t pid;		/* SWITCH: the process on the CPU from ns on; COMM, EXIT: whose;
				 * FORK: the new process */
	int32_t ppid;		/* FORK: its parent, whose name it starts with */
	uint32_t cpu;		/* from the trailer; UINT32_MAX where it has none */
	uint64_t lost;		/* LOST: records the kernel dropped */
	char comm[16];		/* COMM, NUL-terminated */
};

/*
 * One record, its header's size bytes at rec, of an event with sample_id_all
 * and this sample_type (TID and TIME needed): 1 parsed into *out, 0 a record
 * nobody here needs, -1 malformed.
 */
int dtl_sb__parse(const uint8_t *rec, size_t size, uint64_t sample_type, struct dtl_sb *out);

/*
 * The records of a perf data ring image (size a power of two) in [tail,
 * head): up to max parsed ones into out (*n of them). Returns the new tail:
 * where it stopped for want of room, or head. A record that cannot be walked
 * (a size of 0, past head) skips to head and counts in *bad.
 */
uint64_t dtl_sb__ring(const uint8_t *base, uint64_t size, uint64_t tail, uint64_t head,
		      uint64_t sample_type, struct dtl_sb *out, size_t max, size_t *n,
		      uint64_t *bad);

/* A perf clock time on the timebase; 0 when tb_freq is unknown. */
uint64_t dtl_sb__tb(uint64_t ns, uint64_t boot_tb, uint64_t tb_freq);

#endif
