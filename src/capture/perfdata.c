/*
 * perfdata.c - a perf.data made by `perf record -a -e vpa_dtl/dtl_all/`,
 * turned into a dtltop recording so that it replays like one.
 *
 * Layout per tools/perf/Documentation/perf.data-file-format.txt: the
 * PERFILE2 header points at the data section, a stream of records; the
 * vpa_dtl AUX stream arrives in PERF_RECORD_AUXTRACE records (the AUX bytes
 * follow each record, outside its size), one CPU at a time. Each chunk is
 * parsed as perf's own decoder does, whole 48-byte records from its start,
 * except that the 6.18 driver's junk fragment at a wrap is recognised and
 * skipped (and counted) instead of shifting every record after it. A perf.data has no interval boundaries, so intervals are cut by
 * the entries' own timebase.
 */
#include "perfdata.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include "dtl.h"

#define PERF_MAGIC 0x32454c4946524550ull	/* "PERFILE2" */
#define REC_AUXTRACE_INFO 70
#define REC_AUXTRACE 71
#define AUXTRACE_VPA_DTL 7

struct stream {
	uint8_t *e;		/* entries, 48 bytes each */
	size_t n, cap;
	uint64_t junk;		/* fragments that were not whole records */
	uint64_t bad;		/* timebase-0 records after the first */
	bool started;
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

static int add_chunk(struct stream *s, const uint8_t *d, uint64_t len, uint64_t aux_pos,
		     uint64_t *boot_tb, uint64_t *tb_freq)
{
	uint64_t whole = len / DTL_ENTRY_SIZE, i = 0;

	if (s->n + whole > s->cap) {
		size_t cap = s->cap ? s->cap : 1024;
		uint8_t *p;

		while (cap < s->n + whole)
			cap *= 2;
		p = realloc(s->e, cap * DTL_ENTRY_SIZE);
		if (!p)
			return -1;
		s->e = p;
		s->cap = cap;
	}
	for (; len - i >= DTL_ENTRY_SIZE; i += DTL_ENTRY_SIZE) {
		size_t skip = s->started ? wrap_junk(d + i, len - i, aux_pos + i) : 0;

		if (skip) {
			s->junk++;
			i += skip;
			if (len - i < DTL_ENTRY_SIZE)
				break;
		}
		if (dtl__be64(d + i + 16) == 0) {
			if (!s->started && !*tb_freq) {
				*boot_tb = le64(d + i);
				*tb_freq = le64(d + i + 8);
			} else if (s->started) {
				s->bad++;
			}
			s->started = true;
			continue;
		}
		s->started = true;
		memcpy(s->e + s->n++ * DTL_ENTRY_SIZE, d + i, DTL_ENTRY_SIZE);
	}
	if (i < len)
		s->junk++;	/* a tail shorter than a record */
	return 0;
}

/* Read the whole file: its size then bounds every length field in it. */
static uint8_t *slurp(FILE *f, size_t *len)
{
	size_t cap = 1 << 16;
	uint8_t *buf = malloc(cap), *p;

	*len = 0;
	rewind(f);
	while (buf) {
		*len += fread(buf + *len, 1, cap - *len, f);
		if (*len < cap)
			return ferror(f) ? (free(buf), NULL) : buf;
		p = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
		if (!p)
			free(buf);
		buf = p;
		cap *= 2;
	}
	return NULL;
}

/*
 * HEADER_HOSTNAME (feature bit 3): the adds_features bitmap at offset 72
 * says which features follow the data section, one 16-byte section header
 * each, in bit order; a string feature is a u32 length and the bytes.
 */
static void hostname(const uint8_t *buf, size_t len, uint64_t feat, char *host, size_t hostlen)
{
	unsigned int k = 0;
	uint64_t off, size;
	uint32_t n;

	for (unsigned int bit = 0; bit < 3; bit++)
		k += (buf[72 + bit / 8] >> (bit % 8)) & 1;
	if (!((buf[72] >> 3) & 1) || feat > len || len - feat < (k + 1) * 16)
		return;
	off = le64(buf + feat + k * 16);
	size = le64(buf + feat + k * 16 + 8);
	if (off > len || size > len - off || size < 5)
		return;
	n = le32(buf + off);
	if (n > size - 4)
		n = (uint32_t)(size - 4);
	snprintf(host, hostlen, "%.*s", (int)strnlen((const char *)buf + off + 4, n),
		 (const char *)buf + off + 4);
	dtl_sanitize(host);
}

int dtl_perfdata__is(const uint8_t *head, size_t len)
{
	return len >= 8 && le64(head) == PERF_MAGIC;
}

int dtl_perfdata__convert(FILE *in, const char *name, int out_fd, double interval_s,
			  char *err, size_t errlen, char *warn, size_t warnlen)
{
	struct stream *cpus = calloc(DTL_MAX_CPUS, sizeof(*cpus));
	struct dtl_rec_writer *w = NULL;
	struct dtl_rec_meta m;
	uint64_t off, end, boot_tb = 0, tb_freq = 0, t0 = UINT64_MAX, t1 = 0, chunks = 0;
	uint64_t junk = 0;
	size_t len = 0, *at = NULL;
	uint8_t *buf = slurp(in, &len);
	bool info = false;
	int rc = -1;

	warn[0] = '\0';
	if (!cpus || !buf) {
		snprintf(err, errlen, "%s: %s", name, buf ? "out of memory" : strerror(errno));
		goto out;
	}
	if (len < 16 || le64(buf) != PERF_MAGIC) {
		snprintf(err, errlen, "%s: offset 0: not a perf.data file", name);
		goto out;
	}
	if (le64(buf + 8) == 16) {		/* pipe mode: records right after */
		off = 16;
		end = len;
	} else if (le64(buf + 8) >= 104 && len >= 104) {
		off = le64(buf + 40);
		end = off + le64(buf + 48);
		if (off > len || end > len || end < off) {
			snprintf(err, errlen, "%s: offset 40: data section %" PRIu64 "+%" PRIu64
				 " lies outside the file (%zu bytes)", name, off, end - off, len);
			goto out;
		}
	} else {
		snprintf(err, errlen, "%s: offset 8: header size %" PRIu64 " is not perf's",
			 name, le64(buf + 8));
		goto out;
	}
	while (end - off >= 8) {
		uint32_t type = le32(buf + off);
		uint16_t size;

		memcpy(&size, buf + off + 6, 2);
		if (size < 8 || size > end - off) {
			snprintf(err, errlen, "%s: offset %" PRIu64 ": record of %u bytes does not "
				 "fit", name, off, size);
			if (!chunks)
				goto out;
			/* Damage after data: keep what came before. */
			snprintf(warn, warnlen, "%s; replayed what came before", err);
			break;
		}
		if (type == REC_AUXTRACE_INFO && size >= 16) {
			if (le32(buf + off + 8) != AUXTRACE_VPA_DTL) {
				snprintf(err, errlen, "%s: offset %" PRIu64 ": AUX data of another "
					 "PMU (auxtrace type %u), not vpa_dtl", name, off,
					 le32(buf + off + 8));
				goto out;
			}
			info = true;
		} else if (type == REC_AUXTRACE && size >= 48) {
			uint64_t dlen = le64(buf + off + 8);
			uint64_t aux_pos = le64(buf + off + 16);
			uint32_t cpu = le32(buf + off + 40);

			if (dlen > end - off - size) {
				snprintf(err, errlen, "%s: offset %" PRIu64 ": AUX chunk of %" PRIu64
					 " bytes runs past the data section", name, off, dlen);
				if (!chunks)
					goto out;
				snprintf(warn, warnlen, "%s; replayed what came before", err);
				break;
			}
			if (cpu < DTL_MAX_CPUS) {
				if (add_chunk(&cpus[cpu], buf + off + size, dlen, aux_pos,
					      &boot_tb, &tb_freq)) {
					snprintf(err, errlen, "%s: out of memory", name);
					goto out;
				}
				chunks++;
			}
			off += dlen;
		}
		off += size;
	}
	if (!chunks || !info) {
		snprintf(err, errlen, "%s: no vpa_dtl AUX data in this perf.data (make it with "
			 "'perf record -a -e vpa_dtl/dtl_all/')", name);
		goto out;
	}
	memset(&m, 0, sizeof(m));
	snprintf(m.source, sizeof(m.source), "perf.data");
	if (le64(buf + 8) != 16)
		hostname(buf, len, end, m.host, sizeof(m.host));
	for (unsigned int c = 0; c < DTL_MAX_CPUS; c++)
		junk += cpus[c].junk;
	snprintf(m.detail, sizeof(m.detail), "%" PRIu64 " AUX chunks, %" PRIu64 " junk fragments",
		 chunks, junk);
	/* A timebase runs at MHz to GHz; anything else is damage. */
	m.tb_freq = tb_freq >= 1000000 && tb_freq <= 100000000000ull ? tb_freq : DTL_DEFAULT_TB_FREQ;
	m.boot_tb = boot_tb;
	m.interval_s = interval_s;
	m.mask = DTL_MASK_ALL;
	for (unsigned int c = 0; c < DTL_MAX_CPUS; c++) {
		if (!cpus[c].started)
			continue;
		dtl_cpuset__set(&m.cpus, c);
		m.nr_cpus = c + 1;
		for (size_t i = 0; i < cpus[c].n; i++) {
			uint64_t tb = dtl__be64(cpus[c].e + i * DTL_ENTRY_SIZE + 16);

			t0 = tb < t0 ? tb : t0;
			t1 = tb > t1 ? tb : t1;
		}
	}
	if (t0 == UINT64_MAX)
		t0 = t1 = boot_tb;
	/* Rows are stamped with time since boot, perf's own clock, from 1970. */
	if (t0 > boot_tb) {
		double ns = (double)(t0 - boot_tb) / (double)m.tb_freq * 1e9;

		m.start_ns = ns < 9e18 ? (uint64_t)ns : (uint64_t)9e18;
	}
	w = dtl_rec_writer__open_fd(out_fd, name, &m, err, errlen);
	at = calloc(DTL_MAX_CPUS, sizeof(*at));
	if (!w || !at)
		goto out;
	{
		uint64_t step = (uint64_t)(interval_s * (double)m.tb_freq), edge = t0, k = 0;

		if (!step)
			step = 1;
		for (;;) {
			uint64_t next = UINT64_MAX;
			double ts;

			k++;
			edge = UINT64_MAX - edge < step ? UINT64_MAX : edge + step;
			for (unsigned int c = 0; c < m.nr_cpus; c++) {
				struct stream *s = &cpus[c];
				size_t from = at[c];

				while (at[c] < s->n && dtl__be64(s->e + at[c] * DTL_ENTRY_SIZE + 16) < edge)
					at[c]++;
				if (at[c] < s->n) {
					uint64_t tb = dtl__be64(s->e + at[c] * DTL_ENTRY_SIZE + 16);

					next = tb < next ? tb : next;
				}
				if (dtl_rec_writer__entries(w, c, s->e ? s->e + from * DTL_ENTRY_SIZE :
							    NULL, at[c] - from, 0,
							    k == 1 ? s->bad + s->junk : 0))
					goto write_err;
			}
			ts = (double)m.start_ns + (double)k * interval_s * 1e9;
			if (dtl_rec_writer__tick(w, ts < 9e18 ? (uint64_t)ts : (uint64_t)9e18,
						 interval_s, edge))
				goto write_err;
			if (next == UINT64_MAX || edge == UINT64_MAX)
				break;
			/*
			 * A gap with no entries (an idle LPAR, or a wild timebase
			 * in damaged data) is skipped, not written out one empty
			 * interval at a time: intervals stay bounded by entries.
			 */
			if (next - edge >= step) {
				k += (next - edge) / step;
				edge += (next - edge) / step * step;
			}
		}
	}
	rc = dtl_rec_writer__close(w, err, errlen);
	w = NULL;
	goto out;
write_err:
	dtl_rec_writer__close(w, err, errlen);
	w = NULL;
out:
	if (w)
		dtl_rec_writer__close(w, err, errlen);
	for (unsigned int c = 0; cpus && c < DTL_MAX_CPUS; c++)
		free(cpus[c].e);
	free(cpus);
	free(at);
	free(buf);
	return rc;
}
