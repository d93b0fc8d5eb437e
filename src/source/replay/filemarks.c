// SPDX-License-Identifier: GPL-2.0-only
/*
 * filemarks.c - the marks a recording carries (format 2.3, mark.h), loaded
 * at a replay's first seek in place of the marks it kept as it read.
 */
#include <stdlib.h>
#include <string.h>

#include "../../format/grow.h"
#include "../../format/mark.h"
#include "../../format/recset.h"
#include "marks.h"

void replay__marks_told_syms(struct replay *p, const struct replay_marks *k, const struct mark *m,
			     struct dtl_source *src)
{
	if (p->own_syms || !k->loaded)
		return;
	while (p->sym_records < m->sym_pos && p->sym_records < k->nsyms) {
		const struct told_sym *t = &k->syms[p->sym_records];

		if (!replay__syms_add(p, k->symtext + t->off, t->len))
			break;
		p->sym_records++;
		src->kallsyms = p->syms;
	}
}

/*
 * A recording's own marks (2.3): read once, before anything else is, by
 * their chunk headers through every file of a set, so that a first jump far
 * in (--begin -1h on a day) starts from the last of them. Each must follow
 * on from the one before (a set's files each end with one), and the names
 * and symbols between them must add up to what the mark counts, as the
 * replay would count them reading: else none is used.
 */
#define LOAD_SWITCHES 4096
#define LOAD_TEXT DTL_REC_MARK_TEXT(LOAD_SWITCHES)

struct load {
	struct replay *p;
	struct replay_marks *k;
	unsigned int seq;
	uint64_t set_id;
	bool ok, based, ended, in_file;	/* in_file: a mark of this file came */
	struct dtl_switch *sw;		/* LOAD_SWITCHES of a record, and their names */
	char *text;
	struct last *last;		/* the mark being read's */
	uint64_t base_ticks, prev_ticks;
	uint32_t base_syms, base_names, prev_syms, prev_names;
};

static bool told_sym(struct replay_marks *k, const uint8_t *text, size_t len)
{
	size_t off = k->nsymtext;

	if (dtl_grow((void **)&k->syms, &k->symsize, k->nsyms, sizeof(*k->syms)) ||
	    dtl_grow__append(&k->symtext, &k->nsymtext, &k->symcap, text, len))
		return false;
	k->syms[k->nsyms++] = (struct told_sym){ off, len };
	return true;
}

static int told_last(void *ctx, unsigned int cpu, uint64_t tb, int32_t pid)
{
	struct load *ld = ctx;

	ld->last[cpu] = (struct last){ tb, pid, true };
	return 0;
}

static int told_name(void *ctx, unsigned int cpu, const struct dtl_switch *sw)
{
	struct load *ld = ctx;

	replay__marks_log(ld->k, cpu, sw);
	return ld->k->broken ? -1 : 0;
}

static int told_symbols(void *ctx, const uint8_t *text, size_t len)
{
	struct load *ld = ctx;

	return told_sym(ld->k, text, len) ? 0 : -1;
}

/* Whether mark h follows on from the one before (across a set's files, from its last). */
static bool follows(struct load *ld, const struct dtl_rec_mark *h, bool first_of_file)
{
	if (!ld->based) {
		ld->based = true;
		ld->base_ticks = h->set_ticks - h->file_ticks;
		ld->base_syms = h->set_syms - h->file_syms;
		ld->base_names = h->set_names - h->file_names;
		return true;
	}
	if (first_of_file)
		return ld->ended && h->file_ticks <= h->set_ticks &&
		       h->set_ticks - h->file_ticks == ld->prev_ticks &&
		       h->set_syms - h->file_syms == ld->prev_syms &&
		       h->set_names - h->file_names == ld->prev_names;
	return !ld->ended && h->set_ticks >= ld->prev_ticks;
}

static int take_mark(void *ctx, uint64_t next_off, const uint8_t *recs, size_t len)
{
	struct load *ld = ctx;
	struct replay_marks *k = ld->k;
	struct dtl_rec_mark_told t = { ld, told_last, told_name, told_symbols, ld->sw,
				       LOAD_SWITCHES, ld->text, LOAD_TEXT };
	struct dtl_rec_mark h;
	struct last *last = calloc(k->nr_cpus, sizeof(*last));
	bool first = !ld->in_file;
	struct mark *m;

	ld->in_file = true;
	ld->last = last;
	if (!last || dtl_rec_mark__read(recs, len, k->nr_cpus, &h, &t) || !follows(ld, &h, first) ||
	    k->nlog != h.set_names - ld->base_names || k->nsyms != h.set_syms - ld->base_syms) {
		free(last);
		ld->ok = false;
		return 1;
	}
	ld->prev_ticks = h.set_ticks;
	ld->prev_syms = h.set_syms;
	ld->prev_names = h.set_names;
	ld->ended = h.final;
	if (h.final || (h.set_ticks - ld->base_ticks) % ld->p->group) {
		free(last);
		return 0;
	}
	if (k->n == MARKS_MAX)
		replay__marks_thin(k);
	m = &k->m[k->n++];
	memset(m, 0, sizeof(*m));
	m->seq = ld->seq;
	m->set_id = ld->set_id;
	m->off = next_off;
	m->consumed = h.set_ticks - ld->base_ticks;
	m->ts_ns = h.ts_ns;
	m->tb = h.tb;
	m->mask = h.mask;
	m->cpus = h.online;
	m->names = k->nlog;
	m->sym_pos = (unsigned int)k->nsyms;
	m->last = last;
	return 0;
}

static bool same_name(const struct named *a, const struct named *b)
{
	return a->cpu == b->cpu && a->pid == b->pid && a->has_comm == b->has_comm &&
	       a->has_cgroup == b->has_cgroup && !strcmp(a->comm, b->comm) &&
	       !strcmp(a->cgroup, b->cgroup);
}

static void drop(struct replay_marks *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->m[i].last);
	free(t->log);
	free(t->symtext);
	free(t->syms);
	free(t);
}

/*
 * The file's marks (t) in place of the replay's own (k): where the replay
 * has read already, its log of names is the start of the file's, in the
 * same order (both are the order written), so its place in it stands; its
 * own marks past the file's last are kept after them.
 */
static void take_loaded(struct replay_marks *k, struct replay_marks *t)
{
	uint64_t upto = t->n ? t->m[t->n - 1].consumed : 0;

	if (t->nlog < k->nlog) {
		drop(t);
		return;
	}
	for (size_t i = 0; i < k->nlog; i++)
		if (!same_name(&k->log[i], &t->log[i])) {
			drop(t);
			return;
		}
	for (size_t i = 0; i < k->n; i++) {
		if (k->m[i].consumed <= upto) {
			free(k->m[i].last);
			continue;
		}
		if (t->n == MARKS_MAX)
			replay__marks_thin(t);
		t->m[t->n++] = k->m[i];
	}
	memcpy(k->m, t->m, t->n * sizeof(*t->m));
	k->n = t->n;
	k->spacing = t->spacing > k->spacing ? t->spacing : k->spacing;
	free(k->log);
	k->log = t->log;
	k->nlog = t->nlog;
	k->logcap = t->logcap;
	k->symtext = t->symtext;
	k->nsymtext = t->nsymtext;
	k->symcap = t->symcap;
	k->syms = t->syms;
	k->nsyms = t->nsyms;
	k->symsize = t->symsize;
	t->n = 0;
	t->log = NULL;
	t->symtext = NULL;
	t->syms = NULL;
	drop(t);
}

/* The recording's marks, each file's in turn, once: in place of the replay's own. */
void replay__marks_load(struct dtl_source *src, struct replay_marks *k)
{
	struct replay *p = src->priv;
	struct replay_marks *t = calloc(1, sizeof(*t));
	struct load ld = { .p = p, .k = t, .ok = true };
	char path[4096], err[512];

	k->loaded = true;
	if (!t || k->broken || p->pipe || p->follow || p->attached || p->have_filter ||
	    p->meta.summary) {
		free(t);
		return;
	}
	t->nr_cpus = k->nr_cpus;
	t->spacing = SPACING;
	ld.sw = malloc(LOAD_SWITCHES * sizeof(*ld.sw));
	ld.text = malloc(LOAD_TEXT);
	if (!ld.sw || !ld.text) {
		free(ld.sw);
		free(ld.text);
		drop(t);
		return;
	}
	for (unsigned int seq = p->first;; seq++) {
		struct dtl_rec_meta meta;
		struct dtl_rec_reader *r;
		FILE *f;

		if (p->set)
			dtl_rec_set__path(p->base, seq, path, sizeof(path));
		else
			snprintf(path, sizeof(path), "%s", p->name);
		f = fopen(path, "rb");
		r = f ? dtl_rec_reader__open(f, path, &meta, err, sizeof(err)) : NULL;
		if (r && (seq == p->first || ld.ended)) {
			ld.seq = seq;
			ld.set_id = meta.set_id;
			ld.in_file = false;
			dtl_rec_reader__marks(r, take_mark, &ld);
		}
		dtl_rec_reader__close(r);
		if (f)
			fclose(f);
		if (!r || !ld.ok || !p->set || !ld.ended)
			break;
	}
	free(ld.sw);
	free(ld.text);
	if (!ld.ok)
		snprintf(p->marks_warning, sizeof(p->marks_warning), "%.4000s: its marks do not "
			 "add up (damaged?): not used, windows reached by reading from the start",
			 p->set ? p->base : p->name);
	if (ld.ok && !t->broken && t->n)
		take_loaded(k, t);
	else
		drop(t);
}

