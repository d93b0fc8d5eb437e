/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf.data import: files built to perf.data-file-format.txt, one real file
 * from Debian's perf, and damage of every kind.
 */
#include "t.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dtl/dtl.h"
#include "format/perfdata.h"
#include "format/record.h"
#include "perfdata_gen.h"

#define TB_FREQ 512000000ull
#define BOOT_TB 1000000ull

struct imported {
	int rc;
	char err[512], warn[2048];
	struct dtl_rec_meta m;
	uint64_t tb[4][400];	/* timebases per cpu, in order */
	size_t n[4];
	uint64_t bad[4];
	uint64_t gaps[4];
	int gap_tick[4];	/* the interval (from 0) of the CPU's last gap */
	int per_tick[4][8];	/* entries of the CPU in each interval */
	uint64_t tick_ts[8];
	int ticks;
};

static void entry(uint8_t *p, uint64_t tb, unsigned int i)
{
	struct dtl_rec r = { 0 };

	r.timebase = tb;
	r.dispatch_reason = (uint8_t)(i % DTL_N_DISPATCH);
	r.preempt_reason = (uint8_t)(i % DTL_N_PREEMPT);
	r.enqueue_to_dispatch = 100 + i;
	r.processor_id = (uint16_t)i;
	r.srr0 = 0xc000000000001000ull;
	dtl_rec__encode(&r, p);
}

static void import(const uint8_t *buf, size_t len, struct imported *im)
{
	FILE *in = fmemopen((void *)buf, len ? len : 1, "rb");
	int fd = memfd_create("t", 0);
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	FILE *out;

	memset(im, 0, sizeof(*im));
	if (!len) {
		fclose(in);
		in = tmpfile();
	}
	im->rc = dtl_perfdata__convert(in, "t.data", fd, 1.0, im->err, sizeof(im->err),
				       im->warn, sizeof(im->warn));
	fclose(in);
	if (im->rc) {
		close(fd);
		return;
	}
	lseek(fd, 0, SEEK_SET);
	out = fdopen(fd, "rb");
	r = dtl_rec_reader__open(out, "t.dtl", &im->m, im->err, sizeof(im->err));
	CHECK(r != NULL);
	while (r && dtl_rec_reader__next(r, &ev) > 0) {
		if (ev.kind == DTL_REC_TICK && im->ticks < 8)
			im->tick_ts[im->ticks] = ev.ts_ns;
		if (ev.kind == DTL_REC_TICK)
			im->ticks++;
		if (ev.kind == DTL_REC_ENTRIES && ev.cpu < 4 && im->ticks < 8)
			im->per_tick[ev.cpu][im->ticks] += (int)ev.n;
		if (ev.cpu >= 4)
			continue;
		if (ev.kind == DTL_REC_BAD)
			im->bad[ev.cpu] += ev.value;
		if (ev.kind == DTL_REC_GAP) {
			im->gaps[ev.cpu] += ev.value;
			im->gap_tick[ev.cpu] = im->ticks;
		}
		for (size_t i = 0; ev.kind == DTL_REC_ENTRIES && i < ev.n; i++)
			if (im->n[ev.cpu] < 400)
				im->tb[ev.cpu][im->n[ev.cpu]++] = dtl__be64(ev.data + i * 48 + 16);
	}
	if (r) {
		CHECK(dtl_rec_reader__warning(r) == NULL);
		dtl_rec_reader__close(r);
	}
	fclose(out);
}

/* cpus 0 and 2, 3 seconds of entries each, in several chunks per CPU. */
static uint8_t *two_cpus(size_t *len, int pipe)
{
	struct pd_gen *g = pd_gen__new();
	uint8_t chunk[48 * 41];

	pd_gen__other(g, 3, 24 + 32);			/* COMM of pid 0, with its trailer */
	pd_gen__auxtrace_info(g, 7);
	for (unsigned int c = 0; c <= 2; c += 2) {
		uint64_t pos = 0;

		for (unsigned int k = 0; k < 3; k++) {
			size_t off = 0;

			if (k == 0) {
				pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
				off = 48;
			}
			for (unsigned int i = 0; off < sizeof(chunk); off += 48, i++)
				entry(chunk + off, BOOT_TB + TB_FREQ * k + (i + 1) * 1000 + c, i);
			pd_gen__auxtrace(g, c, pos, chunk, sizeof(chunk));
			pos += sizeof(chunk);
			pd_gen__other(g, 68, 0);		/* FINISHED_ROUND */
		}
	}
	return pd_gen__finish(g, pipe, len);
}

TEST(perfdata_built_to_spec_imports_every_entry_per_cpu)
{
	for (int pipe = 0; pipe <= 1; pipe++) {
		size_t len;
		uint8_t *buf = two_cpus(&len, pipe);
		struct imported *im = malloc(sizeof(*im));

		CHECK(dtl_perfdata__is(buf, len));
		import(buf, len, im);
		CHECK_EQ(im->rc, 0);
		CHECK_EQ(im->m.tb_freq, TB_FREQ);
		CHECK_EQ(im->m.boot_tb, BOOT_TB);
		/* 41 records a chunk, the first of the first is the header */
		CHECK_EQ(im->n[0], 3 * 41 - 1);
		CHECK_EQ(im->n[2], 3 * 41 - 1);
		CHECK_EQ(im->n[1], 0);
		CHECK(dtl_cpuset__has(&im->m.cpus, 2) && !dtl_cpuset__has(&im->m.cpus, 1));
		CHECK_EQ(im->bad[0] + im->bad[2], 0);
		for (size_t i = 1; i < im->n[2]; i++)
			CHECK(im->tb[2][i] > im->tb[2][i - 1]);
		CHECK_EQ(im->tb[2][0], BOOT_TB + 1000 + 2);
		CHECK_EQ(im->ticks, 3);			/* three seconds of timebase, 1 s each */
		CHECK_STR(im->warn, "");
		free(im);
		free(buf);
	}
}

/*
 * dtl-abi.md 5.1: the 6.18 driver reports L stale bytes just before the
 * wrap, in the middle of one AUXTRACE chunk; perf would read every record
 * after them shifted by L. L = size - threshold * 48 with threshold =
 * (size - 32) / 48: 32 bytes for 128 KiB, 48 for 12 KiB (256 * 48), 64 for
 * 64 KiB (1365 * 48 + 16).
 */
TEST(perfdata_upstream_wrap_junk_is_skipped_not_misparsed)
{
	static const struct {
		uint64_t size, junk;
	} cases[] = { { 131072, 32 }, { 12288, 48 }, { 65536, 64 } };

	for (size_t k = 0; k < 3; k++) {
		struct pd_gen *g = pd_gen__new();
		const size_t before = 5, after = 7, threshold = (cases[k].size - 32) / 48;
		uint8_t chunk[48 * 13 + 64];
		struct imported *im = malloc(sizeof(*im));
		uint8_t *buf;
		size_t len, off = 0;

		CHECK_EQ(cases[k].size - threshold * 48, cases[k].junk);
		pd_gen__auxtrace_info(g, 7);
		pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
		pd_gen__auxtrace(g, 1, 0, chunk, 48);
		for (size_t i = 0; i < before; i++, off += 48)
			entry(chunk + off, BOOT_TB + 10 + i, (unsigned int)i);
		memset(chunk + off, 0, cases[k].junk);
		off += cases[k].junk;
		for (size_t i = 0; i < after; i++, off += 48)
			entry(chunk + off, BOOT_TB + 100 + i, (unsigned int)i);
		/* the chunk starts 5 records before the stale tail at threshold*48 */
		pd_gen__auxtrace(g, 1, (threshold - before) * 48, chunk, off);
		buf = pd_gen__finish(g, 0, &len);
		import(buf, len, im);
		CHECK_EQ(im->rc, 0);
		CHECK_EQ(im->n[1], before + after);
		CHECK_EQ(im->tb[1][before], BOOT_TB + 100);
		CHECK_EQ(im->tb[1][before + after - 1], BOOT_TB + 100 + after - 1);
		CHECK_EQ(im->bad[1], 1);		/* the fragment is counted */
		free(im);
		free(buf);
	}
}

TEST(perfdata_without_vpa_dtl_data_is_a_named_error)
{
	struct imported *im = malloc(sizeof(*im));
	struct pd_gen *g = pd_gen__new();
	uint8_t rec[48];
	uint8_t *buf;
	size_t len;

	pd_gen__other(g, 9, 40);			/* SAMPLEs only, as with cpu-clock */
	buf = pd_gen__finish(g, 0, &len);
	import(buf, len, im);
	CHECK_EQ(im->rc, -1);
	CHECK_CONTAINS(im->err, "t.data: no vpa_dtl AUX data");
	free(buf);

	g = pd_gen__new();
	pd_gen__auxtrace_info(g, 1);			/* Intel PT */
	pd_gen__boottb(rec, 1, 2);
	pd_gen__auxtrace(g, 0, 0, rec, 48);
	buf = pd_gen__finish(g, 0, &len);
	import(buf, len, im);
	CHECK_EQ(im->rc, -1);
	CHECK_CONTAINS(im->err, "auxtrace type 1");
	CHECK_CONTAINS(im->err, "offset 768");	/* header 104 + attr 152 + 64 ids */
	free(buf);
	free(im);
}

TEST(perfdata_absurd_lengths_are_named_with_their_offset)
{
	struct imported *im = malloc(sizeof(*im));
	size_t len;
	uint8_t *buf = two_cpus(&len, 0);
	uint64_t huge = ~0ull >> 1, v;

	memcpy(buf + 48, &huge, 8);			/* data section size */
	import(buf, len, im);
	CHECK_EQ(im->rc, -1);
	CHECK_CONTAINS(im->err, "t.data: offset 40: data section");
	free(buf);

	buf = two_cpus(&len, 0);
	memcpy(&v, buf + 40, 8);			/* the first record: COMM */
	buf[v + 6] = buf[v + 7] = 0;			/* of size 0 */
	import(buf, len, im);
	CHECK_EQ(im->rc, -1);
	CHECK_CONTAINS(im->err, "record of 0 bytes");
	free(buf);

	buf = two_cpus(&len, 0);
	v += 64 + 24;					/* the first AUXTRACE's size */
	memcpy(buf + v + 8, &huge, 8);
	import(buf, len, im);
	CHECK_EQ(im->rc, -1);
	CHECK_CONTAINS(im->err, "runs past the data section");
	free(buf);
	free(im);
}

TEST(perfdata_cut_off_anywhere_keeps_what_came_before)
{
	struct imported *im = malloc(sizeof(*im));
	size_t len;
	uint8_t *buf = two_cpus(&len, 0);
	uint64_t data, size;
	int ok = 0, early = 0;

	memcpy(&data, buf + 40, 8);
	memcpy(&size, buf + 48, 8);
	/* The header names the data size, so a cut is damage, never a crash. */
	for (size_t cut = 0; cut < len; cut += 7) {
		import(buf, cut, im);
		if (im->rc) {
			CHECK_CONTAINS(im->err, "t.data");
			continue;
		}
		ok++;
		early += cut < data + size;
		CHECK_EQ(im->n[0], 122);	/* only the features after the data are gone */
	}
	CHECK_EQ(early, 0);			/* no cut into the data section is taken */
	CHECK(ok > 0);
	/* Pipe mode has no such size: a cut after data keeps the data. */
	free(buf);
	buf = two_cpus(&len, 1);
	import(buf, len - 100, im);
	CHECK_EQ(im->rc, 0);
	CHECK_CONTAINS(im->warn, "replayed what came before");
	CHECK(im->n[2] > 0 && im->n[2] < 122);
	CHECK_EQ(im->n[0], 122);
	free(buf);
	free(im);
}

/*
 * The real file Debian's perf 6.1 wrote here (perf record -e cpu-clock -a),
 * with vpa_dtl records appended to its data section and its feature
 * sections moved along: header, attrs and feature handling on bytes nobody
 * here wrote.
 */
TEST(perfdata_real_perf_file_with_vpa_dtl_records_spliced_in)
{
	FILE *f = fopen("tests/data/cpu-clock.perf.data", "rb");
	struct imported *im = malloc(sizeof(*im));
	struct pd_gen *g = pd_gen__new();
	uint8_t *real, *ours, *out, chunk[48 * 3];
	size_t len, olen, add;
	uint64_t data, dsize, feat;

	CHECK(f != NULL);
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	real = malloc(len);
	CHECK(fread(real, 1, len, f) == len);
	fclose(f);
	import(real, len, im);
	CHECK_EQ(im->rc, -1);
	CHECK_CONTAINS(im->err, "no vpa_dtl AUX data");

	pd_gen__auxtrace_info(g, 7);
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	entry(chunk + 48, BOOT_TB + 5, 1);
	entry(chunk + 96, BOOT_TB + 9, 2);
	pd_gen__auxtrace(g, 3, 0, chunk, sizeof(chunk));
	ours = pd_gen__finish(g, 1, &olen);		/* pipe mode: records at 16 */
	add = olen - 16;
	memcpy(&data, real + 40, 8);
	memcpy(&dsize, real + 48, 8);
	feat = data + dsize;
	out = malloc(len + add);
	memcpy(out, real, feat);
	memcpy(out + feat, ours + 16, add);
	memcpy(out + feat + add, real + feat, len - feat);
	dsize += add;
	memcpy(out + 48, &dsize, 8);
	/* adds_features bitmap at 72: one section header per set bit, at feat */
	for (unsigned int bit = 0, k = 0; bit < 256; bit++) {
		uint64_t o;

		if (!(real[72 + bit / 8] & (1u << (bit % 8))))
			continue;
		memcpy(&o, out + feat + add + k * 16, 8);
		o += add;
		memcpy(out + feat + add + k * 16, &o, 8);
		k++;
	}
	import(out, len + add, im);
	CHECK_EQ(im->rc, 0);
	CHECK_EQ(im->n[3], 2);
	CHECK_EQ(im->tb[3][1], BOOT_TB + 9);
	CHECK_EQ(im->m.tb_freq, TB_FREQ);
	CHECK(im->m.host[0] != '\0');		/* HEADER_HOSTNAME, past our records */
	CHECK(memmem(real, len, im->m.host, strlen(im->m.host)) != NULL);
	free(real);
	free(ours);
	free(out);
	free(im);
}

/*
 * perf record's own records: a PARTIAL AUX record of CPU 1 covering the
 * entries of the second second, a LOST record of CPU 2's event. Entries
 * every 0.25 s from 1 s after boot, so each interval holds four.
 */
TEST(perfdata_aux_flags_and_lost_records_become_gaps_where_they_happened)
{
	struct pd_gen *g = pd_gen__new();
	struct imported *im = malloc(sizeof(*im));
	uint8_t chunk[48 * 13], *buf;
	size_t len;

	pd_gen__auxtrace_info(g, 7);
	for (uint32_t c = 0; c < 3; c++) {
		pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
		for (unsigned int i = 0; i < 12; i++)
			entry(chunk + 48 * (i + 1), BOOT_TB + TB_FREQ + i * (TB_FREQ / 4), i);
		pd_gen__auxtrace(g, c, 0, chunk, sizeof(chunk));
	}
	/*
	 * entries 4-7 (AUX bytes 240-431) are the second interval's; the gap is
	 * at entry 7 (byte 384), the last of it, so it must not slip to the third
	 */
	pd_gen__aux(g, 1, 48 * 8, 48, 0x4);
	pd_gen__aux(g, 0, 0, 48 * 13, 0);		/* unflagged: no gap */
	pd_gen__lost(g, 2, 9);
	buf = pd_gen__finish(g, 0, &len);
	import(buf, len, im);
	CHECK_EQ(im->rc, 0);
	CHECK_EQ(im->ticks, 3);
	CHECK_EQ(im->n[1], 12);
	CHECK_EQ(im->gaps[0], 0);
	CHECK_EQ(im->gaps[1], 1);
	CHECK_EQ(im->gap_tick[1], 1);			/* in the second interval */
	CHECK_EQ(im->gaps[2], 1);
	CHECK_EQ(im->gap_tick[2], 2);			/* somewhere: with its last entries */
	CHECK_CONTAINS(im->warn, "t.data: AUX data had gaps in it 1 times out of 2!");
	CHECK_CONTAINS(im->warn, "perf lost 1 records of the vpa_dtl event");
	CHECK_EQ(im->m.mask, DTL_MASK_ALL);
	free(buf);
	free(im);
}

/* perf's own summary words: "N times out of M", lost (TRUNCATED) and collisions apart */
TEST(perfdata_truncated_and_collided_aux_records_counted_out_of_all)
{
	struct pd_gen *g = pd_gen__new();
	struct imported *im = malloc(sizeof(*im));
	uint8_t chunk[48 * 5], *buf;
	size_t len;

	pd_gen__auxtrace_info(g, 7);
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	for (unsigned int i = 0; i < 4; i++)
		entry(chunk + 48 * (i + 1), BOOT_TB + TB_FREQ + i, i);
	pd_gen__auxtrace(g, 0, 0, chunk, sizeof(chunk));
	pd_gen__aux(g, 0, 0, 48, 0x1);		/* TRUNCATED */
	pd_gen__aux(g, 0, 48, 48, 0x1);
	pd_gen__aux(g, 0, 96, 48, 0);
	pd_gen__aux(g, 0, 144, 48, 0);
	pd_gen__aux(g, 0, 192, 48, 0x8);	/* COLLISION */
	buf = pd_gen__finish(g, 0, &len);
	import(buf, len, im);
	CHECK_EQ(im->rc, 0);
	CHECK_CONTAINS(im->warn, "AUX data lost 2 times out of 5!");
	CHECK_CONTAINS(im->warn, "AUX data detected collision 1 times out of 5!");
	free(buf);
	free(im);
}

/* The event's config is the mask it traced; the host name reaches no terminal raw. */
TEST(perfdata_mask_from_the_event_and_host_name_sanitised)
{
	struct pd_gen *g = pd_gen__new();
	struct imported *im = malloc(sizeof(*im));
	uint8_t chunk[48 * 2], *buf;
	size_t len;

	pd_gen__auxtrace_info(g, 7);
	pd_gen__config(g, 0x1);				/* vpa_dtl/dtl_cede/ */
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	entry(chunk + 48, BOOT_TB + 5, 2);
	pd_gen__auxtrace(g, 0, 0, chunk, sizeof(chunk));
	buf = pd_gen__finish_host(g, 0, "lpar\033]2;owned\007", &len);
	import(buf, len, im);
	CHECK_EQ(im->rc, 0);
	CHECK_EQ(im->m.mask, DTL_MASK_CEDE);
	CHECK_STR(im->m.host, "lpar?]2;owned?");
	free(buf);
	free(im);
}

/* A host name that tries to be header lines, a CSI (U+009B) and bytes that are not UTF-8. */
TEST(perfdata_host_name_injects_no_header_key_and_is_valid_utf8)
{
	struct pd_gen *g = pd_gen__new();
	struct imported *im = malloc(sizeof(*im));
	uint8_t chunk[48 * 2], *buf;
	size_t len;

	pd_gen__auxtrace_info(g, 7);
	pd_gen__config(g, 0x7);
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	entry(chunk + 48, BOOT_TB + 5, 2);
	pd_gen__auxtrace(g, 0, 0, chunk, sizeof(chunk));
	buf = pd_gen__finish_host(g, 0, "lp\nlparcfg.partition_entitled_capacity=6400\nnr_cpus=9"
				  "\xc2\x9b" "31m\xff\xc3\xa9", &len);
	import(buf, len, im);
	CHECK_EQ(im->rc, 0);
	CHECK_STR(im->m.host, "lp?lparcfg.partition_entitled_capacity=6400?nr_cpus=9?31m?\xc3\xa9");
	CHECK_STR(im->m.lparcfg, "");		/* no lparcfg key came in with it */
	CHECK_EQ(im->m.nr_cpus, 1);
	free(buf);
	free(im);
}

TEST(sanitize_keeps_utf8_and_replaces_controls_and_what_is_not_utf8)
{
	char s[64];

	snprintf(s, sizeof(s), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");	/* kept whole */
	dtl_sanitize(s);
	CHECK_STR(s, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	snprintf(s, sizeof(s), "a\x1b[2Jb\x7f\xc2\x9b" "c\xc2\x85");	/* C0, DEL, C1 */
	dtl_sanitize(s);
	CHECK_STR(s, "a?[2Jb??c?");
	snprintf(s, sizeof(s), "x\xff\xc0\x80\xed\xa0\x80\xe2\x82");	/* not UTF-8, cut */
	dtl_sanitize(s);
	CHECK_STR(s, "x????????");
	snprintf(s, sizeof(s), "\xf4\x90\x80\x80z");	/* past U+10FFFF */
	dtl_sanitize(s);
	CHECK_STR(s, "????z");
}

/*
 * CPUs 1 and 3 recorded through mmaps 0 and 1: entries go by the record's
 * cpu field. Intervals start at the first entry (2 s after boot) and an
 * entry exactly on an edge opens the next one; rows are stamped with time
 * since boot: the first interval ends 3 s after it.
 */
TEST(perfdata_cpu_field_edges_and_timestamps)
{
	struct pd_gen *g = pd_gen__new();
	struct imported *im = malloc(sizeof(*im));
	uint8_t chunk[48 * 4], *buf;
	size_t len;
	const uint64_t t0 = BOOT_TB + 2 * TB_FREQ;

	pd_gen__auxtrace_info(g, 7);
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	entry(chunk + 48, t0, 1);
	entry(chunk + 96, t0 + TB_FREQ - 1, 2);		/* the last tick of the first second */
	entry(chunk + 144, t0 + TB_FREQ, 3);		/* exactly on the edge: the second */
	pd_gen__auxtrace_idx(g, 0, 1, 0, chunk, sizeof(chunk));
	pd_gen__boottb(chunk, BOOT_TB, TB_FREQ);
	entry(chunk + 48, t0 + 2 * TB_FREQ + 5, 4);
	pd_gen__auxtrace_idx(g, 1, 3, 0, chunk, 96);
	buf = pd_gen__finish(g, 0, &len);
	import(buf, len, im);
	CHECK_EQ(im->rc, 0);
	CHECK_EQ(im->n[0], 0);
	CHECK_EQ(im->n[1], 3);
	CHECK_EQ(im->n[3], 1);
	CHECK(dtl_cpuset__has(&im->m.cpus, 1) && dtl_cpuset__has(&im->m.cpus, 3));
	CHECK(!dtl_cpuset__has(&im->m.cpus, 0));
	CHECK_EQ(im->ticks, 3);
	CHECK_EQ(im->per_tick[1][0], 2);
	CHECK_EQ(im->per_tick[1][1], 1);
	CHECK_EQ(im->per_tick[3][2], 1);
	CHECK_EQ(im->m.start_ns, 2000000000ull);
	CHECK_EQ(im->m.start_tb, t0);
	CHECK_EQ(im->tick_ts[0], 3000000000ull);
	CHECK_EQ(im->tick_ts[2], 5000000000ull);
	free(im);
	free(buf);
}
