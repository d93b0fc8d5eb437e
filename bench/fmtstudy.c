// SPDX-License-Identifier: GPL-2.0-only
/*
 * fmtstudy.c - groundwork for recording format 2 (issue 32): the same
 * recording's entries stored in several layouts, each measured for its
 * bytes per entry, its encoding cost and its decoding rate into decoded
 * records, all in one run so the figures are comparable as ratios.
 *
 *   build/fmtstudy FILE.dtl
 *
 * A layout codes one interval's entries (every CPU's blocks, as format 1
 * chunks them) and compresses the result as one zstd frame where it says so.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include "dtl/dtl.h"
#include "format/record.h"

struct block {
	unsigned int cpu;
	size_t n;
	const uint8_t *raw;	/* n * 48, big-endian as the hypervisor wrote them */
};

struct interval {
	struct block *b;
	size_t nb, cap;
};

static struct interval *ivs;
static size_t nivs, caps;
static uint64_t entries;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "fmtstudy: out of memory\n");
		exit(1);
	}
	return p;
}

static void load(const char *path)
{
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct dtl_rec_reader *r;
	char err[512];
	FILE *f = fopen(path, "rb");

	if (!f || !(r = dtl_rec_reader__open(f, path, &m, err, sizeof(err)))) {
		fprintf(stderr, "fmtstudy: %s\n", f ? err : path);
		exit(2);
	}
	ivs = xrealloc(NULL, sizeof(*ivs) * (caps = 64));
	memset(ivs, 0, sizeof(*ivs));
	while (dtl_rec_reader__next(r, &ev) == 1) {
		struct interval *iv = &ivs[nivs];

		if (ev.kind == DTL_REC_TICK) {
			if (++nivs == caps)
				ivs = xrealloc(ivs, sizeof(*ivs) * (caps *= 2));
			memset(&ivs[nivs], 0, sizeof(*ivs));
			continue;
		}
		if (ev.kind != DTL_REC_ENTRIES || !ev.n)
			continue;
		if (iv->nb == iv->cap)
			iv->b = xrealloc(iv->b, sizeof(*iv->b) * (iv->cap = iv->cap ? iv->cap * 2 : 64));
		iv->b[iv->nb].cpu = ev.cpu;
		iv->b[iv->nb].n = ev.n;
		iv->b[iv->nb].raw = memcpy(xrealloc(NULL, ev.n * 48), ev.data, ev.n * 48);
		iv->nb++;
		entries += ev.n;
	}
	dtl_rec_reader__close(r);
	fclose(f);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* --- the layouts' codes ------------------------------------------------ */

static uint64_t be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static uint8_t *put_uv(uint8_t *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	return o;
}

static const uint8_t *get_uv(const uint8_t *p, uint64_t *v)
{
	uint64_t x = 0;
	int s = 0;

	while (*p & 0x80) {
		x |= (uint64_t)(*p++ & 0x7f) << s;
		s += 7;
	}
	*v = x | (uint64_t)*p++ << s;
	return p;
}

static uint64_t zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzz(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Per-CPU state a delta code carries from one entry (and interval) to the next. */
struct prev {
	uint64_t tb, fa, s0, s1;
	uint64_t pid;
};

static struct prev *prevs;
static unsigned int nprev;

static struct prev *prev_of(unsigned int cpu)
{
	if (cpu >= nprev) {
		unsigned int n = cpu + 1;

		prevs = xrealloc(prevs, sizeof(*prevs) * n);
		memset(prevs + nprev, 0, sizeof(*prevs) * (n - nprev));
		nprev = n;
	}
	return &prevs[cpu];
}

#define NCOL 9	/* tb, e2d, r2e, w2r, reasons, pid, fault_addr, srr0, srr1 */

/*
 * Row or column delta-varint code of an interval: per block a header (cpu,
 * n), then per entry (row) or per field (column) the timebase as a delta,
 * the waits as varints, the reasons in one byte, the processor as a zigzag
 * delta and the 64-bit words as an xor with the CPU's previous value.
 */
static size_t enc_dv(const struct interval *iv, uint8_t *out, uint8_t **col, bool columns)
{
	uint8_t *o = out, *c[NCOL];

	for (int k = 0; k < NCOL; k++)
		c[k] = col[k];
	for (size_t i = 0; i < iv->nb; i++) {
		const struct block *b = &iv->b[i];
		struct prev *p = prev_of(b->cpu);

		o = put_uv(o, b->cpu);
		o = put_uv(o, b->n);
		for (size_t e = 0; e < b->n; e++) {
			const uint8_t *r = b->raw + e * 48;
			uint64_t tb = be(r + 16, 8), fa = be(r + 24, 8), s0 = be(r + 32, 8),
				 s1 = be(r + 40, 8), pid = be(r + 2, 2);
#define OUT(k) (*(columns ? &c[k] : &o))
			OUT(0) = put_uv(OUT(0), zz((int64_t)(tb - p->tb)));
			OUT(1) = put_uv(OUT(1), be(r + 4, 4));
			OUT(2) = put_uv(OUT(2), be(r + 8, 4));
			OUT(3) = put_uv(OUT(3), be(r + 12, 4));
			if (r[0] < 16 && r[1] < 16) {
				*OUT(4)++ = (uint8_t)(r[0] << 4 | r[1]);
			} else {
				*OUT(4)++ = 0xff;
				*OUT(4)++ = r[0];
				*OUT(4)++ = r[1];
			}
			OUT(5) = put_uv(OUT(5), zz((int64_t)(pid - p->pid)));
			OUT(6) = put_uv(OUT(6), fa ^ p->fa);
			OUT(7) = put_uv(OUT(7), s0 ^ p->s0);
			OUT(8) = put_uv(OUT(8), s1 ^ p->s1);
#undef OUT
			p->tb = tb, p->fa = fa, p->s0 = s0, p->s1 = s1, p->pid = pid;
		}
	}
	if (columns)
		for (int k = 0; k < NCOL; k++) {
			size_t n = (size_t)(c[k] - col[k]);

			o = put_uv(o, n);
			memcpy(o, col[k], n);
			o += n;
		}
	return (size_t)(o - out);
}

/* Byte planes: within each block, byte j of every entry together. */
static size_t enc_shuffle(const struct interval *iv, uint8_t *out)
{
	uint8_t *o = out;

	for (size_t i = 0; i < iv->nb; i++) {
		const struct block *b = &iv->b[i];

		o = put_uv(o, b->cpu);
		o = put_uv(o, b->n);
		for (int j = 0; j < 48; j++)
			for (size_t e = 0; e < b->n; e++)
				*o++ = b->raw[e * 48 + j];
	}
	return (size_t)(o - out);
}

static size_t enc_raw(const struct interval *iv, uint8_t *out)
{
	uint8_t *o = out;

	for (size_t i = 0; i < iv->nb; i++) {
		o = put_uv(o, iv->b[i].cpu);
		o = put_uv(o, iv->b[i].n);
		memcpy(o, iv->b[i].raw, iv->b[i].n * 48);
		o += iv->b[i].n * 48;
	}
	return (size_t)(o - out);
}

/* --- decoding into records, the replay's side ---------------------------- */

static uint64_t sink;

static void dec_raw(const uint8_t *p, const uint8_t *end)
{
	while (p < end) {
		uint64_t cpu, n;

		p = get_uv(p, &cpu);
		p = get_uv(p, &n);
		for (uint64_t e = 0; e < n; e++, p += 48) {
			struct dtl_rec r;

			dtl_rec__decode(&r, p);
			sink += r.timebase + r.enqueue_to_dispatch + cpu;
		}
	}
}

static void dec_shuffle(const uint8_t *p, const uint8_t *end, uint8_t *tmp)
{
	while (p < end) {
		uint64_t cpu, n;

		p = get_uv(p, &cpu);
		p = get_uv(p, &n);
		for (int j = 0; j < 48; j++)
			for (uint64_t e = 0; e < n; e++)
				tmp[e * 48 + j] = *p++;
		for (uint64_t e = 0; e < n; e++) {
			struct dtl_rec r;

			dtl_rec__decode(&r, tmp + e * 48);
			sink += r.timebase + r.enqueue_to_dispatch + cpu;
		}
	}
}

static void dec_dv_rows(const uint8_t *p, const uint8_t *end)
{
	while (p < end) {
		uint64_t cpu, n, v;
		struct prev *q;

		p = get_uv(p, &cpu);
		p = get_uv(p, &n);
		q = prev_of((unsigned int)cpu);
		for (uint64_t e = 0; e < n; e++) {
			struct dtl_rec r;

			p = get_uv(p, &v);
			r.timebase = q->tb += (uint64_t)unzz(v);
			p = get_uv(p, &v);
			r.enqueue_to_dispatch = (uint32_t)v;
			p = get_uv(p, &v);
			r.ready_to_enqueue = (uint32_t)v;
			p = get_uv(p, &v);
			r.waiting_to_ready = (uint32_t)v;
			if (*p == 0xff) {
				r.dispatch_reason = p[1];
				r.preempt_reason = p[2];
				p += 3;
			} else {
				r.dispatch_reason = *p >> 4;
				r.preempt_reason = *p++ & 15;
			}
			p = get_uv(p, &v);
			q->pid += (uint64_t)unzz(v);
			r.processor_id = (uint16_t)q->pid;
			p = get_uv(p, &v);
			r.fault_addr = q->fa ^= v;
			p = get_uv(p, &v);
			r.srr0 = q->s0 ^= v;
			p = get_uv(p, &v);
			r.srr1 = q->s1 ^= v;
			sink += r.timebase + r.enqueue_to_dispatch + cpu;
		}
	}
}

/* --- the runs ------------------------------------------------------------ */

enum layout { RAW, SHUFFLE, DV_ROWS, DV_COLS };
static const char *const names[] = { "48-byte rows", "byte planes", "delta-varint rows",
				     "delta-varint columns" };

struct result {
	double bytes, enc_s, dec_s;
};

static void run(enum layout l, int level, uint8_t *buf, uint8_t *zbuf, uint8_t **col,
		uint8_t *tmp, struct result *res)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	size_t cap = ZSTD_compressBound(entries * 64 + 1024);
	uint8_t **frames = xrealloc(NULL, sizeof(*frames) * (nivs + 1));
	size_t *flen = xrealloc(NULL, sizeof(*flen) * (nivs + 1));
	double t0;

	memset(res, 0, sizeof(*res));
	memset(prevs, 0, sizeof(*prevs) * nprev);
	t0 = now();
	for (size_t i = 0; i <= nivs; i++) {
		size_t n = l == RAW ? enc_raw(&ivs[i], buf) : l == SHUFFLE ? enc_shuffle(&ivs[i], buf)
			 : enc_dv(&ivs[i], buf, col, l == DV_COLS);

		if (level) {
			n = ZSTD_compressCCtx(cc, zbuf, cap, buf, n, level);
			if (ZSTD_isError(n))
				exit(3);
		}
		frames[i] = memcpy(xrealloc(NULL, n ? n : 1), level ? zbuf : buf, n);
		flen[i] = n;
		res->bytes += (double)n + 24;	/* a chunk header each, as format 1 */
	}
	res->enc_s = now() - t0;
	if (l == DV_COLS) {	/* the column layout's decoder is not written: size only */
		res->dec_s = 0;
		goto out;
	}
	memset(prevs, 0, sizeof(*prevs) * nprev);
	t0 = now();
	for (size_t i = 0; i <= nivs; i++) {
		const uint8_t *p = frames[i];
		size_t n = flen[i];

		if (level) {
			n = ZSTD_decompressDCtx(dc, buf, entries * 64 + 1024, frames[i], flen[i]);
			if (ZSTD_isError(n))
				exit(4);
			p = buf;
		}
		if (l == RAW)
			dec_raw(p, p + n);
		else if (l == SHUFFLE)
			dec_shuffle(p, p + n, tmp);
		else
			dec_dv_rows(p, p + n);
	}
	res->dec_s = now() - t0;
out:
	for (size_t i = 0; i <= nivs; i++)
		free(frames[i]);
	free(frames);
	free(flen);
	ZSTD_freeCCtx(cc);
	ZSTD_freeDCtx(dc);
}

int main(int argc, char **argv)
{
	static const int levels[] = { 0, 1, 3 };
	size_t most = 0, cap;
	uint8_t *buf, *zbuf, *col[NCOL], *tmp;

	if (argc != 2) {
		fprintf(stderr, "usage: fmtstudy FILE.dtl\n");
		return 2;
	}
	load(argv[1]);
	for (size_t i = 0; i <= nivs; i++) {
		size_t n = 0;

		for (size_t k = 0; k < ivs[i].nb; k++)
			n += ivs[i].b[k].n;
		most = n > most ? n : most;
	}
	cap = most * 80 + 1024 * 16;
	buf = xrealloc(NULL, entries * 64 + 1024 > cap ? entries * 64 + 1024 : cap);
	zbuf = xrealloc(NULL, ZSTD_compressBound(entries * 64 + 1024));
	tmp = xrealloc(NULL, most * 48 + 48);
	for (int k = 0; k < NCOL; k++)
		col[k] = xrealloc(NULL, cap);
	prev_of(0);
	printf("%s: %llu entries in %zu intervals\n", argv[1], (unsigned long long)entries, nivs);
	printf("| layout | zstd level | bytes/entry | encode ns/entry | decode M entries/s |\n"
	       "|---|---|---|---|---|\n");
	for (int l = RAW; l <= DV_COLS; l++)
		for (int z = 0; z < 3; z++) {
			struct result r;

			if ((l == RAW || l == SHUFFLE) && !levels[z])
				continue;
			run((enum layout)l, levels[z], buf, zbuf, col, tmp, &r);
			printf("| %s | %s | %.2f | %.1f | ", names[l],
			       levels[z] ? (levels[z] == 1 ? "1" : "3") : "none",
			       r.bytes / (double)entries, r.enc_s * 1e9 / (double)entries);
			if (r.dec_s > 0)
				printf("%.1f |\n", (double)entries / r.dec_s / 1e6);
			else
				printf("- |\n");
		}
	fprintf(stderr, "(checksum %llu)\n", (unsigned long long)sink);
	return 0;
}
