/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfdata.c - a perf.data made by `perf record -a -e vpa_dtl/dtl_all/`,
 * turned into a dtltop recording so that it replays like one.
 *
 * Layout per tools/perf/Documentation/perf.data-file-format.txt: the
 * PERFILE2 header points at the attributes and the data section, a stream
 * of records; the vpa_dtl AUX stream arrives in PERF_RECORD_AUXTRACE
 * records (the AUX bytes follow each record, outside its size), one CPU at a
 * time, and PERF_RECORD_AUX records say where the kernel left a gap.
 *
 * The trick that keeps memory flat whatever the file's size: two passes.
 * The first reads records only and keeps an index (where each CPU's AUX
 * chunks lie, where its gaps are); the second walks every CPU's chunks side
 * by side through a small window each, cutting intervals by the entries'
 * own timebase, as a perf.data has no interval boundaries. Each chunk is
 * parsed as perf's own decoder does, whole 48-byte records from its start,
 * except that the 6.18 driver's junk fragment at a wrap is recognised and
 * skipped (and counted) instead of shifting every record after it.
 */
#include "perfdata.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../dtl/dtl.h"
#include "../dtl/sideband.h"
#include "grow.h"
#include "pdtasks.h"

#define PERF_MAGIC 0x32454c4946524550ull	/* "PERFILE2" */
#define REC_LOST 2
#define REC_COMM 3
#define REC_EXIT 4
#define REC_FORK 7
#define REC_AUX 11
#define REC_LOST_SAMPLES 13
#define REC_SWITCH 14
#define REC_SWITCH_CPU_WIDE 15
#define REC_HEADER_ATTR 64
#define REC_AUXTRACE_INFO 70
#define REC_AUXTRACE 71
#define AUXTRACE_VPA_DTL 7
#define AUX_TRUNCATED 0x1
#define AUX_PARTIAL 0x4
#define AUX_COLLISION 0x8
#define PERF_TYPE_MAX 6		/* types past the fixed ones are dynamic PMUs, like vpa_dtl */
#define WINDOW 4096		/* bytes of a CPU's AUX stream in memory at once */
#define BATCH 256		/* entries handed to the writer at once */
#define MAX_IDS 65536

struct chunk {
	uint64_t off;		/* of its bytes in the file */
	uint64_t len;
	uint64_t aux_pos;	/* of its first byte in the CPU's AUX stream */
};

struct stream {
	struct chunk *ch;
	size_t nch, chcap;
	uint64_t *gap;		/* AUX positions of flagged AUX records, as they came */
	size_t ngap, gapcap, gi;
	/* the cursor of pass two */
	size_t ci;
	uint64_t coff;		/* into chunk ci */
	uint8_t win[WINDOW];
	uint64_t wbase;		/* chunk offset of win[0] */
	size_t wlen;
	size_t wchunk;		/* chunk the window holds (wlen 0: none yet) */
	bool started, have_next;
	uint8_t next[DTL_ENTRY_SIZE];
	uint64_t next_pos;
	uint64_t junk, bad, reported;
};

struct pd {
	FILE *f;
	const char *name;
	char *err;
	size_t errlen;
	uint64_t len;			/* of the file */
	bool pipe;
	uint64_t data, end;		/* the data section */
	uint64_t sample_type;
	bool sample_id_all;
	uint64_t *ids;			/* ids of the vpa_dtl attributes */
	size_t nids, idcap;
	bool have_attr;
	unsigned int mask;		/* the vpa_dtl event's, 0 unknown */
	struct stream *s[DTL_MAX_CPUS];
	unsigned int used[DTL_MAX_CPUS];	/* CPUs with a stream, sorted before pass two */
	size_t nused;
	uint64_t chunks, aux_records, truncated, partial, collision, lost_records;
	uint64_t boot_tb, tb_freq;
	bool info;
	uint8_t *rec;			/* one record of pass one: 64 KiB */
	struct dtl_pdtasks *tasks;	/* --switch-events: who ran */
	uint64_t sb_bad, sb_lost;	/* damaged switch records; lost records of other events */
};

static uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);	/* perf.data is the recording machine's endian: LE here */
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* len bytes at off, or -1 (cut short, or unreadable: the caller names where). */
static int read_at(struct pd *pd, uint64_t off, void *buf, size_t len)
{
	if (off > pd->len || len > pd->len - off || fseeko(pd->f, (off_t)off, SEEK_SET))
		return -1;
	return fread(buf, 1, len, pd->f) == len ? 0 : -1;
}

static struct stream *stream_of(struct pd *pd, uint32_t cpu)
{
	if (cpu >= DTL_MAX_CPUS)
		return NULL;
	if (!pd->s[cpu]) {
		pd->s[cpu] = calloc(1, sizeof(struct stream));
		if (pd->s[cpu])
			pd->used[pd->nused++] = cpu;
	}
	return pd->s[cpu];
}

static bool dtl_id(const struct pd *pd, uint64_t id)
{
	for (size_t i = 0; i < pd->nids; i++)
		if (pd->ids[i] == id)
			return true;
	return false;
}

/*
 * An attribute (perf_event_attr: type u32 at 0, sample_type u64 at 24,
 * flags u64 at 40 with sample_id_all as bit 18) and its ids.
 */
static void attr(struct pd *pd, const uint8_t *a, const uint8_t *ids, size_t nids)
{
	if (!pd->have_attr) {
		pd->sample_type = le64(a + 24);
		pd->sample_id_all = (le64(a + 40) >> 18) & 1;
		pd->have_attr = true;
	}
	if (le32(a) < PERF_TYPE_MAX)
		return;
	/* vpa_dtl's config is the event mask: dtl_cede is 0x1, dtl_all 0x7 */
	if (le64(a + 8) & DTL_MASK_ALL)
		pd->mask = (unsigned int)le64(a + 8) & DTL_MASK_ALL;
	for (size_t i = 0; i < nids && pd->nids < MAX_IDS; i++) {
		if (dtl_grow((void **)&pd->ids, &pd->idcap, pd->nids, sizeof(*pd->ids)))
			return;		/* ids unknown: lost records are then all taken for ours */
		pd->ids[pd->nids++] = le64(ids + i * 8);
	}
}

/*
 * The CPU (and the id) of a non-sample record from its sample_id trailer,
 * which sits at the record's end. False when the file does not say.
 */
static bool trailer(const struct pd *pd, const uint8_t *r, size_t size, size_t body,
		    uint32_t *cpu, uint64_t *id, bool *have_id)
{
	static const uint64_t order[] = { DTL_SAMPLE_TID, DTL_SAMPLE_TIME, DTL_SAMPLE_ID, DTL_SAMPLE_STREAM_ID, DTL_SAMPLE_CPU, DTL_SAMPLE_IDENTIFIER };
	size_t n = 0, at = 0, cpu_at = 0, id_at = 0;

	*have_id = false;
	if (!pd->have_attr || !pd->sample_id_all || !(pd->sample_type & DTL_SAMPLE_CPU))
		return false;
	for (size_t i = 0; i < 6; i++)
		n += (pd->sample_type & order[i]) != 0;
	if (size < body + n * 8)
		return false;
	for (size_t i = 0; i < 6; i++) {
		if (!(pd->sample_type & order[i]))
			continue;
		if (order[i] == DTL_SAMPLE_CPU)
			cpu_at = at;
		if (order[i] == DTL_SAMPLE_ID || order[i] == DTL_SAMPLE_IDENTIFIER)
			id_at = at;
		at += 8;
	}
	r += size - n * 8;
	*cpu = le32(r + cpu_at);
	if (pd->sample_type & (DTL_SAMPLE_ID | DTL_SAMPLE_IDENTIFIER)) {
		*id = le64(r + id_at);
		*have_id = true;
	}
	return true;
}

/* A gap at AUX position pos of cpu (UINT64_MAX: somewhere after what came). */
static int add_gap(struct pd *pd, uint32_t cpu, uint64_t pos)
{
	struct stream *s = stream_of(pd, cpu);

	if (!s || dtl_grow((void **)&s->gap, &s->gapcap, s->ngap, sizeof(*s->gap)))
		return cpu < DTL_MAX_CPUS ? -1 : 0;
	s->gap[s->ngap++] = pos;
	return 0;
}

/* Pass one: the records, for the index. 0, 1 (damage after data: warn), -1. */
static int index_records(struct pd *pd, char *warn, size_t warnlen)
{
	uint64_t off = pd->data;

	while (pd->end - off >= 8) {
		uint8_t *r = pd->rec;
		uint32_t type, cpu;
		uint16_t size;
		uint64_t id;
		bool have_id;

		if (read_at(pd, off, r, 8))
			break;
		type = le32(r);
		memcpy(&size, r + 6, 2);
		if (size < 8 || size > pd->end - off || read_at(pd, off + 8, r + 8, size - 8u)) {
			snprintf(pd->err, pd->errlen, "%s: offset %" PRIu64 ": record of %u bytes does "
				 "not fit", pd->name, off, size);
			if (!pd->chunks)
				return -1;
			snprintf(warn, warnlen, "%s; replayed what came before", pd->err);
			return 1;
		}
		if (type == REC_HEADER_ATTR && size >= 8 + 8) {
			uint32_t asz = le32(r + 8 + 4);

			if (asz >= 48 && asz <= size - 8u)
				attr(pd, r + 8, r + 8 + asz, (size - 8u - asz) / 8);
		} else if (type == REC_AUXTRACE_INFO && size >= 16) {
			if (le32(r + 8) != AUXTRACE_VPA_DTL) {
				snprintf(pd->err, pd->errlen, "%s: offset %" PRIu64 ": AUX data of "
					 "another PMU (auxtrace type %u), not vpa_dtl", pd->name, off,
					 le32(r + 8));
				return -1;
			}
			pd->info = true;
		} else if (type == REC_AUXTRACE && size >= 48) {
			uint64_t dlen = le64(r + 8);
			struct stream *s;

			if (dlen > pd->end - off - size) {
				snprintf(pd->err, pd->errlen, "%s: offset %" PRIu64 ": AUX chunk of %"
					 PRIu64 " bytes runs past the data section", pd->name, off, dlen);
				if (!pd->chunks)
					return -1;
				snprintf(warn, warnlen, "%s; replayed what came before", pd->err);
				return 1;
			}
			s = stream_of(pd, le32(r + 40));
			if (s) {
				if (dtl_grow((void **)&s->ch, &s->chcap, s->nch, sizeof(*s->ch)))
					goto oom;
				s->ch[s->nch++] = (struct chunk){ off + size, dlen, le64(r + 16) };
				pd->chunks++;
			} else if (le32(r + 40) < DTL_MAX_CPUS) {
				goto oom;
			}
			off += dlen;
		} else if (type == REC_AUX && size >= 32) {
			uint64_t flags = le64(r + 24);

			pd->aux_records++;
			pd->truncated += (flags & AUX_TRUNCATED) != 0;
			pd->partial += (flags & AUX_PARTIAL) != 0;
			pd->collision += (flags & AUX_COLLISION) != 0;
			if ((flags & (AUX_TRUNCATED | AUX_PARTIAL | AUX_COLLISION)) &&
			    trailer(pd, r, size, 32, &cpu, &id, &have_id) && add_gap(pd, cpu, le64(r + 8)))
				goto oom;
		} else if ((type == REC_LOST && size >= 24) || (type == REC_LOST_SAMPLES && size >= 16)) {
			/* Lost records of the vpa_dtl event may have held AUX records. */
			if (trailer(pd, r, size, type == REC_LOST ? 24 : 16, &cpu, &id, &have_id) &&
			    (!have_id || dtl_id(pd, id))) {
				pd->lost_records++;
				if (add_gap(pd, cpu, UINT64_MAX))
					goto oom;
			} else if (type == REC_LOST) {
				pd->sb_lost += le64(r + 16);	/* the switch stream's, say */
			}
		} else if ((type == REC_COMM || type == REC_EXIT || type == REC_FORK ||
			    type == REC_SWITCH || type == REC_SWITCH_CPU_WIDE) && pd->sample_id_all) {
			struct dtl_sb e;
			int rc = dtl_sb__parse(r, size, pd->sample_type, &e);

			if (rc < 0)
				pd->sb_bad++;
			else if (rc > 0 && dtl_pdtasks__add(pd->tasks, &e))
				goto oom;
		}
		off += size;
	}
	return 0;
oom:
	snprintf(pd->err, pd->errlen, "%s: out of memory", pd->name);
	return -1;
}

/*
 * The 6.18 driver's stale tail: L zero bytes (L = AUX size - threshold*48,
 * so 32, 48 or 64) reported just before the ring wraps, that is where the
 * chunk's absolute AUX position reaches a multiple of the AUX size, itself
 * a multiple of the page size. perf's decoder reads straight through it and
 * every record after it in the chunk comes out shifted; skipping it keeps
 * them. Only zeros that end on a 4 KiB boundary are taken for junk.
 */
static size_t wrap_junk(const uint8_t *d, size_t left, uint64_t pos)
{
	static const uint8_t zero[64];

	for (size_t l = 32; l <= 64; l += 16)
		if ((pos + l) % 4096 == 0 && left >= l && !memcmp(d, zero, l))
			return l;
	return 0;
}

/* n bytes of the current chunk at the cursor (n no more than what is left of it). */
static const uint8_t *view(struct pd *pd, struct stream *s, size_t n)
{
	const struct chunk *c = &s->ch[s->ci];

	if (!s->wlen || s->wchunk != s->ci || s->coff < s->wbase ||
	    s->coff + n > s->wbase + s->wlen) {
		size_t want = c->len - s->coff < WINDOW ? (size_t)(c->len - s->coff) : WINDOW;

		if (read_at(pd, c->off + s->coff, s->win, want))
			return NULL;
		s->wbase = s->coff;
		s->wlen = want;
		s->wchunk = s->ci;
	}
	return s->win + (s->coff - s->wbase);
}

/* The next entry of a CPU into s->next; false when its chunks are done (or unreadable). */
static bool advance(struct pd *pd, struct stream *s)
{
	s->have_next = false;
	while (s->ci < s->nch) {
		const struct chunk *c = &s->ch[s->ci];
		uint64_t left = c->len - s->coff;
		const uint8_t *d;
		size_t skip;

		if (left < DTL_ENTRY_SIZE) {
			s->junk += left != 0;	/* a tail shorter than a record */
			s->ci++;
			s->coff = 0;
			continue;
		}
		d = view(pd, s, left < 112 ? (size_t)left : 112);
		if (!d) {
			s->ci = s->nch;		/* the file changed or failed under us */
			s->bad++;
			break;
		}
		skip = s->started ? wrap_junk(d, (size_t)(left < 64 ? left : 64), c->aux_pos + s->coff) : 0;
		if (skip) {
			s->junk++;
			s->coff += skip;
			continue;
		}
		s->coff += DTL_ENTRY_SIZE;
		if (dtl__be64(d + 16) == 0) {
			if (!s->started && !pd->tb_freq) {
				pd->boot_tb = le64(d);
				pd->tb_freq = le64(d + 8);
			} else if (s->started) {
				s->bad++;
			}
			s->started = true;
			continue;
		}
		s->started = true;
		memcpy(s->next, d, DTL_ENTRY_SIZE);
		s->next_pos = c->aux_pos + s->coff - DTL_ENTRY_SIZE;
		s->have_next = true;
		return true;
	}
	return false;
}

/* Gaps the cursor has passed (or all that are left when the stream is done). */
static uint64_t passed_gaps(struct stream *s)
{
	uint64_t n = 0;

	while (s->gi < s->ngap && (!s->have_next || s->gap[s->gi] <= s->next_pos)) {
		s->gi++;
		n++;
	}
	return n;
}

static void hostname(struct pd *pd, uint8_t *hdr, char *host, size_t hostlen)
{
	unsigned int k = 0;
	uint8_t sec[16], *buf;
	uint64_t off, size;
	uint32_t n;

	for (unsigned int bit = 0; bit < 3; bit++)
		k += (hdr[72 + bit / 8] >> (bit % 8)) & 1;
	if (!((hdr[72] >> 3) & 1) || read_at(pd, pd->end + k * 16, sec, 16))
		return;
	off = le64(sec);
	size = le64(sec + 8);
	if (size < 5 || size > 4096 || !(buf = malloc(size)))
		return;
	if (!read_at(pd, off, buf, size)) {
		n = le32(buf);
		if (n > size - 4)
			n = (uint32_t)(size - 4);
		/* control bytes are the recording reader's to replace, as for any header text */
		snprintf(host, hostlen, "%.*s", (int)strnlen((const char *)buf + 4, n),
			 (const char *)buf + 4);
	}
	free(buf);
}

static int cmp_cpu(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

int dtl_perfdata__is(const uint8_t *head, size_t len)
{
	return len >= 8 && le64(head) == PERF_MAGIC;
}

/* The file header: the data section, and the attributes of a file-mode file. */
static int header(struct pd *pd, uint8_t *hdr)
{
	if (read_at(pd, 0, hdr, 16) || le64(hdr) != PERF_MAGIC) {
		snprintf(pd->err, pd->errlen, "%s: offset 0: not a perf.data file", pd->name);
		return -1;
	}
	if (le64(hdr + 8) == 16) {		/* pipe mode: records right after */
		pd->pipe = true;
		pd->data = 16;
		pd->end = pd->len;
		return 0;
	}
	if (le64(hdr + 8) < 104 || read_at(pd, 0, hdr, 104)) {
		snprintf(pd->err, pd->errlen, "%s: offset 8: header size %" PRIu64 " is not perf's",
			 pd->name, le64(hdr + 8));
		return -1;
	}
	pd->data = le64(hdr + 40);
	pd->end = pd->data + le64(hdr + 48);
	if (pd->data > pd->len || pd->end > pd->len || pd->end < pd->data) {
		snprintf(pd->err, pd->errlen, "%s: offset 40: data section %" PRIu64 "+%" PRIu64
			 " lies outside the file (%" PRIu64 " bytes)", pd->name, pd->data,
			 pd->end - pd->data, pd->len);
		return -1;
	}
	/* attrs: attr_size (an attr and its ids section) at 16, the section at 24 */
	{
		uint64_t asz = le64(hdr + 16), aoff = le64(hdr + 24), alen = le64(hdr + 32);
		uint8_t a[512], sec[16], ids[8 * 64];

		for (uint64_t i = 0; asz >= 64 && asz <= sizeof(a) && i < alen / asz && i < 64; i++) {
			uint64_t n;

			if (read_at(pd, aoff + i * asz, a, asz))
				break;
			memcpy(sec, a + asz - 16, 16);
			n = le64(sec + 8) / 8;
			n = n < 64 ? n : 64;
			if (read_at(pd, le64(sec), ids, n * 8))
				n = 0;
			attr(pd, a, ids, n);
		}
	}
	return 0;
}

/* A CPU's task switches before edge, written before its entries up to edge. */
static int switches(struct pd *pd, struct dtl_rec_writer *w, unsigned int c, uint64_t edge,
		    const struct dtl_rec_meta *m)
{
	struct dtl_switch sw[256];
	size_t n;

	while ((n = dtl_pdtasks__take(pd->tasks, c, edge, m->boot_tb, m->tb_freq, sw, 256)))
		if (dtl_rec_writer__switches(w, c, sw, n))
			return -1;
	return 0;
}

/* Pass two: every CPU's entries, cut into intervals of the timebase. */
static int write_intervals(struct pd *pd, struct dtl_rec_writer *w, const struct dtl_rec_meta *m,
			   uint64_t t0)
{
	uint64_t step = (uint64_t)(m->interval_s * (double)m->tb_freq), edge = t0, k = 0;
	uint8_t *batch = malloc(BATCH * DTL_ENTRY_SIZE);

	if (!batch)
		return -1;
	if (!step)
		step = 1;
	for (;;) {
		uint64_t next = UINT64_MAX;
		double ts;

		k++;
		edge = UINT64_MAX - edge < step ? UINT64_MAX : edge + step;
		for (size_t u = 0; u < pd->nused; u++) {
			unsigned int c = pd->used[u];
			struct stream *s = pd->s[c];
			size_t n = 0;
			uint64_t gaps = 0, swtb;

			if (!s || !s->started)
				continue;
			swtb = dtl_pdtasks__next_tb(pd->tasks, c, m->boot_tb, m->tb_freq);
			while (s->have_next && dtl__be64(s->next + 16) < edge) {
				uint64_t tb = dtl__be64(s->next + 16);

				/*
				 * The switches up to an entry go before it, interleaved,
				 * so the reader's queue holds only those between two
				 * entries, as a live source's would.
				 */
				if (swtb <= tb) {
					if (n && dtl_rec_writer__entries(w, c, batch, n, 0, 0))
						goto fail;
					n = 0;
					if (switches(pd, w, c, tb + 1, m))
						goto fail;
					swtb = dtl_pdtasks__next_tb(pd->tasks, c, m->boot_tb, m->tb_freq);
				}
				gaps += passed_gaps(s);
				memcpy(batch + n++ * DTL_ENTRY_SIZE, s->next, DTL_ENTRY_SIZE);
				advance(pd, s);
				if (n == BATCH) {
					if (dtl_rec_writer__entries(w, c, batch, n, 0, 0))
						goto fail;
					n = 0;
				}
			}
			/* a gap goes with the first entry after it, or with the last interval */
			if (!s->have_next)
				gaps += passed_gaps(s);
			if (dtl_rec_writer__entries(w, c, batch, n, 0, s->bad + s->junk - s->reported) ||
			    dtl_rec_writer__gaps(w, c, gaps) || switches(pd, w, c, edge, m))
				goto fail;
			s->reported = s->bad + s->junk;
			if (s->have_next && dtl__be64(s->next + 16) < next)
				next = dtl__be64(s->next + 16);
		}
		ts = (double)m->start_ns + (double)k * m->interval_s * 1e9;
		if (dtl_rec_writer__tick(w, ts < 9e18 ? (uint64_t)ts : (uint64_t)9e18, m->interval_s,
					 edge))
			goto fail;
		if (next == UINT64_MAX || edge == UINT64_MAX)
			break;
		/*
		 * A gap with no entries (an idle LPAR, or a wild timebase in
		 * damaged data) is skipped, not written out one empty interval
		 * at a time: intervals stay bounded by entries.
		 */
		if (next - edge >= step) {
			k += (next - edge) / step;
			edge += (next - edge) / step * step;
		}
	}
	free(batch);
	return 0;
fail:
	free(batch);
	return -1;
}

/* "; " between parts, none after the file's name. */
static const char *sep(const char *warn, size_t off)
{
	return off >= 2 && warn[off - 2] == ':' && warn[off - 1] == ' ' ? "" : "; ";
}

/* What makes the file's task attribution uncertain, where anything does. */
static void task_summary(const struct pd *pd, char *warn, size_t warnlen, size_t off)
{
	uint64_t dropped = dtl_pdtasks__dropped(pd->tasks);

	if (!pd->sb_bad && !dropped && !(pd->sb_lost && dtl_pdtasks__switches(pd->tasks)))
		return;
	if (!off)
		off = (size_t)snprintf(warn, warnlen, "%s: ", pd->name);
	if (off < warnlen)
		snprintf(warn + off, warnlen - off, "%stask records (switch, comm, fork): %" PRIu64
			 " damaged, %" PRIu64 " switches not kept, %" PRIu64 " records lost: "
			 "who pays is uncertain around them",
			 sep(warn, off), pd->sb_bad, dropped, pd->sb_lost);
}

/* perf's own words, so a perf user reads the same warning from both. */
static void gap_summary(const struct pd *pd, char *warn, size_t warnlen)
{
	size_t off = strlen(warn);

	if (!off && (pd->truncated || pd->partial || pd->collision || pd->lost_records))
		off = (size_t)snprintf(warn, warnlen, "%s: ", pd->name);

	if (pd->truncated && off < warnlen)
		off += (size_t)snprintf(warn + off, warnlen - off, "%sAUX data lost %" PRIu64
					" times out of %" PRIu64 "!", sep(warn, off),
					pd->truncated, pd->aux_records);
	if (pd->partial && off < warnlen)
		off += (size_t)snprintf(warn + off, warnlen - off, "%sAUX data had gaps in it %"
					PRIu64 " times out of %" PRIu64 "!", sep(warn, off),
					pd->partial, pd->aux_records);
	if (pd->collision && off < warnlen)
		off += (size_t)snprintf(warn + off, warnlen - off, "%sAUX data detected collision %"
					PRIu64 " times out of %" PRIu64 "!", sep(warn, off),
					pd->collision, pd->aux_records);
	if (pd->lost_records && off < warnlen)
		off += (size_t)snprintf(warn + off, warnlen - off, "%sperf lost %" PRIu64 " records "
					"of the vpa_dtl event", sep(warn, off), pd->lost_records);
	task_summary(pd, warn, warnlen, off);
}

static void pd_free(struct pd *pd)
{
	for (size_t u = 0; u < pd->nused; u++) {
		free(pd->s[pd->used[u]]->ch);
		free(pd->s[pd->used[u]]->gap);
		free(pd->s[pd->used[u]]);
	}
	free(pd->ids);
	free(pd->rec);
	dtl_pdtasks__free(pd->tasks);
	free(pd);
}

static struct pd *pd_new(void)
{
	struct pd *pd = calloc(1, sizeof(*pd));

	if (!pd)
		return NULL;
	pd->rec = malloc(65536 + 8);
	pd->tasks = dtl_pdtasks__new();
	if (!pd->rec || !pd->tasks) {
		pd_free(pd);
		return NULL;
	}
	return pd;
}

int dtl_perfdata__convert(FILE *in, const char *name, int out_fd, double interval_s,
			  char *err, size_t errlen, char *warn, size_t warnlen)
{
	struct pd *pd = pd_new();
	struct dtl_rec_writer *w = NULL;
	struct dtl_rec_meta m;
	uint8_t hdr[104];
	uint64_t t0 = UINT64_MAX;
	int rc = -1;

	warn[0] = '\0';
	if (!pd) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	pd->f = in;
	pd->name = name;
	pd->err = err;
	pd->errlen = errlen;
	if (fseeko(in, 0, SEEK_END) || ftello(in) < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno ? errno : ESPIPE));
		goto out;
	}
	pd->len = (uint64_t)ftello(in);
	if (header(pd, hdr) || index_records(pd, warn, warnlen) < 0)
		goto out;
	if (dtl_pdtasks__index(pd->tasks)) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	if (!pd->chunks || !pd->info) {
		snprintf(err, errlen, "%s: no vpa_dtl AUX data in this perf.data (make it with "
			 "'perf record -a -e vpa_dtl/dtl_all/')", name);
		goto out;
	}
	memset(&m, 0, sizeof(m));
	snprintf(m.source, sizeof(m.source), "perf.data");
	if (!pd->pipe)
		hostname(pd, hdr, m.host, sizeof(m.host));
	/* The first entry of every CPU: where the capture starts, and which CPUs it has. */
	qsort(pd->used, pd->nused, sizeof(pd->used[0]), cmp_cpu);
	for (size_t u = 0; u < pd->nused; u++) {
		unsigned int c = pd->used[u];
		struct stream *s = pd->s[c];

		if (!s || (!advance(pd, s) && !s->started))
			continue;
		dtl_cpuset__set(&m.cpus, c);
		m.nr_cpus = c + 1;
		if (s->have_next && dtl__be64(s->next + 16) < t0)
			t0 = dtl__be64(s->next + 16);
	}
	if (!m.nr_cpus) {
		snprintf(err, errlen, "%s: no whole vpa_dtl entry in its AUX data", name);
		goto out;
	}
	snprintf(m.detail, sizeof(m.detail), "%" PRIu64 " AUX chunks, %" PRIu64 " of %" PRIu64
		 " AUX records flagged, %s", pd->chunks, pd->truncated + pd->partial + pd->collision,
		 pd->aux_records, dtl_pdtasks__switches(pd->tasks) ? "task switches" :
		 "no task switches (perf record --switch-events)");
	/* A timebase runs at MHz to GHz; anything else is damage. */
	m.tb_freq = dtl_tb_freq__ok(pd->tb_freq) ? pd->tb_freq : DTL_DEFAULT_TB_FREQ;
	m.boot_tb = pd->boot_tb;
	m.interval_s = interval_s;
	m.mask = pd->mask ? pd->mask : DTL_MASK_ALL;
	if (t0 == UINT64_MAX)
		t0 = pd->boot_tb;
	m.start_tb = t0;
	/* Rows are stamped with time since boot, perf's own clock, from 1970. */
	if (t0 > pd->boot_tb) {
		double ns = (double)(t0 - pd->boot_tb) / (double)m.tb_freq * 1e9;

		m.start_ns = ns < 9e18 ? (uint64_t)ns : (uint64_t)9e18;
	}
	w = dtl_rec_writer__open_fd(out_fd, name, &m, err, errlen);
	if (!w)
		goto out;
	if (write_intervals(pd, w, &m, t0)) {
		dtl_rec_writer__close(w, err, errlen);
		w = NULL;
		goto out;
	}
	rc = dtl_rec_writer__close(w, err, errlen);
	w = NULL;
	gap_summary(pd, warn, warnlen);
out:
	pd_free(pd);
	return rc;
}
