/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recwrite.c - write a dtltop recording.
 *
 * Every chunk carries its own lengths and two CRCs (one over the chunk
 * header, so a damaged length is caught before it is believed, one over the
 * payload), and every interval ends a chunk. So a file cut off or damaged
 * anywhere is good up to its last whole chunk.
 */
#include "record.h"
#include "chunk.h"
#include "le.h"
#include "marker.h"
#include "recmeta.h"
#include "summary.h"
#include "switches.h"
#include "v2.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "../dtl/dtl.h"
#include "../platform/signals.h"

/*
 * Compressing is most of a recording's cost, so a thread of the writer's
 * own does it: the caller fills one buffer while the other is compressed
 * and written, chunks still in order. The capture loop pays for packing.
 */
struct dtl_rec_writer {
	int fd;			/* -1: to the sink */
	dtl_rec_sink sink;
	void *sink_ctx;
	char path[4096];
	uint8_t *raw;			/* the caller's: records being added */
	size_t len, cap;
	size_t last;			/* where the last record added begins */
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
	/* a raw file's marks (dtl_rec_writer__use_marker): the caller's marker, fed here */
	struct dtl_rec_marker *marker;
	uint8_t *mbuf;
	size_t mcap;
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

	if (w->fd < 0) {
		/* a sink takes chunks whole, their header in front */
		if (w->zcap < zlen + CHUNK_HDR) {
			uint8_t *p = realloc(w->z, zlen + CHUNK_HDR);

			if (!p) {
				*err = ENOMEM;
				return -1;
			}
			w->z = p;
			w->zcap = zlen + CHUNK_HDR;
		}
		memmove(w->z + CHUNK_HDR, w->z, zlen);
		put32(w->z, CHUNK_MAGIC);
		w->z[4] = (uint8_t)type;
		w->z[5] = (uint8_t)codec;
		put16(w->z + 6, 0);
		put32(w->z + 8, (uint32_t)zlen);
		put32(w->z + 12, (uint32_t)len);
		put32(w->z + 16, (uint32_t)crc32(0, w->z + CHUNK_HDR, (uInt)zlen));
		put32(w->z + 20, (uint32_t)crc32(0, w->z, 20));
		if (w->sink(w->sink_ctx, type, w->z, CHUNK_HDR + zlen)) {
			*err = ENOMEM;
			return -1;
		}
		__atomic_add_fetch(&w->bytes, (uint64_t)(CHUNK_HDR + zlen), __ATOMIC_RELAXED);
		return 0;
	}
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

/*
 * A mark chunk, after the data chunk its interval ended: written by the
 * caller once the compressor is idle, so chunks stay in order. One that
 * cannot be made is left out (the marker says none follows); the file is
 * no worse for it.
 */
static int write_mark(struct dtl_rec_writer *w, bool final)
{
	static const struct dtl_rec_v2_cols none;
	size_t len, zlen, rawlen;
	int err = 0;

	if (!w->marker || w->fd < 0 || w->err ||
	    dtl_rec_marker__build(w->marker, final, &w->mbuf, &w->mcap, &len))
		return w->err ? -1 : 0;
	if (w->threaded)
		lock_idle(w);
	if (!w->err) {
		if (!w->cctx)
			w->cctx = ZSTD_createCCtx();
		if (!w->cctx || dtl_rec_v2__seal(w->cctx, w->mbuf, len, &none, &w->z, &w->zcap, &zlen,
						 &rawlen))
			w->err = ENOMEM;
		else if (write_stored(w, CHUNK_MARK, DTL_V2_CODEC, zlen, rawlen, &err))
			w->err = err ? err : EIO;
	}
	if (w->threaded)
		pthread_mutex_unlock(&w->lock);
	return w->err ? -1 : 0;
}

void dtl_rec_writer__use_marker(struct dtl_rec_writer *w, struct dtl_rec_marker *k)
{
	w->marker = k;
}

static uint8_t *record(struct dtl_rec_writer *w, int kind, unsigned int cpu, size_t body)
{
	uint8_t *p;

	if (w->err || grow(w, REC_HDR + body)) {
		w->err = w->err ? w->err : ENOMEM;
		return NULL;
	}
	w->last = w->len;
	p = rec_frame(w->raw + w->len, kind, cpu, body);
	w->len += REC_HDR + body;
	return p;
}

static int value(struct dtl_rec_writer *w, int kind, unsigned int cpu, uint64_t v)
{
	uint8_t *p = record(w, kind, cpu, 8);

	if (!p)
		return -1;
	put64(p, v);
	return 0;
}

static struct dtl_rec_writer *start(int fd, const char *name, const struct dtl_rec_meta *m,
				     dtl_rec_sink sink, void *ctx, char *err, size_t errlen)
{
	struct dtl_rec_writer *w = calloc(1, sizeof(*w));
	uint8_t hdr[FILE_HDR] = { 0 };
	size_t textlen = (1 << 16) + DTL_CPUSET_TEXT;
	char *text = malloc(textlen);
	sigset_t old;

	if (!w || !text) {
		free(w);
		free(text);
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->fd = fd;
	w->sink = sink;
	w->sink_ctx = ctx;
	snprintf(w->path, sizeof(w->path), "%s", name);
	memcpy(hdr, FILE_MAGIC, 8);
	put16(hdr + 8, m->summary ? DTL_REC_SUMMARY_MAJOR : DTL_REC_MAJOR);
	put16(hdr + 10, m->summary ? 0 : DTL_REC_MINOR);
	dtl_rec_meta__text(m, text, textlen);
	if ((fd >= 0 && write_all(w, hdr, sizeof(hdr), &w->err)) ||
	    (fd < 0 && sink(ctx, 0, hdr, sizeof(hdr)) && (w->err = ENOMEM)) ||
	    write_meta(w, (const uint8_t *)text, strlen(text), &w->err)) {
		snprintf(err, errlen, "writing %s: %s", name, strerror(w->err));
		if (w->fd >= 0)
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
	/* without a thread, the caller compresses: slower, never wrong (a sink's is the caller's) */
	if (fd < 0)
		return w;
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
	w = start(fd, path, m, NULL, NULL, err, errlen);
	if (!w)
		unlink(path);
	return w;
}

struct dtl_rec_writer *dtl_rec_writer__open_sink(const struct dtl_rec_meta *m, dtl_rec_sink sink,
						 void *ctx, char *err, size_t errlen)
{
	return start(-1, "(memory)", m, sink, ctx, err, errlen);
}

int dtl_rec_writer__chunk(struct dtl_rec_writer *w, const uint8_t *chunk, size_t len)
{
	/* what was added before goes first, in its own chunk */
	if (flush(w))
		return -1;
	if (w->threaded) {
		lock_idle(w);
		pthread_mutex_unlock(&w->lock);
	}
	if (!w->err && write_all(w, chunk, len, &w->err))
		return -1;
	return w->err ? -1 : 0;
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
	return start(mine, name, m, NULL, NULL, err, errlen);
}

int dtl_rec_writer__entries(struct dtl_rec_writer *w, unsigned int cpu, const uint8_t *data,
			    size_t n, uint64_t lost, uint64_t bad)
{
	if (n) {
		/* the last record, where there is one (no buffer yet before the first) */
		uint8_t *p = w->len ? w->raw + w->last : NULL;

		/* the record says how many; the columns take the entries */
		if (!w->err && dtl_rec_v2__add(&w->cols, data, n))
			w->err = ENOMEM;
		/*
		 * A CPU's blocks in a row are one record: a ring drained every
		 * few milliseconds (the simulator's, debugfs') hands out a block
		 * of a few entries each time, and a record per block made the
		 * records stream most of what a skim decompresses and walks.
		 */
		if (!w->err && p && w->last + REC_HDR + 4 == w->len && p[0] == DTL_REC_ENTRIES &&
		    get16(p + 2) == cpu && n <= UINT32_MAX - get32(p + REC_HDR)) {
			put32(p + REC_HDR, get32(p + REC_HDR) + (uint32_t)n);
		} else {
			p = record(w, DTL_REC_ENTRIES, cpu, 4);
			if (!p)
				return -1;
			put32(p, (uint32_t)n);
		}
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
	if (w->marker)
		dtl_rec_marker__mask(w->marker, mask);
	return value(w, DTL_REC_MASK, 0, mask);
}

int dtl_rec_writer__dropped(struct dtl_rec_writer *w, uint64_t n, uint64_t start_tb)
{
	uint8_t *p = record(w, DTL_REC_DROPPED, 0, 16);

	if (!p)
		return -1;
	put64(p, n);
	put64(p + 8, start_tb);
	return 0;
}

int dtl_rec_writer__cpu(struct dtl_rec_writer *w, unsigned int cpu, bool online)
{
	if (w->marker)
		dtl_rec_marker__cpu(w->marker, cpu, online);
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
	if (w->marker)
		dtl_rec_marker__switches(w->marker, cpu, sw, n);
	return 0;
}

/* A record of text, at most DTL_REC_LPARCFG_MAX bytes of it (lparcfg, an incident's note). */
static int text_record(struct dtl_rec_writer *w, int kind, const char *text)
{
	size_t n = strnlen(text, DTL_REC_LPARCFG_MAX);
	uint8_t *p = record(w, kind, 0, n);

	if (!p)
		return -1;
	memcpy(p, text, n);
	return 0;
}

int dtl_rec_writer__lparcfg(struct dtl_rec_writer *w, const char *text)
{
	return text_record(w, DTL_REC_LPARCFG, text);
}

int dtl_rec_writer__incident(struct dtl_rec_writer *w, const char *note)
{
	return text_record(w, DTL_REC_INCIDENT, note);
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
		if (w->marker)
			dtl_rec_marker__symbols(w->marker, (const uint8_t *)text, n);
		text += n;
		len -= n;
	}
	return 0;
}

int dtl_rec_writer__counts(struct dtl_rec_writer *w, unsigned int cpu,
			   const struct dtl_interval_cpu *k, unsigned int flags)
{
	uint8_t buf[DTL_SUM_MAX], *p;
	size_t n;

	if (dtl_sum__empty(k) && !flags)
		return 0;
	n = dtl_sum__pack(k, flags, buf);
	p = record(w, DTL_REC_COUNTS, cpu, n);
	if (!p)
		return -1;
	memcpy(p, buf, n);
	return 0;
}

int dtl_rec_writer__task(struct dtl_rec_writer *w, const struct dtl_task_interval *ti)
{
	static _Thread_local uint8_t buf[DTL_SUM_TASK_MAX];
	size_t n = dtl_sum__pack_task(ti, buf);
	uint8_t *p = record(w, DTL_REC_TASK, 0, n);

	if (!p)
		return -1;
	memcpy(p, buf, n);
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
	if (flush(w))
		return -1;
	return w->marker && dtl_rec_marker__tick(w->marker, ts_ns, end_tb) ? write_mark(w, false) : 0;
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
	/*
	 * The file's last mark: what its tail told, for the set's next file;
	 * then the end marker, last, so a file cut anywhere lacks it and a
	 * reader can tell (a kill -9).
	 */
	rc = flush(w);
	rc |= write_mark(w, true);
	if (!w->err)
		value(w, DTL_REC_END, 0, 0);
	rc |= flush(w);
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
	if (w->fd >= 0 && fsync(w->fd) && !rc && errno != EINVAL) {
		w->err = errno;
		rc = -1;
	}
	if (w->fd >= 0 && close(w->fd) && !rc) {
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
	free(w->mbuf);
	ZSTD_freeCCtx(w->cctx);
	free(w);
	return rc ? -1 : 0;
}
