/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.c - write and read dtltop recordings.
 *
 * The trick: every chunk carries its own lengths and two CRCs (one over the
 * chunk header, so a damaged length is caught before it is believed, one over
 * the payload), and every interval ends a chunk. So a file cut off or damaged
 * anywhere is good up to its last whole chunk, and a reader never allocates
 * more than DTL_REC_MAX_RAW for one.
 */
#include "record.h"
#include "le.h"
#include "switches.h"
#include "v1.h"
#include "v2.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "../dtl/dtl.h"
#include "../platform/signals.h"

#define FILE_MAGIC "DTLTOPRC"
#define CHUNK_MAGIC 0x434c5444u		/* "DTLC" little-endian */
#define CHUNK_META 1
#define CHUNK_DATA 2
#define CODEC_ZSTD 1
#define FILE_HDR 16
#define CHUNK_HDR 24
#define REC_HDR 8
#define FLUSH_AT (4u << 20)

/* --- writer ------------------------------------------------------------------ */

static ZSTD_DCtx *dctx;

/*
 * Compressing is most of a recording's cost, so a thread of the writer's
 * own does it: the caller fills one buffer while the other is compressed
 * and written, chunks still in order. The capture loop pays for packing.
 */
struct dtl_rec_writer {
	int fd;
	char path[4096];
	uint8_t *raw;			/* the caller's: records being added */
	size_t len, cap;
	struct dtl_rec_v2_cols cols;	/* and their entries' columns */
	int err;			/* the caller's view: the first error */
	uint64_t bytes;			/* written, atomic */
	/* the compressor's */
	ZSTD_CCtx *cctx;
	uint8_t *z;
	size_t zcap;
	/* the hand-over, under lock */
	bool threaded, busy, stop;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint8_t *job;
	size_t job_len, job_cap;
	struct dtl_rec_v2_cols job_cols;
	int job_err;			/* the compressor's first error */
};

static int grow(struct dtl_rec_writer *w, size_t more)
{
	uint8_t *p;
	size_t cap = w->cap ? w->cap : 1 << 16;

	if (w->len + more <= w->cap)
		return 0;
	while (cap < w->len + more)
		cap *= 2;
	p = realloc(w->raw, cap);
	if (!p)
		return -1;
	w->raw = p;
	w->cap = cap;
	return 0;
}

static int write_all(struct dtl_rec_writer *w, const void *buf, size_t len, int *err)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*err = n < 0 ? errno : EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		__atomic_add_fetch(&w->bytes, (uint64_t)n, __ATOMIC_RELAXED);
	}
	return 0;
}

static int write_stored(struct dtl_rec_writer *w, int type, int codec, size_t zlen, size_t len,
			int *err)
{
	uint8_t hdr[CHUNK_HDR];

	put32(hdr, CHUNK_MAGIC);
	hdr[4] = (uint8_t)type;
	hdr[5] = (uint8_t)codec;
	put16(hdr + 6, 0);
	put32(hdr + 8, (uint32_t)zlen);
	put32(hdr + 12, (uint32_t)len);
	put32(hdr + 16, (uint32_t)crc32(0, w->z, (uInt)zlen));
	put32(hdr + 20, (uint32_t)crc32(0, hdr, 20));
	return write_all(w, hdr, sizeof(hdr), err) || write_all(w, w->z, zlen, err) ? -1 : 0;
}

/* The compressor's side: only one thread at a time calls these (the worker, once started). */
static int write_data(struct dtl_rec_writer *w, const uint8_t *raw, size_t len,
		      const struct dtl_rec_v2_cols *cols, int *err)
{
	size_t zlen, rawlen;

	if (!w->cctx)
		w->cctx = ZSTD_createCCtx();
	if (!w->cctx || dtl_rec_v2__seal(w->cctx, raw, len, cols, &w->z, &w->zcap, &zlen, &rawlen)) {
		*err = ENOMEM;
		return -1;
	}
	return write_stored(w, CHUNK_DATA, DTL_V2_CODEC, zlen, rawlen, err);
}

static int write_meta(struct dtl_rec_writer *w, const uint8_t *raw, size_t len, int *err)
{
	size_t bound = ZSTD_compressBound(len), zlen;

	if (w->zcap < bound) {
		uint8_t *p = realloc(w->z, bound);

		if (!p) {
			*err = ENOMEM;
			return -1;
		}
		w->z = p;
		w->zcap = bound;
	}
	/* One context per writer: making one per chunk costs more than compressing. */
	if (!w->cctx)
		w->cctx = ZSTD_createCCtx();
	zlen = w->cctx ? ZSTD_compressCCtx(w->cctx, w->z, w->zcap, raw, len, 1) : (size_t)-1;
	if (ZSTD_isError(zlen)) {
		*err = EIO;
		return -1;
	}
	return write_stored(w, CHUNK_META, CODEC_ZSTD, zlen, len, err);
}

static void *compressor(void *arg)
{
	struct dtl_rec_writer *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		int err = 0;

		while (!w->busy && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->busy)
			break;
		pthread_mutex_unlock(&w->lock);
		if (!w->job_err)
			write_data(w, w->job, w->job_len, &w->job_cols, &err);
		pthread_mutex_lock(&w->lock);
		if (err && !w->job_err)
			w->job_err = err;
		w->busy = false;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/*
 * Until the chunk in flight is written; its error becomes the caller's.
 * Returns with the lock held, for the caller's next move.
 */
static void lock_idle(struct dtl_rec_writer *w)
{
	pthread_mutex_lock(&w->lock);
	while (w->busy)
		pthread_cond_wait(&w->cond, &w->lock);
	if (w->job_err && !w->err)
		w->err = w->job_err;
}

static int flush(struct dtl_rec_writer *w)
{
	uint8_t *spare;
	size_t cap;

	if (!w->len || w->err)
		return w->err ? -1 : 0;
	if (!w->threaded) {
		int rc = write_data(w, w->raw, w->len, &w->cols, &w->err);

		w->len = 0;
		dtl_rec_v2__clear(&w->cols);
		return rc;
	}
	lock_idle(w);
	if (w->err) {
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	/* the filled buffer goes to the compressor; its last one comes back */
	spare = w->job;
	cap = w->job_cap;
	w->job = w->raw;
	w->job_cap = w->cap;
	w->job_len = w->len;
	w->raw = spare;
	w->cap = cap;
	w->len = 0;
	{
		struct dtl_rec_v2_cols c = w->job_cols;

		w->job_cols = w->cols;
		w->cols = c;
		dtl_rec_v2__clear(&w->cols);
	}
	w->busy = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static uint8_t *record(struct dtl_rec_writer *w, int kind, unsigned int cpu, size_t body)
{
	uint8_t *p;

	if (w->err || grow(w, REC_HDR + body)) {
		w->err = w->err ? w->err : ENOMEM;
		return NULL;
	}
	p = w->raw + w->len;
	p[0] = (uint8_t)kind;
	p[1] = 0;
	put16(p + 2, (uint16_t)cpu);
	put32(p + 4, (uint32_t)body);
	w->len += REC_HDR + body;
	return p + REC_HDR;
}

static int value(struct dtl_rec_writer *w, int kind, unsigned int cpu, uint64_t v)
{
	uint8_t *p = record(w, kind, cpu, 8);

	if (!p)
		return -1;
	put64(p, v);
	return 0;
}

static void meta_text(const struct dtl_rec_meta *meta, char *buf, size_t len)
{
	size_t off = 0;
	char *cpus = malloc(DTL_CPUSET_TEXT);
	struct dtl_rec_meta *m = malloc(sizeof(*m));

	if (!cpus || !m) {
		free(cpus);
		free(m);
		buf[0] = '\0';
		return;
	}
	/* one key a line: a newline in a host name (a perf.data's) must not start another */
	*m = *meta;
	dtl_sanitize(m->dtltop_version);
	dtl_sanitize(m->host);
	dtl_sanitize(m->source);
	dtl_sanitize(m->detail);
	dtl_cpuset__format(&m->cpus, cpus, DTL_CPUSET_TEXT);
	off += (size_t)snprintf(buf + off, len - off,
		"format=%d.%d\ndtltop_version=%s\nhost=%s\nsource=%s\ndetail=%s\n"
		"tb_freq=%" PRIu64 "\nboot_tb=%" PRIu64 "\nstart_tb=%" PRIu64 "\nstart_ns=%" PRIu64 "\n"
		"interval_ns=%" PRIu64 "\nmask=%u\nnr_cpus=%u\ncpus=%s\n",
		DTL_REC_MAJOR, DTL_REC_MINOR, m->dtltop_version, m->host, m->source, m->detail,
		m->tb_freq, m->boot_tb, m->start_tb, m->start_ns, (uint64_t)(m->interval_s * 1e9 + 0.5),
		m->mask, m->nr_cpus, cpus);
	if (m->topo.known) {
		dtl_topo__format(&m->topo, &m->cpus, cpus, DTL_CPUSET_TEXT);
		if (cpus[0])
			off += (size_t)snprintf(buf + off, len - off, "siblings=%s\n", cpus);
	}
	if (m->core_threads && off < len)
		off += (size_t)snprintf(buf + off, len - off, "core_threads=%u\n", m->core_threads);
	if (m->set_id && off < len)
		off += (size_t)snprintf(buf + off, len - off, "set_id=%016" PRIx64 "\nset_seq=%u\n",
					m->set_id, m->set_seq);
	dtl_sanitize(m->partition_name);
	if (m->partition_name[0] && off < len)
		off += (size_t)snprintf(buf + off, len - off, "partition_name=%s\n",
					m->partition_name);
	free(cpus);
	/* lparcfg verbatim, one "lparcfg.key=value" per line. */
	for (const char *p = m->lparcfg; *p && off < len;) {
		size_t n = strcspn(p, "\n");

		if (n && memchr(p, '=', n))
			off += (size_t)snprintf(buf + off, len - off, "lparcfg.%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	free(m);
}

static struct dtl_rec_writer *start(int fd, const char *name, const struct dtl_rec_meta *m,
				     char *err, size_t errlen)
{
	struct dtl_rec_writer *w = calloc(1, sizeof(*w));
	uint8_t hdr[FILE_HDR] = { 0 };
	size_t textlen = (1 << 16) + DTL_CPUSET_TEXT;
	char *text = malloc(textlen);
	sigset_t old;

	if (!w || !text) {
		free(w);
		free(text);
		close(fd);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->fd = fd;
	snprintf(w->path, sizeof(w->path), "%s", name);
	memcpy(hdr, FILE_MAGIC, 8);
	put16(hdr + 8, DTL_REC_MAJOR);
	put16(hdr + 10, DTL_REC_MINOR);
	meta_text(m, text, textlen);
	if (write_all(w, hdr, sizeof(hdr), &w->err) ||
	    write_meta(w, (const uint8_t *)text, strlen(text), &w->err)) {
		snprintf(err, errlen, "writing %s: %s", name, strerror(w->err));
		close(w->fd);
		ZSTD_freeCCtx(w->cctx);
		free(w->z);
		free(w);
		free(text);
		return NULL;
	}
	free(text);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	/* without a thread, the caller compresses: slower, never wrong */
	dtl_signals__hold(&old);
	w->threaded = pthread_create(&w->thread, NULL, compressor, w) == 0;
	dtl_signals__restore(&old);
	return w;
}

struct dtl_rec_writer *dtl_rec_writer__open(const char *path, const struct dtl_rec_meta *m,
					    char *err, size_t errlen)
{
	struct dtl_rec_writer *w;
	/* New, never over a file, never through a symlink; a cut-off file still reads. */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return NULL;
	}
	w = start(fd, path, m, err, errlen);
	if (!w)
		unlink(path);
	return w;
}

struct dtl_rec_writer *dtl_rec_writer__open_fd(int fd, const char *name,
					       const struct dtl_rec_meta *m,
					       char *err, size_t errlen)
{
	int mine = dup(fd);

	if (mine < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return NULL;
	}
	return start(mine, name, m, err, errlen);
}

int dtl_rec_writer__entries(struct dtl_rec_writer *w, unsigned int cpu, const uint8_t *data,
			    size_t n, uint64_t lost, uint64_t bad)
{
	if (n) {
		uint8_t *p;

		/* the record says how many; the columns take the entries */
		if (!w->err && dtl_rec_v2__add(&w->cols, data, n))
			w->err = ENOMEM;
		p = record(w, DTL_REC_ENTRIES, cpu, 4);
		if (!p)
			return -1;
		put32(p, (uint32_t)n);
	}
	if (lost && value(w, DTL_REC_LOST, cpu, lost))
		return -1;
	if (bad && value(w, DTL_REC_BAD, cpu, bad))
		return -1;
	return w->len + dtl_rec_v2__bytes(&w->cols) >= FLUSH_AT ? flush(w) : 0;
}

int dtl_rec_writer__gaps(struct dtl_rec_writer *w, unsigned int cpu, uint64_t gaps)
{
	return gaps ? value(w, DTL_REC_GAP, cpu, gaps) : 0;
}

int dtl_rec_writer__mask(struct dtl_rec_writer *w, unsigned int mask)
{
	return value(w, DTL_REC_MASK, 0, mask);
}

int dtl_rec_writer__cpu(struct dtl_rec_writer *w, unsigned int cpu, bool online)
{
	return value(w, DTL_REC_CPU, cpu, online);
}

int dtl_rec_writer__vpa_steal(struct dtl_rec_writer *w, unsigned int cpu, uint64_t ticks)
{
	return value(w, DTL_REC_VPA_STEAL, cpu, ticks);
}

int dtl_rec_writer__stat_steal(struct dtl_rec_writer *w, unsigned int cpu, uint64_t ticks)
{
	return value(w, DTL_REC_STAT_STEAL, cpu, ticks);
}

int dtl_rec_writer__switches(struct dtl_rec_writer *w, unsigned int cpu,
			     const struct dtl_switch *sw, size_t n)
{
	/* a record's body is at most 4 GB: a CPU's switches of one chunk are far less */
	size_t len = dtl_rec_switches__size(sw, n);
	uint8_t *p = n ? record(w, DTL_REC_SWITCHES, cpu, len) : NULL;

	if (n && !p)
		return -1;
	if (p)
		dtl_rec_switches__pack(p, sw, n);
	return 0;
}

int dtl_rec_writer__lparcfg(struct dtl_rec_writer *w, const char *text)
{
	size_t n = strnlen(text, DTL_REC_LPARCFG_MAX);
	uint8_t *p = record(w, DTL_REC_LPARCFG, 0, n);

	if (!p)
		return -1;
	memcpy(p, text, n);
	return 0;
}

int dtl_rec_writer__symbols(struct dtl_rec_writer *w, const char *text, size_t len)
{
	uint8_t *p;

	while (len) {
		/* whole lines per record, each under the reader's bound */
		size_t n = len;

		if (n > DTL_REC_SYMBOLS_MAX) {
			const char *nl = memrchr(text, '\n', DTL_REC_SYMBOLS_MAX);

			n = nl ? (size_t)(nl - text) + 1 : DTL_REC_SYMBOLS_MAX;
		}
		p = record(w, DTL_REC_SYMBOLS, 0, n);
		if (!p)
			return -1;
		memcpy(p, text, n);
		text += n;
		len -= n;
	}
	return 0;
}

int dtl_rec_writer__tick(struct dtl_rec_writer *w, uint64_t ts_ns, double interval_s,
			 uint64_t end_tb)
{
	uint8_t *p = record(w, DTL_REC_TICK, 0, 24);

	if (!p)
		return -1;
	put64(p, ts_ns);
	put64(p + 8, (uint64_t)(interval_s * 1e9 + 0.5));
	put64(p + 16, end_tb);
	return flush(w);
}

uint64_t dtl_rec_writer__bytes(const struct dtl_rec_writer *w)
{
	return __atomic_load_n(&w->bytes, __ATOMIC_RELAXED);
}

int dtl_rec_writer__close(struct dtl_rec_writer *w, char *err, size_t errlen)
{
	int rc;

	if (!w)
		return 0;
	/* What a kill -9 leaves lacks this: a reader can tell the file was cut. */
	if (!w->err)
		value(w, DTL_REC_END, 0, 0);
	rc = flush(w);
	if (w->threaded) {
		lock_idle(w);
		w->stop = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	rc |= w->err ? -1 : 0;
	if (fsync(w->fd) && !rc && errno != EINVAL) {
		w->err = errno;
		rc = -1;
	}
	if (close(w->fd) && !rc) {
		w->err = errno;
		rc = -1;
	}
	if (rc)
		snprintf(err, errlen, "writing %s: %s", w->path, strerror(w->err ? w->err : EIO));
	free(w->raw);
	free(w->job);
	dtl_rec_v2__free(&w->cols);
	dtl_rec_v2__free(&w->job_cols);
	free(w->z);
	ZSTD_freeCCtx(w->cctx);
	free(w);
	return rc ? -1 : 0;
}

/* --- reader ------------------------------------------------------------------ */

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
	struct dtl_switch *sw;		/* unpacked switches of the last record, names in swtext */
	char *swtext;
	size_t swcap, swtextcap;
	char warning[2048];
	unsigned int major;		/* of the file: how its entries are stored */
	bool done;
	bool complete;			/* the end marker was read */
};

/*
 * Checked under a fuzzing build too: the fuzz target writes valid checksums
 * around the bytes it is given, so what lies behind them is fuzzed.
 */
static bool crc_ok(uint32_t want, const uint8_t *p, size_t len)
{
	return want == (uint32_t)crc32(0, p, (uInt)len);
}

/* 1 chunk read, 0 clean end, -1 with why in err (and where). */
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
	if (r->zcap < zlen) {
		free(r->z);
		r->z = malloc(zlen);
		r->zcap = r->z ? zlen : 0;
	}
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
	if (!dctx)
		dctx = ZSTD_createDCtx();
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

static void parse_meta(char *text, struct dtl_rec_meta *m)
{
	size_t lp = 0;

	dtl_topo__alone(&m->topo);

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *v = strchr(line, '=');
		char err[64];

		if (!v)
			continue;
		*v++ = '\0';
		dtl_sanitize(v);
		if (!strcmp(line, "dtltop_version"))
			snprintf(m->dtltop_version, sizeof(m->dtltop_version), "%s", v);
		else if (!strcmp(line, "host"))
			snprintf(m->host, sizeof(m->host), "%s", v);
		else if (!strcmp(line, "source"))
			snprintf(m->source, sizeof(m->source), "%s", v);
		else if (!strcmp(line, "detail"))
			snprintf(m->detail, sizeof(m->detail), "%s", v);
		else if (!strcmp(line, "partition_name"))
			snprintf(m->partition_name, sizeof(m->partition_name), "%s", v);
		else if (!strcmp(line, "tb_freq"))
			m->tb_freq = strtoull(v, NULL, 10);
		else if (!strcmp(line, "boot_tb"))
			m->boot_tb = strtoull(v, NULL, 10);
		else if (!strcmp(line, "start_tb"))
			m->start_tb = strtoull(v, NULL, 10);
		else if (!strcmp(line, "start_ns"))
			m->start_ns = strtoull(v, NULL, 10);
		else if (!strcmp(line, "interval_ns"))
			m->interval_s = (double)strtoull(v, NULL, 10) / 1e9;
		else if (!strcmp(line, "mask"))
			m->mask = (unsigned int)strtoul(v, NULL, 10) & DTL_MASK_ALL;
		else if (!strcmp(line, "nr_cpus"))
			m->nr_cpus = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(line, "cpus") && *v)
			dtl_cpuset__parse(&m->cpus, v, err, sizeof(err));
		else if (!strcmp(line, "core_threads") && strtoul(v, NULL, 10) <= 64)
			m->core_threads = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(line, "set_id"))
			m->set_id = strtoull(v, NULL, 16);
		else if (!strcmp(line, "set_seq"))
			m->set_seq = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(line, "siblings"))
			dtl_topo__parse(&m->topo, v, err, sizeof(err));	/* bad: unknown */
		else if (!strncmp(line, "lparcfg.", 8) && lp < sizeof(m->lparcfg))
			lp += (size_t)snprintf(m->lparcfg + lp, sizeof(m->lparcfg) - lp, "%s=%s\n",
					       line + 8, v);
		/* Unknown keys are a newer minor version's: ignored. */
	}
	if (m->nr_cpus > DTL_MAX_CPUS)
		m->nr_cpus = DTL_MAX_CPUS;
	if (dtl_cpuset__end(&m->cpus) > m->nr_cpus)
		m->nr_cpus = dtl_cpuset__end(&m->cpus);
	if (!m->mask)
		m->mask = DTL_MASK_ALL;
}

struct dtl_rec_reader *dtl_rec_reader__open(FILE *f, const char *name, struct dtl_rec_meta *m,
					    char *err, size_t errlen)
{
	struct dtl_rec_reader *r = calloc(1, sizeof(*r));
	uint8_t hdr[FILE_HDR];
	char why[512] = "";
	int type = 0;

	memset(m, 0, sizeof(*m));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	r->f = f;
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || memcmp(hdr, FILE_MAGIC, 8)) {
		snprintf(err, errlen, "%s: offset 0: not a dtltop recording", name);
		goto fail;
	}
	m->major = get16(hdr + 8);
	m->minor = get16(hdr + 10);
	r->major = m->major;
	if (m->major < 1 || m->major > DTL_REC_MAJOR) {
		snprintf(err, errlen, "%s: offset 8: recording format %u.%u; this dtltop reads "
			 "%d.x (a newer dtltop wrote it?)", name, m->major, m->minor, DTL_REC_MAJOR);
		goto fail;
	}
	r->off = FILE_HDR;
	if (read_chunk(r, &type, why, sizeof(why)) != 1 || type != CHUNK_META) {
		snprintf(err, errlen, "%s: %s", name, type && type != CHUNK_META ?
			 "offset 16: first chunk is not the recording's header" :
			 (why[0] ? why : "offset 16: no header chunk"));
		goto fail;
	}
	parse_meta((char *)r->raw, m);
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

/* An entries record: 1.x's planes into r->ent, 2's count of entries in the columns. */
static int unpack_entries(struct dtl_rec_reader *r, const uint8_t *p, uint32_t body,
			  struct dtl_rec_event *ev)
{
	if (r->major >= 2) {
		if (body < 4 || get32(p) > dtl_rec_v2__left(&r->in))
			return malformed(r, "an entries record counts more entries than its columns hold");
		r->pend = get32(p);
		r->pend_cpu = ev->cpu;
		return take_entries(r, ev);
	}
	ev->n = body / DTL_ENTRY_SIZE;
	if (ent_room(r, ev->n))
		return -1;
	dtl_rec_v1__unpack(r->ent, p, ev->n);
	ev->data = r->ent;
	return 0;
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
			if (body < 8)
				continue;
			ev->value = get64(p);
			return 1;
		case DTL_REC_SWITCHES:
			if (unpack_switches(r, p, body, ev))
				return 0;
			return 1;
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
	free(r);
}
