/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * incident.c - raw entries around what matters (--incidents, with
 * --summary): the last minutes of the raw recording are kept in memory, as
 * the chunks a file would hold, and written out as a recording of their own
 * when the partition turns capped, starved or VP-limited, its p99 wait turns
 * critical, or entries are lost. The summary says where each went.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../format/grow.h"
#include "../format/recset.h"
#include "../format/switches.h"
#include "../view/columns.h"
#include "../view/judge.h"
#include "../view/verdict.h"
#include "internal.h"

/* Who ran on a CPU last, as the switches fed so far say: pid, since tb. */
struct who {
	unsigned int cpu;
	int32_t pid;
	uint64_t tb;
};

/* An interval of the ring: its chunks as a file holds them, and what stood at its start. */
struct ring_iv {
	uint8_t *bytes;
	size_t len, cap;
	double secs;
	uint64_t start_tb, start_ns;
	unsigned int mask;
	struct dtl_cpuset cpus;
	char *lparcfg;		/* at its start, for a file's header; NULL none */
	struct who *who;	/* each CPU's last switch before it, nwho of them */
	size_t nwho;
};

struct incidents {
	struct dtl_rec_writer *w;	/* raw, into the ring */
	struct dtl_rec_meta meta;	/* the run's, for each file's header */
	struct ring_iv *iv;		/* a circle: first the oldest, n of them, the last being filled */
	size_t first, n, cap;
	uint64_t bytes;
	unsigned int seq;		/* files written (FILE.incident.N) */
	enum dtl_verdict_kind last_kind;
	bool last_p99, last_lost;
	struct who *last;		/* DTL_MAX_CPUS: each CPU's last switch written, where switched says */
	struct dtl_cpuset switched;	/* the CPUs of last[] that have one */
};

static struct ring_iv *iv_at(struct incidents *in, size_t i)
{
	return &in->iv[(in->first + i) % in->cap];
}

static int sink(void *ctx, int what, const uint8_t *chunk, size_t len)
{
	struct incidents *in = ctx;
	struct ring_iv *v;

	if (what != 2 || !in->n)
		return 0;	/* each file gets a header of its own when written */
	v = iv_at(in, in->n - 1);
	if (dtl_grow__append(&v->bytes, &v->len, &v->cap, chunk, len))
		return -1;
	in->bytes += len;
	return 0;
}

/* Who ran on each CPU as v begins: a file that begins at v says it (restate_who). */
static int keep_who(struct incidents *in, struct ring_iv *v)
{
	unsigned int c;
	size_t n = 0;

	dtl_cpuset__for_each(c, &in->switched)
		n++;
	v->who = n ? malloc(n * sizeof(*v->who)) : NULL;
	if (n && !v->who)
		return -1;
	dtl_cpuset__for_each(c, &in->switched)
		v->who[v->nwho++] = in->last[c];
	return 0;
}

void loop_incident_switches(struct dtl_loop *l, unsigned int cpu, const struct dtl_switch *sw,
			    size_t n)
{
	struct incidents *in = l->incidents;

	if (!in || !n || cpu >= DTL_MAX_CPUS)
		return;
	in->last[cpu] = (struct who){ cpu, sw[n - 1].pid, sw[n - 1].tb };
	dtl_cpuset__set(&in->switched, cpu);
}

/* A new interval at the ring's end, what stands at its start kept; the oldest dropped. */
static int begin_iv(struct dtl_loop *l, struct incidents *in, uint64_t tb, uint64_t ns)
{
	struct ring_iv *v;
	const char *cfg = dtl_source__lparcfg(l->src);

	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 64;
		struct ring_iv *p = calloc(cap, sizeof(*p));

		if (!p)
			return -1;
		for (size_t i = 0; i < in->n; i++)
			p[i] = *iv_at(in, i);
		free(in->iv);
		in->iv = p;
		in->cap = cap;
		in->first = 0;
	}
	v = iv_at(in, in->n++);
	memset(v, 0, sizeof(*v));
	v->start_tb = tb;
	v->start_ns = ns;
	v->mask = dtl_source__mask(l->src);
	v->cpus = *dtl_source__cpus(l->src);
	v->lparcfg = cfg ? strndup(cfg, DTL_REC_LPARCFG_MAX) : NULL;
	return keep_who(in, v);
}

static void drop_oldest(struct incidents *in)
{
	struct ring_iv *v = iv_at(in, 0);

	in->bytes -= v->len;
	free(v->bytes);
	free(v->lparcfg);
	free(v->who);
	in->first = (in->first + 1) % in->cap;
	in->n--;
}

/* The ring holds --incidents' time, and never more than its bytes: the oldest go first. */
static void trim(struct dtl_loop *l, struct incidents *in)
{
	double secs = 0;

	for (size_t i = 0; i + 1 < in->n; i++)
		secs += iv_at(in, i)->secs;
	while (in->n > 1 && (secs - iv_at(in, 0)->secs >= l->o.incident_s ||
			     in->bytes > l->o.incident_bytes)) {
		secs -= iv_at(in, 0)->secs;
		drop_oldest(in);
	}
}

int loop_incident_open(struct dtl_loop *l, const struct dtl_rec_meta *m, char *err, size_t errlen)
{
	struct incidents *in;

	if (!l->o.incident_s)
		return 0;
	in = calloc(1, sizeof(*in));
	if (!in) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	{
		/* numbered on after an earlier run's, so COUNT holds across restarts */
		char base[4200];

		snprintf(base, sizeof(base), "%s.incident", l->o.write);
		in->seq = dtl_rec_set__highest(base);
	}
	in->meta = *m;
	in->meta.summary = false;
	in->meta.set_id = 0;
	in->meta.set_seq = 0;
	in->last_kind = DTL_VERDICT_UNKNOWN;
	in->last = calloc(DTL_MAX_CPUS, sizeof(*in->last));
	in->w = in->last ? dtl_rec_writer__open_sink(&in->meta, sink, in, err, errlen) : NULL;
	if (!in->w || begin_iv(l, in, m->start_tb, m->start_ns)) {
		dtl_rec_writer__close(in->w, err, errlen);
		free(in->last);
		free(in);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	l->incidents = in;
	return 0;
}

struct dtl_rec_writer *loop_incident_writer(const struct dtl_loop *l)
{
	return l->incidents ? l->incidents->w : NULL;
}

void loop_incident_close(struct dtl_loop *l)
{
	struct incidents *in = l->incidents;
	char err[256];

	if (!in)
		return;
	dtl_rec_writer__close(in->w, err, sizeof(err));
	while (in->n)
		drop_oldest(in);
	free(in->iv);
	free(in->last);
	free(in);
	l->incidents = NULL;
}

/* The partition's interval as the views judge it: what turned, or NULL. */
static const char *turned(struct dtl_loop *l, struct incidents *in, char *buf, size_t len)
{
	struct dtl_row all;
	struct dtl_verdict v;
	int p99 = dtl_cols__find("lat_p99_us");
	bool crit, lost, bad;
	const char *why = NULL;

	if (dtl_stats__row(l->stats, DTL_ROW_ALL, DTL_SPAN_INTERVAL, &all))
		return NULL;
	loop_lpar_fill(&all, &l->lpar);
	dtl_verdict__judge(l->lparcfg.present ? &l->lparcfg : NULL, &l->lpar, &all, &v);
	bad = v.kind == DTL_VERDICT_CAPPED || v.kind == DTL_VERDICT_STARVED ||
	      v.kind == DTL_VERDICT_VPS;
	size_t ncols;

	crit = p99 >= 0 && dtl_judge__cell(&dtl_cols(&ncols)[p99], &all) == DTL_LEVEL_CRIT;
	lost = all.lost || all.gaps;
	if (bad && v.kind != in->last_kind) {
		snprintf(buf, len, "the verdict turned %s", dtl_verdict__name(v.kind));
		why = buf;
	} else if (crit && !in->last_p99) {
		snprintf(buf, len, "p99 dispatch wait %.0f us, past its threshold", all.lat_p99_us);
		why = buf;
	} else if (lost && !in->last_lost) {
		snprintf(buf, len, "%" PRIu64 " entries lost, %" PRIu64 " gaps", all.lost, all.gaps);
		why = buf;
	}
	in->last_kind = v.kind;
	in->last_p99 = crit;
	in->last_lost = lost;
	return why;
}

/*
 * The tasks named before the ring's first interval, told again before it
 * (on its first CPU, at the earliest instant so that no switch of the file
 * comes before them; then who runs there is unknown until its next switch):
 * otherwise the file's task rows would be pids alone.
 */
static int restate_names(struct dtl_loop *l, struct dtl_rec_writer *w, const struct dtl_cpuset *cpus)
{
	const uint64_t tb = 1;
	unsigned int cpu = 0;
	size_t n = l->tasks ? dtl_tasks__count(l->tasks, DTL_TASKS_BY_TASK) : 0, k = 0;
	struct dtl_switch *sw = calloc(n + 1, sizeof(*sw));
	char (*comm)[DTL_REC_COMM_MAX + 1] = calloc(n + 1, sizeof(*comm));
	int rc = -1;

	if (sw && comm) {
		for (size_t i = 0; i < n; i++) {
			const char *cg;

			if (dtl_tasks__named(l->tasks, i, &sw[k].pid, comm[k], sizeof(comm[k]), &cg))
				continue;
			sw[k].tb = tb;
			sw[k].comm = comm[k];
			sw[k].cgroup = cg;
			k++;
		}
		sw[k++] = (struct dtl_switch){ tb, DTL_SWITCH_UNKNOWN, NULL, NULL };
		while (cpu < DTL_MAX_CPUS - 1 && !dtl_cpuset__has(cpus, cpu))
			cpu++;
		rc = k > 1 ? dtl_rec_writer__switches(w, cpu, sw, k) : 0;
	}
	free(sw);
	free(comm);
	return rc;
}

/*
 * Who ran on each CPU as the ring's first interval began, at the instant
 * they began: a replay charges the file's first entries there as the run
 * did, not to the (unknown) row.
 */
static int restate_who(struct dtl_rec_writer *w, const struct ring_iv *o)
{
	for (size_t i = 0; i < o->nwho; i++) {
		struct dtl_switch sw = { o->who[i].tb ? o->who[i].tb : 1, o->who[i].pid, NULL, NULL };

		if (dtl_rec_writer__switches(w, o->who[i].cpu, &sw, 1))
			return -1;
	}
	return 0;
}

/* FILE.incident.N, new: never over a file (an earlier run's keep their numbers). */
static int dump(struct dtl_loop *l, struct incidents *in, char *path, size_t len, char *err,
		size_t errlen)
{
	const struct ring_iv *o = iv_at(in, 0);
	struct dtl_rec_meta m = in->meta;
	struct dtl_rec_writer *w = NULL;

	m.start_tb = o->start_tb;
	m.start_ns = o->start_ns;
	m.mask = o->mask;
	m.cpus = o->cpus;
	snprintf(m.lparcfg, sizeof(m.lparcfg), "%s", o->lparcfg ? o->lparcfg : "");
	for (int tries = 0; !w && tries < 1000; tries++) {
		snprintf(path, len, "%s.incident.%u", l->o.write, ++in->seq);
		w = dtl_rec_writer__open(path, &m, err, errlen);
		if (!w && access(path, F_OK))
			return -1;	/* not that it exists: no other number would do */
	}
	if (w && (restate_names(l, w, &o->cpus) || restate_who(w, o))) {
		dtl_rec_writer__close(w, err, errlen);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; w && i + 1 < in->n; i++)
		if (dtl_rec_writer__chunk(w, iv_at(in, i)->bytes, iv_at(in, i)->len))
			break;
	if (!w || dtl_rec_writer__close(w, err, errlen))
		return -1;
	/* past --incidents' count the oldest go, an earlier run's too */
	if (l->o.incident_files && in->seq > l->o.incident_files) {
		char old[4200];

		snprintf(old, sizeof(old), "%s.incident.%u", l->o.write, in->seq - l->o.incident_files);
		unlink(old);
	}
	return 0;
}

/*
 * The interval ended at ts (end_tb): the ring's writer ticks, the ring
 * trims, and where something turned, the ring goes to a file and the
 * summary says so (before its tick, so in the same interval).
 */
int loop_incident_tick(struct dtl_loop *l, uint64_t ts, double secs, uint64_t end_tb)
{
	struct incidents *in = l->incidents;
	char why[200], path[4200], err[512], note[4600];
	const char *what;
	double held = 0;

	if (!in)
		return 0;
	if (dtl_rec_writer__tick(in->w, ts, secs, end_tb)) {
		loop_incident_close(l);
		snprintf(l->status, sizeof(l->status), "--incidents stopped: out of memory");
		return 0;
	}
	iv_at(in, in->n - 1)->secs = secs;
	what = turned(l, in, why, sizeof(why));
	if (begin_iv(l, in, end_tb, ts))
		return 0;
	trim(l, in);
	if (!what)
		return 0;
	for (size_t i = 0; i + 1 < in->n; i++)
		held += iv_at(in, i)->secs;	/* what the ring holds: its TIME, or less at its SIZE */
	if (dump(l, in, path, sizeof(path), err, sizeof(err))) {
		snprintf(l->status, sizeof(l->status), "incident (%.120s) not written: %.300s", what, err);
		return 0;
	}
	snprintf(note, sizeof(note), "%s\t%s", what, path);
	snprintf(l->incident, sizeof(l->incident), "%.598s", note);
	snprintf(l->status, sizeof(l->status), "incident: %.120s: the last %u s raw in %.300s", what,
		 (unsigned int)(held + 0.5), path);
	if (!loop_interactive(l))
		fprintf(stderr, "dtltop: %s\n", l->status);
	/* what was written is not written again: the next incident's ring starts here */
	while (in->n > 1)
		drop_oldest(in);
	return l->rec ? dtl_rec_writer__incident(l->rec, note) : 0;
}
