/* SPDX-License-Identifier: GPL-2.0-only */
/* The AUX consumer and main-ring walker over ring images built here. */
#include "t.h"

#include <stdlib.h>

#include "dtl/aux.h"
#include "dtl/dtl.h"

struct img {
	uint8_t *base;
	uint64_t size, head;
};

static void put(struct img *m, const void *rec, size_t len)
{
	for (size_t i = 0; i < len; i++)
		m->base[(m->head + i) % m->size] = ((const uint8_t *)rec)[i];
	m->head += len;
}

static void put_header(struct img *m)
{
	uint64_t h[6] = { 0x1234, 512000000, 0, 0, 0, 0 };

	put(m, h, sizeof(h));
}

static void put_entry(struct img *m, uint64_t seq)
{
	struct dtl_rec r = { 0 };
	uint8_t raw[48];

	r.timebase = 1000 + seq;
	r.preempt_reason = 2;
	r.srr0 = seq;
	dtl_rec__encode(&r, raw);
	put(m, raw, 48);
}

static uint64_t seq_of(const uint8_t *raw)
{
	struct dtl_rec r;

	dtl_rec__decode(&r, raw);
	return r.timebase - 1000;
}

TEST(aux_ring_layout_reassembles_records_across_the_wrap)
{
	struct img m = { calloc(1, 1024), 1024, 0 };
	struct dtl_aux a;
	uint8_t out[48 * 64];
	uint64_t want = 0;
	size_t got = 0;

	dtl_aux__init(&a, m.size, DTL_AUX_RING);
	put_header(&m);
	for (int round = 0; round < 10; round++) {
		for (int i = 0; i < 15; i++)
			put_entry(&m, want + (uint64_t)i);
		size_t n = dtl_aux__consume(&a, m.base, m.head, out, 64);

		for (size_t i = 0; i < n; i++)
			CHECK_EQ(seq_of(out + i * 48), want + i);
		want += n;
		got += n;
		CHECK_EQ(a.pos, m.head);
	}
	CHECK_EQ(got, 150);
	CHECK(a.header_seen);
	CHECK_EQ(a.boot_tb, 0x1234);
	CHECK_EQ(a.tb_freq, 512000000);
	CHECK_EQ(a.junk_bytes, 0);
	free(m.base);
}

TEST(aux_upstream_layout_skips_the_junk_above_threshold)
{
	/* 1024 bytes: threshold (1024 - 32) / 48 = 20 records, 64 junk bytes. */
	struct img m = { calloc(1, 1024), 1024, 0 };
	struct dtl_aux a;
	uint8_t out[48 * 64], junk[64];
	size_t n;

	memset(junk, 0x5a, sizeof(junk));
	dtl_aux__init(&a, m.size, DTL_AUX_UPSTREAM);
	put_header(&m);
	for (int i = 0; i < 19; i++)
		put_entry(&m, (uint64_t)i);
	n = dtl_aux__consume(&a, m.base, m.head, out, 64);
	CHECK_EQ(n, 19);
	put(&m, junk, 64);			/* reported at the wrap */
	for (int i = 19; i < 25; i++)
		put_entry(&m, (uint64_t)i);
	n = dtl_aux__consume(&a, m.base, m.head, out, 64);
	CHECK_EQ(n, 6);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(seq_of(out + i * 48), 19 + i);
	CHECK_EQ(a.junk_bytes, 64);
	CHECK_EQ(a.pos, m.head);
	free(m.base);
}

TEST(aux_upstream_junk_that_arrives_alone_is_consumed)
{
	struct img m = { calloc(1, 1024), 1024, 0 };
	struct dtl_aux a;
	uint8_t out[48 * 64], junk[32] = { 0 };

	dtl_aux__init(&a, m.size, DTL_AUX_UPSTREAM);
	put_header(&m);
	for (int i = 0; i < 19; i++)
		put_entry(&m, (uint64_t)i);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 64), 19);
	put(&m, junk, 32);			/* only part of the junk so far */
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 64), 0);
	CHECK_EQ(a.pos, m.head);
	CHECK_EQ(a.junk_bytes, 32);
	free(m.base);
}

/*
 * No sysfs file says which driver wrote a ring: its head does. The two
 * layouts agree below upstream's threshold; past it only upstream's head is
 * ever off a multiple of 48 (the ring's end, a lap on).
 */
TEST(aux_layout_learnt_from_the_head_ring)
{
	struct img m = { calloc(1, 1024), 1024, 0 };
	struct dtl_aux a;
	uint8_t out[48 * 64];
	uint64_t want = 0;

	dtl_aux__init(&a, m.size, DTL_AUX_UNKNOWN);
	put_header(&m);
	for (int i = 0; i < 19; i++)
		put_entry(&m, want + (uint64_t)i);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 64), 19);
	CHECK_EQ(a.layout, DTL_AUX_UNKNOWN);		/* 960 bytes: both would */
	CHECK_STR(dtl_aux__layout_name(a.layout), "not yet known");
	want = 19;
	for (int round = 0; round < 6; round++) {
		for (int i = 0; i < 7; i++)
			put_entry(&m, want + (uint64_t)i);
		size_t n = dtl_aux__consume(&a, m.base, m.head, out, 64);

		CHECK_EQ(n, 7);
		for (size_t i = 0; i < n; i++)
			CHECK_EQ(seq_of(out + i * 48), want + i);
		want += n;
	}
	CHECK_EQ(a.layout, DTL_AUX_RING);
	CHECK_STR(dtl_aux__layout_name(a.layout), "ring");
	CHECK_EQ(a.junk_bytes, 0);
	free(m.base);
}

TEST(aux_layout_learnt_from_the_head_upstream)
{
	struct img m = { calloc(1, 1024), 1024, 0 };
	struct dtl_aux a, late;
	uint8_t out[48 * 64], junk[64] = { 0 };

	/* its wrap: 20 records to 960, then the 64 bytes above reported */
	dtl_aux__init(&a, m.size, DTL_AUX_UNKNOWN);
	put_header(&m);
	for (int i = 0; i < 19; i++)
		put_entry(&m, (uint64_t)i);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 64), 19);
	put(&m, junk, 64);
	for (int i = 19; i < 25; i++)
		put_entry(&m, (uint64_t)i);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 64), 6);
	CHECK_EQ(seq_of(out), 19);
	CHECK_EQ(a.layout, DTL_AUX_UPSTREAM);
	CHECK_STR(dtl_aux__layout_name(a.layout), "6.18");
	CHECK_EQ(a.junk_bytes, 64);
	/* one that looks again only once the head is a lap on learns it too */
	dtl_aux__init(&late, m.size, DTL_AUX_UNKNOWN);
	late.pos = 960;
	late.header_seen = true;
	CHECK_EQ(dtl_aux__consume(&late, m.base, 1024 + 48, out, 64), 1);
	CHECK_EQ(late.layout, DTL_AUX_UPSTREAM);
	CHECK_EQ(seq_of(out), 19);
	/* and one whose head stops exactly at the end, junk and all */
	dtl_aux__init(&late, m.size, DTL_AUX_UNKNOWN);
	CHECK_EQ(dtl_aux__consume(&late, m.base, 1024, out, 64), 20);	/* slot 0 is entry 19 now */
	CHECK_EQ(late.layout, DTL_AUX_UPSTREAM);
	CHECK_EQ(late.junk_bytes, 64);
	free(m.base);
}

/* 8 KiB (2^13): threshold (8192 - 32) / 48 = 170 records, 32 junk bytes at the wrap */
TEST(aux_upstream_layout_of_an_odd_power_of_two)
{
	struct img m = { calloc(1, 8192), 8192, 0 };
	struct dtl_aux a, far;
	uint8_t out[48 * 256], junk[32];
	size_t n;

	memset(junk, 0x5a, sizeof(junk));
	dtl_aux__init(&a, m.size, DTL_AUX_UNKNOWN);
	put_header(&m);
	for (int i = 0; i < 169; i++)
		put_entry(&m, (uint64_t)i);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 256), 169);
	CHECK_EQ(a.layout, DTL_AUX_UNKNOWN);
	put(&m, junk, 32);
	for (int i = 169; i < 174; i++)
		put_entry(&m, (uint64_t)i);
	n = dtl_aux__consume(&a, m.base, m.head, out, 256);
	CHECK_EQ(n, 5);
	CHECK_EQ(seq_of(out), 169);
	CHECK_EQ(a.layout, DTL_AUX_UPSTREAM);
	CHECK_EQ(a.junk_bytes, 32);
	/* a head more than a ring ahead is garbage: nothing is learnt from it */
	dtl_aux__init(&far, m.size, DTL_AUX_UNKNOWN);
	CHECK_EQ(dtl_aux__consume(&far, m.base, 3 * 8192 + 48 * 10, out, 256), 0);
	CHECK_EQ(far.layout, DTL_AUX_UNKNOWN);
	free(m.base);
}

TEST(aux_a_racing_head_mid_record_leaves_the_record_for_later)
{
	struct img m = { calloc(1, 1024), 1024, 0 };
	struct dtl_aux a;
	uint8_t out[48 * 8];

	dtl_aux__init(&a, m.size, DTL_AUX_RING);
	put_header(&m);
	put_entry(&m, 0);
	put_entry(&m, 1);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head - 20, out, 8), 1);
	CHECK_EQ(a.pos, m.head - 48);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 8), 1);
	CHECK_EQ(seq_of(out), 1);
	free(m.base);
}

TEST(aux_respects_the_output_limit)
{
	struct img m = { calloc(1, 4096), 4096, 0 };
	struct dtl_aux a;
	uint8_t out[48 * 3];

	dtl_aux__init(&a, m.size, DTL_AUX_RING);
	put_header(&m);
	for (int i = 0; i < 10; i++)
		put_entry(&m, (uint64_t)i);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 3), 3);
	CHECK_EQ(a.pos, 48 * 4);
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 3), 3);
	CHECK_EQ(seq_of(out), 3);
	free(m.base);
}

TEST(aux_garbage_heads_and_late_headers_are_counted_not_followed)
{
	struct img m = { calloc(1, 1024), 1024, 0 };
	struct dtl_aux a;
	uint8_t out[48 * 64];

	dtl_aux__init(&a, m.size, DTL_AUX_RING);
	put_header(&m);
	put_entry(&m, 0);
	put_header(&m);				/* a second header: not data */
	put_entry(&m, 1);
	/* passed on, in place, for the stats to count bad (timebase 0) */
	CHECK_EQ(dtl_aux__consume(&a, m.base, m.head, out, 64), 3);
	CHECK_EQ(seq_of(out), 0);
	CHECK_EQ(out[48 + 16] | out[48 + 23], 0);
	CHECK_EQ(seq_of(out + 96), 1);
	CHECK_EQ(dtl_aux__consume(&a, m.base, a.pos - 48, out, 64), 0);	/* head went back */
	CHECK_EQ(dtl_aux__consume(&a, m.base, a.pos + 5000, out, 64), 0);	/* lapped */
	CHECK(a.junk_bytes >= 5000);
	free(m.base);
}

static void put_rec(struct img *m, uint32_t type, const uint64_t *body, int words)
{
	uint8_t hdr[8];
	uint16_t len = (uint16_t)(8 + 8 * words), misc = 0;

	memcpy(hdr, &type, 4);
	memcpy(hdr + 4, &misc, 2);
	memcpy(hdr + 6, &len, 2);
	put(m, hdr, 8);
	put(m, body, (size_t)words * 8);
}

TEST(ring_walk_counts_aux_flags_and_lost_across_the_wrap)
{
	struct img m = { calloc(1, 256), 256, 200 };
	struct dtl_ring_news news = { 0 };
	uint64_t aux1[3] = { 0, 480, 0 }, aux2[3] = { 480, 96, 0x01 | 0x04 }, lost[2] = { 7, 33 };
	uint64_t other[1] = { 9 }, tail;

	put_rec(&m, 11, aux1, 3);		/* straddles the end of the ring */
	put_rec(&m, 3, other, 1);		/* PERF_RECORD_COMM-ish: skipped */
	put_rec(&m, 11, aux2, 3);
	put_rec(&m, 2, lost, 2);
	tail = dtl_ring__parse(m.base, m.size, 200, m.head, &news);
	CHECK_EQ(tail, m.head);
	CHECK_EQ(news.aux_records, 2);
	CHECK_EQ(news.truncated, 1);
	CHECK_EQ(news.partial, 1);
	CHECK_EQ(news.lost, 33);
	CHECK_EQ(news.bad, 0);
	free(m.base);
}

TEST(ring_walk_stops_at_impossible_sizes)
{
	struct img m = { calloc(1, 256), 256, 0 };
	struct dtl_ring_news news = { 0 };
	uint8_t bad[8] = { 11, 0, 0, 0, 0, 0, 3, 0 };	/* size 3 */

	put(&m, bad, 8);
	CHECK_EQ(dtl_ring__parse(m.base, m.size, 0, m.head, &news), m.head);
	CHECK_EQ(news.bad, 1);
	CHECK_EQ(dtl_ring__parse(m.base, m.size, 100, 50, &news), 50);
	CHECK_EQ(news.bad, 2);
	free(m.base);
}

/* perf_event.h: TRUNCATED 0x1, OVERWRITE 0x2, PARTIAL 0x4, COLLISION 0x8; one at a time. */
TEST(ring_walk_counts_each_aux_flag_alone)
{
	static const struct {
		uint64_t flags, truncated, partial, collision;
	} cases[] = {
		{ 0x01, 1, 0, 0 }, { 0x04, 0, 1, 0 }, { 0x08, 0, 0, 1 }, { 0x02, 0, 0, 0 },
		{ 0x00, 0, 0, 0 }, { 0x0d, 1, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct img m = { calloc(1, 256), 256, 0 };
		struct dtl_ring_news news = { 0 };
		uint64_t aux[3] = { 0, 480, cases[i].flags };

		put_rec(&m, 11, aux, 3);
		CHECK_EQ(dtl_ring__parse(m.base, m.size, 0, m.head, &news), m.head);
		CHECK_EQ(news.aux_records, 1);
		if (news.truncated != cases[i].truncated || news.partial != cases[i].partial ||
		    news.collision != cases[i].collision)
			T_FAIL("flags 0x%llx: truncated %llu partial %llu collision %llu",
			       (unsigned long long)cases[i].flags, (unsigned long long)news.truncated,
			       (unsigned long long)news.partial, (unsigned long long)news.collision);
		free(m.base);
	}
}

/* A ring exactly full (head - tail == size) is whole data, not garbage. */
TEST(aux_and_main_rings_exactly_full_are_read_whole)
{
	struct img m = { calloc(1, 480), 480, 0 };
	struct img r = { calloc(1, 256), 256, 64 };
	struct dtl_ring_news news = { 0 };
	struct dtl_aux a;
	uint8_t out[48 * 16];
	uint64_t lost[2] = { 1, 2 };
	size_t n;

	dtl_aux__init(&a, m.size, DTL_AUX_RING);
	put_header(&m);
	for (int i = 0; i < 9; i++)
		put_entry(&m, (uint64_t)i);
	CHECK_EQ(m.head, m.size);
	n = dtl_aux__consume(&a, m.base, m.head, out, 16);
	CHECK_EQ(n, 9);
	CHECK_EQ(seq_of(out + 8 * 48), 8);
	CHECK_EQ(a.pos, m.size);
	CHECK_EQ(a.junk_bytes, 0);
	/* and once more, a lap later: 10 entries fill it again */
	for (int i = 0; i < 10; i++)
		put_entry(&m, 9 + (uint64_t)i);
	n = dtl_aux__consume(&a, m.base, m.head, out, 16);
	CHECK_EQ(n, 10);
	CHECK_EQ(seq_of(out), 9);
	CHECK_EQ(a.junk_bytes, 0);
	for (int i = 0; i < 256 / 24; i++)
		put_rec(&r, 2, lost, 2);	/* 10 records of 24 bytes: 240 of 256 */
	lost[1] = 0;
	put_rec(&r, 3, lost, 1);		/* and one of 16: exactly full */
	CHECK_EQ(r.head - 64, r.size);
	CHECK_EQ(dtl_ring__parse(r.base, r.size, 64, r.head, &news), r.head);
	CHECK_EQ(news.bad, 0);
	CHECK_EQ(news.records, 11);
	CHECK_EQ(news.lost, 20);
	free(m.base);
	free(r.base);
}

TEST(aux_next_lends_entries_in_place_and_bounces_only_the_straddler)
{
	/* 1000 bytes: the header and 19 entries end at 960, the next straddles */
	struct img m = { calloc(1, 1000), 1000, 0 };
	uint8_t bounce[48];
	const uint8_t *run;
	struct dtl_aux a;
	uint64_t seq = 0;
	size_t n;

	dtl_aux__init(&a, m.size, DTL_AUX_RING);
	put_header(&m);
	for (int i = 0; i < 19; i++)
		put_entry(&m, seq++);
	/* the header is taken aside; the 19 after it are one run, in the ring */
	n = dtl_aux__next(&a, m.base, m.head, SIZE_MAX, bounce, &run);
	CHECK_EQ(n, 19);
	CHECK(run == m.base + 48);
	CHECK(a.header_seen);
	CHECK_EQ(seq_of(run + 18 * 48), 18);
	CHECK_EQ(dtl_aux__next(&a, m.base, m.head, SIZE_MAX, bounce, &run), 0);
	for (int i = 0; i < 3; i++)
		put_entry(&m, seq++);
	/* at 960: the one that straddles comes alone, through bounce */
	n = dtl_aux__next(&a, m.base, m.head, SIZE_MAX, bounce, &run);
	CHECK_EQ(n, 1);
	CHECK(run == bounce);
	CHECK_EQ(seq_of(run), 19);
	n = dtl_aux__next(&a, m.base, m.head, 5, bounce, &run);
	CHECK_EQ(n, 2);
	CHECK(run == m.base + 8);	/* 1008 % 1000: the ring again, in place */
	CHECK_EQ(seq_of(run), 20);
	CHECK_EQ(seq_of(run + 48), 21);
	/* max bounds a run */
	for (int i = 0; i < 4; i++)
		put_entry(&m, seq++);
	CHECK_EQ(dtl_aux__next(&a, m.base, m.head, 3, bounce, &run), 3);
	CHECK_EQ(dtl_aux__next(&a, m.base, m.head, 3, bounce, &run), 1);
	CHECK_EQ(seq_of(run), 25);
	CHECK_EQ(a.pos, m.head);
	free(m.base);
}
