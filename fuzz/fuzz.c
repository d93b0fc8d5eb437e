/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.c - libFuzzer targets for every parser of outside bytes; pick one
 * with -DFUZZ_<NAME>. Each asserts the parser's own promises, not just
 * "no crash".
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dtl/aux.h"
#include "dtl/name.h"
#include "dtl/sideband.h"
#include "platform/caps.h"
#include "platform/cpuset.h"
#include "dtl/dtl.h"
#include "format/perfdata.h"
#include "format/mark.h"
#include "format/record.h"
#include "format/request.h"
#include "opts/rows.h"
#include "source/sim.h"
#include "platform/ksyms.h"
#include "platform/sys.h"
#include "platform/vpa.h"
#include "stats/stats.h"
#include "stats/task.h"
#include "view/webconfig.h"

static __attribute__((unused)) char *cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#ifdef FUZZ_REQUEST
/* Each request a service's viewer wrote: a mask it could hold, in order. */
static void took(void *ctx, unsigned int kind, unsigned int value)
{
	size_t *n = ctx;

	assert(kind == DTL_REQ_MASK && value >= 1 && value <= DTL_MASK_ALL);
	++*n;
}
#endif

#ifdef FUZZ_RECORDING
#include <zlib.h>
#include <zstd.h>

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A chunk of type and codec around payload at o, both checksums right; its end. */
static uint8_t *chunk(uint8_t *o, int type, int codec, const uint8_t *payload, size_t len,
		      size_t rawlen)
{
	put32(o, 0x434c5444u);
	o[4] = (uint8_t)type;
	o[5] = (uint8_t)codec;
	o[6] = o[7] = 0;
	put32(o + 8, (uint32_t)len);
	put32(o + 12, (uint32_t)rawlen);
	put32(o + 16, (uint32_t)crc32(0, payload, (uInt)len));
	put32(o + 20, (uint32_t)crc32(0, o, 20));
	memcpy(o + 24, payload, len);
	return o + 24 + len;
}

/*
 * The checksums and zstd would stop nearly every mutation at the door, so
 * an input whose first byte is odd is not a file but what a data chunk
 * holds, and the target writes the file around it, checksums right: byte 1
 * picks format 1 (the bytes are the records, zstd-compressed) or 2 (the
 * next 11 bytes are the streams' lengths in 4-byte units, each stream's
 * codec that byte modulo 3: stored, compressed here, or Rice as given),
 * then a tick.
 */
/* A format 2 data chunk of 11 streams; codec[s] 1 compresses stream s here, 0 and 2 store it. */
static uint8_t *chunk2(uint8_t *o, int type, const uint8_t *const st[11], const size_t len[11],
		       const int codec[11], uint8_t *pay, size_t cap)
{
	size_t off = 1 + 11 * 9, raw = 0;

	pay[0] = 11;
	for (int s = 0; s < 11; s++) {
		uint8_t *h = pay + 1 + s * 9;
		size_t zl = len[s];

		h[0] = (uint8_t)codec[s];
		if (codec[s] == 1)
			zl = ZSTD_compress(pay + off, cap - off, st[s], len[s], 1);
		else if (len[s])
			memcpy(pay + off, st[s], len[s]);
		put32(h + 1, (uint32_t)len[s]);
		put32(h + 5, (uint32_t)zl);
		off += zl;
		raw += len[s];
	}
	return chunk(o, type, 2, pay, off, raw);
}

/*
 * The checksums and zstd would stop nearly every mutation at the door, so
 * an input whose first byte is odd is not a file but what a data chunk
 * holds, and the target writes the file around it, checksums right: byte 1
 * picks format 1 (the bytes are the records, zstd-compressed) or 2 (the
 * next 11 bytes are the streams' lengths in 4-byte units, each stream's
 * codec that byte modulo 3: stored, compressed here, or Rice as given;
 * with bit 2 too, a summary: format 3, whose records are counts; with bit
 * 3, a mark chunk's, which a skimmed read walks to), then a tick.
 */
static uint8_t *wrap(const uint8_t *data, size_t size, size_t *len)
{
	static const char meta[] = "format=2.0\ntb_freq=512000000\nnr_cpus=4\ncpus=0-3\n";
	static uint8_t tick[8 + 24] = { 6, 0, 0, 0, 24 };
	size_t cap = 2 * size + 4096, zl;
	uint8_t *out = malloc(cap), *o = out, *z = malloc(cap);
	int major = size > 1 && data[1] & 1 ? (data[1] & 4 ? 3 : 2) : 1;
	int first = major == 2 && data[1] & 8 ? 3 : 2;

	memcpy(o, "DTLTOPRC", 8);
	o[8] = (uint8_t)major;
	memset(o + 9, 0, 7);
	o += 16;
	zl = ZSTD_compress(z, cap, meta, sizeof(meta) - 1, 1);
	o = chunk(o, 1, 1, z, zl, sizeof(meta) - 1);
	data += size > 1 ? 2 : size;
	size -= size > 1 ? 2 : size;
	if (major == 1) {
		zl = ZSTD_compress(z, cap, data, size, 1);
		o = chunk(o, 2, 1, z, zl, size);
		zl = ZSTD_compress(z, cap, tick, sizeof(tick), 1);
		o = chunk(o, 2, 1, z, zl, sizeof(tick));
	} else {
		const uint8_t *st[11] = { tick };
		size_t lens[11] = { sizeof(tick) }, at = size < 11 ? size : 11;
		int codec[11] = { 0 };

		for (int s = 0; s < 11; s++) {
			size_t want = s < (int)size ? (size_t)data[s] * 4 : 0;

			codec[s] = s < (int)size ? data[s] % 3 : 0;
			st[s] = data + at;
			lens[s] = want < size - at ? want : size - at;
			at += lens[s];
		}
		/* bit 3: a mark chunk (2.3) of those records, then the tick */
		o = chunk2(o, first, st, lens, codec, z, cap);
		memset(lens, 0, sizeof(lens));
		memset(codec, 0, sizeof(codec));
		st[0] = tick;
		lens[0] = sizeof(tick);
		o = chunk2(o, 2, st, lens, codec, z, cap);
	}
	free(z);
	*len = (size_t)(o - out);
	return out;
}

static unsigned int fuzz_nr_cpus;

static int mark_last(void *ctx, unsigned int cpu, uint64_t tb, int32_t pid)
{
	(void)ctx, (void)tb, (void)pid;
	assert(cpu < fuzz_nr_cpus);
	return 0;
}

static int mark_name(void *ctx, unsigned int cpu, const struct dtl_switch *sw)
{
	(void)ctx;
	assert(cpu < fuzz_nr_cpus && (sw->comm || sw->cgroup));
	assert((!sw->comm || dtl_name__is_clean(sw->comm)) &&
	       (!sw->cgroup || dtl_name__is_clean(sw->cgroup)));
	return 0;
}

static int mark_sym(void *ctx, const uint8_t *text, size_t len)
{
	(void)ctx, (void)text;
	assert(len <= DTL_REC_MAX_RAW);
	return 0;
}

/* A mark chunk's records: a mark that adds up, or refused; what it tells, clean and in range. */
static int fuzz_mark(void *ctx, uint64_t next_off, const uint8_t *recs, size_t len)
{
	static struct dtl_switch sw[64];
	static char text[DTL_REC_MARK_TEXT(64)];
	struct dtl_rec_mark_told t = { NULL, mark_last, mark_name, mark_sym, sw, 64, text,
				       sizeof(text) };
	struct dtl_rec_mark h;

	(void)ctx, (void)next_off;
	if (!dtl_rec_mark__read(recs, len, fuzz_nr_cpus, &h, &t))
		assert(h.file_ticks <= h.set_ticks && h.mask >= 1 && h.mask <= 7 &&
		       h.file_names <= h.set_names && h.file_syms <= h.set_syms);
	return 0;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#if defined(FUZZ_ENTRIES)
	/* Raw debugfs/AUX bytes: any whole entries, then a tail that is counted. */
	static struct dtl_stats *s;
	struct dtl_row row;
	unsigned int cpu = size ? data[0] % 4 : 0;

	if (!s) {
		s = dtl_stats__new(4, DTL_DEFAULT_TB_FREQ);
		for (unsigned int i = 0; i < 4; i++)
			dtl_stats__set_online(s, i, true);
	}
	dtl_stats__add_entries(s, cpu, data, size / DTL_ENTRY_SIZE);
	dtl_stats__end_interval(s, 1.0);
	assert(dtl_stats__row(s, (int)cpu, DTL_SPAN_INTERVAL, &row) == 0);
	assert(row.dispatches + row.bad >= size / DTL_ENTRY_SIZE);
	assert(row.preempt_ratio >= 0 && row.preempt_ratio <= 1);
	/* whatever the entries say, waits are shares of the interval */
	assert(row.steal_pct >= 0 && row.idle_pct >= 0 && row.steal_pct + row.idle_pct <= 100.0001);
	assert(row.lat_p50_us <= row.lat_p99_us + 1e-9 && row.lat_p99_us <= row.lat_max_us + 1e-9);
#elif defined(FUZZ_AUX)
	/*
	 * The bytes after the first 16 are both an AUX ring image and a main
	 * ring image; the first 16 pick the layout and the heads.
	 */
	static uint8_t out[48 * 100];
	struct dtl_ring_news news = { 0 };
	struct dtl_aux a;
	uint64_t ring, head, tail, pos;
	size_t n;

	if (size < 16 + 16)
		return 0;
	ring = size - 16;
	memcpy(&head, data, 8);
	memcpy(&tail, data + 8, 8);
	dtl_aux__init(&a, ring, (enum dtl_aux_layout)(data[0] % 3));
	a.pos = tail % (4 * ring);
	head = a.pos + head % (2 * ring);
	pos = a.pos;
	n = dtl_aux__consume(&a, data + 16, head, out, 100);
	assert(n <= 100);
	assert(a.pos >= pos && a.pos <= head);
	/* lent in place: every run lies inside the ring, or is the one bounced record */
	{
		struct dtl_aux b;
		uint8_t bounce[48];
		const uint8_t *run;
		size_t k;

		dtl_aux__init(&b, ring, (enum dtl_aux_layout)(data[0] % 3));
		b.pos = pos;
		while ((k = dtl_aux__next(&b, data + 16, head, 64, bounce, &run))) {
			assert(k <= 64);
			assert(run == bounce ? k == 1 :
			       run >= data + 16 && run + k * 48 <= data + 16 + ring);
		}
		assert(b.pos >= pos && b.pos <= head);
	}
	/* Main-ring walking wants a power-of-two ring: use the largest that fits. */
	ring = 1ull << (63 - __builtin_clzll(ring));
	tail = a.pos;
	pos = dtl_ring__parse(data + 16, ring, tail, head, &news);
	assert(pos == head || (pos >= tail && pos <= head));
#elif defined(FUZZ_RECORDING)
	/* Any bytes as a recording: an error, or events then a clean end or a warning. */
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct dtl_rec_reader *r;
	char err[512];
	FILE *f;
	size_t events = 0;

	uint8_t *file = NULL;
	bool skim, marked = false;
	uint64_t mark = 0;
	size_t after = 0, again = 0;

	if (!size)
		return 0;
	/* bit 1: skimmed, from a file (a memfd), so that columns are seeked over */
	skim = data[0] & 2;
	if (data[0] & 1) {
		file = wrap(data, size, &size);
		data = file;
	}
	if (skim) {
		int fd = memfd_create("fuzz.dtl", MFD_CLOEXEC);

		if (fd < 0 || write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET))
			abort();
		f = fdopen(fd, "rb");
	} else {
		f = fmemopen((void *)data, size, "rb");
	}
	r = dtl_rec_reader__open(f, "fuzz.dtl", &m, err, sizeof(err));
	if (!r) {
		assert(!strncmp(err, "fuzz.dtl: ", 10));
	} else {
		assert(m.tb_freq && m.nr_cpus <= DTL_MAX_CPUS);
		/* its marks (2.3), as a replay reads them before a first seek: then the same records */
		fuzz_nr_cpus = m.nr_cpus;
		dtl_rec_reader__marks(r, fuzz_mark, NULL);
		dtl_rec_reader__skim(r, skim);
		while (dtl_rec_reader__next(r, &ev) > 0) {
			assert(ev.kind != DTL_REC_ENTRIES || ev.n * 48 <= DTL_REC_MAX_RAW);
			assert(ev.kind != DTL_REC_ENTRIES || !skim);
			/* a summary's counts add up, as the stats rely on, and its names are clean */
			if (ev.kind == DTL_REC_COUNTS || ev.kind == DTL_REC_TASK) {
				const struct dtl_counts *c = ev.kind == DTL_REC_COUNTS ?
							     &ev.counts->c : &ev.task->c;
				uint64_t n = 0;

				for (int b = 0; b < DTL_HIST_BUCKETS; b++)
					n += c->hist[b];
				assert(m.summary && n == c->dispatches);
				assert(ev.kind == DTL_REC_COUNTS || dtl_name__is_clean(ev.task->name));
			}
			/* names come out of a recording clean, whatever the file carries */
			for (size_t i = 0; ev.kind == DTL_REC_SWITCHES && i < ev.n; i++)
				assert((!ev.switches[i].comm || dtl_name__is_clean(ev.switches[i].comm)) &&
				       (!ev.switches[i].cgroup ||
					dtl_name__is_clean(ev.switches[i].cgroup)));
			events++;
			after += marked;
			/* a replay's mark: the boundary after the first tick */
			if (ev.kind == DTL_REC_TICK && !marked)
				marked = dtl_rec_reader__boundary(r, &mark);
		}
		/* read again from the mark, the same records come, however the file goes on */
		if (marked && skim && !dtl_rec_reader__seek(r, mark)) {
			while (dtl_rec_reader__next(r, &ev) > 0)
				again++;
			assert(again == after);
		}
		dtl_rec_reader__close(r);
	}
	fclose(f);
	free(file);
	(void)events;
#elif defined(FUZZ_PERFDATA)
	/* Any bytes as a perf.data: an error naming it, or a recording that reads back whole. */
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	struct dtl_rec_reader *r;
	char err[512], warn[1024];
	int fd = memfd_create("fuzz", 0);
	FILE *f, *out;
	size_t ticks = 0;

	if (!size || fd < 0)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (dtl_perfdata__convert(f, "fuzz.data", fd, 1.0, err, sizeof(err), warn,
				  sizeof(warn))) {
		assert(!strncmp(err, "fuzz.data: ", 11) && !strchr(err, '\n'));
	} else {
		lseek(fd, 0, SEEK_SET);
		out = fdopen(fd, "rb");
		r = dtl_rec_reader__open(out, "fuzz.dtl", &m, err, sizeof(err));
		assert(r);
		while (dtl_rec_reader__next(r, &ev) > 0)
			ticks += ev.kind == DTL_REC_TICK;
		assert(!dtl_rec_reader__warning(r));
		/* every interval holds an entry, or it is the first: no empty runs */
		assert(ticks >= 1 && ticks <= size / 48 + 1);
		dtl_rec_reader__close(r);
		fclose(out);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	fclose(f);
#elif defined(FUZZ_REQUEST)
	/* A viewer's bytes, read in pieces as the service reads them: the same requests either way. */
	uint8_t buf[64];
	size_t n = 0, whole = 0, inlen = 0, at = 0, used;
	uint64_t bad = 0, bad2 = 0;

	used = dtl_req__parse(data, size, took, &whole, &bad);
	assert(used <= size && size - used < DTL_REQ_LEN);
	while (at < size) {
		size_t k = size - at < sizeof(buf) - inlen ? size - at : sizeof(buf) - inlen;

		memcpy(buf + inlen, data + at, k);
		at += k;
		inlen += k;
		used = dtl_req__parse(buf, inlen, took, &n, &bad2);
		assert(used <= inlen);
		memmove(buf, buf + used, inlen - used);
		inlen -= used;
		assert(inlen < DTL_REQ_LEN);
	}
	assert(n == whole);
#elif defined(FUZZ_CPULIST)
	char *str = cstr(data, size), err[256];
	struct dtl_cpuset set;

	if (dtl_cpuset__parse(&set, str, err, sizeof(err)) == 0)
		assert(dtl_cpuset__count(&set) > 0 && dtl_cpuset__end(&set) <= DTL_MAX_CPUS);
	else
		assert(err[0] && !strchr(err, '\n'));
	free(str);
#elif defined(FUZZ_SYSFILES)
	char *str = cstr(data, size);
	struct dtl_lparcfg c;

	dtl_sys__parse_lparcfg(str, &c);
	assert(c.present);
	/* what a view quotes is in range or unknown */
	assert(!c.have_ent || (c.entitlement > 0 && c.entitlement <= DTL_LPARCFG_MAX_UNITS / 100));
	assert(!c.have_pool || (c.pool_capacity > 0 &&
				c.pool_capacity <= DTL_LPARCFG_MAX_UNITS / 100));
	assert(!c.have_vps || c.active_vps > 0);
	/* an identity is in range or absent, and its strings are clean and ended */
	assert(!c.have_partition_id || (c.partition_id > 0 && c.partition_id < 65536));
	assert(!c.have_pool_id || c.pool_id < 65536);
	assert(strlen(c.serial) < sizeof(c.serial) && dtl_name__is_clean(c.serial));
	assert(strlen(c.system_type) < sizeof(c.system_type) && dtl_name__is_clean(c.system_type));
	(void)dtl_sys__parse_timebase(str);
	{
		/* a caller's /proc/PID/status, read by a service deciding who may attach */
		uint64_t eff = 7;

		if (dtl_caps__parse_eff(str, &eff) == 0)
			assert(strstr(str, "CapEff:") != NULL);
		else
			assert(eff == 7);
	}
	free(str);
#elif defined(FUZZ_KALLSYMS)
	char why[256], name[96];
	struct dtl_ksyms *k = dtl_ksyms__parse((const char *)data, size, why, sizeof(why));

	if (k) {
		/* any address names the symbol at or below it, or none */
		uint64_t a = 0;

		memcpy(&a, data, size < sizeof(a) ? size : sizeof(a));
		if (dtl_ksyms__name(k, a, name, sizeof(name)) == 0)
			assert(name[0] && strchr(name, '+'));
		dtl_ksyms__free(k);
	} else {
		assert(why[0] && !strchr(why, '\n'));
	}
#elif defined(FUZZ_TASKS)
	/*
	 * Who pays from two streams of outside bytes: a switch (op 0: tb, pid,
	 * a comm of up to 16 bytes, a cgroup of up to 32), DTL entries (op 1,
	 * as the hypervisor wrote them), an interval's end (op 2), on CPU op>>4.
	 * Whatever the order, every entry is charged exactly once ((unknown) where
	 * no known task ran at it), and a wake-up's steal only moves between rows.
	 */
	struct dtl_tasks *t = dtl_tasks__new(4, 512000000);
	uint64_t entries = 0, charged = 0;
	struct dtl_row row;
	char comm[17], cg[33];

	while (size >= 1 && t) {
		unsigned int op = data[0] & 3, cpu = data[0] >> 4;

		data++, size--;
		if (op == 0 && size >= 12 + 16 + 32) {
			struct dtl_switch sw;

			memcpy(&sw.tb, data, 8);
			memcpy(&sw.pid, data + 8, 4);
			memcpy(comm, data + 12, 16);
			comm[16] = '\0';
			memcpy(cg, data + 28, 32);
			cg[32] = '\0';
			sw.comm = comm[0] ? comm : NULL;
			sw.cgroup = cg[0] ? cg : NULL;
			dtl_tasks__switch(t, cpu, &sw);
			data += 60, size -= 60;
		} else if (op == 1 && size >= DTL_ENTRY_SIZE) {
			struct dtl_rec r;

			dtl_rec__decode(&r, data);
			entries += cpu < 4 && r.timebase && dtl_tasks__known(t);
			dtl_tasks__add_entries(t, cpu, data, 1);
			data += DTL_ENTRY_SIZE, size -= DTL_ENTRY_SIZE;
		} else if (op == 2) {
			dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
		} else {
			break;
		}
	}
	if (t) {
		dtl_tasks__end_interval(t, 1.0, DTL_MASK_ALL);
		for (size_t i = 0; i < dtl_tasks__count(t, DTL_TASKS_BY_TASK); i++)
			if (dtl_tasks__row(t, DTL_TASKS_BY_TASK, i, DTL_SPAN_TOTAL, &row) == 0) {
				assert(row.name && row.name[0] && dtl_name__is_clean(row.name));
				charged += row.dispatches;
			}
		/* those no known task ran at are the (unknown) row's, still counted once */
		assert(charged == entries && dtl_tasks__unattributed(t) <= charged);
		dtl_tasks__delete(t);
	}
#elif defined(FUZZ_SIDEBAND)
	/*
	 * A switch stream's ring as the kernel's side-band event fills it: the
	 * first byte picks the trailer's layout, the rest is the ring image,
	 * walked from any tail (an odd one: in a ring of the input's size).
	 * Every record parsed is one of ours, and the walk never passes head.
	 */
	static const uint64_t layouts[] = {
		DTL_SAMPLE_TID | DTL_SAMPLE_TIME,
		DTL_SAMPLE_TID | DTL_SAMPLE_TIME | DTL_SAMPLE_ID | DTL_SAMPLE_CPU | DTL_SAMPLE_IDENTIFIER,
		DTL_SAMPLE_TID | DTL_SAMPLE_TIME | DTL_SAMPLE_CPU | DTL_SAMPLE_STREAM_ID,
		DTL_SAMPLE_TIME,
	};
	struct dtl_sb out[16];
	uint64_t tail, bad = 0, st;
	size_t n, ring = 1;

	if (size < 2)
		return 0;
	st = layouts[data[0] & 3];
	tail = data[0] >> 2;
	data++, size--;
	while (ring * 2 <= size)
		ring *= 2;
	if (tail & 1)
		ring = size;	/* no power of two: the walk divides where it masks */
	for (uint64_t t = tail, head = size; t < head;) {
		uint64_t next = dtl_sb__ring(data, ring, t, head, st, out, 16, &n, &bad);

		assert(next <= head && (next > t || n == 0));
		for (size_t i = 0; i < n; i++) {
			assert(out[i].kind != DTL_SB_OTHER && strlen(out[i].comm) < 16 &&
			       dtl_name__is_clean(out[i].comm));
			assert(out[i].kind != DTL_SB_SWITCH || out[i].pid >= 0);
		}
		if (next == t)
			break;
		t = next;
	}
	(void)dtl_sb__tb(tail << 40, tail, size);
#elif defined(FUZZ_SIMPARAMS)
	/*
	 * --sim's keys, or (after a blank line) a frame file's text for them:
	 * the frame's parser without its file.
	 */
	const uint8_t *cut = memmem(data, size, "\n\n", 2);
	size_t n = cut ? (size_t)(cut - data) : size;
	char *str = cstr(data, n), err[256];
	static struct dtl_sim_params p;
	int r;

	if (cut)
		r = dtl_sim__frame(str, "fuzz", (const char *)cut + 2, size - n - 2, &p, err,
				   sizeof(err));
	else if (strstr(str, "frame="))
		r = -1, snprintf(err, sizeof(err), "not read");	/* a file the fuzzer names */
	else
		r = dtl_sim__parse(str, &p, err, sizeof(err));
	if (r == 0) {
		double ents = p.ent;

		assert(p.vcpus >= 1 && p.vcpus <= DTL_MAX_CPUS && p.ent <= p.vcpus && p.pool >= 1);
		assert(p.npeers <= DTL_SIM_PEERS && (!cut || p.name[0]));
		for (unsigned int i = 0; i < p.npeers; i++)
			ents += p.peers[i].ent;
		assert(p.dedicated || ents <= p.pool + 1e-6);
	} else {
		assert(err[0] && !strchr(err, '\n'));
	}
	free(str);
#elif defined(FUZZ_VPA)
	/*
	 * A thread's VPA read after VPA, as the vpa source and the witness see
	 * it: each 640-byte slice one read (the last may be cut), the deltas
	 * into the stats, a DTL registered between two of them.
	 */
	static struct dtl_stats *s;
	struct dtl_vpa last, v;
	struct dtl_vpa_delta d;
	struct dtl_row row;
	bool have = false;

	if (!s) {
		s = dtl_stats__new(1, DTL_DEFAULT_TB_FREQ);
		dtl_stats__set_online(s, 0, true);
	}
	for (size_t off = 0; off < size || off == 0; off += DTL_VPA_SIZE) {
		size_t n = size - off < DTL_VPA_SIZE ? size - off : DTL_VPA_SIZE;

		if (dtl_vpa__decode(data + off, n, &v)) {
			assert(n < 0x220);
			break;
		}
		assert(n >= 0x220);
		if (have) {
			uint64_t reg = dtl_vpa__registered_at(&last, &v);

			assert(reg == 0 || reg == last.dtl_idx);
			if (dtl_vpa__delta(&last, &v, &d)) {
				assert(d.dispatches <= UINT32_MAX / 2 + 1 && d.dispersions <= UINT32_MAX);
				dtl_stats__add_summary(s, 0, d.dispatches, d.steal_ticks, d.idle_ticks,
						       d.dispersions);
				dtl_stats__end_interval(s, 1.0);
				assert(dtl_stats__row(s, 0, DTL_SPAN_INTERVAL, &row) == 0);
				assert(row.dispatches == d.dispatches);
				assert(row.steal_pct >= 0 && row.idle_pct >= 0);
			} else {
				assert(v.enqueue_dispatch_tb < last.enqueue_dispatch_tb ||
				       v.ready_enqueue_tb < last.ready_enqueue_tb ||
				       v.wait_ready_tb < last.wait_ready_tb);
			}
		}
		last = v;
		have = true;
		if (size == 0)
			break;
	}
#elif defined(FUZZ_CONFIG)
	char *str = cstr(data, size), err[512], warn[256];
	char *argv[] = { "dtltop", "--no-config", NULL };
	struct dtl_opts o;

	assert(dtl_opts__parse(&o, 2, argv, err, sizeof(err)) == 0);
	if (dtl_opts__config(&o, str, "rc", err, sizeof(err), warn, sizeof(warn)) == 0)
		assert(o.interval_s >= 0.01 && o.format && o.export_format &&
		       (o.src.mask & ~DTL_MASK_ALL) == 0);
	else
		assert(strncmp(err, "rc:", 3) == 0);
	free(str);
#elif defined(FUZZ_WEBCONFIG)
	/* --web-config's YAML: parsed, or refused on one line naming the file */
	static struct dtl_webconfig c;
	char err[512];

	if (dtl_webconfig__parse((const char *)data, size, "w", &c, err, sizeof(err)) == 0) {
		assert(c.nusers <= DTL_WEB_USERS && !c.cert_file[0] == !c.key_file[0]);
		for (unsigned int i = 0; i < c.nusers; i++)
			assert(c.users[i].name[0] && strlen(c.users[i].hash) == 60);
	} else {
		assert(err[0] == 'w' && !strchr(err, '\n'));
	}
#else
#error "define one FUZZ_ target"
#endif
	return 0;
}
