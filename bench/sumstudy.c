// SPDX-License-Identifier: GPL-2.0-only
/*
 * sumstudy.c - groundwork for a smaller summary (issue 48's 10 MB a day):
 * a summary's counters coded by an adaptive binary range coder under
 * context models, each interval decoded back and compared, so the bytes
 * are those a format built on it would store.
 *
 *   build/sumstudy SUMMARY.dtl       (COST=1: where the bytes go, by field;
 *                                     KEY=N: the chains start again every N intervals)
 *
 * Two ways to predict a counter, each measured:
 *  - "interval": from the CPUs before it in the same interval (every chunk
 *    decodes on its own, as a summary's must for seeks and cut files);
 *  - "history": from the same CPU's interval before (a chain: a reader
 *    needs the file from a key interval on).
 * A counter is coded as the zigzagged difference to its prediction: its
 * bit length in unary, then its bits, the top two adaptive, each in a
 * context of the field and the prediction's size.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "format/record.h"
#include "format/summary.h"

/* A CPU's interval, flat: its scalars, reasons and processors, then its histogram. */
#define DTL_MAX_CPUS_STUDY 8192
#define NPRE (DTL_N_PREEMPT + 1)
#define NDIS (DTL_N_DISPATCH + 1)
#define NSC 22
#define NF (NSC + NPRE + NDIS + 16)	/* scalars, reasons, processors */

/* --- an LZMA-style binary range coder ---------------------------------------- */

#define PROB_BITS 11
#define PROB_ONE (1u << PROB_BITS)
#define MOVE 4

struct enc {
	uint8_t *buf;
	size_t len, cap;
	uint64_t low;
	uint32_t range;
	uint8_t cache;
	uint64_t cache_size;
};

static void put_byte(struct enc *e, uint8_t b)
{
	if (e->len == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 1 << 16;
		e->buf = realloc(e->buf, e->cap);
		if (!e->buf)
			exit(1);
	}
	e->buf[e->len++] = b;
}

static void shift_low(struct enc *e)
{
	if ((uint32_t)e->low < 0xff000000u || (e->low >> 32)) {
		uint8_t carry = (uint8_t)(e->low >> 32);

		do {
			put_byte(e, (uint8_t)(e->cache + carry));
			e->cache = 0xff;
		} while (--e->cache_size);
		e->cache = (uint8_t)(e->low >> 24);
	}
	e->cache_size++;
	e->low = (e->low & 0x00ffffffu) << 8;
}

static void enc_init(struct enc *e)
{
	e->len = 0;
	e->low = 0;
	e->range = 0xffffffffu;
	e->cache = 0;
	e->cache_size = 1;
}

static void enc_bit(struct enc *e, uint16_t *p, unsigned int bit)
{
	uint32_t bound = (e->range >> PROB_BITS) * *p;

	if (!bit) {
		e->range = bound;
		*p += (PROB_ONE - *p) >> MOVE;
	} else {
		e->low += bound;
		e->range -= bound;
		*p -= *p >> MOVE;
	}
	while (e->range < (1u << 24)) {
		e->range <<= 8;
		shift_low(e);
	}
}

static void enc_flush(struct enc *e)
{
	for (int i = 0; i < 5; i++)
		shift_low(e);
}

struct dec {
	const uint8_t *p, *end;
	uint32_t range, code;
};

static uint8_t get_byte(struct dec *d)
{
	return d->p < d->end ? *d->p++ : 0;
}

static void dec_init(struct dec *d, const uint8_t *p, size_t len)
{
	d->p = p;
	d->end = p + len;
	d->range = 0xffffffffu;
	d->code = 0;
	for (int i = 0; i < 5; i++)
		d->code = d->code << 8 | get_byte(d);
}

static unsigned int dec_bit(struct dec *d, uint16_t *p)
{
	uint32_t bound = (d->range >> PROB_BITS) * *p;
	unsigned int bit;

	if (d->code < bound) {
		d->range = bound;
		*p += (PROB_ONE - *p) >> MOVE;
		bit = 0;
	} else {
		d->code -= bound;
		d->range -= bound;
		*p -= *p >> MOVE;
		bit = 1;
	}
	while (d->range < (1u << 24)) {
		d->range <<= 8;
		d->code = d->code << 8 | get_byte(d);
	}
	return bit;
}

/* --- a number in a context: its length in unary, then its bits ---------------- */

struct numctx {
	uint16_t len[66];
	uint16_t top[66][4];	/* the two bits under the leading one */
};

/* A coder or a decoder: the same walk, so the two cannot disagree. */
struct coder {
	struct enc *e;
	struct dec *d;
};

/* Where the bits go (COST=1), as -log2 of each coded bit's probability: [1] the histogram, [2 + i] field i. */
static double cost[NF + 2];
static int costing;
static bool costed;	/* COST=1: a log2 a bit, not in the coder's own time */

static unsigned int bit(struct coder *c, uint16_t *p, unsigned int b)
{
	if (c->e) {
		if (costed)
			cost[costing] -= log2((b ? PROB_ONE - *p : *p) / (double)PROB_ONE);
		enc_bit(c->e, p, b);
		return b;
	}
	return dec_bit(c->d, p);
}

static uint64_t number(struct coder *c, struct numctx *x, uint64_t v)
{
	unsigned int n = 0, want = 0, i;
	uint64_t out;

	if (c->e)
		for (uint64_t t = v + 1; t > 1; t >>= 1)
			want++;
	/* n: the bits of v + 1 below its leading one */
	for (i = 0; i < 65 && bit(c, &x->len[i], i < want); i++)
		n++;
	out = 1;
	for (unsigned int k = n; k-- > 0;) {
		unsigned int b = c->e ? (unsigned int)((v + 1) >> k & 1) : 0;
		unsigned int pos = n - 1 - k;
		uint16_t plain = PROB_ONE / 2;	/* a bit past the top two: a half, every time */
		uint16_t *p = pos < 2 ? &x->top[n][pos ? 2 + (unsigned int)(out & 1) : 0] : &plain;

		out = out << 1 | bit(c, p, b);
	}
	return out - 1;
}

static inline uint64_t zz(int64_t d)
{
	return (uint64_t)d << 1 ^ (uint64_t)(d >> 63);
}

static inline int64_t unzz(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static unsigned int size_class(uint64_t v)
{
	unsigned int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n > 15 ? 15 : n;
}

/* A count's prediction: each small one its own class, a larger one by its size. */
static unsigned int fine_class(uint64_t v)
{
	return v < 48 ? (unsigned int)v : 48 + size_class(v);
}

/* --- the counters of a CPU's interval ---------------------------------------- */


static void flatten(const struct dtl_interval_cpu *k, uint64_t *f, uint64_t *h)
{
	const struct dtl_counts *c = &k->c;
	const uint64_t s[NSC] = {
		c->dispatches, c->gaps, c->involuntary, c->steal_ticks, c->wake_ticks,
		c->idle_ticks, c->migrations, c->migr_core, c->steal_raw - c->steal_ticks -
		k->carry_steal, c->steal_raw - c->e2d_raw, c->w2r_raw - c->idle_ticks - k->carry_idle,
		c->vpa_steal - c->steal_raw, c->vpa_cpus, c->stat_steal, c->stat_cpus, c->faults,
		c->lost, c->bad, c->lat_max, k->carry_steal, k->carry_idle, k->proc_other,
	};

	memcpy(f, s, sizeof(s));
	memcpy(f + NSC, c->preempt, sizeof(c->preempt));
	memcpy(f + NSC + NPRE, c->dispatch, sizeof(c->dispatch));
	for (int i = 0; i < 8; i++) {
		f[NSC + NPRE + NDIS + 2 * i] = k->proc_id[i];
		f[NSC + NPRE + NDIS + 2 * i + 1] = k->proc_n[i];
	}
	memcpy(h, c->hist, sizeof(c->hist));
}

/* --- the model ----------------------------------------------------------------- */

enum predict { BY_INTERVAL, BY_HISTORY, BY_AVERAGE };

struct model {
	struct numctx field[NF][16];
	struct numctx bucket[2][64];	/* [first CPU of its interval][prediction's class] */
	struct numctx edge[2];
	struct numctx mapped[NDIS];	/* a dispatch reason told by a preempt reason's count */
};

struct cpu_iv {
	unsigned int cpu;
	uint64_t f[NF], h[DTL_HIST_BUCKETS];
};

struct study {
	enum predict how;
	struct model m;
	/* BY_INTERVAL: the interval's CPUs so far; BY_HISTORY: each CPU's last */
	double fsum[NF], hsum[DTL_HIST_BUCKETS];
	unsigned int n;
	/* how often dispatch reason i was preempt reason j's count, and not 0 at all */
	uint32_t same[NDIS][NPRE], seen[NDIS];
	struct cpu_iv *last;	/* per CPU, BY_HISTORY; BY_AVERAGE: 256 x a moving average */
	bool *have;
};

static void reset_interval(struct study *s)
{
	if (s->how == BY_INTERVAL) {
		memset(s->same, 0, sizeof(s->same));
		memset(s->seen, 0, sizeof(s->seen));
	}
	memset(s->fsum, 0, sizeof(s->fsum));
	memset(s->hsum, 0, sizeof(s->hsum));
	s->n = 0;
}

/* BY_AVERAGE keeps 256 times an average that forgets 1/8 an interval: integers, so every reader agrees. */
#define AVG_SHIFT 5

static uint64_t from_prev(const struct study *s, uint64_t v)
{
	return s->how == BY_AVERAGE ? (v + 128) >> 8 : v;
}

/* One CPU's interval through the coder (c->e: x is read; c->d: x is written). */
static void code_cpu(struct study *s, struct coder *c, struct cpu_iv *x)
{
	const struct cpu_iv *prev = s->how != BY_INTERVAL && s->have[x->cpu] ? &s->last[x->cpu] : NULL;
	bool first = s->how == BY_INTERVAL ? !s->n : !prev;
	unsigned int lo = 0, hi = 0, plo = 0, phi = 0;

	int skip[2] = { -1, -1 };	/* the preempt and dispatch reason told by the rest's sum */

	for (int g = 0; g < 2; g++) {
		uint64_t best = 0;

		for (int i = 0; i < (g ? NDIS : NPRE); i++) {
			int f = NSC + (g ? NPRE : 0) + i;
			uint64_t pred = prev ? from_prev(s, prev->f[f]) : s->n ? (uint64_t)(s->fsum[f] / s->n + 0.5) : 0;

			if (skip[g] < 0 || pred > best) {
				skip[g] = f;
				best = pred;
			}
		}
	}
	for (int i = 0; i < NF; i++) {
		uint64_t pred = prev ? from_prev(s, prev->f[i]) : s->n ? (uint64_t)(s->fsum[i] / s->n + 0.5) : 0;
		struct numctx *cx = &s->m.field[i][size_class(pred)];
		int d = i - NSC - NPRE;

		costing = 2 + i;
		if (i == skip[0] || i == skip[1])
			continue;
		if (d >= 0 && d < NDIS && s->seen[d] >= 4)
			for (int j = 0; j < NPRE; j++)
				if (2 * s->same[d][j] > s->seen[d]) {
					pred = x->f[NSC + j];
					cx = &s->m.mapped[d];
				}
		x->f[i] = pred + (uint64_t)unzz(number(c, cx, zz((int64_t)(x->f[i] - pred))));
		if (i == NSC + NPRE - 1 || i == NF - 1 - 16) {
			/* a group's last: its skipped member is the dispatches less the rest */
			int g = i != NSC + NPRE - 1, from = NSC + (g ? NPRE : 0), n = g ? NDIS : NPRE;
			uint64_t sum = 0;

			for (int k = from; k < from + n; k++)
				sum += k == skip[g] ? 0 : x->f[k];
			x->f[skip[g]] = x->f[0] - sum;
		}
	}
	/* the histogram's span, against the prediction's */
	if (c->e) {
		while (lo < DTL_HIST_BUCKETS && !x->h[lo])
			lo++;
		for (hi = DTL_HIST_BUCKETS; hi > lo && !x->h[hi - 1]; hi--)
			;
	}
	for (unsigned int b = 0; b < DTL_HIST_BUCKETS; b++) {
		double p = prev ? (double)from_prev(s, prev->h[b]) : s->n ? s->hsum[b] / s->n : 0;

		if (p > 0 && !plo)
			plo = b + 1;
		if (p > 0)
			phi = b + 1;
	}
	plo = plo ? plo - 1 : 0;
	costing = 1;
	lo = (unsigned int)((int64_t)plo + unzz(number(c, &s->m.edge[0], zz((int64_t)lo - plo))));
	hi = (unsigned int)((int64_t)phi + unzz(number(c, &s->m.edge[1], zz((int64_t)hi - phi))));
	if (lo > DTL_HIST_BUCKETS || hi > DTL_HIST_BUCKETS)
		lo = hi = 0;	/* a damaged stream: the round trip will say so */
	{
		int top = -1;
		double best = -1;
		uint64_t sum = 0;

		for (unsigned int b = lo; b < hi && prev; b++)
			if ((double)from_prev(s, prev->h[b]) > best) {
				best = (double)from_prev(s, prev->h[b]);
				top = (int)b;
			}
		for (unsigned int b = 0; b < DTL_HIST_BUCKETS; b++) {
			double p = prev ? (double)from_prev(s, prev->h[b]) : s->n ? s->hsum[b] / s->n :
				   b ? (double)x->h[b - 1] : 0;
			uint64_t pred = (uint64_t)(p + 0.5);
			struct numctx *cx = &s->m.bucket[first][fine_class(pred)];

			if (b < lo || b >= hi || (int)b == top) {
				x->h[b] = 0;
				continue;
			}
			x->h[b] = pred + (uint64_t)unzz(number(c, cx, zz((int64_t)(x->h[b] - pred))));
			sum += x->h[b];
		}
		if (top >= 0)
			x->h[top] = x->f[0] - sum;	/* the histogram counts the dispatches */
	}
}

static void learn(struct study *s, const struct cpu_iv *x)
{
	for (int i = 0; i < NDIS; i++) {
		uint64_t v = x->f[NSC + NPRE + i];

		if (!v)
			continue;
		s->seen[i]++;
		for (int j = 0; j < NPRE; j++)
			s->same[i][j] += x->f[NSC + j] == v;
	}
	if (s->how == BY_HISTORY) {
		s->last[x->cpu] = *x;
		s->have[x->cpu] = true;
		return;
	}
	if (s->how == BY_AVERAGE) {
		struct cpu_iv *a = &s->last[x->cpu];

		for (int i = 0; i < NF; i++)
			a->f[i] = s->have[x->cpu] ? a->f[i] + ((int64_t)(x->f[i] << 8) - (int64_t)a->f[i]) /
						    (1 << AVG_SHIFT) : x->f[i] << 8;
		for (int b = 0; b < DTL_HIST_BUCKETS; b++)
			a->h[b] = s->have[x->cpu] ? a->h[b] + ((int64_t)(x->h[b] << 8) - (int64_t)a->h[b]) /
						    (1 << AVG_SHIFT) : x->h[b] << 8;
		s->have[x->cpu] = true;
		return;
	}
	for (int i = 0; i < NF; i++)
		s->fsum[i] += (double)x->f[i];
	for (int b = 0; b < DTL_HIST_BUCKETS; b++)
		s->hsum[b] += (double)x->h[b];
	s->n++;
}

static void model_init(struct model *m)
{
	uint16_t *p = (uint16_t *)m;

	for (size_t i = 0; i < sizeof(*m) / sizeof(*p); i++)
		p[i] = PROB_ONE / 2;
}

/* --- the run ------------------------------------------------------------------- */

struct run {
	struct cpu_iv *iv;
	size_t n, cap;
};

static int read_intervals(const char *path, int (*fn)(void *, struct run *), void *ctx)
{
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct run r = { 0 };
	char err[512];
	FILE *f = fopen(path, "rb");
	struct dtl_rec_reader *rd = f ? dtl_rec_reader__open(f, path, &m, err, sizeof(err)) : NULL;

	if (!rd) {
		fprintf(stderr, "sumstudy: %s\n", f ? err : "cannot open");
		return -1;
	}
	while (dtl_rec_reader__next(rd, &ev) > 0) {
		if (ev.kind == DTL_REC_TICK) {
			if (fn(ctx, &r))
				return -1;
			r.n = 0;
		}
		if (ev.kind != DTL_REC_COUNTS || ev.cpu >= DTL_MAX_CPUS_STUDY)
			continue;
		if (r.n == r.cap) {
			r.cap = r.cap ? 2 * r.cap : 64;
			r.iv = realloc(r.iv, r.cap * sizeof(*r.iv));
			if (!r.iv)
				return -1;
		}
		r.iv[r.n].cpu = ev.cpu;
		flatten(ev.counts, r.iv[r.n].f, r.iv[r.n].h);
		r.n++;
	}
	dtl_rec_reader__close(rd);
	fclose(f);
	free(r.iv);
	return 0;
}

struct tally {
	struct study enc, dec;	/* the decoder's own copy of every state */
	struct enc e;
	uint64_t bytes, cpu_ivs, ivs;
	unsigned long key;	/* KEY: intervals between starts again (0 never) */
	int bad;
};

static int one_interval(void *ctx, struct run *r)
{
	struct tally *t = ctx;
	struct coder ce = { &t->e, NULL };
	struct dec d;
	struct coder cd = { NULL, &d };

	/*
	 * An interval is a chunk of its own: its models start again with
	 * BY_INTERVAL, and every KEY intervals (a reader's place to start)
	 * with the others, their history forgotten.
	 */
	if (t->enc.how == BY_INTERVAL || (t->key && t->ivs % t->key == 0)) {
		model_init(&t->enc.m);
		model_init(&t->dec.m);
		memset(t->enc.have, 0, DTL_MAX_CPUS_STUDY);
		memset(t->dec.have, 0, DTL_MAX_CPUS_STUDY);
		memset(t->enc.same, 0, sizeof(t->enc.same));
		memset(t->dec.same, 0, sizeof(t->dec.same));
		memset(t->enc.seen, 0, sizeof(t->enc.seen));
		memset(t->dec.seen, 0, sizeof(t->dec.seen));
	}
	reset_interval(&t->enc);
	reset_interval(&t->dec);
	enc_init(&t->e);
	for (size_t i = 0; i < r->n; i++) {
		struct cpu_iv x = r->iv[i];

		code_cpu(&t->enc, &ce, &x);
		learn(&t->enc, &x);
	}
	enc_flush(&t->e);
	dec_init(&d, t->e.buf, t->e.len);
	for (size_t i = 0; i < r->n; i++) {
		struct cpu_iv x = { .cpu = r->iv[i].cpu };

		code_cpu(&t->dec, &cd, &x);
		if (memcmp(x.f, r->iv[i].f, sizeof(x.f)) || memcmp(x.h, r->iv[i].h, sizeof(x.h)))
			t->bad++;
		learn(&t->dec, &x);
	}
	t->bytes += t->e.len;
	t->cpu_ivs += r->n;
	t->ivs++;
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "interval (each chunk on its own)",
					     "history (a chain from a key interval)",
					     "average (a chain, a moving average)" };

	if (argc != 2) {
		fprintf(stderr, "usage: sumstudy SUMMARY.dtl\n");
		return 2;
	}
	for (int how = BY_INTERVAL; how <= BY_AVERAGE; how++) {
		struct tally *t = calloc(1, sizeof(*t));

		if (!t)
			return 1;
		t->enc.how = t->dec.how = how;
		costed = getenv("COST") != NULL;
		t->key = getenv("KEY") ? strtoul(getenv("KEY"), NULL, 10) : 0;
		t->enc.last = calloc(DTL_MAX_CPUS_STUDY, sizeof(struct cpu_iv));
		t->dec.last = calloc(DTL_MAX_CPUS_STUDY, sizeof(struct cpu_iv));
		t->enc.have = calloc(DTL_MAX_CPUS_STUDY, 1);
		t->dec.have = calloc(DTL_MAX_CPUS_STUDY, 1);
		model_init(&t->enc.m);
		model_init(&t->dec.m);
		if (!t->enc.last || !t->dec.last || !t->enc.have || !t->dec.have ||
		    read_intervals(argv[1], one_interval, t))
			return 1;
		if (costed)
			for (int i = 1; i < NF + 2; i++)
				if (cost[i] > 0)
					printf("  cost %d: %.2f bytes\n", i, cost[i] / 8 / (double)t->cpu_ivs);
		memset(cost, 0, sizeof(cost));
		printf("%-40s %7.1f bytes a CPU-interval (counts only), %.2f MB a day of 16 CPUs at "
		       "10 s; %s\n", names[how], (double)t->bytes / (double)t->cpu_ivs,
		       (double)t->bytes / (double)t->cpu_ivs * 16 * 8640 / 1e6,
		       t->bad ? "ROUND TRIP FAILED" : "decoded back the same");
		free(t->enc.last);
		free(t->dec.last);
		free(t->enc.have);
		free(t->dec.have);
		free(t->e.buf);
		free(t);
	}
	return 0;
}
