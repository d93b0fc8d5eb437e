/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dtl.h - the Dispatch Trace Log entry as PHYP writes it, and its decoded form.
 *
 * PHYP writes every multi-byte field big-endian whatever the partition's
 * endianness, so decoding is a fixed byte swap on ppc64le and on x86 alike.
 */
#ifndef DTL_H
#define DTL_H

#include <stddef.h>
#include <stdint.h>

#define DTL_ENTRY_SIZE 48
#define DTL_RING_ENTRIES 85	/* 4096-byte per-CPU buffer / 48 */
#define DTL_DEFAULT_TB_FREQ 512000000ULL
/* A timebase runs at MHz to GHz; anything else is damage, not a machine. */
#define DTL_TB_FREQ_MIN 1000000ULL
#define DTL_TB_FREQ_MAX 100000000000ULL
static inline int dtl_tb_freq__ok(unsigned long long hz)
{
	return hz >= DTL_TB_FREQ_MIN && hz <= DTL_TB_FREQ_MAX;
}

/* dtl_enable_mask bits (asm/dtl.h) */
#define DTL_MASK_CEDE 0x1
#define DTL_MASK_PREEMPT 0x2
#define DTL_MASK_FAULT 0x4
#define DTL_MASK_ALL 0x7

struct dtl_rec {
	uint64_t timebase;
	uint64_t fault_addr;
	uint64_t srr0;
	uint64_t srr1;
	uint32_t enqueue_to_dispatch;
	uint32_t ready_to_enqueue;
	uint32_t waiting_to_ready;
	uint16_t processor_id;
	uint8_t dispatch_reason;
	uint8_t preempt_reason;
};

/* Reason tables, exactly as perf prints them (tools/perf/util/powerpc-vpadtl.c). */
#define DTL_N_DISPATCH 11
#define DTL_N_PREEMPT 10
extern const char *const dtl_dispatch_names[DTL_N_DISPATCH];
extern const char *const dtl_preempt_names[DTL_N_PREEMPT];

/* Never NULL: codes past the table read as "other". */
const char *dtl_dispatch__name(unsigned int code);
const char *dtl_preempt__name(unsigned int code);

/* Preempt reasons the vCPU did not ask for: firmware, time slice, faults, HDEC. */
#define DTL_PREEMPT_INVOLUNTARY_MASK \
	((1u << 1) | (1u << 4) | (1u << 5) | (1u << 6) | (1u << 9))
/*
 * Preempt reasons by which the vCPU gave itself up (cede, confer, their
 * adjunct forms): the steal after one is waited at a wake-up.
 */
#define DTL_PREEMPT_CEDE_MASK ((1u << 2) | (1u << 3) | (1u << 7) | (1u << 8))
/* Preempt reasons that are page faults. */
#define DTL_PREEMPT_FAULT_MASK ((1u << 5) | (1u << 6))

static inline uint16_t dtl__be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t dtl__be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t dtl__be64(const uint8_t *p)
{
	return (uint64_t)dtl__be32(p) << 32 | dtl__be32(p + 4);
}

/* Inline because it sits on the per-entry hot path beside dtl_stats__add(). */
static inline void dtl_rec__decode(struct dtl_rec *r, const uint8_t *p)
{
	r->dispatch_reason = p[0];
	r->preempt_reason = p[1];
	r->processor_id = dtl__be16(p + 2);
	r->enqueue_to_dispatch = dtl__be32(p + 4);
	r->ready_to_enqueue = dtl__be32(p + 8);
	r->waiting_to_ready = dtl__be32(p + 12);
	r->timebase = dtl__be64(p + 16);
	r->fault_addr = dtl__be64(p + 24);
	r->srr0 = dtl__be64(p + 32);
	r->srr1 = dtl__be64(p + 40);
}

/* The inverse, for the simulator and for tests that build raw streams. */
void dtl_rec__encode(const struct dtl_rec *r, uint8_t *p);

/* Which dtl_enable_mask bit governs whether PHYP logs this preempt reason. */
unsigned int dtl_preempt__mask_bit(unsigned int code);

/* Mask <-> "cede,preempt,fault" text. Parse returns -1 on a bad word. */
int dtl_mask__parse(const char *s, unsigned int *mask, const char **bad);
void dtl_mask__format(unsigned int mask, char *buf, size_t len);
/*
 * Figures made under a narrower mask leave event kinds out: "partial: cede
 * not traced" into buf and 1, or "" and 0 when every kind was traced.
 */
int dtl_mask__partial(unsigned int mask, char *buf, size_t len);

static inline uint64_t dtl_ticks__to_ns(uint64_t ticks, uint64_t tb_freq)
{
	return (uint64_t)((double)ticks * 1e9 / (double)tb_freq);
}

/*
 * Text from a file (a recording's host, a perf.data's HEADER_HOSTNAME) is
 * shown on terminals and in every output format: in place, what is not
 * UTF-8 and every control (C0, DEL, C1) becomes '?', so it carries no
 * escape and breaks no JSON or line protocol.
 */
void dtl_sanitize(char *s);
/*
 * The UTF-8 character at s: its length, or 0 when the bytes are not one
 * (cut, overlong, a surrogate, past U+10FFFF); *cp its code point.
 */
size_t dtl_utf8__char(const unsigned char *s, uint32_t *cp);

#endif
