/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pdtasks.c - a perf.data's task switches, per CPU, with the name each
 * process had when it was switched in. perf writes each CPU's ring in turn,
 * so a comm of one CPU can come in the file after a switch it names on
 * another: names are resolved once the whole file is read, in time order.
 */
#include "pdtasks.h"

#include <stdlib.h>
#include <string.h>

#include "../dtl/hash.h"
#include "../platform/cpuset.h"
#include "grow.h"

/*
 * 16 bytes a switch: 8 M of them is 128 MiB, hours of a busy 64-CPU LPAR;
 * past it attribution stops and the importer says so.
 */
#define MAX_SWITCHES (8u << 20)
#define MAX_EVENTS (4u << 20)
#define NONE UINT32_MAX

struct sw {
	uint64_t ns;
	int32_t pid;
	uint32_t name;		/* into names[], NONE unknown */
};

struct cpu_sw {
	struct sw *v;
	size_t n, cap, next;
};

/* A name-giving record: comm (exec, prctl) or fork (the parent's name). */
struct ev {
	uint64_t ns;
	uint32_t seq;		/* file order, for records of the same time */
	int32_t pid, ppid;	/* ppid < 0: a comm */
	char comm[16];
};

/* The name a process took at ns. */
struct named {
	int32_t pid;
	uint32_t seq;
	uint64_t ns;
	uint32_t name;
};

struct slot {
	int32_t pid;		/* -1 empty */
	uint32_t cur;		/* name while resolving */
	uint32_t emitted;	/* name last handed to the reader */
};

struct dtl_pdtasks {
	struct cpu_sw *cpu[DTL_MAX_CPUS];
	uint64_t switches, dropped;
	struct ev *ev;
	size_t nev, evcap;
	char (*names)[16];
	size_t nnames, namecap;
	struct named *tl;
	size_t ntl;
	struct slot *map;
	size_t mapcap, mapn;
	uint64_t key;		/* the pid map's (dtl/hash.h) */
};

struct dtl_pdtasks *dtl_pdtasks__new(void)
{
	struct dtl_pdtasks *t = calloc(1, sizeof(struct dtl_pdtasks));

	if (t)
		t->key = dtl_hash__key(t);
	return t;
}

void dtl_pdtasks__free(struct dtl_pdtasks *t)
{
	if (!t)
		return;
	for (size_t c = 0; c < DTL_MAX_CPUS; c++) {
		if (t->cpu[c])
			free(t->cpu[c]->v);
		free(t->cpu[c]);
	}
	free(t->ev);
	free(t->names);
	free(t->tl);
	free(t->map);
	free(t);
}

/* The slot of pid, made where absent; NULL out of memory. */
static struct slot *slot(struct dtl_pdtasks *t, int32_t pid)
{
	size_t i;

	if (2 * (t->mapn + 1) > t->mapcap) {
		size_t cap = t->mapcap ? 2 * t->mapcap : 1024;
		struct slot *m = malloc(cap * sizeof(*m));

		if (!m)
			return NULL;
		for (i = 0; i < cap; i++)
			m[i].pid = -1;
		for (size_t k = 0; k < t->mapcap; k++) {
			if (t->map[k].pid < 0)
				continue;
			for (i = dtl_hash__pid(t->key, t->map[k].pid) & (cap - 1); m[i].pid >= 0;
			     i = (i + 1) & (cap - 1))
				;
			m[i] = t->map[k];
		}
		free(t->map);
		t->map = m;
		t->mapcap = cap;
	}
	for (i = dtl_hash__pid(t->key, pid) & (t->mapcap - 1); t->map[i].pid >= 0;
	     i = (i + 1) & (t->mapcap - 1))
		if (t->map[i].pid == pid)
			return &t->map[i];
	t->map[i] = (struct slot){ pid, NONE, NONE };
	t->mapn++;
	return &t->map[i];
}

int dtl_pdtasks__add(struct dtl_pdtasks *t, const struct dtl_sb *e)
{
	if (e->kind == DTL_SB_SWITCH) {
		struct cpu_sw *c;

		if (e->cpu >= DTL_MAX_CPUS || t->switches >= MAX_SWITCHES) {
			t->dropped++;
			return 0;
		}
		c = t->cpu[e->cpu];
		if (!c && !(c = t->cpu[e->cpu] = calloc(1, sizeof(*c))))
			return -1;
		if (dtl_grow((void **)&c->v, &c->cap, c->n, sizeof(*c->v)))
			return -1;
		c->v[c->n++] = (struct sw){ e->ns, e->pid, NONE };
		t->switches++;
		return 0;
	}
	if ((e->kind != DTL_SB_COMM && e->kind != DTL_SB_FORK) || e->pid <= 0 || t->nev >= MAX_EVENTS)
		return 0;
	if (dtl_grow((void **)&t->ev, &t->evcap, t->nev, sizeof(*t->ev)))
		return -1;
	t->ev[t->nev] = (struct ev){ e->ns, (uint32_t)t->nev, e->pid,
				     e->kind == DTL_SB_FORK ? e->ppid : -1, { 0 } };
	if (e->kind == DTL_SB_COMM)
		memcpy(t->ev[t->nev].comm, e->comm, sizeof(e->comm));
	t->nev++;
	return 0;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_sw(const void *a, const void *b)
{
	const struct sw *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The name pid had at ns: its last before, else its first (a name read late). */
static uint32_t name_at(const struct dtl_pdtasks *t, int32_t pid, uint64_t ns)
{
	size_t lo = 0, hi = t->ntl;

	while (lo < hi) {	/* the first entry past (pid, ns) */
		size_t mid = lo + (hi - lo) / 2;
		const struct named *m = &t->tl[mid];

		if (m->pid < pid || (m->pid == pid && m->ns <= ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && t->tl[lo - 1].pid == pid)
		return t->tl[lo - 1].name;
	return lo < t->ntl && t->tl[lo].pid == pid ? t->tl[lo].name : NONE;
}

int dtl_pdtasks__index(struct dtl_pdtasks *t)
{
	if (t->nev)
		qsort(t->ev, t->nev, sizeof(*t->ev), cmp_ev);
	t->tl = malloc((t->nev ? t->nev : 1) * sizeof(*t->tl));
	t->names = malloc((t->nev ? t->nev : 1) * sizeof(*t->names));
	if (!t->tl || !t->names)
		return -1;
	for (size_t i = 0; i < t->nev; i++) {
		const struct ev *e = &t->ev[i];
		struct slot *s;
		uint32_t name;

		if (e->ppid < 0) {
			memcpy(t->names[t->nnames], e->comm, sizeof(e->comm));
			name = (uint32_t)t->nnames++;
		} else {
			s = slot(t, e->ppid);
			if (!s)
				return -1;
			name = s->cur;
			if (name == NONE)
				continue;	/* a parent never named: the child waits for its own */
		}
		s = slot(t, e->pid);	/* after the parent's: a new slot may move the map */
		if (!s)
			return -1;
		s->cur = name;
		t->tl[t->ntl++] = (struct named){ e->pid, e->seq, e->ns, name };
	}
	free(t->ev);
	t->ev = NULL;
	qsort(t->tl, t->ntl, sizeof(*t->tl), cmp_named);
	for (size_t c = 0; c < DTL_MAX_CPUS; c++) {
		struct cpu_sw *cs = t->cpu[c];

		if (!cs)
			continue;
		qsort(cs->v, cs->n, sizeof(*cs->v), cmp_sw);
		for (size_t i = 0; i < cs->n; i++)
			if (cs->v[i].pid > 0)
				cs->v[i].name = name_at(t, cs->v[i].pid, cs->v[i].ns);
	}
	return 0;
}

/* The perf clock's ns on the timebase, saturating past a wild time in damaged data. */
static uint64_t tb_of(uint64_t ns, uint64_t boot_tb, uint64_t tb_freq)
{
	uint64_t tb = dtl_sb__tb(ns, boot_tb, tb_freq);

	return tb < boot_tb ? UINT64_MAX : tb;
}

size_t dtl_pdtasks__take(struct dtl_pdtasks *t, unsigned int cpu, uint64_t edge,
			 uint64_t boot_tb, uint64_t tb_freq, struct dtl_switch *out, size_t max)
{
	struct cpu_sw *c = cpu < DTL_MAX_CPUS ? t->cpu[cpu] : NULL;
	size_t n = 0;

	while (c && c->next < c->n && n < max) {
		const struct sw *s = &c->v[c->next];
		uint64_t tb = tb_of(s->ns, boot_tb, tb_freq);
		struct slot *k;

		if (tb >= edge)
			break;
		out[n] = (struct dtl_switch){ tb, s->pid, NULL, NULL };
		/* the reader keeps a name once given: give it when it is new */
		if (s->name != NONE && (k = slot(t, s->pid)) && k->emitted != s->name) {
			out[n].comm = t->names[s->name];
			k->emitted = s->name;
		}
		n++;
		c->next++;
	}
	return n;
}

uint64_t dtl_pdtasks__next_tb(const struct dtl_pdtasks *t, unsigned int cpu, uint64_t boot_tb,
			      uint64_t tb_freq)
{
	const struct cpu_sw *c = cpu < DTL_MAX_CPUS ? t->cpu[cpu] : NULL;

	return c && c->next < c->n ? tb_of(c->v[c->next].ns, boot_tb, tb_freq) : UINT64_MAX;
}

uint64_t dtl_pdtasks__switches(const struct dtl_pdtasks *t)
{
	return t->switches;
}

uint64_t dtl_pdtasks__dropped(const struct dtl_pdtasks *t)
{
	return t->dropped;
}
