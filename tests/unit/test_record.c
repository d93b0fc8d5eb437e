/* Recordings: what is written reads back exactly; damage never crashes. */
#include "t.h"

#include <stdlib.h>
#include <zlib.h>

#include "capture/dtl.h"
#include "capture/record.h"
#include "fakeroot.h"

static char path[256];

static void entries(uint8_t *buf, size_t n, uint64_t base)
{
	for (size_t i = 0; i < n; i++) {
		struct dtl_rec r = { 0 };

		r.timebase = base + i * 977;
		r.enqueue_to_dispatch = (uint32_t)(i * 13);
		r.preempt_reason = (uint8_t)(i % 10);
		r.srr0 = 0xc000000000000000ull + i;
		dtl_rec__encode(&r, buf + i * 48);
	}
}

static void meta(struct dtl_rec_meta *m)
{
	char err[64];

	memset(m, 0, sizeof(*m));
	snprintf(m->dtltop_version, sizeof(m->dtltop_version), "9.9");
	snprintf(m->host, sizeof(m->host), "lpar7");
	snprintf(m->source, sizeof(m->source), "sim");
	m->tb_freq = 512000000;
	m->start_ns = 1735689600000000000ull;
	m->interval_s = 0.5;
	m->mask = 5;
	m->nr_cpus = 8;
	dtl_cpuset__parse(&m->cpus, "0-3,6", err, sizeof(err));
	snprintf(m->lparcfg, sizeof(m->lparcfg), "partition_entitled_capacity=400\ndispatches=9\n");
}

/* A small recording: 3 intervals, entries on two CPUs, every record kind. */
static size_t write_sample(const char *root)
{
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	uint8_t buf[48 * 40];
	char err[512];
	FILE *f;
	long len;

	snprintf(path, sizeof(path), "%s/rec.dtl", root);
	meta(&m);
	w = dtl_rec_writer__open(path, &m, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return 0;
	for (int t = 0; t < 3; t++) {
		entries(buf, 40, 1000000 * (uint64_t)(t + 1));
		CHECK_EQ(dtl_rec_writer__entries(w, 1, buf, 40, 0, 0), 0);
		CHECK_EQ(dtl_rec_writer__entries(w, 6, buf, 7, 3, 1), 0);
		if (t == 1) {
			CHECK_EQ(dtl_rec_writer__mask(w, 2), 0);
			CHECK_EQ(dtl_rec_writer__cpu(w, 3, false), 0);
		}
		CHECK_EQ(dtl_rec_writer__tick(w, m.start_ns + (uint64_t)(t + 1) * 500000000ull, 0.5), 0);
	}
	CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
	f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fclose(f);
	return (size_t)len;
}

TEST(recording_reads_back_every_record_exactly)
{
	const char *root = fakeroot_new();
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct dtl_rec_reader *r;
	uint8_t want[48 * 40];
	char err[512];
	int entries_recs = 0, ticks = 0, lost = 0, bad = 0, masks = 0, cpus = 0;
	FILE *f;

	write_sample(root);
	f = fopen(path, "rb");
	r = dtl_rec_reader__open(f, path, &m, err, sizeof(err));
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_STR(m.dtltop_version, "9.9");
	CHECK_STR(m.host, "lpar7");
	CHECK_EQ(m.tb_freq, 512000000);
	CHECK_NEAR(m.interval_s, 0.5, 1e-12);
	CHECK_EQ(m.mask, 5);
	CHECK_EQ(m.nr_cpus, 8);
	CHECK_EQ(dtl_cpuset__count(&m.cpus), 5);
	CHECK_CONTAINS(m.lparcfg, "partition_entitled_capacity=400\n");
	CHECK_EQ(m.major, DTL_REC_MAJOR);
	while (dtl_rec_reader__next(r, &ev) > 0) {
		switch (ev.kind) {
		case DTL_REC_ENTRIES:
			entries(want, ev.n, 1000000 * (uint64_t)(ticks + 1));
			CHECK(ev.n == 40 || ev.n == 7);
			CHECK(memcmp(ev.data, want, ev.n * 48) == 0);
			entries_recs++;
			break;
		case DTL_REC_LOST: CHECK_EQ(ev.value, 3); CHECK_EQ(ev.cpu, 6); lost++; break;
		case DTL_REC_BAD: CHECK_EQ(ev.value, 1); bad++; break;
		case DTL_REC_MASK: CHECK_EQ(ev.value, 2); masks++; break;
		case DTL_REC_CPU: CHECK_EQ(ev.cpu, 3); CHECK_EQ(ev.value, 0); cpus++; break;
		case DTL_REC_TICK:
			ticks++;
			CHECK(ev.ts_ns == m.start_ns + (uint64_t)ticks * 500000000ull);
			CHECK_NEAR(ev.interval_s, 0.5, 1e-12);
			break;
		}
	}
	CHECK_EQ(entries_recs, 6);
	CHECK_EQ(ticks, 3);
	CHECK_EQ(lost, 3);
	CHECK_EQ(bad, 3);
	CHECK_EQ(masks, 1);
	CHECK_EQ(cpus, 1);
	CHECK(dtl_rec_reader__warning(r) == NULL);
	dtl_rec_reader__close(r);
	fclose(f);
	fakeroot_free(root);
}

TEST(recording_is_never_written_over_an_existing_file)
{
	const char *root = fakeroot_new();
	struct dtl_rec_meta m;
	char err[512];

	write_sample(root);
	meta(&m);
	CHECK(dtl_rec_writer__open(path, &m, err, sizeof(err)) == NULL);
	CHECK_CONTAINS(err, path);
	fakeroot_free(root);
}

/* Read a damaged copy; return how many ticks came out, and the outcome. */
static int read_damaged(const uint8_t *buf, size_t len, int *ticks, char *err, size_t errlen,
			const char **warning)
{
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct dtl_rec_reader *r;
	FILE *f = fmemopen((void *)buf, len ? len : 1, "rb");
	int rc = 0;

	if (!len)
		fclose(f), f = fmemopen((void *)"", 0 + 1, "rb");
	*ticks = 0;
	*warning = NULL;
	r = dtl_rec_reader__open(f, "x.dtl", &m, err, errlen);
	if (!r) {
		fclose(f);
		return -1;
	}
	while (dtl_rec_reader__next(r, &ev) > 0)
		*ticks += ev.kind == DTL_REC_TICK;
	if (dtl_rec_reader__warning(r)) {
		static char w[2048];

		snprintf(w, sizeof(w), "%s", dtl_rec_reader__warning(r));
		*warning = w;
	}
	dtl_rec_reader__close(r);
	fclose(f);
	return rc;
}

TEST(recording_cut_off_anywhere_replays_its_whole_chunks)
{
	const char *root = fakeroot_new();
	size_t len = write_sample(root);
	uint8_t *buf = malloc(len);
	FILE *f = fopen(path, "rb");
	int last = -1, errors = 0, clean = 0;

	CHECK(fread(buf, 1, len, f) == len);
	fclose(f);
	for (size_t cut = 0; cut <= len; cut++) {
		char err[512];
		const char *warning;
		int ticks;

		if (read_damaged(buf, cut, &ticks, err, sizeof(err), &warning) < 0) {
			CHECK_CONTAINS(err, "x.dtl: offset");	/* before any data: an error */
			errors++;
			continue;
		}
		CHECK(ticks >= last);			/* more file, never fewer intervals */
		CHECK(ticks <= 3);
		if (cut < len && ticks < 3 && !warning)
			clean++;			/* cut exactly between two chunks */
		else if (cut < len && ticks < 3)
			CHECK(strstr(warning, "cut off") != NULL);
		last = ticks;
	}
	CHECK_EQ(last, 3);
	CHECK_EQ(clean, 3);				/* the three chunk boundaries */
	CHECK(errors > 16);				/* every cut inside the header chunk */
	free(buf);
	fakeroot_free(root);
}

TEST(recording_damage_is_named_and_valid_data_before_it_kept)
{
	const char *root = fakeroot_new();
	size_t len = write_sample(root);
	uint8_t *buf = malloc(len), *copy = malloc(len);
	FILE *f = fopen(path, "rb");
	char err[512];
	const char *warning;
	int ticks;
	uint32_t meta_len;

	CHECK(fread(buf, 1, len, f) == len);
	fclose(f);
	/* Not a recording at all. */
	memcpy(copy, buf, len);
	copy[0] = 'X';
	CHECK_EQ(read_damaged(copy, len, &ticks, err, sizeof(err), &warning), -1);
	CHECK_CONTAINS(err, "x.dtl: offset 0: not a dtltop recording");
	/* A newer major version. */
	memcpy(copy, buf, len);
	copy[8] = 2;
	CHECK_EQ(read_damaged(copy, len, &ticks, err, sizeof(err), &warning), -1);
	CHECK_CONTAINS(err, "format 2.0");
	/* A flipped byte in the second data chunk's payload. */
	memcpy(&meta_len, buf + 16 + 8, 4);
	{
		size_t first = 16 + 24 + meta_len, second;
		uint32_t l1;

		memcpy(&l1, buf + first + 8, 4);
		second = first + 24 + l1;
		memcpy(copy, buf, len);
		copy[second + 24 + 3] ^= 0x40;
		CHECK_EQ(read_damaged(copy, len, &ticks, err, sizeof(err), &warning), 0);
		CHECK_EQ(ticks, 1);
		CHECK(warning && strstr(warning, "bad checksum"));
		CHECK(warning && strstr(warning, "replayed what came before"));
		/* An absurd length with a consistent header CRC: refused, not allocated. */
		memcpy(copy, buf, len);
		{
			uint32_t huge = 0x7fffffff, crc;

			memcpy(copy + second + 12, &huge, 4);
			crc = (uint32_t)crc32(0, copy + second, 20);
			memcpy(copy + second + 20, &crc, 4);
		}
		CHECK_EQ(read_damaged(copy, len, &ticks, err, sizeof(err), &warning), 0);
		CHECK_EQ(ticks, 1);
		CHECK(warning && strstr(warning, "impossible chunk"));
		/* A damaged chunk header. */
		memcpy(copy, buf, len);
		copy[second + 9] ^= 1;
		CHECK_EQ(read_damaged(copy, len, &ticks, err, sizeof(err), &warning), 0);
		CHECK(warning && strstr(warning, "damaged chunk header"));
	}
	free(buf);
	free(copy);
	fakeroot_free(root);
}
