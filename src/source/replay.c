/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.c - a recording (-r FILE) as a source: the same chunks, masks,
 * hotplug events and interval boundaries as when it was recorded.
 *
 * Each tick releases one recorded interval: read() hands out what was
 * captured up to that interval's end and no further, and the clock and
 * interval length are the recorded ones, so the stats and every view come
 * out as they did live.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../dtl/dtl.h"
#include "../format/perfdata.h"
#include "../format/record.h"
#include "../format/recset.h"
#include "../platform/ksyms.h"
#include "backend.h"

struct replay {
	FILE *f;
	char name[4096];
	struct dtl_cpuset filter;	/* -C */
	bool have_filter;
	struct dtl_rec_reader *r;
	struct dtl_rec_meta meta;
	uint64_t released, consumed;	/* ticks */
	uint64_t ts_ns;
	uint64_t tb;			/* the recorded source's timebase, 0 unknown */
	double interval_s;
	bool eof;
	bool eof_in_interval;		/* the file ended before this interval's end */
	bool pipe;			/* read once, no going back */
	bool follow;			/* --follow: the file is still being written */
	unsigned int follow_waits;	/* for a rotated set's next file, after an end marker */
	unsigned int group;		/* recorded intervals per shown one (-d) */
	bool converted;			/* from a perf.data */
	char import_warning[2048];	/* a damaged perf.data's */
	char cut_warning[4200];
	char lparcfg[DTL_REC_LPARCFG_MAX + 1];	/* the latest recorded (1.2) */
	/* a rotated set (recset.h): base.first, ..., base.seq being read */
	bool set;
	char base[4096];
	unsigned int first, seq;
	uint64_t set_id;		/* the file being read's set identity, 0 none */
	/*
	 * Kernel symbols: --kallsyms FILE's, or the recording's (2.2), which
	 * grow as its records come; a rewind reads again the records it has
	 * kept (skip), so none is kept twice.
	 */
	char *syms;
	size_t nsyms, symcap;
	bool own_syms;
	unsigned int sym_records, sym_skip;
};

#define SYMS_MAX (64u << 20)	/* as dtl_ksyms__load's bound: a distribution kernel's is ~10 MB */

/* len bytes of kallsyms lines onto the replay's, NUL-terminated; false past the bound. */
static bool syms_add(struct replay *p, const uint8_t *text, size_t len)
{
	if (p->nsyms + len + 2 > SYMS_MAX)
		return false;
	if (p->nsyms + len + 2 > p->symcap) {
		size_t cap = p->symcap ? p->symcap : 4096;
		char *m;

		while (cap < p->nsyms + len + 2)
			cap *= 2;
		m = realloc(p->syms, cap);
		if (!m)
			return false;
		p->syms = m;
		p->symcap = cap;
	}
	for (size_t i = 0; i < len; i++)	/* a NUL would end the text early */
		p->syms[p->nsyms++] = text[i] ? (char)text[i] : '\n';
	if (p->nsyms && p->syms[p->nsyms - 1] != '\n')
		p->syms[p->nsyms++] = '\n';
	p->syms[p->nsyms] = '\0';
	return true;
}

/* --kallsyms FILE: read whole, checked now, so a wrong file is said at start. */
static int own_syms(struct replay *p, const char *path, char *err, size_t errlen)
{
	uint8_t buf[65536];
	struct dtl_ksyms *k;
	char why[160];
	FILE *f = fopen(path, "re");
	size_t got;

	if (!f) {
		snprintf(err, errlen, "--kallsyms %s: %s", path, strerror(errno));
		return -1;
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		if (!syms_add(p, buf, got)) {
			fclose(f);
			snprintf(err, errlen, "--kallsyms %s: past %u MB, or out of memory", path,
				 SYMS_MAX >> 20);
			return -1;
		}
	fclose(f);
	k = p->syms ? dtl_ksyms__parse(p->syms, p->nsyms, why, sizeof(why)) : NULL;
	if (!k) {
		snprintf(err, errlen, "--kallsyms %s: %s", path, p->syms ? why : "empty");
		return -1;
	}
	dtl_ksyms__free(k);
	p->own_syms = true;
	return 0;
}

/*
 * A scratch file that is gone when closed: on disk under TMPDIR (a day of
 * perf record is gigabytes, more than memory should hold), else in memory.
 */
static int scratch(void)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	return fd >= 0 ? fd : memfd_create("dtltop", MFD_CLOEXEC);
}

/* The bytes a pipe's sniff took, then the pipe: a recording read in one go. */
struct prefixed {
	FILE *f;
	uint8_t head[8];
	size_t len, pos;
};

static ssize_t prefixed_read(void *cookie, char *buf, size_t size)
{
	struct prefixed *q = cookie;
	size_t n = 0;

	if (q->pos < q->len) {
		n = q->len - q->pos < size ? q->len - q->pos : size;
		memcpy(buf, q->head + q->pos, n);
		q->pos += n;
		return (ssize_t)n;
	}
	n = fread(buf, 1, size, q->f);
	return n || !ferror(q->f) ? (ssize_t)n : -1;
}

static int prefixed_close(void *cookie)
{
	struct prefixed *q = cookie;
	int rc = fclose(q->f);

	free(q);
	return rc;
}

/*
 * Open the file, say what it is, and leave p->f reading a dtltop recording
 * from its start: a perf.data is converted first (into a scratch file), and
 * a pipe's first bytes are handed back to the reader, as a pipe cannot
 * rewind (p->pipe then says going back is impossible).
 */
static int open_input(struct replay *p, const struct dtl_source_opts *o, char *err, size_t errlen)
{
	uint8_t head[8];
	size_t got;
	bool seekable;
	FILE *conv;
	int fd;

	p->f = fopen(o->replay, "rb");
	if (!p->f) {
		snprintf(err, errlen, "%s: %s", o->replay, strerror(errno));
		return -1;
	}
	seekable = fseeko(p->f, 0, SEEK_CUR) == 0;
	got = fread(head, 1, sizeof(head), p->f);
	if (!dtl_perfdata__is(head, got)) {
		struct prefixed *q;
		cookie_io_functions_t io = { .read = prefixed_read, .close = prefixed_close };

		if (seekable) {
			rewind(p->f);
			return 0;
		}
		q = calloc(1, sizeof(*q));
		if (!q) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		q->f = p->f;
		memcpy(q->head, head, got);
		q->len = got;
		p->f = fopencookie(q, "rb", io);
		if (!p->f) {
			p->f = q->f;
			free(q);
			snprintf(err, errlen, "%s: %s", o->replay, strerror(errno));
			return -1;
		}
		p->pipe = true;
		return 0;
	}
	if (!seekable) {
		/* The importer reads the file twice: a pipe is spooled first. */
		char buf[65536];
		size_t n;

		fd = scratch();
		conv = fd >= 0 ? fdopen(fd, "w+b") : NULL;
		if (!conv) {
			snprintf(err, errlen, "%s: no scratch file: %s", o->replay, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		fwrite(head, 1, got, conv);
		while ((n = fread(buf, 1, sizeof(buf), p->f)) > 0)
			if (fwrite(buf, 1, n, conv) != n)
				break;
		if (ferror(p->f) || ferror(conv) || fflush(conv)) {
			snprintf(err, errlen, "%s: spooling: %s", o->replay, strerror(errno));
			fclose(conv);
			return -1;
		}
		fclose(p->f);
		p->f = conv;
	}
	fd = scratch();
	if (fd < 0) {
		snprintf(err, errlen, "%s: no scratch file: %s", o->replay, strerror(errno));
		return -1;
	}
	if (dtl_perfdata__convert(p->f, o->replay, fd, o->replay_interval_s > 0 ?
				  o->replay_interval_s : 1.0, err, errlen, p->import_warning,
				  sizeof(p->import_warning)) ||
	    lseek(fd, 0, SEEK_SET) != 0 || !(conv = fdopen(fd, "rb"))) {
		close(fd);
		return -1;
	}
	fclose(p->f);
	p->f = conv;
	p->converted = true;
	return 0;
}

static void replay_close(struct dtl_source *src);

/* The state of a recording just opened: its first interval comes next. */
static void start(struct dtl_source *src)
{
	struct replay *p = src->priv;

	src->tb_freq = p->meta.tb_freq;
	src->nr_cpus = p->meta.nr_cpus;
	src->cpus = p->meta.cpus;
	src->mask = p->meta.mask;
	src->lparcfg = p->meta.lparcfg[0] ? p->meta.lparcfg : NULL;
	if (p->meta.topo.known)
		src->topo = p->meta.topo;
	snprintf(src->host, sizeof(src->host), "%s", p->meta.host);
	snprintf(src->partition_name, sizeof(src->partition_name), "%s", p->meta.partition_name);
	if (p->meta.core_threads)
		src->core_threads = p->meta.core_threads;
	src->recorded_interval_s = (p->meta.interval_s > 0 ? p->meta.interval_s : 1.0) * p->group;
	if (p->have_filter)
		dtl_cpuset__and(&src->cpus, &p->filter);
	p->released = p->consumed = 0;
	p->ts_ns = p->meta.start_ns;
	p->tb = p->meta.start_tb;
	p->interval_s = 0;
	p->eof = p->eof_in_interval = false;
}

/*
 * Going back reads the file again from its start: chunks hold deltas
 * against the one before, so there is nothing to seek to in the middle.
 */
static int replay_rewind(struct dtl_source *src, char *err, size_t errlen)
{
	struct replay *p = src->priv;
	struct dtl_rec_meta m;

	if (p->pipe) {
		snprintf(err, errlen, "going back needs a file; %s is a pipe", p->name);
		return -1;
	}
	dtl_rec_reader__close(p->r);
	p->r = NULL;
	if (p->set && p->seq != p->first) {
		FILE *f;

		dtl_rec_set__path(p->base, p->first, p->name, sizeof(p->name));
		f = fopen(p->name, "rb");
		if (!f) {
			snprintf(err, errlen, "%s: %s", p->name, strerror(errno));
			return -1;
		}
		fclose(p->f);
		p->f = f;
		p->seq = p->first;
	}
	rewind(p->f);
	p->sym_skip = p->sym_records;
	p->r = dtl_rec_reader__open(p->f, p->name, &m, err, errlen);
	if (!p->r)
		return -1;	/* the file changed under us; replay_close copes */
	start(src);
	return 0;
}

/* The header and meta chunk; followed from its first moment, a file may not hold them yet. */
static struct dtl_rec_reader *open_reader(struct replay *p, const struct dtl_source_opts *o,
					  char *err, size_t errlen)
{
	const char *name = p->set ? p->name : o->replay;
	struct dtl_rec_reader *r = dtl_rec_reader__open(p->f, name, &p->meta, err, errlen);

	for (int i = 0; !r && o->replay_follow && !p->pipe && i < 50; i++) {
		dtl_source__sleep(100);
		rewind(p->f);
		r = dtl_rec_reader__open(p->f, name, &p->meta, err, errlen);
	}
	return r;
}

/* --follow reads a file as it grows, each interval as recorded. */
static int follow_check(struct replay *p, const struct dtl_source_opts *o, char *err,
			size_t errlen)
{
	p->follow = o->replay_follow;
	if (!p->follow || (!p->pipe && !p->converted && p->group == 1))
		return 0;
	snprintf(err, errlen, "--follow plays a dtltop recording file as it is written, each "
		 "interval as recorded: %s", p->pipe ? "not a pipe" : p->converted ?
		 "not a perf.data" : "no -d");
	return -1;
}

static int replay_open(struct dtl_source *src, const struct dtl_source_opts *o,
		       char *err, size_t errlen)
{
	struct replay *p = calloc(1, sizeof(*p));
	int rc;
	char when[40];
	time_t t;
	struct tm tm;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (dtl_rec_set__find(o->replay, &p->first)) {
		struct dtl_source_opts one = *o;

		p->set = true;
		p->seq = p->first;
		snprintf(p->base, sizeof(p->base), "%s", o->replay);
		dtl_rec_set__path(o->replay, p->first, p->name, sizeof(p->name));
		one.replay = p->name;
		rc = open_input(p, &one, err, errlen);
	} else {
		rc = open_input(p, o, err, errlen);
	}
	if (rc) {
		if (p->f)
			fclose(p->f);
		free(p);
		return -1;
	}
	p->r = open_reader(p, o, err, errlen);
	if (!p->r || (o->kallsyms && own_syms(p, o->kallsyms, err, errlen))) {
		if (p->r)
			dtl_rec_reader__close(p->r);
		fclose(p->f);
		free(p->syms);
		free(p);
		return -1;
	}
	src->priv = p;
	/* never this machine's symbols: the recorded kernel is another */
	src->kallsyms = p->own_syms ? p->syms : NULL;
	src->kallsyms_none = p->converted ?
		"a perf.data carries no kernel symbols: --kallsyms FILE (the recorded machine's "
		"/proc/kallsyms) names them" :
		"the recording carries none (written before format 2.2, or where /proc/kallsyms "
		"was unreadable): --kallsyms FILE names them";
	p->group = 1;
	p->set_id = p->meta.set_id;
	/*
	 * -d re-aggregates: a multiple of the recorded interval shows that many
	 * at once, as sar -f and atop -r do. (A perf.data was cut to -d already.)
	 */
	if (o->replay_interval_s > 0 && !p->converted) {
		double rec = p->meta.interval_s > 0 ? p->meta.interval_s : 1.0;
		double k = o->replay_interval_s / rec;

		if (k < 0.999999 || fabs(k - round(k)) > 1e-6 * k) {
			snprintf(err, errlen, "-d %g is not a multiple of the %g s interval %s was "
				 "recorded with", o->replay_interval_s, rec, o->replay);
			goto refuse;
		}
		p->group = (unsigned int)round(k);
	}
	if (follow_check(p, o, err, errlen))
		goto refuse;
	if (!p->set)	/* a set's is the file being read: FILE.first */
		snprintf(p->name, sizeof(p->name), "%s", o->replay);
	/* -r FILE.N, a member of a set: from there on, as -r FILE from its first */
	if (!p->set && p->meta.set_id && !p->pipe &&
	    dtl_rec_set__member(o->replay, p->base, sizeof(p->base), &p->first) &&
	    p->first == p->meta.set_seq) {
		p->set = true;
		p->seq = p->first;
	}
	snprintf(p->cut_warning, sizeof(p->cut_warning), "%s: ends without its end marker (the "
		 "writer was killed?); replayed every whole interval", o->replay);
	p->have_filter = o->have_cpus;
	p->filter = o->cpus;
	start(src);
	if (!dtl_cpuset__count(&src->cpus)) {
		char have[64];
		size_t need = dtl_cpuset__format(&p->meta.cpus, have, sizeof(have));

		snprintf(err, errlen, "-C selects no CPU of %s (it has %s%s)", o->replay, have,
			 need >= sizeof(have) ? "..." : "");
		goto refuse;
	}
	t = (time_t)(p->meta.start_ns / 1000000000ull);
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%SZ", &tm);
	snprintf(src->detail, sizeof(src->detail), "of %.160s: %.31s on %.64s, %.39s %.160s", o->replay,
		 p->meta.source, p->meta.host[0] ? p->meta.host : "?", when, p->meta.detail);
	return 0;
refuse:
	replay_close(src);
	src->priv = NULL;
	return -1;
}

static void replay_close(struct dtl_source *src)
{
	struct replay *p = src->priv;

	if (p->r)
		dtl_rec_reader__close(p->r);
	fclose(p->f);
	free(p->syms);
	free(p);
}

static int replay_poll(struct dtl_source *src, int timeout_ms)
{
	(void)src;
	if (timeout_ms > 0)
		dtl_source__sleep(timeout_ms);
	return 0;
}

/*
 * Whether m, the meta of FILE.N+1, continues FILE.N: the same partition, the
 * same run (its identity, where both files carry one), and time going on
 * from where FILE.N ended. Else why not, in err.
 */
static bool continues(const struct replay *p, const struct dtl_rec_meta *m, char *err,
		      size_t errlen)
{
	if (m->nr_cpus != p->meta.nr_cpus || m->tb_freq != p->meta.tb_freq)
		snprintf(err, errlen, "not the partition of the files before it");
	else if ((p->set_id || m->set_id) && (m->set_id != p->set_id || m->set_seq != p->seq + 1))
		snprintf(err, errlen, "another recording (set %016llx file %u, not set %016llx file "
			 "%u)", (unsigned long long)m->set_id, m->set_seq,
			 (unsigned long long)p->set_id, p->seq + 1);
	else if (p->tb && m->start_tb && m->start_tb < p->tb)
		snprintf(err, errlen, "it begins before the file before it ended (timebase %llu, "
			 "not %llu or later)", (unsigned long long)m->start_tb,
			 (unsigned long long)p->tb);
	else
		return true;
	return false;
}

/*
 * The next file of a rotated set, where this one ended whole: it begins
 * where this one ended, with the CPUs online then. False at the set's end,
 * or where the next is not of the same partition (the warning says so).
 */
static bool next_file(struct dtl_source *src)
{
	struct replay *p = src->priv;
	struct dtl_rec_reader *r;
	struct dtl_rec_meta m;
	char path[4096], err[512];
	FILE *f;

	if (!p->set || !p->r || dtl_rec_reader__warning(p->r))
		return false;
	dtl_rec_set__path(p->base, p->seq + 1, path, sizeof(path));
	f = fopen(path, "rb");
	if (!f) {
		unsigned int later;
		int e = errno;

		/* the set's end, or a hole in it: a loss is said, never silent */
		if (dtl_rec_set__after(p->base, p->seq + 1, &later))
			snprintf(p->import_warning, sizeof(p->import_warning), "%.500s: %.100s; the "
				 "replay ends at %.500s, before %.500s.%u", path, strerror(e),
				 p->name, p->base, later);
		return false;
	}
	r = dtl_rec_reader__open(f, path, &m, err, sizeof(err));
	if (!r || !continues(p, &m, err, sizeof(err))) {
		snprintf(p->import_warning, sizeof(p->import_warning), "%.600s: %.300s; the replay "
			 "ends at %.600s", path, err, p->name);
		dtl_rec_reader__close(r);
		fclose(f);
		return false;
	}
	if (!dtl_rec_reader__complete(p->r))
		snprintf(p->import_warning, sizeof(p->import_warning), "%.900s ends without its "
			 "end marker; the replay went on with %.900s", p->name, path);
	dtl_rec_reader__close(p->r);
	fclose(p->f);
	p->r = r;
	p->f = f;
	p->seq++;
	p->follow_waits = 0;
	p->set_id = m.set_id;
	snprintf(p->name, sizeof(p->name), "%.4000s", path);
	src->cpus = m.cpus;
	if (p->have_filter)
		dtl_cpuset__and(&src->cpus, &p->filter);
	src->mask = m.mask;
	return true;
}

/*
 * --follow, a set's file closed whole: its writer opens the next at once,
 * so it is waited for a moment (40 times 50 ms) before the replay ends.
 */
static bool follow_next_file(struct replay *p)
{
	if (!p->follow || !p->set || !p->r || !dtl_rec_reader__complete(p->r) ||
	    dtl_rec_reader__warning(p->r) || p->follow_waits >= 40)
		return false;
	p->follow_waits++;
	dtl_source__sleep(50);
	return true;
}

/*
 * --follow, within an interval: the loop saw its first chunk written, but
 * the rest may be in a set's next file, not written yet. A short wait (at
 * most two recorded intervals and a second) before it is taken for the end.
 */
static void follow_within(struct replay *p)
{
	double most = 2 * (p->meta.interval_s > 0 ? p->meta.interval_s : 1.0) + 1;

	for (int i = 0; p->r && i < most * 20 && !dtl_rec_reader__ready(p->r); i++)
		dtl_source__sleep(50);
}

static int replay_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct replay *p = src->priv;
	struct dtl_rec_event ev;

	while (p->consumed < p->released) {
		if (p->follow)	/* not a call per record of every replay */
			follow_within(p);
		if (!p->r || dtl_rec_reader__next(p->r, &ev) <= 0) {
			if (next_file(src))
				continue;	/* a rotated set goes on in its next file */
			if (follow_next_file(p))
				continue;
			/* a -d of several ended early: what it holds is shown, for its own length */
			p->eof = true;
			p->eof_in_interval = p->interval_s <= 0;
			p->consumed = p->released;
			return 0;
		}
		switch (ev.kind) {
		case DTL_REC_ENTRIES:
		case DTL_REC_LOST:
		case DTL_REC_BAD:
		case DTL_REC_GAP:
			if (ev.cpu >= src->nr_cpus || !dtl_cpuset__has(&src->cpus, ev.cpu))
				continue;
			memset(c, 0, sizeof(*c));
			c->cpu = ev.cpu;
			c->data = ev.data;
			c->n = ev.kind == DTL_REC_ENTRIES ? ev.n : 0;
			c->lost = ev.kind == DTL_REC_LOST ? ev.value : 0;
			c->bad = ev.kind == DTL_REC_BAD ? ev.value : 0;
			c->gaps = ev.kind == DTL_REC_GAP ? ev.value : 0;
			return 1;
		case DTL_REC_SWITCHES:
			if (ev.cpu >= src->nr_cpus || !dtl_cpuset__has(&src->cpus, ev.cpu))
				continue;
			memset(c, 0, sizeof(*c));
			c->cpu = ev.cpu;
			c->switches = ev.switches;
			c->nswitches = ev.n;
			return 1;
		case DTL_REC_END:
			continue;
		case DTL_REC_MASK:
			if (!(ev.value & DTL_MASK_ALL))
				continue;
			src->mask = (unsigned int)ev.value & DTL_MASK_ALL;
			/*
			 * An empty chunk, so the reader sees this mask even when the
			 * next record changes it back (c then a within one interval).
			 */
			memset(c, 0, sizeof(*c));
			return 1;
		case DTL_REC_CPU:
			if (ev.cpu < src->nr_cpus) {
				if (ev.value)
					dtl_cpuset__set(&src->cpus, ev.cpu);
				else
					dtl_cpuset__unset(&src->cpus, ev.cpu);
			}
			continue;
		case DTL_REC_VPA_STEAL:
		case DTL_REC_STAT_STEAL:
			if (ev.cpu >= src->nr_cpus || !dtl_cpuset__has(&src->cpus, ev.cpu))
				continue;
			memset(c, 0, sizeof(*c));
			c->cpu = ev.cpu;
			if (ev.kind == DTL_REC_VPA_STEAL) {
				c->have_vpa_steal = true;
				c->vpa_steal = ev.value;
			} else {
				c->have_stat_steal = true;
				c->stat_steal = ev.value;
			}
			return 1;
		case DTL_REC_LPARCFG:
			/* where the interval ends, the partition's counters as they were */
			memcpy(p->lparcfg, ev.data, ev.n);
			p->lparcfg[ev.n] = '\0';	/* only read for its numbers, never shown raw */
			src->lparcfg = p->lparcfg;
			continue;
		case DTL_REC_SYMBOLS:
			if (p->sym_skip) {
				p->sym_skip--;
			} else if (!p->own_syms && syms_add(p, ev.data, ev.n)) {
				p->sym_records++;
				src->kallsyms = p->syms;
			}
			continue;
		case DTL_REC_TICK:
			p->consumed++;
			p->ts_ns = ev.ts_ns;
			p->tb = ev.end_tb;
			p->interval_s += ev.interval_s;	/* a -d of several adds them up */
			continue;
		}
	}
	return 0;
}

static void replay_tick(struct dtl_source *src, uint64_t interval_ns)
{
	struct replay *p = src->priv;

	(void)interval_ns;
	if (!p->eof)
		p->released += p->group;
	p->interval_s = 0;
	p->eof_in_interval = p->eof;
}

/* The last file of the set (or the file): its last chunks' tick, read by a reader of its own. */
static bool replay_end_clock(const struct dtl_source *src, uint64_t *ns)
{
	const struct replay *p = src->priv;
	char path[4096], next[4096];
	struct dtl_rec_reader *r;
	struct dtl_rec_meta *m;
	unsigned int n = p->seq;
	bool ok = false;
	char err[512];
	FILE *f;

	if (p->pipe || p->converted)
		return false;
	snprintf(path, sizeof(path), "%s", p->name);
	for (; p->set; n++) {
		dtl_rec_set__path(p->base, n + 1, next, sizeof(next));
		if (access(next, R_OK))
			break;
		memcpy(path, next, sizeof(path));
	}
	m = malloc(sizeof(*m));
	f = m ? fopen(path, "rb") : NULL;
	r = f ? dtl_rec_reader__open(f, path, m, err, sizeof(err)) : NULL;
	ok = r && dtl_rec_reader__last_tick(r, ns) == 0;
	dtl_rec_reader__close(r);
	if (f)
		fclose(f);
	free(m);
	return ok;
}

/* --follow: the next interval is on disk (or the recording ended: the read says so). */
static bool replay_ready(struct dtl_source *src)
{
	struct replay *p = src->priv;

	return !p->follow || !p->r || p->eof || dtl_rec_reader__ready(p->r);
}

static int replay_set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	(void)src, (void)mask;
	snprintf(err, errlen, "a recording keeps the mask it was recorded with");
	return -1;
}

static bool replay_clock(const struct dtl_source *src, uint64_t *ns)
{
	const struct replay *p = src->priv;

	*ns = p->ts_ns;
	return true;
}

static bool replay_tb(const struct dtl_source *src, uint64_t *tb)
{
	const struct replay *p = src->priv;

	*tb = p->tb;
	return p->tb != 0;
}

static double replay_interval(const struct dtl_source *src)
{
	const struct replay *p = src->priv;

	return p->interval_s;
}

static bool replay_ended(const struct dtl_source *src, const char **warning)
{
	const struct replay *p = src->priv;

	*warning = p->r ? dtl_rec_reader__warning(p->r) : "the recording could not be read again";
	if (!*warning && p->import_warning[0])
		*warning = p->import_warning;
	/* 1.1 writers end a file with a marker; a 1.0 file cannot say. */
	if (!*warning && p->eof && p->r && !dtl_rec_reader__complete(p->r) &&
	    (p->meta.major > 1 || p->meta.minor >= 1))
		*warning = p->cut_warning;
	return p->eof_in_interval;
}

static int opt_read(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	o->backend = "replay";
	o->replay = a;
	return 0;
}

static int opt_speed(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	char *end;

	o->have_speed = true;
	if (strcmp(a, "max") == 0) {
		o->speed = 0;
		return 0;
	}
	errno = 0;
	o->speed = strtod(a, &end);
	if (errno || end == a || *end || !isfinite(o->speed) || o->speed <= 0 || o->speed > 1e6) {
		snprintf(err, errlen, "bad --speed '%s' (want a factor > 0, or max)", a);
		return -1;
	}
	return 0;
}

static int opt_follow(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	(void)a, (void)err, (void)errlen;
	o->replay_follow = true;
	return 0;
}

static int opt_kallsyms(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	o->kallsyms = a;
	return 0;
}

static const struct dtl_source_opt replay_opts[] = {
	{ "read", 'r', required_argument, "FILE", "replay a recording made with -w, or a perf.data",
	  opt_read },
	{ "speed", 0, required_argument, "N|max", "replay speed (default 1 in the TUI, max with -b)",
	  opt_speed },
	{ "follow", 0, no_argument, NULL, "with -r, play the recording as it is written, as tail -f "
	  "does (dtltop -w or the exporter's recording): each interval as it comes", opt_follow },
	{ "kallsyms", 0, required_argument, "FILE", "the recorded machine's /proc/kallsyms, to name "
	  "where preempts hit in a perf.data (a recording carries its own)", opt_kallsyms },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

const struct dtl_source_ops dtl_replay_ops = {
	.name = "replay",
	.opts = replay_opts,
	.open = replay_open,
	.close = replay_close,
	.poll = replay_poll,
	.read = replay_read,
	.tick = replay_tick,
	.set_mask = replay_set_mask,
	.clock = replay_clock,
	.tb = replay_tb,
	.interval = replay_interval,
	.ended = replay_ended,
	.rewind = replay_rewind,
	.ready = replay_ready,
	.end_clock = replay_end_clock,
};
