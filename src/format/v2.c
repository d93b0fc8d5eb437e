/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * v2.c - format 2's data chunks. A chunk's entries, whatever their CPU, go
 * field by field into ten columns: the two reasons as bytes, the processor
 * id, the fault address, srr0 and srr1 as prefix varints (the length in the
 * first byte's low bits, so a reader decodes one without a branch per
 * byte), and the timebase and the three waits as Rice codes. Processor,
 * timebase, fault address, srr0 and srr1 are the zigzagged difference to
 * the column's entry before: a VP mostly stays on its processor and in its
 * idle loop, and the chunk's entries are close in time. The waits are as
 * they are: the hypervisor's jitter is their information, nothing predicts
 * it, but it falls off about exponentially, which is what Rice codes fit.
 *
 * The varint columns are then compressed on their own (zstd sees like
 * beside like and makes a table per column) or stored where that does not
 * pay.
 *
 * Nothing read is trusted: each stream's length is checked against the
 * chunk's, a count against what the columns can hold before anyone
 * allocates for it, and a value against its field's width; the decoder
 * reads whole words, so each decoded stream is followed by zero bytes and
 * no column is read more than a value past its end.
 */
#include "v2.h"

#include <endian.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "le.h"

#define STORE_BELOW 64		/* a stream this short is stored as it is */
#define HDR DTL_V2_HEAD
#define PV_MAX 9		/* bytes of the longest prefix varint */

enum { C_DISP = 1, C_PRE, C_PROC, C_TB, C_E2D, C_R2E, C_W2R, C_FAULT, C_SRR0, C_SRR1 };

/*
 * zstd's level for the varint columns and the records. The timebase and the
 * waits are Rice codes instead: as varints, zstd took only 8-16 % off them
 * (their high bits) and decoding it cost a fifth of a replay (`make bench`
 * on a 1920-CPU sim: 9.46 bytes/entry at 28.3 M entries/s with zstd, 10.45
 * at 35.3 stored, 8.9 at 31-34 as Rice codes).
 */
#define LEVEL 1

static inline uint64_t zz(uint64_t d)
{
	return d << 1 ^ (uint64_t)-(int64_t)(d >> 63);
}

static inline uint64_t unzz(uint64_t v)
{
	return v >> 1 ^ (uint64_t)-(int64_t)(v & 1);
}

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* Writes 8 bytes (the buffer has room), takes 1 to 9: n - 1 one bits then a zero, then v. */
static inline uint8_t *put_pv(uint8_t *o, uint64_t v)
{
	unsigned int len;
	uint64_t x;

	if (v < 0x80) {		/* most of the processor, fault and srr columns: no change */
		*o = (uint8_t)(v << 1);
		return o + 1;
	}
	len = (64 - (unsigned int)__builtin_clzll(v) + 6) / 7;
	if (len > 8) {
		*o = 0xff;
		x = htole64(v);
		memcpy(o + 1, &x, 8);
		return o + PV_MAX;
	}
	x = htole64(v << len | ((1ull << (len - 1)) - 1));
	memcpy(o, &x, 8);
	return o + len;
}

/* Reads 9 bytes at most (the stream is padded), takes what the first byte says. */
static inline __attribute__((always_inline)) const uint8_t *get_pv(const uint8_t *p, uint64_t *v)
{
	unsigned int len = (unsigned int)__builtin_ctz(~(unsigned int)p[0]) + 1;

	if (__builtin_expect(len > 8, 0)) {
		*v = ld64(p + 1);
		return p + PV_MAX;
	}
	*v = ld64(p) >> len & (~0ull >> (64 - 7 * len));
	return p + len;
}

static inline void st16(uint8_t *p, uint64_t v)
{
	uint16_t x = htobe16((uint16_t)v);

	memcpy(p, &x, 2);
}

static inline void st32(uint8_t *p, uint64_t v)
{
	uint32_t x = htobe32((uint32_t)v);

	memcpy(p, &x, 4);
}

static inline void st64(uint8_t *p, uint64_t v)
{
	uint64_t x = htobe64(v);

	memcpy(p, &x, 8);
}

/* --- writing ------------------------------------------------------------------ */

/* The timebase and the waits: kept as values until the chunk is sealed, then Rice or varints. */
static inline bool rice_column(int s)
{
	return s == C_TB || s == C_E2D || s == C_R2E || s == C_W2R;
}

static inline size_t width(int s)
{
	return s == C_TB ? 8 : 4;
}

static inline uint64_t value(const uint8_t *p, size_t w)
{
	uint32_t v32;
	uint64_t v64;

	if (w == 8) {
		memcpy(&v64, p, 8);
		return v64;
	}
	memcpy(&v32, p, 4);
	return v32;
}

static int room(struct dtl_rec_v2_cols *c, int s, size_t more)
{
	size_t cap = c->cap[s] ? c->cap[s] : 1 << 14;
	uint8_t *p;

	if (c->len[s] + more <= c->cap[s])
		return 0;
	while (cap < c->len[s] + more)
		cap *= 2;
	p = realloc(c->p[s], cap);
	if (!p)
		return -1;
	c->p[s] = p;
	c->cap[s] = cap;
	return 0;
}

int dtl_rec_v2__add(struct dtl_rec_v2_cols *c, const uint8_t *src, size_t n)
{
	uint8_t *o[DTL_V2_STREAMS];
	uint64_t *prev = c->prev;

	for (int s = C_DISP; s < DTL_V2_STREAMS; s++)
		if (room(c, s, n * (s <= C_PRE ? 1 : rice_column(s) ? width(s) : PV_MAX) + 8))
			return -1;
	for (int s = C_DISP; s < DTL_V2_STREAMS; s++)
		o[s] = c->p[s] + c->len[s];
	for (size_t i = 0; i < n; i++, src += DTL_ENTRY_SIZE) {
		struct dtl_rec r;
		uint64_t tb;

		dtl_rec__decode(&r, src);
		*o[C_DISP]++ = r.dispatch_reason;
		*o[C_PRE]++ = r.preempt_reason;
		/* a processor's difference is a 16-bit one, sign-extended */
		o[C_PROC] = put_pv(o[C_PROC], zz((uint64_t)(int64_t)(int16_t)(r.processor_id -
										  prev[C_PROC])));
		/* as values: the chunk's Rice parameter is chosen when it is sealed */
		tb = zz(r.timebase - prev[C_TB]);
		memcpy(o[C_TB], &tb, 8);
		memcpy(o[C_E2D], &r.enqueue_to_dispatch, 4);
		memcpy(o[C_R2E], &r.ready_to_enqueue, 4);
		memcpy(o[C_W2R], &r.waiting_to_ready, 4);
		o[C_TB] += 8;
		o[C_E2D] += 4;
		o[C_R2E] += 4;
		o[C_W2R] += 4;
		o[C_FAULT] = put_pv(o[C_FAULT], zz(r.fault_addr - prev[C_FAULT]));
		o[C_SRR0] = put_pv(o[C_SRR0], zz(r.srr0 - prev[C_SRR0]));
		o[C_SRR1] = put_pv(o[C_SRR1], zz(r.srr1 - prev[C_SRR1]));
		prev[C_PROC] = r.processor_id;
		prev[C_TB] = r.timebase;
		prev[C_FAULT] = r.fault_addr;
		prev[C_SRR0] = r.srr0;
		prev[C_SRR1] = r.srr1;
	}
	for (int s = C_DISP; s < DTL_V2_STREAMS; s++)
		c->len[s] = (size_t)(o[s] - c->p[s]);
	return 0;
}

size_t dtl_rec_v2__bytes(const struct dtl_rec_v2_cols *c)
{
	size_t n = 0;

	for (int s = C_DISP; s < DTL_V2_STREAMS; s++)
		n += c->len[s];
	return n;
}

void dtl_rec_v2__clear(struct dtl_rec_v2_cols *c)
{
	for (int s = 0; s < DTL_V2_STREAMS; s++)
		c->len[s] = c->prev[s] = 0;
}

void dtl_rec_v2__free(struct dtl_rec_v2_cols *c)
{
	for (int s = 0; s < DTL_V2_STREAMS; s++)
		free(c->p[s]);
	memset(c, 0, sizeof(*c));
}

/*
 * Rice codes for the timebase and the waits: value v as q = v >> k one bits,
 * a zero, then v's k low bits, least significant bit first; q of RICE_ESC or
 * more is RICE_ESC ones then v's 64 bits. The hypervisor's waits and a VP's
 * time between dispatches fall off about exponentially, for which this is
 * within a few percent of their entropy; a byte-wise varint wastes a byte's
 * rest and its length bits, and zstd took back only 8-16 % of that.
 */
#define RICE_ESC 24
#define RICE_KMAX 31		/* RICE_ESC - 1 + 1 + k bits fit a writer's 56 and a reader's 57 */

struct bits {
	uint8_t *p;
	uint64_t acc;
	unsigned int n;
};

/* len <= 56 bits */
static inline void put_bits(struct bits *b, uint64_t x, unsigned int len)
{
	uint64_t le;

	b->acc |= x << b->n;
	b->n += len;
	le = htole64(b->acc);
	memcpy(b->p, &le, 8);
	b->p += b->n >> 3;
	b->acc = (b->n & ~7u) == 64 ? 0 : b->acc >> (b->n & ~7u);
	b->n &= 7;
}

/*
 * A value column at src (count values of w bytes) coded at o: Rice with the
 * k that costs least by the values' bit lengths, or varints where those are
 * shorter. The bytes; *codec 2 or 0. Room: count * 11 + 9 bytes.
 */
static size_t code_values(uint8_t *o, const uint8_t *src, size_t count, size_t w, uint8_t *codec)
{
	uint64_t cnt[65] = { 0 };
	double sum[65] = { 0 }, best = 0;
	size_t pv = 0;
	unsigned int k = 0;
	struct bits b = { o + 1, 0, 0 };

	for (size_t i = 0; i < count; i++) {
		uint64_t v = value(src + i * w, w);
		unsigned int bl = v ? 64 - (unsigned int)__builtin_clzll(v) : 0;

		cnt[bl]++;
		sum[bl] += (double)v;
	}
	for (unsigned int bl = 0; bl <= 64; bl++)
		pv += cnt[bl] * (bl > 56 ? PV_MAX : bl ? (bl + 6) / 7 : 1);
	for (unsigned int kk = 0; kk <= RICE_KMAX; kk++) {
		double cost = (double)count * (1 + kk);

		for (unsigned int bl = kk + 1; bl <= 64; bl++)
			cost += bl - 1 - kk >= 5 ? (double)cnt[bl] * (RICE_ESC + 64 - 1 - kk) :
				sum[bl] / (double)(1ull << kk);
		if (kk == 0 || cost < best) {
			best = cost;
			k = kk;
		}
	}
	if (best / 8 + 2 < (double)pv) {
		o[0] = (uint8_t)k;
		for (size_t i = 0; i < count; i++) {
			uint64_t v = value(src + i * w, w), q = v >> k;

			if (q < RICE_ESC) {
				put_bits(&b, ((1ull << q) - 1) | (v & ((1ull << k) - 1)) << (q + 1),
					 (unsigned int)q + 1 + k);
			} else {
				put_bits(&b, (1ull << RICE_ESC) - 1, RICE_ESC);
				put_bits(&b, v & 0xffffffff, 32);
				put_bits(&b, v >> 32, 32);
			}
		}
		*codec = 2;
		return (size_t)(b.p - o) + (b.n != 0);
	}
	*codec = 0;
	for (size_t i = 0; i < count; i++)
		o = put_pv(o, value(src + i * w, w));
	return pv;
}

int dtl_rec_v2__seal(ZSTD_CCtx *cctx, const uint8_t *rec, size_t len,
		     const struct dtl_rec_v2_cols *c, uint8_t **out, size_t *cap,
		     size_t *outlen, size_t *rawlen)
{
	size_t need = HDR, off = HDR;

	*rawlen = 0;
	for (int s = 0; s < DTL_V2_STREAMS; s++)
		need += rice_column(s) ? c->len[C_DISP] * 11 + 9 : ZSTD_compressBound(s ? c->len[s] : len);
	if (*cap < need) {
		uint8_t *p = realloc(*out, need);

		if (!p)
			return -1;
		*out = p;
		*cap = need;
	}
	(*out)[0] = DTL_V2_STREAMS;
	for (int s = 0; s < DTL_V2_STREAMS; s++) {
		const uint8_t *src = s ? c->p[s] : rec;
		size_t n = s ? c->len[s] : len, z = 0;
		uint8_t *h = *out + 1 + s * 9;

		if (rice_column(s)) {
			/* kept as it is stored: its raw length is its length */
			n = z = code_values(*out + off, src, c->len[C_DISP], width(s), h);
		} else {
			if (n >= STORE_BELOW) {
				z = ZSTD_compressCCtx(cctx, *out + off, *cap - off, src, n, LEVEL);
				if (ZSTD_isError(z))
					return -1;
			}
			/* zstd only where it takes off more than 1/32 */
			h[0] = z && z < n - n / 32;
			if (!h[0]) {
				if (n)
					memcpy(*out + off, src, n);
				z = n;
			}
		}
		put32(h + 1, n);
		put32(h + 5, z);
		off += z;
		*rawlen += n;
	}
	*outlen = off;
	return 0;
}

/* --- reading ------------------------------------------------------------------ */

/* The column header: each stream's codec and lengths possible, and *raw their decoded total. */
static int check_head(const uint8_t *z, size_t len, size_t maxraw, size_t *raw, char *err,
		      size_t errlen)
{
	size_t stored = 0;

	*raw = 0;
	if (len < HDR || z[0] != DTL_V2_STREAMS) {
		snprintf(err, errlen, "a chunk of columns has no room for its %d streams",
			 DTL_V2_STREAMS);
		return -1;
	}
	for (int s = 0; s < DTL_V2_STREAMS; s++) {
		const uint8_t *h = z + 1 + s * 9;

		*raw += get32(h + 1);
		stored += get32(h + 5);
		if (h[0] > 2 || (h[0] != 1 && get32(h + 1) != get32(h + 5)) ||
		    (h[0] == 2 && (!rice_column(s) || !get32(h + 1))) ||
		    *raw > maxraw || stored > len - HDR) {
			snprintf(err, errlen, "column %d: impossible (codec %u, %u bytes stored, %u "
				 "raw)", s, h[0], get32(h + 5), get32(h + 1));
			return -1;
		}
	}
	if (stored != len - HDR) {
		snprintf(err, errlen, "columns of %zu bytes in a chunk of %zu", stored, len - HDR);
		return -1;
	}
	return 0;
}

static int grow_in(struct dtl_rec_v2_in *in, size_t need, char *err, size_t errlen)
{
	if (in->cap >= need)
		return 0;
	free(in->buf);
	in->cap = need;
	in->buf = malloc(in->cap);
	if (in->buf)
		return 0;
	in->cap = 0;
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Stream s, its header h and its sz stored bytes at src, into dst, padded. */
static int open_stream(struct dtl_rec_v2_in *in, ZSTD_DCtx *dctx, int s, const uint8_t *h,
		       const uint8_t *src, uint8_t *dst, char *err, size_t errlen)
{
	size_t n = get32(h + 1), sz = get32(h + 5);

	in->k[s] = -1;
	if (h[0] != 1 && n) {
		memcpy(dst, src, n);
	} else if (h[0]) {
		size_t got = ZSTD_decompressDCtx(dctx, dst, n, src, sz);

		if (ZSTD_isError(got) || got != n) {
			snprintf(err, errlen, "column %d does not decompress", s);
			return -1;
		}
	}
	memset(dst + n, 0, DTL_V2_PAD);
	in->p[s] = dst;
	in->end[s] = dst + n;
	in->bit[s] = 0;
	if (h[0] == 2) {
		if (dst[0] > RICE_KMAX) {
			snprintf(err, errlen, "column %d: Rice parameter %u", s, dst[0]);
			return -1;
		}
		in->k[s] = dst[0];
		in->p[s] = dst + 1;
	}
	return 0;
}

int dtl_rec_v2__open(struct dtl_rec_v2_in *in, ZSTD_DCtx *dctx, const uint8_t *z, size_t len,
		     size_t maxraw, char *err, size_t errlen)
{
	size_t raw, off = HDR, at = 0;

	memset(in->prev, 0, sizeof(in->prev));
	if (check_head(z, len, maxraw, &raw, err, errlen) ||
	    grow_in(in, raw + DTL_V2_STREAMS * DTL_V2_PAD, err, errlen))
		return -1;
	for (int s = 0; s < DTL_V2_STREAMS; s++) {
		const uint8_t *h = z + 1 + s * 9;

		if (open_stream(in, dctx, s, h, z + off, in->buf + at, err, errlen))
			return -1;
		off += get32(h + 5);
		at += get32(h + 1) + DTL_V2_PAD;
	}
	return 0;
}

int dtl_rec_v2__head(const uint8_t *head, size_t len, size_t maxraw, size_t *stored, char *err,
		     size_t errlen)
{
	size_t raw;

	if (check_head(head, len, maxraw, &raw, err, errlen))
		return -1;
	*stored = get32(head + 1 + 5);
	return 0;
}

int dtl_rec_v2__open_records(struct dtl_rec_v2_in *in, ZSTD_DCtx *dctx, const uint8_t *head,
			     const uint8_t *z0, char *err, size_t errlen)
{
	memset(in->prev, 0, sizeof(in->prev));
	if (grow_in(in, get32(head + 1 + 1) + DTL_V2_PAD, err, errlen) ||
	    open_stream(in, dctx, 0, head + 1, z0, in->buf, err, errlen))
		return -1;
	/* no entries: every column empty, so no count is believed */
	for (int s = 1; s < DTL_V2_STREAMS; s++) {
		in->p[s] = in->end[s] = in->buf + get32(head + 1 + 1);
		in->k[s] = -1;
		in->bit[s] = 0;
	}
	return 0;
}

size_t dtl_rec_v2__left(const struct dtl_rec_v2_in *in)
{
	size_t disp = (size_t)(in->end[C_DISP] - in->p[C_DISP]);
	size_t pre = (size_t)(in->end[C_PRE] - in->p[C_PRE]);

	/*
	 * Each entry takes one byte of each reason column: a bound, cheap enough
	 * for every record; the other columns are checked value by value.
	 */
	return disp < pre ? disp : pre;
}

/* One column's next value, its cursor and end in locals: the loop keeps them in registers. */
#define NEXT(s, v) (p##s = get_pv(p##s, &(v)), over |= p##s > e##s)

/* A Rice column's next value at bit b##s of p##s; the stream is padded for the window. */
static inline __attribute__((always_inline)) uint64_t get_rice(const uint8_t *p, uint64_t *bit,
							       int k)
{
	uint64_t w = ld64(p + (*bit >> 3)) >> (*bit & 7), lo, hi;
	unsigned int q = (unsigned int)__builtin_ctzll(~w | 1ull << 63);

	if (__builtin_expect(q < RICE_ESC, 1)) {
		*bit += q + 1 + (unsigned int)k;
		return (uint64_t)q << k | (w >> (q + 1) & ((1ull << k) - 1));
	}
	*bit += RICE_ESC;
	lo = ld64(p + (*bit >> 3)) >> (*bit & 7) & 0xffffffff;
	*bit += 32;
	hi = ld64(p + (*bit >> 3)) >> (*bit & 7) & 0xffffffff;
	*bit += 32;
	return hi << 32 | lo;
}

#define NEXT_N(s, v) do {						\
	if (k##s >= 0) {						\
		(v) = get_rice(p##s, &b##s, k##s);			\
		over |= b##s > n##s;					\
	} else {							\
		NEXT(s, v);						\
	}								\
} while (0)
#define RICE_LOCALS(s, S) \
	int k##s = in->k[S]; \
	uint64_t b##s = in->bit[S], n##s = (uint64_t)(e##s - p##s) * 8

int dtl_rec_v2__take(struct dtl_rec_v2_in *in, uint8_t *dst, size_t n)
{
	const uint8_t *pdisp = in->p[C_DISP], *ppre = in->p[C_PRE];
	const uint8_t *pproc = in->p[C_PROC], *eproc = in->end[C_PROC];
	const uint8_t *ptb = in->p[C_TB], *etb = in->end[C_TB];
	const uint8_t *pe2d = in->p[C_E2D], *ee2d = in->end[C_E2D];
	const uint8_t *pr2e = in->p[C_R2E], *er2e = in->end[C_R2E];
	const uint8_t *pw2r = in->p[C_W2R], *ew2r = in->end[C_W2R];
	const uint8_t *pfault = in->p[C_FAULT], *efault = in->end[C_FAULT];
	const uint8_t *psrr0 = in->p[C_SRR0], *esrr0 = in->end[C_SRR0];
	const uint8_t *psrr1 = in->p[C_SRR1], *esrr1 = in->end[C_SRR1];
	uint64_t proc = in->prev[C_PROC], tb = in->prev[C_TB], fault = in->prev[C_FAULT];
	uint64_t srr0 = in->prev[C_SRR0], srr1 = in->prev[C_SRR1];
	RICE_LOCALS(tb, C_TB);
	RICE_LOCALS(e2d, C_E2D);
	RICE_LOCALS(r2e, C_R2E);
	RICE_LOCALS(w2r, C_W2R);

	if (n > dtl_rec_v2__left(in))
		return -1;
	for (size_t i = 0; i < n; i++, dst += DTL_ENTRY_SIZE) {
		uint64_t vproc, vtb, e2d, r2e, w2r, vfault, vsrr0, vsrr1, over = 0;

		NEXT(proc, vproc);
		NEXT_N(tb, vtb);
		NEXT_N(e2d, e2d);
		NEXT_N(r2e, r2e);
		NEXT_N(w2r, w2r);
		NEXT(fault, vfault);
		NEXT(srr0, vsrr0);
		NEXT(srr1, vsrr1);
		/* no column read past its end, no wait wider than its field */
		if (__builtin_expect(over | (e2d | r2e | w2r) >> 32, 0))
			return -1;
		proc = (proc + unzz(vproc)) & 0xffff;
		tb += unzz(vtb);
		fault += unzz(vfault);
		srr0 += unzz(vsrr0);
		srr1 += unzz(vsrr1);
		dst[0] = *pdisp++;
		dst[1] = *ppre++;
		st16(dst + 2, proc);
		st32(dst + 4, e2d);
		st32(dst + 8, r2e);
		st32(dst + 12, w2r);
		st64(dst + 16, tb);
		st64(dst + 24, fault);
		st64(dst + 32, srr0);
		st64(dst + 40, srr1);
	}
	in->p[C_DISP] = pdisp;
	in->p[C_PRE] = ppre;
	in->p[C_PROC] = pproc;
	in->p[C_TB] = ptb;
	in->p[C_E2D] = pe2d;
	in->p[C_R2E] = pr2e;
	in->p[C_W2R] = pw2r;
	in->p[C_FAULT] = pfault;
	in->p[C_SRR0] = psrr0;
	in->p[C_SRR1] = psrr1;
	in->bit[C_TB] = btb;
	in->bit[C_E2D] = be2d;
	in->bit[C_R2E] = br2e;
	in->bit[C_W2R] = bw2r;
	in->prev[C_PROC] = proc;
	in->prev[C_TB] = tb;
	in->prev[C_FAULT] = fault;
	in->prev[C_SRR0] = srr0;
	in->prev[C_SRR1] = srr1;
	return 0;
}

void dtl_rec_v2__close(struct dtl_rec_v2_in *in)
{
	free(in->buf);
	memset(in, 0, sizeof(*in));
}
