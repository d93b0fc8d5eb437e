/* SPDX-License-Identifier: GPL-2.0-only */
/* Recordings: what is written reads back exactly; damage never crashes. */
#include "t.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "dtl/dtl.h"
#include "format/marker.h"
#include "format/record.h"
#include "format/recset.h"
#include "format/v2.h"
#include "source/source.h"
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
	m->start_tb = 4242;
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
			CHECK_EQ(dtl_rec_writer__gaps(w, 6, 4), 0);
			CHECK_EQ(dtl_rec_writer__gaps(w, 6, 0), 0);	/* nothing written */
			CHECK_EQ(dtl_rec_writer__symbols(w, "c000000000001000 T foo\n", 23), 0);
		}
		CHECK_EQ(dtl_rec_writer__lparcfg(w, t == 2 ? "purr=2\ntbr=9\n" : "purr=1\n"), 0);
		CHECK_EQ(dtl_rec_writer__vpa_steal(w, 5, 1000 + (uint64_t)t), 0);
		CHECK_EQ(dtl_rec_writer__stat_steal(w, 4, 2000 + (uint64_t)t), 0);
		{
			struct dtl_switch sw[2] = { { 100 + (uint64_t)t, 0, NULL, NULL },
						    { 200 + (uint64_t)t, 42, "db", "/db.slice" } };

			CHECK_EQ(dtl_rec_writer__switches(w, 2, sw, 2), 0);
			CHECK_EQ(dtl_rec_writer__switches(w, 2, sw, 0), 0);	/* nothing written */
		}
		CHECK_EQ(dtl_rec_writer__tick(w, m.start_ns + (uint64_t)(t + 1) * 500000000ull, 0.5,
					      7000 * (uint64_t)(t + 1)), 0);
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
	int entries_recs = 0, ticks = 0, lost = 0, bad = 0, masks = 0, cpus = 0, gaps = 0;
	int lparcfgs = 0, vpas = 0, stats = 0, switches = 0, syms = 0;
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
			CHECK_EQ(ev.end_tb, 7000 * ticks);
			break;
		case DTL_REC_GAP: CHECK_EQ(ev.value, 4); CHECK_EQ(ev.cpu, 6); gaps++; break;
		case DTL_REC_END: T_FAIL("the end marker reached the caller"); break;
		case DTL_REC_MARK:
		case DTL_REC_LAST: T_FAIL("a mark chunk's record among the data"); break;
		case DTL_REC_COUNTS:
		case DTL_REC_INCIDENT:
		case DTL_REC_DROPPED:
		case DTL_REC_TASK: T_FAIL("a summary's record in a raw recording"); break;
		case DTL_REC_STAT_STEAL:
			CHECK_EQ(ev.cpu, 4);
			CHECK_EQ(ev.value, 2000 + (uint64_t)ticks);
			stats++;
			break;
		case DTL_REC_VPA_STEAL:
			CHECK_EQ(ev.cpu, 5);
			CHECK_EQ(ev.value, 1000 + (uint64_t)ticks);
			vpas++;
			break;
		case DTL_REC_SWITCHES:
			CHECK_EQ(ev.cpu, 2);
			CHECK_EQ(ev.n, 2);
			CHECK_EQ(ev.switches[0].tb, 100 + (uint64_t)ticks);
			CHECK(ev.switches[0].comm == NULL && ev.switches[0].pid == 0);
			CHECK_EQ(ev.switches[1].pid, 42);
			CHECK_STR(ev.switches[1].comm, "db");
			CHECK_STR(ev.switches[1].cgroup, "/db.slice");
			switches++;
			break;
		case DTL_REC_SYMBOLS:
			CHECK_EQ(ticks, 1);
			CHECK_EQ(ev.n, 23);
			CHECK(memcmp(ev.data, "c000000000001000 T foo\n", 23) == 0);
			syms++;
			break;
		case DTL_REC_LPARCFG:
			/* before its interval's tick, the text as written */
			CHECK(ev.n == (ticks == 2 ? 13u : 7u));
			CHECK(memcmp(ev.data, ticks == 2 ? "purr=2\ntbr=9\n" : "purr=1\n", ev.n) == 0);
			lparcfgs++;
			break;
		}
	}
	CHECK_EQ(gaps, 1);
	CHECK(dtl_rec_reader__complete(r));
	CHECK_EQ(m.start_tb, 4242);
	CHECK_EQ(entries_recs, 6);
	CHECK_EQ(ticks, 3);
	CHECK_EQ(lparcfgs, 3);
	CHECK_EQ(vpas, 3);
	CHECK_EQ(stats, 3);
	CHECK_EQ(switches, 3);
	CHECK_EQ(syms, 1);
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

/*
 * The sample's events as text, a line each ("kind cpu n value"), entries
 * included unless skimmed (skim), of the file cut at cut bytes; skimming
 * ends after tick skim_to (0: never).
 */
static size_t events_of(const char *file, size_t cut, bool skim, int skim_to, char *out, size_t len,
			char *warning, size_t wlen)
{
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct dtl_rec_reader *r;
	char err[512];
	size_t off = 0;
	int ticks = 0;
	FILE *f = fopen(file, "rb");
	FILE *c = tmpfile();
	uint8_t buf[65536];
	size_t got = fread(buf, 1, cut < sizeof(buf) ? cut : sizeof(buf), f);

	fclose(f);
	fwrite(buf, 1, got, c);
	rewind(c);
	out[0] = warning[0] = '\0';
	r = dtl_rec_reader__open(c, "cut.dtl", &m, err, sizeof(err));
	if (!r) {
		fclose(c);
		return 0;
	}
	dtl_rec_reader__skim(r, skim);
	while (dtl_rec_reader__next(r, &ev) > 0 && off < len) {
		off += (size_t)snprintf(out + off, len - off, "%d %u %zu %llu\n", ev.kind, ev.cpu,
					ev.kind == DTL_REC_ENTRIES ? ev.n : 0,
					(unsigned long long)ev.value);
		if (ev.kind == DTL_REC_ENTRIES) {
			uint8_t want[48 * 40];

			entries(want, ev.n, 1000000 * (uint64_t)(ticks + 1));
			CHECK(memcmp(ev.data, want, ev.n * 48) == 0);
		}
		if (ev.kind == DTL_REC_TICK && ++ticks == skim_to)
			dtl_rec_reader__skim(r, false);
	}
	if (dtl_rec_reader__warning(r))
		snprintf(warning, wlen, "%s", dtl_rec_reader__warning(r));
	dtl_rec_reader__close(r);
	fclose(c);
	return off;
}

/* text without its entries lines */
static void drop_entries(char *text)
{
	char *w = text;

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (strncmp(line, "1 ", 2))
			w += sprintf(w, "%s\n", line);
	*w = '\0';
}

TEST(recording_skimmed_passes_over_entries_alone)
{
	const char *root = fakeroot_new();
	size_t len = write_sample(root);
	static char all[16384], skim[16384], part[16384], wa[2048], ws[2048];

	CHECK_EQ(DTL_REC_ENTRIES, 1);
	events_of(path, len, false, 0, all, sizeof(all), wa, sizeof(wa));
	events_of(path, len, true, 0, skim, sizeof(skim), ws, sizeof(ws));
	CHECK(strstr(all, "\n1 1 40 0\n") != NULL);
	CHECK(strstr(skim, "\n1 ") == NULL && strncmp(skim, "1 ", 2));
	/* off after the first interval: the other two come whole, entries and all */
	events_of(path, len, true, 1, part, sizeof(part), ws, sizeof(ws));
	CHECK(strstr(part, "1 1 40 0\n") != NULL);
	CHECK(strlen(part) > strlen(skim) && strlen(part) < strlen(all));
	drop_entries(all);
	CHECK_STR(skim, all);
	CHECK(!wa[0] && !ws[0]);
	/* a byte of the first chunk's entry columns damaged: read whole, the checksum says so; skimmed, never read */
	{
		uint8_t buf[65536];
		char dam[300];
		FILE *f = fopen(path, "rb");
		size_t n = fread(buf, 1, sizeof(buf), f), at;
		uint32_t zmeta, stored0;

		fclose(f);
		memcpy(&zmeta, buf + 16 + 8, 4);
		at = 16 + 24 + zmeta + 24;		/* the first data chunk's payload */
		memcpy(&stored0, buf + at + 1 + 5, 4);	/* its records stream's stored bytes */
		at += 1 + 11 * 9 + stored0 + 2;		/* into the columns */
		CHECK(at < n);
		buf[at] ^= 0x5a;
		snprintf(dam, sizeof(dam), "%s/dam.dtl", root);
		f = fopen(dam, "wb");
		fwrite(buf, 1, n, f);
		fclose(f);
		events_of(dam, n, false, 0, all, sizeof(all), wa, sizeof(wa));
		events_of(dam, n, true, 0, skim, sizeof(skim), ws, sizeof(ws));
		CHECK_CONTAINS(wa, "bad checksum");
		CHECK_STR(ws, "");
		CHECK(strstr(skim, "\n6 0 0 ") != NULL);	/* its tick, and the others' */
	}
	/* cut anywhere: skimmed, as many records and as named a cut as read whole */
	for (size_t cut = 17; cut < len; cut++) {
		events_of(path, cut, false, 0, all, sizeof(all), wa, sizeof(wa));
		events_of(path, cut, true, 0, skim, sizeof(skim), ws, sizeof(ws));
		drop_entries(all);
		if (strcmp(skim, all) || !wa[0] != !ws[0] || (wa[0] && !strstr(ws, "cut off"))) {
			CHECK_STR(skim, all);
			CHECK_STR(ws, wa);
			break;
		}
	}
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
	copy[8] = 4;
	CHECK_EQ(read_damaged(copy, len, &ticks, err, sizeof(err), &warning), -1);
	CHECK_CONTAINS(err, "format 4.3; this dtltop reads 1.x to 3.x (a newer dtltop wrote it?)");
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

/* Write a header-only recording of m to a memory file and try to open it. */
static struct dtl_rec_reader *reopen(const struct dtl_rec_meta *m, struct dtl_rec_meta *got,
				     FILE **f, char *err, size_t errlen)
{
	int fd = memfd_create("rec", 0);
	struct dtl_rec_writer *w = dtl_rec_writer__open_fd(fd, "mem.dtl", m, err, errlen);

	CHECK(w != NULL);
	CHECK_EQ(dtl_rec_writer__close(w, err, errlen), 0);
	lseek(fd, 0, SEEK_SET);
	*f = fdopen(fd, "rb");
	return dtl_rec_reader__open(*f, "mem.dtl", got, err, errlen);
}

TEST(recording_header_keeps_8192_cpus_whole)
{
	struct dtl_rec_meta m, got;
	struct dtl_rec_reader *r;
	char err[512];
	FILE *f;

	meta(&m);
	/* every other CPU: the longest list there is, once as single numbers */
	dtl_cpuset__clear(&m.cpus);
	for (unsigned int c = 0; c < DTL_MAX_CPUS; c += 2)
		dtl_cpuset__set(&m.cpus, c);
	m.nr_cpus = DTL_MAX_CPUS;
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r != NULL);
	CHECK_EQ(dtl_cpuset__count(&got.cpus), DTL_MAX_CPUS / 2);
	CHECK(dtl_cpuset__has(&got.cpus, 8190) && !dtl_cpuset__has(&got.cpus, 8191));
	dtl_rec_reader__close(r);
	fclose(f);
	dtl_cpuset__fill(&m.cpus, DTL_MAX_CPUS);
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r != NULL);
	CHECK_EQ(dtl_cpuset__count(&got.cpus), DTL_MAX_CPUS);
	dtl_rec_reader__close(r);
	fclose(f);
}

TEST(recording_header_without_cpus_or_with_a_wild_timebase_is_refused)
{
	struct dtl_rec_meta m, got;
	struct dtl_rec_reader *r;
	char err[512];
	FILE *f;

	meta(&m);
	m.nr_cpus = 0;
	dtl_cpuset__clear(&m.cpus);
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r == NULL);
	CHECK_CONTAINS(err, "mem.dtl: offset 16: the header names no CPU");
	fclose(f);
	meta(&m);
	m.tb_freq = 1;
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r == NULL);
	CHECK_CONTAINS(err, "timebase 1 Hz");
	fclose(f);
	m.tb_freq = 200000000000ull;
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r == NULL);
	fclose(f);
	m.tb_freq = 1000000;	/* the lowest that is a timebase */
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r != NULL);
	dtl_rec_reader__close(r);
	fclose(f);
}

TEST(recording_text_reaches_no_terminal_raw)
{
	struct dtl_rec_meta m, got;
	struct dtl_rec_reader *r;
	char err[512];
	FILE *f;

	meta(&m);
	snprintf(m.host, sizeof(m.host), "evil\033]0;pwned\007\033[2J");
	snprintf(m.detail, sizeof(m.detail), "x\033[31my");
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r != NULL);
	CHECK_STR(got.host, "evil?]0;pwned??[2J");
	CHECK_STR(got.detail, "x?[31my");
	dtl_rec_reader__close(r);
	fclose(f);
	/* a newline in any text starts no key of its own */
	meta(&m);
	snprintf(m.detail, sizeof(m.detail), "d\nhost=evil\ncore_threads=4");
	snprintf(m.source, sizeof(m.source), "s\nset_id=ff");
	snprintf(m.dtltop_version, sizeof(m.dtltop_version), "v\npartition_name=evil");
	r = reopen(&m, &got, &f, err, sizeof(err));
	CHECK(r != NULL);
	CHECK_STR(got.host, "lpar7");
	CHECK_EQ(got.core_threads, 0);
	CHECK_EQ(got.set_id, 0);
	CHECK_STR(got.partition_name, "");
	CHECK(strchr(got.detail, '\n') == NULL && strstr(got.detail, "host=evil") != NULL);
	dtl_rec_reader__close(r);
	fclose(f);
}

/*
 * The compressor thread's failures reach the caller: the next flush or the
 * close says so, and the chunks it did write come in order.
 */
TEST(recording_writer_thread_reports_a_failed_write)
{
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	uint8_t e[48 * 64] = { 0 };
	char err[512];
	int fds[2], rc = 0;
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);

	meta(&m);
	CHECK_EQ(pipe(fds), 0);
	w = dtl_rec_writer__open_fd(fds[1], "pipe.dtl", &m, err, sizeof(err));
	CHECK(w != NULL);
	close(fds[1]);
	close(fds[0]);			/* the reader went away: every later write fails */
	for (int i = 0; i < 64; i++)
		e[i * 48 + 23] = (uint8_t)(i + 1);
	for (int t = 0; t < 4 && !rc; t++) {
		rc |= dtl_rec_writer__entries(w, 0, e, 64, 0, 0);
		rc |= dtl_rec_writer__tick(w, (uint64_t)t, 1.0, 0);
	}
	rc |= dtl_rec_writer__close(w, err, sizeof(err));
	CHECK_EQ(rc, -1);
	CHECK_CONTAINS(err, "pipe.dtl");
	CHECK_CONTAINS(err, "Broken pipe");
	signal(SIGPIPE, old);
}

TEST(recording_big_record_comes_back_in_batches_whole)
{
	const char *root = fakeroot_new();
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	size_t n = 150000, got = 0, events = 0;
	uint8_t *buf = malloc(n * 48);
	char err[512];
	bool same = true;
	FILE *f;

	snprintf(path, sizeof(path), "%s/big.dtl", root);
	meta(&m);
	entries(buf, n, 77);
	w = dtl_rec_writer__open(path, &m, err, sizeof(err));
	CHECK(w != NULL);
	CHECK_EQ(dtl_rec_writer__entries(w, 3, buf, n, 0, 0), 0);
	CHECK_EQ(dtl_rec_writer__tick(w, 1, 0.5, 0), 0);
	CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
	f = fopen(path, "rb");
	r = dtl_rec_reader__open(f, path, &m, err, sizeof(err));
	CHECK(r != NULL);
	CHECK_EQ(m.major, 2);
	while (r && dtl_rec_reader__next(r, &ev) > 0) {
		if (ev.kind != DTL_REC_ENTRIES)
			continue;
		/* a reader never holds more than a batch, whatever a record says */
		CHECK(ev.n <= 65536 && ev.cpu == 3);
		same &= got + ev.n <= n && !memcmp(ev.data, buf + got * 48, ev.n * 48);
		got += ev.n;
		events++;
	}
	CHECK(same);
	CHECK_EQ(got, n);
	CHECK_EQ(events, 3);
	CHECK(r && !dtl_rec_reader__warning(r));
	dtl_rec_reader__close(r);
	fclose(f);
	free(buf);
	fakeroot_free(root);
}

/*
 * A ring drained every few milliseconds hands out a CPU's entries a few at a
 * time; blocks of one CPU in a row are one record, read back as one event,
 * while another CPU's block or a loss between them keeps them apart.
 */
TEST(recording_blocks_of_a_cpu_in_a_row_are_one_record)
{
	const char *root = fakeroot_new();
	static const struct { unsigned int cpu; size_t n; uint64_t lost; } blocks[] = {
		{ 2, 3, 0 }, { 2, 4, 0 }, { 2, 1, 0 }, { 5, 2, 0 }, { 2, 2, 1 }, { 2, 3, 0 },
	};
	/* what the reader hands out: cpu 2's 8, cpu 5's 2, cpu 2's 2 (a loss after), cpu 2's 3 */
	static const struct { unsigned int cpu; size_t n; } want[] = { { 2, 8 }, { 5, 2 }, { 2, 2 },
								       { 2, 3 } };
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	uint8_t buf[48 * 15], hdr[24];
	uint32_t records_raw = 0;
	size_t at = 0, k = 0, lost = 0;
	bool same = true;
	char err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/blocks.dtl", root);
	meta(&m);
	entries(buf, 15, 5);
	w = dtl_rec_writer__open(path, &m, err, sizeof(err));
	CHECK(w != NULL);
	for (size_t i = 0; w && i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		CHECK_EQ(dtl_rec_writer__entries(w, blocks[i].cpu, buf + at * 48, blocks[i].n,
						 blocks[i].lost, 0), 0);
		at += blocks[i].n;
	}
	CHECK_EQ(dtl_rec_writer__tick(w, 1, 0.5, 0), 0);
	CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
	/*
	 * Written merged, not only read so (the reader merges old files'): the
	 * chunk's records stream holds 4 entries records (12 bytes each), the
	 * loss (16) and the tick (32), not 6 entries records.
	 */
	f = fopen(path, "rb");
	CHECK(f != NULL && fseek(f, 16, SEEK_SET) == 0);
	while (f && fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr)) {
		uint32_t stored = hdr[8] | hdr[9] << 8 | hdr[10] << 16 | (uint32_t)hdr[11] << 24;
		uint8_t head[10];

		/* the first data chunk: the interval's (the end marker has one of its own) */
		if (hdr[4] == 2 && !records_raw && fread(head, 1, sizeof(head), f) == sizeof(head)) {
			records_raw = head[2] | head[3] << 8 | head[4] << 16 | (uint32_t)head[5] << 24;
			stored -= sizeof(head);
		}
		CHECK_EQ(fseek(f, stored, SEEK_CUR), 0);
	}
	CHECK_EQ(records_raw, 4 * 12 + 16 + 32);
	if (f)
		fclose(f);
	f = fopen(path, "rb");
	r = dtl_rec_reader__open(f, path, &m, err, sizeof(err));
	CHECK(r != NULL);
	at = 0;
	while (r && dtl_rec_reader__next(r, &ev) > 0) {
		lost += ev.kind == DTL_REC_LOST ? ev.value : 0;
		if (ev.kind != DTL_REC_ENTRIES)
			continue;
		same &= k < 4 && ev.cpu == want[k].cpu && ev.n == want[k].n &&
			!memcmp(ev.data, buf + at * 48, ev.n * 48);
		at += ev.n;
		k++;
	}
	CHECK(same);
	CHECK_EQ(k, 4);
	CHECK_EQ(at, 15);
	CHECK_EQ(lost, 1);
	dtl_rec_reader__close(r);
	if (f)
		fclose(f);
	fakeroot_free(root);
}

/*
 * A big partition's long interval: dtltop-format.5 says a writer ends a data
 * chunk whenever its payload passes 4 MiB, so no chunk nears the reader's
 * 64 MiB limit and the writer never holds a whole interval. Walked here by
 * the format's own layout, not through the reader.
 */
TEST(recording_long_interval_keeps_each_chunk_within_its_bound)
{
	const char *root = fakeroot_new();
	enum { PER = 1000, CALLS = 1200 };
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	uint8_t *buf = malloc(PER * 48), hdr[24];
	uint32_t data = 0, max_raw = 0;
	size_t got = 0;
	char err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/long.dtl", root);
	meta(&m);
	w = dtl_rec_writer__open(path, &m, err, sizeof(err));
	CHECK(w != NULL);
	for (int i = 0; w && i < CALLS; i++) {
		entries(buf, PER, 1000 + (uint64_t)i * PER * 977);
		CHECK_EQ(dtl_rec_writer__entries(w, (unsigned int)i % 4, buf, PER, 0, 0), 0);
	}
	CHECK_EQ(dtl_rec_writer__tick(w, 1, 600, 0), 0);	/* one interval holds them all */
	CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
	f = fopen(path, "rb");
	CHECK(f != NULL && fseek(f, 16, SEEK_SET) == 0);
	while (f && fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr)) {
		uint32_t stored = hdr[8] | hdr[9] << 8 | hdr[10] << 16 | (uint32_t)hdr[11] << 24;
		uint32_t raw = hdr[12] | hdr[13] << 8 | hdr[14] << 16 | (uint32_t)hdr[15] << 24;

		if (hdr[4] == 2) {
			data++;
			max_raw = raw > max_raw ? raw : max_raw;
		}
		CHECK_EQ(fseek(f, stored, SEEK_CUR), 0);
	}
	CHECK(data >= 3);
	/* past 4 MiB by at most what one call adds */
	CHECK(max_raw <= (4u << 20) + PER * 48);
	rewind(f);
	r = dtl_rec_reader__open(f, path, &m, err, sizeof(err));
	CHECK(r != NULL);
	while (r && dtl_rec_reader__next(r, &ev) > 0)
		got += ev.kind == DTL_REC_ENTRIES ? ev.n : 0;
	CHECK_EQ(got, (size_t)PER * CALLS);
	CHECK(r && !dtl_rec_reader__warning(r) && dtl_rec_reader__complete(r));
	dtl_rec_reader__close(r);
	fclose(f);
	free(buf);
	fakeroot_free(root);
}

/* One member of a rotated set: an interval of 10 entries on CPU 1. */
static void write_member_id(const char *base, unsigned int seq, uint64_t tb_freq, uint64_t tb0,
			    uint64_t set_id, unsigned int set_seq)
{
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	uint8_t buf[48 * 10];
	char name[300], err[512];

	snprintf(name, sizeof(name), "%s.%u", base, seq);
	meta(&m);
	m.tb_freq = tb_freq;
	m.start_tb = tb0;
	m.set_id = set_id;
	m.set_seq = set_seq;
	w = dtl_rec_writer__open(name, &m, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	entries(buf, 10, tb0 + 1);
	CHECK_EQ(dtl_rec_writer__entries(w, 1, buf, 10, 0, 0), 0);
	CHECK_EQ(dtl_rec_writer__tick(w, m.start_ns + 500000000ull, 0.5, tb0 + 20000), 0);
	CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
}

static void write_member(const char *base, unsigned int seq, uint64_t tb_freq, uint64_t tb0)
{
	write_member_id(base, seq, tb_freq, tb0, 0, 0);
}

/* Entries a replay of the set at base hands out, and its closing warning. */
static size_t replay_set(const char *base, char *warn, size_t len)
{
	struct dtl_source_opts o = { 0 };
	struct dtl_source *src;
	struct dtl_chunk c;
	const char *w = NULL;
	char err[512];
	size_t n = 0;

	o.backend = "replay";
	o.replay = base;
	o.mask = DTL_MASK_ALL;
	src = dtl_source__open(&o, err, sizeof(err));
	CHECK(src != NULL);
	for (int i = 0; src && i < 10 && !dtl_source__ended(src, &w); i++) {
		dtl_source__tick(src, 500000000);
		while (dtl_source__read(src, &c) > 0)
			n += c.n;
	}
	snprintf(warn, len, "%s", w ? w : "");
	dtl_source__close(src);
	return n;
}

/*
 * A rotated set whose next member is another partition's (same CPUs, another
 * timebase frequency) ends there, saying so; one of the same partition goes on.
 */
TEST(recording_set_ends_at_a_member_of_another_partition)
{
	const char *root = fakeroot_new();
	char base[256], warn[2048];

	snprintf(base, sizeof(base), "%s/set.dtl", root);
	write_member(base, 1, 512000000, 4242);
	write_member(base, 2, 512000000, 4242 + 20000);
	CHECK_EQ(replay_set(base, warn, sizeof(warn)), 20);
	CHECK_STR(warn, "");
	snprintf(base, sizeof(base), "%s/mixed.dtl", root);
	write_member(base, 1, 512000000, 4242);
	write_member(base, 2, 1000000000, 4242 + 20000);
	CHECK_EQ(replay_set(base, warn, sizeof(warn)), 10);
	CHECK_CONTAINS(warn, "mixed.dtl.2: not the partition of the files before it");
	fakeroot_free(root);
}

/*
 * A set goes on to FILE.N+1 only where it continues FILE.N: the same run's
 * identity and number, and time not going back; -r FILE.N starts there.
 */
/* Second files of a set that do not continue its first, and what the replay says of each. */
static const struct splice {
	const char *name;
	uint64_t id1, id2, tb2;
	unsigned int seq2;
	const char *warn;
} splices[] = {
	/* another run's file, even one that would continue in time */
	{ "b.dtl", 0x77, 0x78, 4242 + 20000, 2, "b.dtl.2: another recording (set 0000000000000078 "
	  "file 2, not set 0000000000000077 file 2)" },
	/* the same run's file 3 copied in as 2, and a file with no identity after one with */
	{ "c.dtl", 0x77, 0x77, 4242 + 20000, 3, "c.dtl.2: another recording" },
	{ "d.dtl", 0x77, 0, 4242 + 20000, 0, "d.dtl.2: another recording" },
	/* no identities (an older writer): time going back ends it */
	{ "e.dtl", 0, 0, 4242 + 19999, 0, "e.dtl.2: it begins before the file before it ended "
	  "(timebase 24241, not 24242 or later)" },
};

TEST(recording_set_never_splices_two_runs)
{
	const char *root = fakeroot_new();
	char base[256], warn[2048], name[300];
	struct dtl_rec_meta m;
	struct dtl_rec_reader *r;
	unsigned int n = 0;
	FILE *f;

	snprintf(base, sizeof(base), "%s/a.dtl", root);
	write_member_id(base, 11, 512000000, 4242, 0x77, 11);
	write_member_id(base, 12, 512000000, 4242 + 20000, 0x77, 12);
	CHECK_EQ(replay_set(base, warn, sizeof(warn)), 20);
	CHECK_STR(warn, "");
	/* the identity comes back, its number in decimal */
	snprintf(name, sizeof(name), "%s.12", base);
	f = fopen(name, "rb");
	r = dtl_rec_reader__open(f, name, &m, warn, sizeof(warn));
	CHECK(r != NULL);
	CHECK_EQ(m.set_id, 0x77);
	CHECK_EQ(m.set_seq, 12);
	dtl_rec_reader__close(r);
	fclose(f);
	/* -r FILE.12: the set from there */
	CHECK_EQ(replay_set(name, warn, sizeof(warn)), 10);
	CHECK_STR(warn, "");
	/* a second file that does not continue the first: the replay ends with the first, said */
	for (size_t i = 0; i < sizeof(splices) / sizeof(splices[0]); i++) {
		const struct splice *x = &splices[i];

		snprintf(base, sizeof(base), "%s/%s", root, x->name);
		write_member_id(base, 1, 512000000, 4242, x->id1, x->id1 ? 1 : 0);
		write_member_id(base, 2, 512000000, x->tb2, x->id2, x->seq2);
		CHECK_EQ(replay_set(base, warn, sizeof(warn)), 10);
		CHECK_CONTAINS(warn, x->warn);
	}
	/* the numbering a restart goes on from, and what names a member */
	CHECK_EQ(dtl_rec_set__highest(base), 2);
	snprintf(name, sizeof(name), "%s/none.dtl", root);
	CHECK_EQ(dtl_rec_set__highest(name), 0);
	CHECK(dtl_rec_set__member("x/rec.dtl.12", name, sizeof(name), &n));
	CHECK_STR(name, "x/rec.dtl");
	CHECK_EQ(n, 12);
	CHECK(!dtl_rec_set__member("rec.dtl", name, sizeof(name), &n));
	CHECK(!dtl_rec_set__member("rec.0", name, sizeof(name), &n));
	CHECK(!dtl_rec_set__member("rec.1x", name, sizeof(name), &n));
	CHECK(!dtl_rec_set__member(".5", name, sizeof(name), &n));
	/* a base that does not fit is no member, never a cut one */
	CHECK(dtl_rec_set__member("12345678.3", name, 9, &n));
	CHECK_STR(name, "12345678");
	CHECK(!dtl_rec_set__member("123456789.3", name, 9, &n));
	fakeroot_free(root);
}

/* Symbols past a record's bound go in several, each of whole lines, together the text. */
TEST(recording_symbols_split_at_lines)
{
	const char *root = fakeroot_new();
	size_t len = 0, got = 0;
	char *text = malloc(3u << 20), *back = malloc(3u << 20), err[512];
	struct dtl_rec_writer *w;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	struct dtl_rec_meta m;
	int recs = 0;
	FILE *f;

	CHECK(text && back);
	if (!text || !back)
		return;
	for (unsigned int i = 0; len < DTL_REC_SYMBOLS_MAX + DTL_REC_SYMBOLS_MAX / 2; i++)
		len += (size_t)sprintf(text + len, "%016x T function_number_%u\n", i * 16, i);
	snprintf(path, sizeof(path), "%s/syms.dtl", root);
	meta(&m);
	w = dtl_rec_writer__open(path, &m, err, sizeof(err));
	CHECK(w != NULL);
	if (w) {
		CHECK_EQ(dtl_rec_writer__symbols(w, text, len), 0);
		CHECK_EQ(dtl_rec_writer__tick(w, m.start_ns + 1, 1, 0), 0);
		CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
	}
	f = fopen(path, "rb");
	r = f ? dtl_rec_reader__open(f, path, &m, err, sizeof(err)) : NULL;
	CHECK(r != NULL);
	while (r && dtl_rec_reader__next(r, &ev) > 0) {
		if (ev.kind != DTL_REC_SYMBOLS)
			continue;
		CHECK(ev.n <= DTL_REC_SYMBOLS_MAX);
		CHECK(ev.n && ev.data[ev.n - 1] == '\n');
		if (got + ev.n <= (3u << 20))
			memcpy(back + got, ev.data, ev.n);
		got += ev.n;
		recs++;
	}
	CHECK_EQ(recs, 2);
	CHECK_EQ(got, len);
	CHECK(got == len && memcmp(back, text, len) == 0);
	dtl_rec_reader__close(r);
	if (f)
		fclose(f);
	free(text), free(back);
	fakeroot_free(root);
}

/*
 * A replay's marks: 120 intervals of 3 CPUs, each with switches (a task
 * named at its first switch, renamed once), entries, a mask change and a
 * CPU going off and on line. Read once; then back to the start and on from
 * the last mark before interval 90, the restatement first: each CPU's last
 * switch and every name told before the mark, then every interval after it
 * as the first read handed it out, the mask and the CPUs as they stood.
 */
#define MK_IV 120
#define MK_CPUS 3

/* each CPU's last switch's instant at each interval's end, as the first read of a test had it */
static uint64_t mk_last_tb[MK_IV + 1][MK_CPUS];

static uint64_t mk_digest(uint64_t h, const struct dtl_chunk *c)
{
	h = h * 1000003u ^ c->cpu ^ (uint64_t)c->n << 8 ^ c->lost << 24;
	for (size_t i = 0; i < c->n; i++)
		h = h * 31 + c->data[i * 48 + 17];
	for (size_t i = 0; i < c->nswitches; i++) {
		h = h * 1000003u ^ c->switches[i].tb ^ (uint64_t)(uint32_t)c->switches[i].pid << 40;
		for (const char *s = c->switches[i].comm; s && *s; s++)
			h = h * 31 + (uint8_t)*s;
	}
	return h;
}

/* with_marks: the file carries its own marks (2.3), as dtltop -w writes them */
static void write_marked_file(const char *file, bool with_marks)
{
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	struct dtl_rec_marker *k = NULL;
	uint8_t buf[48 * 4];
	char err[512], comm[16];

	meta(&m);
	dtl_cpuset__parse(&m.cpus, "0-2", err, sizeof(err));
	w = dtl_rec_writer__open(file, &m, err, sizeof(err));
	CHECK(w != NULL);
	if (w && with_marks) {
		k = dtl_rec_marker__new(m.nr_cpus, &m.cpus, m.mask);
		CHECK(k != NULL);
		dtl_rec_writer__use_marker(w, k);
	}
	for (unsigned int iv = 0; w && iv < MK_IV; iv++) {
		uint64_t tb = 4242 + (uint64_t)iv * 1000000;

		for (unsigned int cpu = 0; cpu < MK_CPUS; cpu++) {
			int32_t pid = (int32_t)(100 + (iv * 7 + cpu * 3) % 40);
			struct dtl_switch sw[2] = { { tb + cpu, pid, NULL, NULL },
						    { tb + 500 + cpu, pid + 1, NULL, NULL } };

			/* a pid is named the first time it runs; CPU 0's (110) renamed at interval 70 */
			snprintf(comm, sizeof(comm), "t%d%s", (int)pid, iv >= 70 ? "x" : "");
			if (iv < 14 || (iv == 70 && cpu == 0)) {
				sw[0].comm = comm;
				sw[0].cgroup = "/t.slice";
			}
			CHECK_EQ(dtl_rec_writer__switches(w, cpu, sw, 2), 0);
			entries(buf, 4, tb + 600 + cpu);
			CHECK_EQ(dtl_rec_writer__entries(w, cpu, buf, 4, iv % 9 == cpu, 0), 0);
		}
		if (iv == 10 || iv == 80 || iv == 100) {
			char sym[64];

			snprintf(sym, sizeof(sym), "c0000000000%05x T f%u\n", iv * 16, iv);
			CHECK_EQ(dtl_rec_writer__symbols(w, sym, strlen(sym)), 0);
		}
		if (iv == 50)
			CHECK_EQ(dtl_rec_writer__mask(w, DTL_MASK_CEDE), 0);
		if (iv == 60)
			CHECK_EQ(dtl_rec_writer__cpu(w, 2, false), 0);
		if (iv == 100)
			CHECK_EQ(dtl_rec_writer__cpu(w, 2, true), 0);
		CHECK_EQ(dtl_rec_writer__tick(w, m.start_ns + (iv + 1) * 500000000ull, 0.5,
					      tb + 900000), 0);
	}
	CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
	dtl_rec_marker__delete(k);
}

static void write_marked(const char *file)
{
	write_marked_file(file, false);
}

/* A boundary is between chunks: not within one, not after the end; there a seek reads on. */
TEST(recording_boundary_only_between_chunks)
{
	const char *root = fakeroot_new();
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	uint8_t buf[48 * 4];
	uint64_t off = 0, at = 0;
	int ticks = 0;
	char err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bound.dtl", root);
	meta(&m);
	entries(buf, 4, 100);
	w = dtl_rec_writer__open(path, &m, err, sizeof(err));
	CHECK(w != NULL);
	for (int i = 0; w && i < 2; i++) {
		CHECK_EQ(dtl_rec_writer__entries(w, 1, buf, 4, 0, 0), 0);
		CHECK_EQ(dtl_rec_writer__tick(w, m.start_ns + 500000000ull * (i + 1), 0.5, 0), 0);
	}
	CHECK_EQ(dtl_rec_writer__close(w, err, sizeof(err)), 0);
	f = fopen(path, "rb");
	r = f ? dtl_rec_reader__open(f, path, &m, err, sizeof(err)) : NULL;
	CHECK(r != NULL);
	while (r && dtl_rec_reader__next(r, &ev) > 0) {
		if (ev.kind == DTL_REC_ENTRIES)
			CHECK(!dtl_rec_reader__boundary(r, &off));	/* its tick still to come */
		if (ev.kind == DTL_REC_TICK && ticks++ == 0) {
			CHECK(dtl_rec_reader__boundary(r, &at));
			CHECK(at > 0);
		}
	}
	CHECK_EQ(ticks, 2);
	CHECK(r && !dtl_rec_reader__boundary(r, &off));		/* done */
	/* from the first tick's boundary: the second interval again */
	CHECK_EQ(r ? dtl_rec_reader__seek(r, at) : -1, 0);
	ticks = 0;
	while (r && dtl_rec_reader__next(r, &ev) > 0)
		ticks += ev.kind == DTL_REC_TICK;
	CHECK_EQ(ticks, 1);
	dtl_rec_reader__close(r);
	if (f)
		fclose(f);
	fakeroot_free(root);
}

/* The first read of the marked file: each interval's chunks, and where things stood at its end. */
static void first_read(struct dtl_source *src, uint64_t *digest, unsigned int *mask, bool *cpu2,
		       int32_t (*last)[MK_CPUS])
{
	struct dtl_chunk c;

	for (int iv = 1; src && iv <= MK_IV; iv++) {
		dtl_source__tick(src, 500000000);
		memcpy(last[iv], last[iv - 1], sizeof(last[iv]));
		memcpy(mk_last_tb[iv], mk_last_tb[iv - 1], sizeof(mk_last_tb[iv]));
		while (dtl_source__read(src, &c) > 0) {
			digest[iv] = mk_digest(digest[iv], &c);
			if (c.nswitches && c.cpu < MK_CPUS) {
				last[iv][c.cpu] = c.switches[c.nswitches - 1].pid;
				mk_last_tb[iv][c.cpu] = c.switches[c.nswitches - 1].tb;
			}
		}
		mask[iv] = dtl_source__mask(src);
		cpu2[iv] = dtl_cpuset__has(dtl_source__cpus(src), 2);
	}
}

static void seek_from(struct dtl_source *src, uint64_t target, const uint64_t *digest,
		      const unsigned int *mask, const bool *cpu2, int32_t (*last)[MK_CPUS],
		      bool rewind_first)
{
	struct dtl_chunk c;
	uint64_t at = 0;
	bool renamed = false;
	char err[512];
	int rc;

	if (rewind_first)
		CHECK_EQ(dtl_source__rewind(src, err, sizeof(err)), 0);
	rc = dtl_source__seek(src, target, 0, &at, err, sizeof(err));
	CHECK_EQ(rc, 0);
	/* marks every 32 intervals: the last at or before the target */
	CHECK(at <= target && at + 32 > target);
	if (rc || !at || at > MK_IV)
		return;
	CHECK_EQ(dtl_source__mask(src), mask[at]);
	CHECK_EQ(dtl_cpuset__has(dtl_source__cpus(src), 2), cpu2[at]);
	/* the restatement: names told before the mark, then each CPU's last switch */
	dtl_source__tick(src, 500000000);
	for (unsigned int cpu = 0; cpu < MK_CPUS; cpu++) {
		CHECK_EQ(dtl_source__read(src, &c), 1);
		CHECK_EQ(c.cpu, cpu);
		CHECK_EQ(c.n, 0);
		CHECK(c.nswitches >= 1);
		if (!c.nswitches)
			continue;
		CHECK_EQ(c.switches[c.nswitches - 1].pid, last[at][cpu]);
		CHECK_EQ(c.switches[c.nswitches - 1].tb, mk_last_tb[at][cpu]);
		CHECK(c.switches[c.nswitches - 1].comm == NULL);
		for (size_t i = 0; i + 1 < c.nswitches; i++) {
			CHECK(c.switches[i].comm != NULL);
			CHECK(c.switches[i].cgroup && strcmp(c.switches[i].cgroup, "/t.slice") == 0);
			CHECK_EQ(c.switches[i].tb, c.switches[c.nswitches - 1].tb);
			renamed |= c.switches[i].comm && strcmp(c.switches[i].comm, "t110x") == 0;
		}
	}
	CHECK_EQ(renamed, at > 70);
	/* then every interval as the first read had it */
	for (uint64_t iv = at + 1; iv <= MK_IV; iv++) {
		uint64_t d = 0;

		if (iv > at + 1)
			dtl_source__tick(src, 500000000);
		while (dtl_source__read(src, &c) > 0)
			d = mk_digest(d, &c);
		if (d != digest[iv] || dtl_source__mask(src) != mask[iv] ||
		    dtl_cpuset__has(dtl_source__cpus(src), 2) != cpu2[iv])
			T_FAIL("interval %llu differs after the seek", (unsigned long long)iv);
	}
}

static void seek_and_compare(struct dtl_source *src, uint64_t target, const uint64_t *digest,
			     const unsigned int *mask, const bool *cpu2, int32_t (*last)[MK_CPUS])
{
	seek_from(src, target, digest, mask, cpu2, last, true);
}

static void read_to(struct dtl_source *src, uint64_t from, uint64_t to)
{
	struct dtl_chunk c;

	for (uint64_t iv = from; src && iv < to; iv++) {
		dtl_source__tick(src, 500000000);
		while (dtl_source__read(src, &c) > 0)
			;
	}
}

TEST(replay_seeks_from_a_mark_as_a_read_from_the_start)
{
	const char *root = fakeroot_new();
	static uint64_t digest[MK_IV + 1];
	static unsigned int mask[MK_IV + 1];
	static bool cpu2[MK_IV + 1];
	static int32_t last[MK_IV + 1][MK_CPUS];
	struct dtl_source_opts o = { 0 };
	struct dtl_source *src;
	uint64_t at = 0;
	char file[300], err[512];
	const char *none;
	size_t syms;

	snprintf(file, sizeof(file), "%s/marked.dtl", root);
	write_marked(file);
	o.backend = "replay";
	o.replay = file;
	o.mask = DTL_MASK_ALL;
	src = dtl_source__open(&o, err, sizeof(err));
	CHECK(src != NULL);
	/* the first read: each interval's chunks, and where things stood at its end */
	first_read(src, digest, mask, cpu2, last);
	syms = src ? strlen(dtl_source__kallsyms(src, &none)) : 0;
	CHECK(syms > 0);
	/* nothing marked ahead of the end */
	CHECK_EQ(src ? dtl_source__seek(src, 90, 0, &at, err, sizeof(err)) : -1, 1);
	for (int k = 0; src && k < 2; k++)
		seek_and_compare(src, k ? 115 : 90, digest, mask, cpu2, last);
	/* each function once, however often read again */
	CHECK_EQ(src ? strlen(dtl_source__kallsyms(src, &none)) : 0, syms);
	dtl_source__close(src);
	/*
	 * Read to 70, back to the start, on to the end (the mark at 96 taken
	 * after a rewind), back to 96: the symbols still each once.
	 */
	src = dtl_source__open(&o, err, sizeof(err));
	read_to(src, 0, 70);
	CHECK_EQ(src ? dtl_source__rewind(src, err, sizeof(err)) : -1, 0);
	CHECK_EQ(src ? dtl_source__seek(src, 10, 0, &at, err, sizeof(err)) : -1, 1);
	read_to(src, 0, MK_IV);
	CHECK_EQ(src ? dtl_source__rewind(src, err, sizeof(err)) : -1, 0);
	CHECK_EQ(src ? dtl_source__seek(src, 110, 0, &at, err, sizeof(err)) : -1, 0);
	CHECK_EQ(at, 96);
	read_to(src, at, MK_IV);
	CHECK_EQ(src ? strlen(dtl_source__kallsyms(src, &none)) : 0, syms);
	dtl_source__close(src);
	fakeroot_free(root);
}

/*
 * A recording's own marks (2.3): a replay that has read nothing yet seeks
 * from the last of them before its target (--begin far in), restating the
 * names, who runs, the mask, the CPUs and the symbols as a read from the
 * start would have them; an older dtltop reads the same file as before.
 */
TEST(replay_seeks_from_the_recording_s_own_marks)
{
	const char *root = fakeroot_new();
	static uint64_t digest[MK_IV + 1];
	static unsigned int mask[MK_IV + 1];
	static bool cpu2[MK_IV + 1];
	static int32_t last[MK_IV + 1][MK_CPUS];
	struct dtl_source_opts o = { 0 };
	struct dtl_source *src;
	uint64_t at = 0;
	char file[300], err[512];
	const char *none, *syms;

	snprintf(file, sizeof(file), "%s/own.dtl", root);
	write_marked_file(file, true);
	o.backend = "replay";
	o.replay = file;
	o.mask = DTL_MASK_ALL;
	src = dtl_source__open(&o, err, sizeof(err));
	CHECK(src != NULL);
	first_read(src, digest, mask, cpu2, last);
	dtl_source__close(src);
	/* fresh each time: nothing read, the file's marks (32, 64, 96) the only ones */
	for (int k = 0; k < 3; k++) {
		static const uint64_t target[] = { 90, 115, 40 }, want[] = { 64, 96, 32 };

		src = dtl_source__open(&o, err, sizeof(err));
		CHECK(src != NULL);
		CHECK_EQ(src ? dtl_source__seek(src, target[k], 0, &at, err, sizeof(err)) : -1, 0);
		CHECK_EQ(at, want[k]);
		syms = src ? dtl_source__kallsyms(src, &none) : NULL;
		/* the functions told before the mark: f10 always, f80 before 96 */
		CHECK(syms && strstr(syms, " f10\n"));
		CHECK_EQ(syms && strstr(syms, " f80\n"), at > 80);
		if (src)
			seek_and_compare(src, target[k], digest, mask, cpu2, last);
		dtl_source__close(src);
	}
	/*
	 * Read a while first (a TUI shows its first interval at once), then a
	 * jump far ahead: from the file's mark, the replay's names so far the
	 * start of the file's.
	 */
	src = dtl_source__open(&o, err, sizeof(err));
	read_to(src, 0, 20);
	if (src)
		seek_from(src, 100, digest, mask, cpu2, last, false);
	dtl_source__close(src);
	/* the same without its marks: nothing to seek from before reading */
	snprintf(file, sizeof(file), "%s/none.dtl", root);
	write_marked_file(file, false);
	src = dtl_source__open(&o, err, sizeof(err));
	CHECK_EQ(src ? dtl_source__seek(src, 90, 0, &at, err, sizeof(err)) : -1, 1);
	dtl_source__close(src);
	fakeroot_free(root);
}

/*
 * tests/data/v2.2-sim.dtl was written a record a drain (a few entries each,
 * before the writer merged a CPU's blocks in a row): the reader hands a CPU's
 * records in a row out as one block, never two short ones of a CPU in a row.
 */
TEST(recording_old_blocks_of_a_cpu_in_a_row_read_as_one)
{
	struct dtl_rec_meta m;
	struct dtl_rec_reader *r;
	struct dtl_rec_event ev;
	FILE *f = fopen("tests/data/v2.2-sim.dtl", "rb");
	size_t events = 0, entries = 0, short_twice = 0, prev_n = 0;
	int prev_cpu = -1;
	char err[512];

	CHECK(f != NULL);
	r = f ? dtl_rec_reader__open(f, "v2.2-sim.dtl", &m, err, sizeof(err)) : NULL;
	CHECK(r != NULL);
	while (r && dtl_rec_reader__next(r, &ev) > 0) {
		if (ev.kind != DTL_REC_ENTRIES) {
			prev_cpu = -1;
			continue;
		}
		short_twice += (int)ev.cpu == prev_cpu && prev_n < DTL_V2_BATCH;
		prev_cpu = (int)ev.cpu;
		prev_n = ev.n;
		events++;
		entries += ev.n;
	}
	CHECK_EQ(short_twice, 0);
	/* 4 CPUs, 12 intervals, a chunk each: a block a CPU an interval, entries by the hundred */
	CHECK(events <= 4 * 12);
	CHECK(entries > 100 * events);
	CHECK(r && !dtl_rec_reader__warning(r));
	dtl_rec_reader__close(r);
	if (f)
		fclose(f);
}

/*
 * Past 256 marks every other one goes and the spacing doubles: 8300
 * intervals of one CPU leave the last marks 64 apart, and a seek still reads
 * on from one as from the start.
 */
TEST(replay_marks_thin_past_their_bound)
{
	const char *root = fakeroot_new();
	struct dtl_source_opts o = { 0 };
	struct dtl_rec_meta m;
	struct dtl_rec_writer *w;
	struct dtl_source *src;
	struct dtl_chunk c;
	uint8_t buf[48];
	uint64_t at = 0, first = 0, again = 0;
	char file[300], err[512];
	const int n = 8300;

	snprintf(file, sizeof(file), "%s/long.dtl", root);
	meta(&m);
	w = dtl_rec_writer__open(file, &m, err, sizeof(err));
	CHECK(w != NULL);
	for (int iv = 0; w && iv < n; iv++) {
		struct dtl_switch sw = { 4242 + (uint64_t)iv * 1000, 100 + iv % 7, NULL, NULL };

		entries(buf, 1, 4242 + (uint64_t)iv * 1000 + 10);
		dtl_rec_writer__switches(w, 1, &sw, 1);
		dtl_rec_writer__entries(w, 1, buf, 1, 0, 0);
		dtl_rec_writer__tick(w, m.start_ns + (uint64_t)(iv + 1) * 500000000ull, 0.5, 0);
	}
	CHECK_EQ(w ? dtl_rec_writer__close(w, err, sizeof(err)) : -1, 0);
	o.backend = "replay";
	o.replay = file;
	o.mask = DTL_MASK_ALL;
	src = dtl_source__open(&o, err, sizeof(err));
	CHECK(src != NULL);
	for (int iv = 1; src && iv <= n; iv++) {
		dtl_source__tick(src, 500000000);
		while (dtl_source__read(src, &c) > 0)
			if (iv > 8280)
				first += c.nswitches ? (uint64_t)c.switches[0].pid * (uint64_t)iv : c.n;
	}
	CHECK_EQ(src ? dtl_source__rewind(src, err, sizeof(err)) : -1, 0);
	CHECK_EQ(src ? dtl_source__seek(src, 8280, 0, &at, err, sizeof(err)) : -1, 0);
	/* 256 marks at 32, 64, ..., 8192; the 257th thins them to 32, 96, ..., 8160, then 64 apart */
	CHECK_EQ(at, 8224);
	for (uint64_t iv = at + 1; src && iv <= (uint64_t)n; iv++) {
		dtl_source__tick(src, 500000000);
		while (dtl_source__read(src, &c) > 0)
			if (iv > 8280)
				again += c.nswitches ? (uint64_t)c.switches[c.nswitches - 1].pid * iv : c.n;
	}
	CHECK_EQ(again, first);
	/* the marks kept from before the thinning, every other: 7968 for 8000 */
	CHECK_EQ(src ? dtl_source__rewind(src, err, sizeof(err)) : -1, 0);
	CHECK_EQ(src ? dtl_source__seek(src, 8000, 0, &at, err, sizeof(err)) : -1, 0);
	CHECK_EQ(at, 7968);
	dtl_source__close(src);
	fakeroot_free(root);
}
