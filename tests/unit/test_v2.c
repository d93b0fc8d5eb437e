/* SPDX-License-Identifier: GPL-2.0-only */
/* Format 2's columns: entries come back bit for bit; malformed columns are refused, never read past. */
#include "t.h"

#include <stdbool.h>
#include <stdlib.h>

#include "dtl/dtl.h"
#include "format/v2.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Entries a coder can get wrong: every width's edges, going back, wrapping, and plain noise. */
static void nasty(uint8_t *buf, size_t n)
{
	static const uint64_t edge[] = { 0, 1, 127, 128, 16383, 16384, (1ull << 56) - 1,
					 1ull << 56, (1ull << 63) - 1, 1ull << 63, UINT64_MAX };

	for (size_t i = 0; i < n; i++) {
		uint64_t e = edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
		bool wild = rnd() % 3 == 0;
		struct dtl_rec r;

		r.dispatch_reason = (uint8_t)rnd();
		r.preempt_reason = (uint8_t)rnd();
		r.processor_id = (uint16_t)(wild ? e : 100 + rnd() % 3);
		r.timebase = wild ? e : 1000000 + i * 977 + rnd() % 50;
		r.enqueue_to_dispatch = (uint32_t)(wild ? e : rnd() % 100000);
		r.ready_to_enqueue = (uint32_t)(wild ? UINT32_MAX : rnd() % 1000);
		r.waiting_to_ready = (uint32_t)rnd();
		r.fault_addr = wild ? e : 0;
		r.srr0 = wild ? rnd() : 0xc000000000012340ull;
		r.srr1 = wild ? e : 0x8000000000001033ull;
		dtl_rec__encode(&r, buf + i * DTL_ENTRY_SIZE);
	}
}

/* Columns of n entries added in pieces, sealed with a record stream of rlen bytes. */
static uint8_t *sealed(const uint8_t *src, size_t n, size_t piece, size_t *len)
{
	struct dtl_rec_v2_cols c = { 0 };
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	uint8_t rec[100] = "records", *out = NULL;
	size_t cap = 0, raw;

	for (size_t i = 0; i < n; i += piece)
		CHECK_EQ(dtl_rec_v2__add(&c, src + i * DTL_ENTRY_SIZE, n - i < piece ? n - i : piece), 0);
	CHECK_EQ(dtl_rec_v2__seal(cctx, rec, sizeof(rec), &c, &out, &cap, len, &raw), 0);
	CHECK(raw >= sizeof(rec) + 2 * n + 8 * n);
	dtl_rec_v2__free(&c);
	ZSTD_freeCCtx(cctx);
	return out;
}

TEST(v2_entries_come_back_bit_for_bit)
{
	size_t n = 5000, len;
	uint8_t *src = malloc(n * DTL_ENTRY_SIZE), *dst = malloc(n * DTL_ENTRY_SIZE), *z;
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	struct dtl_rec_v2_in in = { 0 };
	char err[256];

	nasty(src, n);
	z = sealed(src, n, 37, &len);
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, z, len, 1 << 26, err, sizeof(err)), 0);
	CHECK_EQ(in.end[0] - in.p[0], 100);
	CHECK(!memcmp(in.p[0], "records", 8));
	CHECK_EQ(dtl_rec_v2__left(&in), n);
	/* taken in other pieces than added: the differences span the chunk, not a record */
	for (size_t i = 0; i < n; i += 1000)
		CHECK_EQ(dtl_rec_v2__take(&in, dst + i * DTL_ENTRY_SIZE, 1000), 0);
	CHECK(!memcmp(src, dst, n * DTL_ENTRY_SIZE));
	CHECK_EQ(dtl_rec_v2__left(&in), 0);
	CHECK_EQ(dtl_rec_v2__take(&in, dst, 1), -1);	/* nothing left: refused */
	dtl_rec_v2__close(&in);
	free(z);
	free(src);
	free(dst);
	ZSTD_freeDCtx(dctx);
}

TEST(v2_typical_entries_take_a_fraction_of_their_48_bytes)
{
	size_t n = 4000, len;
	uint8_t *src = malloc(n * DTL_ENTRY_SIZE), *z;

	for (size_t i = 0; i < n; i++) {
		struct dtl_rec r = { 0 };

		r.timebase = 1000000000ull + i * 250000 + rnd() % 4096;
		r.enqueue_to_dispatch = (uint32_t)(rnd() % 2048);
		r.processor_id = 7;
		r.preempt_reason = 2;
		r.srr0 = 0xc000000000012340ull;
		dtl_rec__encode(&r, src + i * DTL_ENTRY_SIZE);
	}
	z = sealed(src, n, 85, &len);
	CHECK(len < n * 8);		/* 3 bytes of timebase, 2 of wait, the rest nearly nothing */
	free(z);
	free(src);
}

TEST(v2_malformed_chunks_are_refused_with_why)
{
	size_t n = 300, len;
	uint8_t *src = malloc(n * DTL_ENTRY_SIZE), *dst = malloc(n * DTL_ENTRY_SIZE), *z, *bad;
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	struct dtl_rec_v2_in in = { 0 };
	char err[256];

	nasty(src, n);
	z = sealed(src, n, n, &len);
	bad = malloc(len);
	/* too short for its stream table, or another count of streams */
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, z, 50, 1 << 26, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "no room for its 11 streams");
	memcpy(bad, z, len);
	bad[0] = 12;
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, bad, len, 1 << 26, err, sizeof(err)), -1);
	/* streams longer than the chunk, or than the reader allows */
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, z, len - 1, 1 << 26, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "impossible");
	bad = realloc(bad, len + 1);
	memcpy(bad, z, len);
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, bad, len + 1, 1 << 26, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "columns of");
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, z, len, 1000, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "impossible");
	/* an unknown codec */
	memcpy(bad, z, len);
	bad[1 + 4 * 9] = 7;
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, bad, len, 1 << 26, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "column 4: impossible (codec 7");
	/* a stored column (the timebase's) made one varint of 9 bytes shorter: read to its end, refused */
	CHECK_EQ(dtl_rec_v2__open(&in, dctx, z, len, 1 << 26, err, sizeof(err)), 0);
	in.end[4] -= 1;
	CHECK(dtl_rec_v2__left(&in) >= n - 9);
	CHECK_EQ(dtl_rec_v2__take(&in, dst, dtl_rec_v2__left(&in)), -1);
	/* a wait wider than its 32 bits, in a chunk made by hand: one entry, every column stored */
	{
		static const uint8_t wide[] = { 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
		uint8_t chunk[1 + 11 * 9 + 32], *o = chunk + 1 + 11 * 9;

		chunk[0] = 11;
		for (int st = 0; st < 11; st++) {
			uint8_t *h = chunk + 1 + st * 9;
			size_t sl = st == 0 ? 0 : st == 5 ? sizeof(wide) : 1;

			memset(h, 0, 9);
			h[1] = h[5] = (uint8_t)sl;
			if (st == 5)
				memcpy(o, wide, sl);
			else if (sl)
				*o = 0;
			o += sl;
		}
		CHECK_EQ(dtl_rec_v2__open(&in, dctx, chunk, (size_t)(o - chunk), 1 << 26, err,
					  sizeof(err)), 0);
		CHECK_EQ(dtl_rec_v2__left(&in), 1);
		CHECK_EQ(dtl_rec_v2__take(&in, dst, 1), -1);
		/* the same with a wait of 2^32 - 1: taken */
		CHECK_EQ(dtl_rec_v2__open(&in, dctx, chunk, (size_t)(o - chunk), 1 << 26, err,
					  sizeof(err)), 0);
		/* 5 bytes: 4 low ones and a zero, then 35 bits: (2^32 - 1) << 5 | 0x0f */
		memcpy((uint8_t *)in.p[5], "\xef\xff\xff\xff\x1f", 5);
		in.end[5] = in.p[5] + 5;
		CHECK_EQ(dtl_rec_v2__take(&in, dst, 1), 0);
		CHECK_EQ(dtl__be32(dst + 4), 0xffffffffu);
	}
	dtl_rec_v2__close(&in);
	free(bad);
	free(z);
	free(src);
	free(dst);
	ZSTD_freeDCtx(dctx);
}

TEST(v2_garbage_never_reads_past_a_column)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	struct dtl_rec_v2_in in = { 0 };
	uint8_t buf[1 + 11 * 9 + 11 * 40], dst[40 * DTL_ENTRY_SIZE];
	char err[256];
	int opened = 0, taken = 0;

	/* stored columns of random bytes: every length prefix, every overrun (ASan watches) */
	for (int round = 0; round < 3000; round++) {
		buf[0] = 11;
		for (int s = 0; s < 11; s++) {
			uint8_t *h = buf + 1 + s * 9;

			h[0] = 0;
			for (int b = 1; b < 9; b++)
				h[b] = (b == 1 || b == 5) ? 40 : 0;
		}
		for (size_t i = 1 + 11 * 9; i < sizeof(buf); i++)
			buf[i] = (uint8_t)rnd();
		if (dtl_rec_v2__open(&in, dctx, buf, sizeof(buf), 1 << 20, err, sizeof(err)))
			continue;
		opened++;
		taken += dtl_rec_v2__take(&in, dst, 1 + rnd() % 40) == 0;
	}
	CHECK_EQ(opened, 3000);
	CHECK(taken > 0 && taken < 3000);
	dtl_rec_v2__close(&in);
	ZSTD_freeDCtx(dctx);
}
