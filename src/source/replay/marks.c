/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * marks.c - where a replay can come back to without reading from its start.
 *
 * Going back (T, b) reads the recording again, skimmed: every record but
 * the entries, for what carries on (the CPUs, the mask, the symbols, who
 * runs). With who pays, that is every task switch of the day: seconds. So
 * as a replay reads, it keeps marks every so many intervals: a chunk's
 * offset and what carries on up to it, the names told so far (a log, each
 * mark its length) and each CPU's last switch. A seek starts from the last
 * mark before its target and restates that state (a chunk of switches a
 * CPU: the names it was told, then who runs) before reading on, the same
 * state a skim from the start reaches.
 *
 * A recording of format 2.3 carries marks of its own (filemarks.c), loaded
 * at the first seek, so a first jump far ahead starts from one too; in an
 * older file only what was read is marked. At most MARKS_MAX marks: past
 * that, every other one goes and the spacing doubles, so memory stays
 * bounded over any file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../format/recset.h"
#include "marks.h"

static struct replay_marks *marks_of(struct dtl_source *src)
{
	struct replay *p = src->priv;
	struct replay_marks *k = p->marks;

	if (k || !src->nr_cpus)
		return k;
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->last = calloc(src->nr_cpus, sizeof(*k->last));
	if (!k->last) {
		free(k);
		return NULL;
	}
	k->nr_cpus = src->nr_cpus;
	k->spacing = SPACING;
	p->marks = k;
	return k;
}

void replay__marks_free(struct replay *p)
{
	struct replay_marks *k = p->marks;

	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->m[i].last);
	free(k->last);
	free(k->log);
	free(k->out);
	free(k->symtext);
	free(k->syms);
	free(k);
	p->marks = NULL;
}

void replay__marks_rewind(struct replay *p)
{
	struct replay_marks *k = p->marks;

	if (!k)
		return;
	memset(k->last, 0, k->nr_cpus * sizeof(*k->last));
	k->log_pos = 0;
	k->pending = false;
}

static void log_name(struct replay_marks *k, unsigned int cpu, const struct dtl_switch *sw)
{
	/* read again after a rewind or a seek (or told by the file's marks): logged already */
	if (k->log_pos++ < k->nlog)
		return;
	replay__marks_log(k, cpu, sw);
}

void replay__marks_log(struct replay_marks *k, unsigned int cpu, const struct dtl_switch *sw)
{
	struct named *e;

	if (k->nlog == k->logcap) {
		size_t cap = k->logcap ? 2 * k->logcap : 64;
		struct named *n = realloc(k->log, cap * sizeof(*n));

		if (!n) {
			k->broken = true;	/* marks after this one would lack it */
			return;
		}
		k->log = n;
		k->logcap = cap;
	}
	e = &k->log[k->nlog++];
	memset(e, 0, sizeof(*e));
	e->cpu = cpu;
	e->pid = sw->pid;
	e->has_comm = sw->comm != NULL;
	e->has_cgroup = sw->cgroup != NULL;
	if (sw->comm)
		snprintf(e->comm, sizeof(e->comm), "%s", sw->comm);
	if (sw->cgroup)
		snprintf(e->cgroup, sizeof(e->cgroup), "%s", sw->cgroup);
}

void replay__marks_switches(struct dtl_source *src, unsigned int cpu, const struct dtl_switch *sw,
			    size_t n)
{
	struct replay_marks *k = marks_of(src);

	if (!k || !n || cpu >= k->nr_cpus)
		return;
	for (size_t i = 0; i < n; i++)
		if (sw[i].comm || sw[i].cgroup)
			log_name(k, cpu, &sw[i]);
	k->last[cpu] = (struct last){ sw[n - 1].tb, sw[n - 1].pid, true };
}

void replay__marks_thin(struct replay_marks *k)
{
	size_t n = 0;

	for (size_t i = 0; i < k->n; i++) {
		if (i % 2) {
			free(k->m[i].last);
			continue;
		}
		k->m[n++] = k->m[i];
	}
	k->n = n;
	k->spacing *= 2;
}

void replay__marks_tick(struct dtl_source *src)
{
	struct replay *p = src->priv;
	struct replay_marks *k = marks_of(src);
	struct mark *m;
	uint64_t off;

	/* a mark only where a shown interval ends, a chunk begins and the log is whole */
	if (!k || k->broken || p->pipe || p->consumed % p->group ||
	    !dtl_rec_reader__boundary(p->r, &off) ||
	    k->log_pos != k->nlog || p->consumed < (k->n ? k->m[k->n - 1].consumed : 0) + k->spacing)
		return;
	if (k->n == MARKS_MAX)
		replay__marks_thin(k);
	m = &k->m[k->n];
	m->last = malloc(k->nr_cpus * sizeof(*m->last));
	if (!m->last)
		return;
	memcpy(m->last, k->last, k->nr_cpus * sizeof(*m->last));
	m->seq = p->seq;
	m->set_id = p->set_id;
	m->off = off;
	m->consumed = p->consumed;
	m->ts_ns = p->ts_ns;
	m->tb = p->tb;
	m->mask = src->mask;
	m->cpus = src->cpus;
	m->names = k->nlog;
	m->sym_pos = p->sym_pos;
	k->n++;
}

/* The file of a mark, opened and read up to it; -1 with err. */
static int reopen(struct replay *p, const struct mark *m, char *err, size_t errlen)
{
	struct dtl_rec_meta meta;

	dtl_rec_reader__close(p->r);
	p->r = NULL;
	if (p->set && m->seq != p->seq) {
		char path[4096];
		FILE *f;

		dtl_rec_set__path(p->base, m->seq, path, sizeof(path));
		f = fopen(path, "rb");
		if (!f) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		fclose(p->f);
		p->f = f;
		p->seq = m->seq;
		snprintf(p->name, sizeof(p->name), "%.4000s", path);
	}
	rewind(p->f);
	p->r = dtl_rec_reader__open(p->f, p->name, &meta, err, errlen);
	if (!p->r)
		return -1;
	if (dtl_rec_reader__seek(p->r, m->off)) {
		snprintf(err, errlen, "%s: cannot seek to offset %llu", p->name,
			 (unsigned long long)m->off);
		return -1;
	}
	dtl_rec_reader__skim(p->r, p->skim);
	p->set_id = m->set_id;
	p->follow_waits = 0;
	return 0;
}


int replay__marks_seek(struct dtl_source *src, uint64_t iv_max, uint64_t ns_max,
		       uint64_t *iv_at, char *err, size_t errlen)
{
	struct replay *p = src->priv;
	struct replay_marks *k = marks_of(src);
	const struct mark *m = NULL;

	/* the recording's own marks, at the first seek: a first jump far in starts from one */
	if (k && !k->loaded)
		replay__marks_load(src, k);

	for (size_t i = 0; k && i < k->n; i++) {
		const struct mark *c = &k->m[i];

		if ((iv_max && c->consumed / p->group > iv_max) || (ns_max && c->ts_ns > ns_max))
			break;
		if (c->consumed > p->consumed)
			m = c;
	}
	if (!m)
		return 1;	/* nothing marked between here and there: read on */
	if (reopen(p, m, err, errlen))
		return -1;
	p->consumed = p->released = m->consumed;
	p->ts_ns = m->ts_ns;
	p->tb = m->tb;
	p->interval_s = 0;
	p->eof = p->eof_in_interval = false;
	src->mask = m->mask;
	src->cpus = m->cpus;
	replay__marks_told_syms(p, k, m, src);
	p->sym_pos = m->sym_pos;
	p->sym_skip = p->sym_records > m->sym_pos ? p->sym_records - m->sym_pos : 0;
	k->log_pos = m->names;
	memcpy(k->last, m->last, k->nr_cpus * sizeof(*k->last));
	k->pending = true;
	k->pend_cpu = 0;
	*iv_at = m->consumed / p->group;
	return 0;
}

/*
 * After a seek, before reading on: each CPU's switches that carry on, the
 * names it was told (in the order told, at its last switch's instant, so
 * none takes time) then who runs. 1 with a chunk, 0 when all are out.
 */
int replay__marks_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct replay *p = src->priv;
	struct replay_marks *k = p->marks;

	if (!k || !k->pending)
		return 0;
	for (unsigned int cpu = k->pend_cpu; cpu < k->nr_cpus; cpu++) {
		size_t n = 0;

		if (!k->last[cpu].have)
			continue;
		for (size_t i = 0; i < k->log_pos; i++)
			n += k->log[i].cpu == cpu;
		if (n + 1 > k->outcap) {
			struct dtl_switch *o = realloc(k->out, (n + 1) * sizeof(*o));

			if (!o)
				break;
			k->out = o;
			k->outcap = n + 1;
		}
		n = 0;
		for (size_t i = 0; i < k->log_pos; i++) {
			const struct named *e = &k->log[i];

			if (e->cpu != cpu)
				continue;
			k->out[n++] = (struct dtl_switch){ k->last[cpu].tb, e->pid,
							   e->has_comm ? e->comm : NULL,
							   e->has_cgroup ? e->cgroup : NULL };
		}
		k->out[n++] = (struct dtl_switch){ k->last[cpu].tb, k->last[cpu].pid, NULL, NULL };
		memset(c, 0, sizeof(*c));
		c->cpu = cpu;
		c->switches = k->out;
		c->nswitches = n;
		k->pend_cpu = cpu + 1;
		return 1;
	}
	k->pending = false;
	return 0;
}

