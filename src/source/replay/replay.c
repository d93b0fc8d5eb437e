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
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../dtl/dtl.h"
#include "../../dtl/name.h"
#include "../../format/recset.h"
#include "../../format/request.h"
#include "../../format/summary.h"
#include "internal.h"

static void replay_close(struct dtl_source *src)
{
	struct replay *p = src->priv;

	if (p->r)
		dtl_rec_reader__close(p->r);
	fclose(p->f);
	free(p->syms);
	replay__marks_free(p);
	free(p);
}

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
	src->summary = p->meta.summary;
	if (p->have_filter)
		dtl_cpuset__and(&src->cpus, &p->filter);
	p->released = p->consumed = 0;
	p->ts_ns = p->meta.start_ns;
	p->tb = p->meta.start_tb;
	p->interval_s = 0;
	p->eof = p->eof_in_interval = false;
}

/*
 * Going back opens the file again at its start: a chunk's records count on
 * what came before (the CPUs, the mask, who runs), so a place in the middle
 * is only reached with that state, which a mark keeps (marks.c, seek).
 */
static int replay_rewind(struct dtl_source *src, char *err, size_t errlen)
{
	struct replay *p = src->priv;
	struct dtl_rec_meta m;

	if (p->pipe) {
		snprintf(err, errlen, p->attached ? "attached: the service's intervals go by as they "
			 "come (its summary recording goes back: dtltop -r)" :
			 "going back needs a file; %s is a pipe", p->name);
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
	p->sym_pos = 0;
	replay__marks_rewind(p);
	p->r = dtl_rec_reader__open(p->f, p->name, &m, err, errlen);
	if (!p->r)
		return -1;	/* the file changed under us; replay_close copes */
	dtl_rec_reader__skim(p->r, p->skim);
	start(src);
	return 0;
}

/*
 * -d re-aggregates: a multiple of the recorded interval shows that many at
 * once, as sar -f and atop -r do. (A perf.data was cut to -d already.)
 */
static int group_of(struct dtl_source *src, struct replay *p, const struct dtl_source_opts *o,
		    char *err, size_t errlen)
{
	double rec = p->meta.interval_s > 0 ? p->meta.interval_s : 1.0;
	double k = o->replay_interval_s / rec;

	p->group = 1;
	if (o->replay_interval_s <= 0 || p->converted)
		return 0;
	if (k < 0.999999 || fabs(k - round(k)) > 1e-6 * k) {
		snprintf(err, errlen, "-d %g is not a multiple of the %g s interval %s was "
			 "recorded with", o->replay_interval_s, rec, o->replay);
		return -1;
	}
	p->group = (unsigned int)round(k);
	/* a summary's waits were split at each recorded interval's edge: not again here */
	if (p->meta.summary && p->group > 1)
		snprintf(src->note, sizeof(src->note), "a summary at -d %g: the parts of waits "
			 "across its recorded %g s edges inside an interval are not in it (about "
			 "1 %% of steal and idle), only in the totals", o->replay_interval_s, rec);
	return 0;
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
		rc = replay__open_input(p, &one, err, errlen);
	} else {
		rc = replay__open_input(p, o, err, errlen);
	}
	if (rc) {
		if (p->f)
			fclose(p->f);
		free(p);
		return -1;
	}
	p->r = replay__open_reader(p, o, err, errlen);
	if (!p->r || (o->kallsyms && replay__own_syms(p, o->kallsyms, err, errlen))) {
		if (p->r)
			dtl_rec_reader__close(p->r);
		fclose(p->f);
		free(p->syms);
		free(p);
		return -1;
	}
	src->priv = p;
	/* never this machine's symbols: the recorded kernel is another (attached, it is this one) */
	src->kallsyms = p->own_syms ? p->syms : NULL;
	src->kallsyms_none = o->attach ? NULL : p->converted ?
		"a perf.data carries no kernel symbols: --kallsyms FILE (the recorded machine's "
		"/proc/kallsyms) names them" :
		"the recording carries none (written before format 2.2, or where /proc/kallsyms "
		"was unreadable): --kallsyms FILE names them";
	p->set_id = p->meta.set_id;
	if (group_of(src, p, o, err, errlen) || replay__follow_check(p, o, err, errlen))
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
	snprintf(src->detail, sizeof(src->detail), "of %s%.160s: %.31s on %.64s, %.39s %.160s",
		 p->meta.summary ? "the summary " : "", o->replay,
		 p->meta.source, p->meta.host[0] ? p->meta.host : "?", when, p->meta.detail);
	return 0;
refuse:
	replay_close(src);
	src->priv = NULL;
	return -1;
}

static int replay_poll(struct dtl_source *src, int timeout_ms)
{
	(void)src;
	if (timeout_ms > 0)
		dtl_source__sleep(timeout_ms);
	return 0;
}

/* "why<TAB>FILE", each part cleaned as a name is: it reaches the terminal. */
static void take_incident(struct dtl_source *src, const uint8_t *p, size_t n)
{
	const uint8_t *tab = memchr(p, '\t', n);
	size_t a = tab ? (size_t)(tab - p) : n, b = tab ? n - a - 1 : 0;
	char why[256], file[256];

	snprintf(why, sizeof(why), "%.*s", (int)(a < 255 ? a : 255), (const char *)p);
	snprintf(file, sizeof(file), "%.*s", (int)(b < 255 ? b : 255), tab ? (const char *)tab + 1 : "");
	dtl_name__clean(why);
	dtl_name__clean(file);
	snprintf(src->incident, sizeof(src->incident), "%s\t%s", why, file);
}

/* A record that changes what stands, not a CPU's chunk: hotplug, lparcfg, symbols, a tick. */
static void take_state(struct dtl_source *src, const struct dtl_rec_event *ev)
{
	struct replay *p = src->priv;

	switch (ev->kind) {
	case DTL_REC_CPU:
		if (ev->cpu < src->nr_cpus) {
			if (ev->value)
				dtl_cpuset__set(&src->cpus, ev->cpu);
			else
				dtl_cpuset__unset(&src->cpus, ev->cpu);
		}
		break;
	case DTL_REC_INCIDENT:
		take_incident(src, ev->data, ev->n);
		break;
	case DTL_REC_LPARCFG:
		/* where the interval ends, the partition's counters as they were */
		memcpy(p->lparcfg, ev->data, ev->n);
		p->lparcfg[ev->n] = '\0';	/* only read for its numbers, never shown raw */
		src->lparcfg = p->lparcfg;
		break;
	case DTL_REC_SYMBOLS:
		p->sym_pos++;
		if (p->sym_skip) {
			p->sym_skip--;
		} else if (!p->own_syms && replay__syms_add(p, ev->data, ev->n)) {
			p->sym_records++;
			src->kallsyms = p->syms;
		}
		break;
	case DTL_REC_TICK:
		p->consumed++;
		p->ts_ns = ev->ts_ns;
		p->tb = ev->end_tb;
		p->interval_s += ev->interval_s;	/* a -d of several adds them up */
		replay__marks_tick(src);
		break;
	default:
		break;
	}
}

static int replay_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct replay *p = src->priv;
	struct dtl_rec_event ev;

	/* after a seek, what carries on from before its mark comes first */
	if (replay__marks_read(src, c))
		return 1;
	while (p->consumed < p->released) {
		if (p->follow)	/* not a call per record of every replay */
			replay__follow_within(p);
		if (!p->r || dtl_rec_reader__next(p->r, &ev) <= 0) {
			if (replay__next_file(src))
				continue;	/* a rotated set goes on in its next file */
			if (replay__follow_next_file(p))
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
		case DTL_REC_COUNTS:
			if (ev.cpu >= src->nr_cpus || !dtl_cpuset__has(&src->cpus, ev.cpu))
				continue;
			memset(c, 0, sizeof(*c));
			c->cpu = ev.cpu;
			c->counts = ev.counts;
			c->told = ev.flags & DTL_SUM_TOLD;
			return 1;
		case DTL_REC_TASK:
			memset(c, 0, sizeof(*c));
			c->task = ev.task;
			return 1;
		case DTL_REC_SWITCHES:
			if (ev.cpu >= src->nr_cpus || !dtl_cpuset__has(&src->cpus, ev.cpu))
				continue;
			replay__marks_switches(src, ev.cpu, ev.switches, ev.n);
			memset(c, 0, sizeof(*c));
			c->cpu = ev.cpu;
			c->switches = ev.switches;
			c->nswitches = ev.n;
			return 1;
		case DTL_REC_END:
		case DTL_REC_MARK:	/* a mark chunk's, never a data chunk's */
		case DTL_REC_LAST:
			continue;
		case DTL_REC_DROPPED:
			src->dropped = ev.value;
			src->restart_tb = ev.end_tb;
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
		case DTL_REC_CPU:
		case DTL_REC_LPARCFG:
		case DTL_REC_SYMBOLS:
		case DTL_REC_INCIDENT:
		case DTL_REC_TICK:
			take_state(src, &ev);
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

static int replay_seek(struct dtl_source *src, uint64_t iv_max, uint64_t ns_max,
		       uint64_t *iv_at, char *err, size_t errlen)
{
	struct replay *p = src->priv;

	if (p->follow)
		return 1;	/* read on: a file being written may change (a pipe has no marks) */
	return replay__marks_seek(src, iv_max, ns_max, iv_at, err, errlen);
}

static void replay_skim(struct dtl_source *src, bool on)
{
	struct replay *p = src->priv;

	p->skim = on;
	if (p->r)
		dtl_rec_reader__skim(p->r, on);
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

/*
 * Attached: asked of the service, which may grant it where this viewer
 * could have set it directly (root, or the service's user).
 */
static int replay_ask_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	const struct replay *p = src->priv;
	uint8_t req[DTL_REQ_LEN];
	ssize_t n;

	if (!p->attached) {
		snprintf(err, errlen, "a recording keeps the mask it was recorded with");
		return -1;
	}
	if (geteuid() != 0) {
		snprintf(err, errlen, "attached: only root may change the service's mask");
		return -1;
	}
	dtl_req__mask(req, mask);
	n = send(fileno(p->f), req, sizeof(req), MSG_NOSIGNAL);
	if (n != (ssize_t)sizeof(req)) {
		snprintf(err, errlen, "attached: the service did not take it: %s",
			 n < 0 ? strerror(errno) : "cut short");
		return -1;
	}
	return 0;
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
	if (!*warning && p->marks_warning[0])
		*warning = p->marks_warning;
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

static int opt_attach(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	o->backend = "replay";
	o->attach = true;
	o->replay = a;	/* NULL: --socket's, or the default */
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
	{ "attach", 0, optional_argument, "SOCKET", "show what a dtltop --serve on this machine "
	  "captures, as it captures it, in the TUI or in batch mode (its socket: default "
	  "/run/dtltop/dtltop.sock, or --socket's)", opt_attach },
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
	.ask_mask = replay_ask_mask,
	.clock = replay_clock,
	.tb = replay_tb,
	.interval = replay_interval,
	.ended = replay_ended,
	.rewind = replay_rewind,
	.ready = replay_ready,
	.skim = replay_skim,
	.seek = replay_seek,
	.end_clock = replay__end_clock,
};
