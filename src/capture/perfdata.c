/*
 * perfdata.c - a perf.data made by `perf record -a -e vpa_dtl/dtl_all/`,
 * turned into a dtltop recording so that it replays like one.
 *
 * Layout per tools/perf/Documentation/perf.data-file-format.txt: the
 * PERFILE2 header points at the data section, a stream of records; the
 * vpa_dtl AUX stream arrives in PERF_RECORD_AUXTRACE records (the AUX bytes
 * follow each record, outside its size), one CPU at a time. Each chunk is
 * parsed as perf's own decoder does: whole 48-byte records from its start,
 * so the 6.18 driver's short junk fragments at a wrap are left over and
 * counted. A perf.data has no interval boundaries, so intervals are cut by
 * the entries' own timebase.
 */
#include "perfdata.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dtl.h"

#define PERF_MAGIC 0x32454c4946524550ull	/* "PERFILE2" */
#define REC_AUXTRACE_INFO 70
#define REC_AUXTRACE 71
#define AUXTRACE_VPA_DTL 7

struct stream {
	uint8_t *e;		/* entries, 48 bytes each */
	size_t n, cap;
	uint64_t junk;		/* bytes of chunks that were not whole records */
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

static int add_chunk(struct stream *s, const uint8_t *d, uint64_t len, uint64_t *boot_tb,
		     uint64_t *tb_freq)
{
	uint64_t whole = len / DTL_ENTRY_SIZE;

	s->junk += len % DTL_ENTRY_SIZE;
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
	for (uint64_t i = 0; i < whole; i++, d += DTL_ENTRY_SIZE) {
		if (dtl__be64(d + 16) == 0) {
			if (!s->started && !*tb_freq) {
				*boot_tb = le64(d);
				*tb_freq = le64(d + 8);
			} else if (s->started) {
				s->bad++;
			}
			s->started = true;
			continue;
		}
		s->started = true;
		memcpy(s->e + s->n++ * DTL_ENTRY_SIZE, d, DTL_ENTRY_SIZE);
	}
	return 0;
}

/* Read the whole file: its size bounds every length field in it. */
static uint8_t *slurp(FILE *f, size_t *len)
{
	struct stat st;
	uint8_t *buf;

	if (fstat(fileno(f), &st) || st.st_size < 0)
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return NULL;
	rewind(f);
	*len = fread(buf, 1, (size_t)st.st_size, f);
	return buf;
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
				if (add_chunk(&cpus[cpu], buf + off + size, dlen, &boot_tb, &tb_freq)) {
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
	snprintf(m.detail, sizeof(m.detail), "%" PRIu64 " AUX chunks", chunks);
	m.tb_freq = tb_freq ? tb_freq : DTL_DEFAULT_TB_FREQ;
	m.boot_tb = boot_tb;
	m.interval_s = interval_s;
	m.mask = DTL_MASK_ALL;
	for (unsigned int c = 0; c < DTL_MAX_CPUS; c++) {
		if (!cpus[c].started)
			continue;
		dtl_cpuset__set(&m.cpus, c);
		m.nr_cpus = c + 1;
		junk += cpus[c].junk;
		for (size_t i = 0; i < cpus[c].n; i++) {
			uint64_t tb = dtl__be64(cpus[c].e + i * DTL_ENTRY_SIZE + 16);

			t0 = tb < t0 ? tb : t0;
			t1 = tb > t1 ? tb : t1;
		}
	}
	if (t0 == UINT64_MAX)
		t0 = t1 = boot_tb;
	/* Rows are stamped with time since boot, perf's own clock, from 1970. */
	m.start_ns = t0 > boot_tb ? (uint64_t)((double)(t0 - boot_tb) / (double)m.tb_freq * 1e9) : 0;
	w = dtl_rec_writer__open_fd(out_fd, name, &m, err, errlen);
	at = calloc(DTL_MAX_CPUS, sizeof(*at));
	if (!w || !at)
		goto out;
	{
		uint64_t step = (uint64_t)(interval_s * (double)m.tb_freq);

		if (!step)
			step = 1;
		for (uint64_t edge = t0 + step, k = 1;; edge += step, k++) {
			for (unsigned int c = 0; c < m.nr_cpus; c++) {
				struct stream *s = &cpus[c];
				size_t from = at[c];

				while (at[c] < s->n && dtl__be64(s->e + at[c] * DTL_ENTRY_SIZE + 16) < edge)
					at[c]++;
				if (dtl_rec_writer__entries(w, c, s->e + from * DTL_ENTRY_SIZE,
							    at[c] - from, 0,
							    k == 1 ? s->bad + (s->junk ? 1 : 0) : 0))
					goto write_err;
			}
			if (dtl_rec_writer__tick(w, m.start_ns + (uint64_t)((double)k * interval_s * 1e9),
						 interval_s))
				goto write_err;
			if (edge > t1)
				break;
		}
	}
	rc = dtl_rec_writer__close(w, err, errlen);
	w = NULL;
	(void)junk;
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
