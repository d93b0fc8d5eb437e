/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recread.c - read a dtltop recording.
 *
 * A reader believes a chunk's lengths only once the header's own CRC holds,
 * and never allocates more than DTL_REC_MAX_RAW for one; a file cut off or
 * damaged anywhere reads up to its last whole chunk, with a warning.
 */
#include "record.h"
#include "chunk.h"
#include "le.h"
#include "recmeta.h"
#include "summary.h"
#include "switches.h"
#include "v1.h"
#include "v2.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "../dtl/dtl.h"

static ZSTD_DCtx *dctx;

struct dtl_rec_reader {
	FILE *f;
	char name[1024];
	uint64_t off;			/* of the next chunk */
	uint8_t *z, *raw;
	size_t zcap, rawcap;
	const uint8_t *recs;		/* the current chunk's records: raw, or the columns' stream 0 */
	size_t len, pos;
	struct dtl_rec_v2_in in;	/* a format 2 chunk's streams */
	size_t pend;			/* entries of the last record still to hand out (2) */
	unsigned int pend_cpu;
	uint8_t *ent;			/* unpacked entries of the last record */
	size_t entcap;
	struct dtl_interval_cpu counts;	/* the last counts record, unpacked */
	struct dtl_sum_task *task;	/* the last task record, unpacked (made at the first) */
	struct dtl_switch *sw;		/* unpacked switches of the last record, names in swtext */
	char *swtext;
	size_t swcap, swtextcap;
	char warning[2048];
	unsigned int major;		/* of the file: how its entries are stored */
	bool done;
	bool complete;			/* the end marker was read */
	bool skim;			/* entries passed over (dtl_rec_reader__skim) */
	bool skimmed;			/* the current chunk's were */
	bool seekable;			/* a file: a skimmed chunk's columns are seeked over */
};

/*
 * Checked under a fuzzing build too: the fuzz target writes valid checksums
 * around the bytes it is given, so what lies behind them is fuzzed.
 */
static bool crc_ok(uint32_t want, const uint8_t *p, size_t len)
{
	return want == (uint32_t)crc32(0, p, (uInt)len);
}

static bool grow_z(struct dtl_rec_reader *r, size_t len)
{
	if (r->zcap >= len)
		return true;
	free(r->z);
	r->z = malloc(len);
	r->zcap = r->z ? len : 0;
	return r->z != NULL;
}

/*
 * A format 2 data chunk of zlen bytes, skimmed: its column header and its
 * records read, its columns of entries seeked over, so a window far into a
 * day reads a small part of it. Its checksum goes unchecked (the bytes it
 * covers are not all read); the records are parsed as warily as any.
 */
static int skim_chunk(struct dtl_rec_reader *r, uint32_t zlen, char *err, size_t errlen)
{
	uint64_t at = r->off + CHUNK_HDR;
	uint8_t head[DTL_V2_HEAD];
	size_t stored;
	struct stat st;
	char why[256] = "";

	if (fstat(fileno(r->f), &st) || at + zlen > (uint64_t)st.st_size) {
		snprintf(err, errlen, "offset %" PRIu64 ": cut off (a chunk of %u bytes past the "
			 "file's end)", r->off, zlen + CHUNK_HDR);
		return -1;
	}
	if (fread(head, 1, sizeof(head), r->f) != sizeof(head) ||
	    dtl_rec_v2__head(head, zlen, DTL_REC_MAX_RAW, &stored, why, sizeof(why)) ||
	    !grow_z(r, stored ? stored : 1) || fread(r->z, 1, stored, r->f) != stored ||
	    dtl_rec_v2__open_records(&r->in, dctx, head, r->z, why, sizeof(why)) ||
	    fseeko(r->f, (off_t)(at + zlen), SEEK_SET)) {
		snprintf(err, errlen, "offset %" PRIu64 ": %s", r->off, r->zcap ? (why[0] ? why :
			 "cut off") : "out of memory");
		return -1;
	}
	r->off = at + zlen;
	r->pos = 0;
	r->recs = r->in.p[0];
	r->len = (size_t)(r->in.end[0] - r->in.p[0]);
	return 1;
}

/* 1 chunk read, 0 clean end, -1 with why in err (and where). */
/* len bytes of the input passed over: seeked in a file, read in a pipe; -1 where it ends first. */
static int pass_over(struct dtl_rec_reader *r, uint32_t len)
{
	uint8_t buf[4096];
	struct stat st;

	if (r->seekable)
		return fstat(fileno(r->f), &st) || r->off + CHUNK_HDR + len > (uint64_t)st.st_size ||
		       fseeko(r->f, (off_t)len, SEEK_CUR) ? -1 : 0;
	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		if (fread(buf, 1, n, r->f) != n)
			return -1;
		len -= (uint32_t)n;
	}
	return 0;
}

static int read_chunk(struct dtl_rec_reader *r, int *type, char *err, size_t errlen)
{
	uint8_t hdr[CHUNK_HDR];
	size_t got = fread(hdr, 1, sizeof(hdr), r->f);
	uint32_t zlen, rlen;
	size_t out;

	if (got == 0 && feof(r->f))
		return 0;
	if (got < sizeof(hdr)) {
		snprintf(err, errlen, "offset %" PRIu64 ": cut off (%zu bytes of a chunk header)",
			 r->off, got);
		return -1;
	}
	if (get32(hdr) != CHUNK_MAGIC || !crc_ok(get32(hdr + 20), hdr, 20)) {
		snprintf(err, errlen, "offset %" PRIu64 ": damaged chunk header", r->off);
		return -1;
	}
	zlen = get32(hdr + 8);
	rlen = get32(hdr + 12);
	/* a header is zstd's; from format 2 on, every other chunk is columns */
	if (hdr[5] != (hdr[4] == CHUNK_META || r->major < 2 ? CODEC_ZSTD : DTL_V2_CODEC) ||
	    rlen > DTL_REC_MAX_RAW || zlen > ZSTD_compressBound(rlen) + (1u << 12)) {
		snprintf(err, errlen, "offset %" PRIu64 ": impossible chunk (codec %u, %u bytes "
			 "packed, %u raw)", r->off, hdr[5], zlen, rlen);
		return -1;
	}
	if (hdr[4] != CHUNK_META && hdr[4] != CHUNK_DATA) {
		/* nothing here for the records (a mark, 2.3): passed over unread, so unchecked */
		if (pass_over(r, zlen)) {
			snprintf(err, errlen, "offset %" PRIu64 ": cut off (a chunk of %u bytes)", r->off,
				 zlen + CHUNK_HDR);
			return -1;
		}
		r->off += CHUNK_HDR + zlen;
		r->pos = r->len = 0;
		*type = hdr[4];
		return 1;
	}
	r->skimmed = r->skim;
	if (!dctx)
		dctx = ZSTD_createDCtx();
	if (r->skim && hdr[4] == CHUNK_DATA && hdr[5] == DTL_V2_CODEC && dctx && r->seekable) {
		*type = CHUNK_DATA;
		return skim_chunk(r, zlen, err, errlen);
	}
	grow_z(r, zlen);
	/* a zstd chunk's records are decompressed here; columns decode into their own */
	if (hdr[5] == CODEC_ZSTD && r->rawcap < rlen + 1u) {
		free(r->raw);
		r->raw = malloc(rlen + 1u);
		r->rawcap = r->raw ? rlen + 1u : 0;
	}
	if ((zlen && !r->z) || (hdr[5] == CODEC_ZSTD && !r->raw)) {
		snprintf(err, errlen, "offset %" PRIu64 ": out of memory", r->off);
		return -1;
	}
	got = fread(r->z, 1, zlen, r->f);
	if (got < zlen) {
		snprintf(err, errlen, "offset %" PRIu64 ": cut off (%zu of %u bytes of a chunk)",
			 r->off, got + CHUNK_HDR, zlen + CHUNK_HDR);
		return -1;
	}
	if (!crc_ok(get32(hdr + 16), r->z, zlen)) {
		snprintf(err, errlen, "offset %" PRIu64 ": bad checksum", r->off);
		return -1;
	}
	r->off += CHUNK_HDR + zlen;
	r->pos = 0;
	*type = hdr[4];
	if (hdr[5] == DTL_V2_CODEC) {
		char why[256];

		if (!dctx || dtl_rec_v2__open(&r->in, dctx, r->z, zlen, DTL_REC_MAX_RAW, why,
					      sizeof(why))) {
			snprintf(err, errlen, "offset %" PRIu64 ": %s", r->off - CHUNK_HDR - zlen,
				 dctx ? why : "out of memory");
			return -1;
		}
		r->recs = r->in.p[0];
		r->len = (size_t)(r->in.end[0] - r->in.p[0]);
		return 1;
	}
	out = dctx ? ZSTD_decompressDCtx(dctx, r->raw, rlen, r->z, zlen) : (size_t)-1;
	if (ZSTD_isError(out) || out != rlen) {
		snprintf(err, errlen, "offset %" PRIu64 ": chunk does not decompress",
			 r->off - CHUNK_HDR - zlen);
		return -1;
	}
	r->raw[rlen] = '\0';
	r->recs = r->raw;
	r->len = rlen;
	return 1;
}

struct dtl_rec_reader *dtl_rec_reader__open(FILE *f, const char *name, struct dtl_rec_meta *m,
					    char *err, size_t errlen)
{
	struct dtl_rec_reader *r = calloc(1, sizeof(*r));
	uint8_t hdr[FILE_HDR];
	char why[512] = "";
	struct stat st;
	int type = 0;

	memset(m, 0, sizeof(*m));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	r->f = f;
	/* a file: a skimmed chunk's columns can be seeked over (asked once, not per interval) */
	r->seekable = fileno(f) >= 0 && !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || memcmp(hdr, FILE_MAGIC, 8)) {
		snprintf(err, errlen, "%s: offset 0: not a dtltop recording", name);
		goto fail;
	}
	m->major = get16(hdr + 8);
	m->minor = get16(hdr + 10);
	r->major = m->major;
	if (m->major < 1 || m->major > DTL_REC_SUMMARY_MAJOR) {
		snprintf(err, errlen, "%s: offset 8: recording format %u.%u; this dtltop reads "
			 "1.x to %d.x (a newer dtltop wrote it?)", name, m->major, m->minor,
			 DTL_REC_SUMMARY_MAJOR);
		goto fail;
	}
	r->off = FILE_HDR;
	if (read_chunk(r, &type, why, sizeof(why)) != 1 || type != CHUNK_META) {
		snprintf(err, errlen, "%s: %s", name, type && type != CHUNK_META ?
			 "offset 16: first chunk is not the recording's header" :
			 (why[0] ? why : "offset 16: no header chunk"));
		goto fail;
	}
	dtl_rec_meta__parse((char *)r->raw, m);
	m->summary = m->major == DTL_REC_SUMMARY_MAJOR;
	if (!m->tb_freq) {
		snprintf(err, errlen, "%s: offset 16: header without a timebase frequency", name);
		goto fail;
	}
	if (!dtl_tb_freq__ok(m->tb_freq)) {
		snprintf(err, errlen, "%s: offset 16: timebase %" PRIu64 " Hz is not a timebase "
			 "(want 1 MHz to 100 GHz)", name, m->tb_freq);
		goto fail;
	}
	if (!m->nr_cpus || !dtl_cpuset__count(&m->cpus)) {
		snprintf(err, errlen, "%s: offset 16: the header names no CPU", name);
		goto fail;
	}
	r->len = r->pos = 0;
	return r;
fail:
	dtl_rec_reader__close(r);
	return NULL;
}

/* A switches record into r's arrays (each switch takes at least 14 bytes); -1 out of memory. */
static int unpack_switches(struct dtl_rec_reader *r, const uint8_t *p, uint32_t body,
			   struct dtl_rec_event *ev)
{
	size_t max = body / 14;
	int bad;

	if (r->swcap < max || r->swtextcap < body) {
		free(r->sw);
		free(r->swtext);
		r->sw = malloc((max ? max : 1) * sizeof(*r->sw));
		r->swtext = malloc(body ? body : 1);	/* names plus a NUL each fit the body */
		r->swcap = r->sw ? max : 0;
		r->swtextcap = r->swtext ? body : 0;
		if (!r->sw || !r->swtext) {
			snprintf(r->warning, sizeof(r->warning), "%s: out of memory", r->name);
			r->done = true;
			return -1;
		}
	}
	/*
	 * Skimmed, no entry is charged to anyone: what carries on is the names
	 * told and who runs at the end, so a CPU's switches that name nobody
	 * are passed over but its last (with tasks, most of a skim's work).
	 */
	if (r->skimmed)
		ev->n = dtl_rec_switches__skim(p, body, r->sw, max, r->swtext, r->swtextcap, &bad);
	else
		ev->n = dtl_rec_switches__unpack(p, body, r->sw, max, r->swtext, r->swtextcap, &bad);
	ev->switches = r->sw;
	if (bad && !r->warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s: chunk before offset %" PRIu64 ": a task "
			 "switch record is malformed; its rest was skipped", r->name, r->off);
	return 0;
}

static int malformed(struct dtl_rec_reader *r, const char *what)
{
	snprintf(r->warning, sizeof(r->warning), "%s: chunk before offset %" PRIu64 ": %s; "
		 "replayed what came before", r->name, r->off, what);
	r->done = true;
	return -1;
}

static int ent_room(struct dtl_rec_reader *r, size_t n)
{
	if (r->entcap >= n * DTL_ENTRY_SIZE)
		return 0;
	free(r->ent);
	r->ent = malloc(n * DTL_ENTRY_SIZE);
	r->entcap = r->ent ? n * DTL_ENTRY_SIZE : 0;
	return r->ent ? 0 : malformed(r, "out of memory");
}

/* Up to a batch of the last format 2 record's entries from the columns. */
static int take_entries(struct dtl_rec_reader *r, struct dtl_rec_event *ev)
{
	size_t n = r->pend < DTL_V2_BATCH ? r->pend : DTL_V2_BATCH;

	if (ent_room(r, n))
		return -1;
	if (dtl_rec_v2__take(&r->in, r->ent, n))
		return malformed(r, "a column of entries is malformed");
	memset(ev, 0, sizeof(*ev));
	ev->kind = DTL_REC_ENTRIES;
	ev->cpu = r->pend_cpu;
	ev->n = n;
	ev->data = r->ent;
	r->pend -= n;
	return 0;
}

/*
 * Whether the record at r->pos is an entries record of cpu that the columns
 * still hold, whole: its count in *n, its body's length in *body.
 */
static bool continues(const struct dtl_rec_reader *r, unsigned int cpu, uint32_t *n,
		      uint32_t *body)
{
	const uint8_t *q = r->recs + r->pos;

	if (r->len - r->pos < REC_HDR + 4 || q[0] != DTL_REC_ENTRIES || get16(q + 2) != cpu)
		return false;
	*body = get32(q + 4);
	*n = get32(q + REC_HDR);
	return *body >= 4 && *body <= r->len - r->pos - REC_HDR &&
	       *n <= dtl_rec_v2__left(&r->in) - r->pend;
}

/* An entries record: 1.x's planes into r->ent, 2's count of entries in the columns. */
static int unpack_entries(struct dtl_rec_reader *r, const uint8_t *p, uint32_t body,
			  struct dtl_rec_event *ev)
{
	uint32_t n, more;

	if (r->major >= 2) {
		if (body < 4 || get32(p) > dtl_rec_v2__left(&r->in))
			return malformed(r, "an entries record counts more entries than its columns hold");
		r->pend = get32(p);
		r->pend_cpu = ev->cpu;
		/*
		 * The CPU's records that follow at once are one block: files
		 * written before the writer merged them hold a record a drain
		 * (a few entries each), which cost a replay half its time.
		 */
		while (continues(r, ev->cpu, &n, &more)) {
			r->pend += n;
			r->pos += REC_HDR + more;
		}
		return take_entries(r, ev);
	}
	ev->n = body / DTL_ENTRY_SIZE;
	if (ent_room(r, ev->n))
		return -1;
	dtl_rec_v1__unpack(r->ent, p, ev->n);
	ev->data = r->ent;
	return 0;
}

/*
 * A summary's counts or task record into *ev: 1, 0 outside a summary
 * (counts beside entries would count twice: passed over), -1 damaged.
 */
static int summary_record(struct dtl_rec_reader *r, const uint8_t *p, uint32_t body,
			  struct dtl_rec_event *ev)
{
	const char *what = "out of memory";

	if (r->major != DTL_REC_SUMMARY_MAJOR)
		return 0;
	if (ev->kind == DTL_REC_COUNTS) {
		if (dtl_sum__unpack(p, body, &r->counts, &ev->flags, &what))
			return malformed(r, what);
		ev->counts = &r->counts;
		return 1;
	}
	if (!r->task)
		r->task = malloc(sizeof(*r->task));
	if (!r->task || dtl_sum__unpack_task(p, body, r->task, &what))
		return malformed(r, what);
	ev->task = &r->task->ti;
	return 1;
}

int dtl_rec_reader__next(struct dtl_rec_reader *r, struct dtl_rec_event *ev)
{
	while (!r->done) {
		const uint8_t *p;
		uint32_t body;
		char why[512];
		int type, rc;

		if (r->pend)
			return take_entries(r, ev) ? 0 : 1;
		if (r->pos >= r->len) {
			rc = read_chunk(r, &type, why, sizeof(why));
			if (rc <= 0) {
				if (rc < 0)
					snprintf(r->warning, sizeof(r->warning),
						 "%s: %s; replayed what came before", r->name, why);
				r->done = true;
				return 0;
			}
			if (type != CHUNK_DATA)
				r->len = 0;	/* a newer minor version's chunk: skipped */
			continue;
		}
		p = r->recs + r->pos;
		if (r->len - r->pos < REC_HDR || (body = get32(p + 4)) > r->len - r->pos - REC_HDR) {
			snprintf(r->warning, sizeof(r->warning), "%s: chunk before offset %" PRIu64
				 ": record overruns it; replayed what came before", r->name, r->off);
			r->done = true;
			return 0;
		}
		r->pos += REC_HDR + body;
		if (r->skimmed && (p[0] == DTL_REC_ENTRIES || p[0] == DTL_REC_COUNTS))
			continue;	/* most of a skimmed chunk's records: passed over first */
		memset(ev, 0, sizeof(*ev));
		ev->kind = p[0];
		ev->cpu = get16(p + 2);
		p += REC_HDR;
		switch (ev->kind) {
		case DTL_REC_ENTRIES:
			if (unpack_entries(r, p, body, ev))
				return 0;
			return 1;
		case DTL_REC_END:
			r->complete = true;
			continue;
		case DTL_REC_LOST:
		case DTL_REC_BAD:
		case DTL_REC_GAP:
		case DTL_REC_MASK:
		case DTL_REC_CPU:
		case DTL_REC_VPA_STEAL:
		case DTL_REC_STAT_STEAL:
		case DTL_REC_DROPPED:
			if (body < 8)
				continue;
			ev->value = get64(p);
			ev->end_tb = body >= 16 ? get64(p + 8) : 0;
			return 1;
		case DTL_REC_SWITCHES:
			if (unpack_switches(r, p, body, ev))
				return 0;
			return 1;
		case DTL_REC_COUNTS:
		case DTL_REC_TASK:
			rc = summary_record(r, p, body, ev);
			if (rc > 0)
				return 1;
			if (rc < 0)
				return 0;
			continue;
		case DTL_REC_INCIDENT:
		case DTL_REC_LPARCFG:
			ev->n = body < DTL_REC_LPARCFG_MAX ? body : DTL_REC_LPARCFG_MAX;
			ev->data = p;	/* text, not NUL-terminated */
			return 1;
		case DTL_REC_SYMBOLS:
			ev->n = body < DTL_REC_SYMBOLS_MAX ? body : DTL_REC_SYMBOLS_MAX;
			ev->data = p;	/* text, not NUL-terminated, may hold one */
			return 1;
		case DTL_REC_TICK:
			if (body < 16)
				continue;
			ev->ts_ns = get64(p);
			ev->interval_s = (double)get64(p + 8) / 1e9;
			ev->end_tb = body >= 24 ? get64(p + 16) : 0;
			return 1;
		default:
			continue;	/* a newer minor version's record */
		}
	}
	return 0;
}

bool dtl_rec_reader__ready(struct dtl_rec_reader *r)
{
	uint8_t hdr[CHUNK_HDR];
	struct stat st;
	int fd = fileno(r->f);

	if (r->done || r->pend || r->pos < r->len)
		return true;
	/* a stream (a service's socket, unbuffered): ready once its next bytes are there */
	if (fd >= 0 && !r->seekable) {
		struct pollfd pfd = { fd, POLLIN, 0 };

		return poll(&pfd, 1, 0) > 0;
	}
	if (fd < 0 || fstat(fd, &st) || pread(fd, hdr, sizeof(hdr), (off_t)r->off) != sizeof(hdr))
		return false;
	/* a header that is not one is damage, for next() to say; a whole chunk is read */
	if (get32(hdr) == CHUNK_MAGIC && crc_ok(get32(hdr + 20), hdr, 20) &&
	    r->off + CHUNK_HDR + get32(hdr + 8) > (uint64_t)st.st_size)
		return false;
	clearerr(r->f);	/* glibc's end of file sticks: it would hide what came since */
	return true;
}

int dtl_rec_reader__last_tick(struct dtl_rec_reader *r, uint64_t *ts_ns)
{
	uint64_t at[3] = { 0, 0, 0 }, off = r->off, end;
	uint8_t hdr[CHUNK_HDR];
	struct stat st;
	int found = -1;

	if (fstat(fileno(r->f), &st) || r->pend || r->pos < r->len)
		return -1;
	end = (uint64_t)st.st_size;
	/* the headers alone, to the last whole chunk: the last three data chunks kept */
	while (off + CHUNK_HDR <= end && fseeko(r->f, (off_t)off, SEEK_SET) == 0 &&
	       fread(hdr, 1, sizeof(hdr), r->f) == sizeof(hdr) && get32(hdr) == CHUNK_MAGIC &&
	       crc_ok(get32(hdr + 20), hdr, 20) && off + CHUNK_HDR + get32(hdr + 8) <= end) {
		if (hdr[4] == CHUNK_DATA) {
			at[0] = at[1];
			at[1] = at[2];
			at[2] = off;
		}
		off += CHUNK_HDR + get32(hdr + 8);
	}
	/* the end marker may have a chunk of its own: the tick is in one of the last */
	for (int i = 0; i < 3; i++) {
		struct dtl_rec_event ev;

		if (!at[i] || fseeko(r->f, (off_t)at[i], SEEK_SET))
			continue;
		r->off = at[i];
		r->pos = r->len = 0;
		r->pend = 0;
		r->done = false;
		clearerr(r->f);
		while (dtl_rec_reader__next(r, &ev) > 0) {
			if (ev.kind == DTL_REC_TICK) {
				*ts_ns = ev.ts_ns;
				found = 0;
			}
			if (r->pos >= r->len && !r->pend)
				break;	/* this chunk read: the next is the following i */
		}
	}
	r->done = true;
	return found;
}

/* One mark chunk at off (its header hdr), checked, to fn; 1 when fn stops the walk. */
static int one_mark(struct dtl_rec_reader *r, uint64_t off, const uint8_t *hdr,
		    dtl_rec_mark_fn fn, void *ctx)
{
	struct dtl_rec_v2_in in = { 0 };
	uint32_t zlen = get32(hdr + 8);
	char why[256];
	int rc = 0;

	if (hdr[5] != DTL_V2_CODEC || zlen > DTL_REC_MAX_RAW || !grow_z(r, zlen) || !dctx ||
	    fread(r->z, 1, zlen, r->f) != zlen || !crc_ok(get32(hdr + 16), r->z, zlen))
		return 0;	/* a mark that does not read is no mark */
	if (!dtl_rec_v2__open(&in, dctx, r->z, zlen, DTL_REC_MAX_RAW, why, sizeof(why)))
		rc = fn(ctx, off + CHUNK_HDR + zlen, in.p[0], (size_t)(in.end[0] - in.p[0])) ? 1 : 0;
	dtl_rec_v2__close(&in);
	return rc;
}

int dtl_rec_reader__marks(struct dtl_rec_reader *r, dtl_rec_mark_fn fn, void *ctx)
{
	uint64_t off = r->off, end;
	uint8_t hdr[CHUNK_HDR];
	struct stat st;

	if (!r->seekable || fstat(fileno(r->f), &st))
		return -1;
	if (!dctx)
		dctx = ZSTD_createDCtx();
	end = (uint64_t)st.st_size;
	while (off + CHUNK_HDR <= end && fseeko(r->f, (off_t)off, SEEK_SET) == 0 &&
	       fread(hdr, 1, sizeof(hdr), r->f) == sizeof(hdr) && get32(hdr) == CHUNK_MAGIC &&
	       crc_ok(get32(hdr + 20), hdr, 20) && off + CHUNK_HDR + get32(hdr + 8) <= end) {
		if (hdr[4] == CHUNK_MARK && one_mark(r, off, hdr, fn, ctx))
			break;
		off += CHUNK_HDR + get32(hdr + 8);
	}
	clearerr(r->f);
	return fseeko(r->f, (off_t)r->off, SEEK_SET) ? -1 : 0;
}

void dtl_rec_reader__skim(struct dtl_rec_reader *r, bool on)
{
	r->skim = on;
}

bool dtl_rec_reader__boundary(const struct dtl_rec_reader *r, uint64_t *off)
{
	*off = r->off;
	return !r->done && !r->pend && r->pos >= r->len;
}

int dtl_rec_reader__seek(struct dtl_rec_reader *r, uint64_t off)
{
	r->pos = r->len = 0;
	r->pend = 0;
	clearerr(r->f);
	if (!r->seekable || fseeko(r->f, (off_t)off, SEEK_SET)) {
		r->done = true;
		return -1;
	}
	r->off = off;
	r->done = false;
	return 0;
}

bool dtl_rec_reader__complete(const struct dtl_rec_reader *r)
{
	return r->complete;
}

const char *dtl_rec_reader__warning(const struct dtl_rec_reader *r)
{
	return r->warning[0] ? r->warning : NULL;
}

void dtl_rec_reader__close(struct dtl_rec_reader *r)
{
	if (!r)
		return;
	free(r->z);
	free(r->raw);
	free(r->ent);
	dtl_rec_v2__close(&r->in);
	free(r->sw);
	free(r->swtext);
	free(r->task);
	free(r);
}
