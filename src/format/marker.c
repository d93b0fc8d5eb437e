// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker.c - what a mark holds, kept by a raw recording's writer: counted
 * exactly as a replay counts what it reads (a switch that names its task,
 * on a CPU online then; a symbols record), so the replay's log of names and
 * its symbols line up with the marks' at every mark.
 */
#include "marker.h"

#include <stdlib.h>
#include <string.h>

#include "chunk.h"
#include "le.h"
#include "mark.h"
#include "record.h"
#include "switches.h"

struct last {
	uint64_t tb;
	int32_t pid;
	bool have;
};

struct dtl_rec_marker {
	unsigned int nr_cpus;
	struct dtl_rec_mark m;
	struct last *last;
	uint8_t *delta;			/* framed records: names told, symbols */
	size_t len, cap;
	bool broken;			/* a delta lost: no mark any more */
};

struct dtl_rec_marker *dtl_rec_marker__new(unsigned int nr_cpus, const struct dtl_cpuset *online,
					   unsigned int mask)
{
	struct dtl_rec_marker *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->last = calloc(nr_cpus ? nr_cpus : 1, sizeof(*k->last));
	if (!k->last) {
		free(k);
		return NULL;
	}
	k->nr_cpus = nr_cpus;
	k->m.online = *online;
	k->m.mask = mask;
	return k;
}

void dtl_rec_marker__delete(struct dtl_rec_marker *k)
{
	if (!k)
		return;
	free(k->last);
	free(k->delta);
	free(k);
}

void dtl_rec_marker__file(struct dtl_rec_marker *k, const struct dtl_cpuset *online,
			  unsigned int mask)
{
	k->m.file_ticks = 0;
	k->m.file_syms = 0;
	k->m.file_names = 0;
	k->m.online = *online;
	k->m.mask = mask & 7 ? mask & 7 : k->m.mask;
	k->len = 0;
}

/* A framed record of body bytes onto the delta; NULL (and broken) past its bound. */
static uint8_t *delta_record(struct dtl_rec_marker *k, int kind, unsigned int cpu, size_t body)
{
	uint8_t *p;

	if (k->broken || k->len + REC_HDR + body > DTL_REC_MARK_DELTA) {
		k->broken = true;
		return NULL;
	}
	if (k->len + REC_HDR + body > k->cap) {
		size_t cap = k->cap ? k->cap : 4096;

		while (cap < k->len + REC_HDR + body)
			cap *= 2;
		p = realloc(k->delta, cap);
		if (!p) {
			k->broken = true;
			return NULL;
		}
		k->delta = p;
		k->cap = cap;
	}
	p = rec_frame(k->delta + k->len, kind, cpu, body);
	k->len += REC_HDR + body;
	return p;
}

static bool named(const struct dtl_switch *sw)
{
	return (sw->comm && sw->comm[0]) || (sw->cgroup && sw->cgroup[0]);
}

void dtl_rec_marker__switches(struct dtl_rec_marker *k, unsigned int cpu,
			      const struct dtl_switch *sw, size_t n)
{
	size_t told = 0, j = 0;
	struct dtl_switch *some;
	uint8_t *p;

	/* as a replay passes them: a CPU it holds offline, it does not read */
	if (!n || cpu >= k->nr_cpus || !dtl_cpuset__has(&k->m.online, cpu))
		return;
	k->last[cpu] = (struct last){ sw[n - 1].tb, sw[n - 1].pid, true };
	for (size_t i = 0; i < n; i++)
		told += named(&sw[i]);
	if (!told)
		return;
	k->m.file_names += (uint32_t)told;
	k->m.set_names += (uint32_t)told;
	some = malloc(told * sizeof(*some));
	if (!some) {
		k->broken = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (named(&sw[i]))
			some[j++] = sw[i];
	p = delta_record(k, DTL_REC_SWITCHES, cpu, dtl_rec_switches__size(some, told));
	if (p)
		dtl_rec_switches__pack(p, some, told);
	free(some);
}

void dtl_rec_marker__symbols(struct dtl_rec_marker *k, const uint8_t *text, size_t len)
{
	uint8_t *p = delta_record(k, DTL_REC_SYMBOLS, 0, len);

	k->m.file_syms++;
	k->m.set_syms++;
	if (p)
		memcpy(p, text, len);
}

void dtl_rec_marker__mask(struct dtl_rec_marker *k, unsigned int mask)
{
	/* a replay takes a mask that sets a DTL bit: others it passes over */
	if (mask & 7)
		k->m.mask = mask & 7;
}

void dtl_rec_marker__cpu(struct dtl_rec_marker *k, unsigned int cpu, bool online)
{
	if (cpu >= k->nr_cpus)
		return;
	if (online)
		dtl_cpuset__set(&k->m.online, cpu);
	else
		dtl_cpuset__unset(&k->m.online, cpu);
}

bool dtl_rec_marker__tick(struct dtl_rec_marker *k, uint64_t ts_ns, uint64_t tb)
{
	k->m.file_ticks++;
	k->m.set_ticks++;
	k->m.ts_ns = ts_ns;
	k->m.tb = tb;
	return !k->broken && k->m.file_ticks % DTL_REC_MARK_EVERY == 0;
}

int dtl_rec_marker__build(struct dtl_rec_marker *k, bool final, uint8_t **buf, size_t *cap,
			  size_t *len)
{
	size_t need = REC_HDR + dtl_rec_mark__size(&k->m) + k->len;
	uint8_t *p;

	if (k->broken)
		return -1;
	for (unsigned int c = 0; c < k->nr_cpus; c++)
		need += k->last[c].have ? REC_HDR + DTL_REC_LAST_BODY : 0;
	if (need > *cap) {
		p = realloc(*buf, need);
		if (!p) {
			k->broken = true;
			return -1;
		}
		*buf = p;
		*cap = need;
	}
	p = *buf;
	k->m.final = final;
	p = rec_frame(p, DTL_REC_MARK, 0, dtl_rec_mark__size(&k->m));
	dtl_rec_mark__pack(p, &k->m);
	p += dtl_rec_mark__size(&k->m);
	for (unsigned int c = 0; c < k->nr_cpus; c++) {
		if (!k->last[c].have)
			continue;
		p = rec_frame(p, DTL_REC_LAST, c, DTL_REC_LAST_BODY);
		dtl_rec_mark__pack_last(p, k->last[c].tb, k->last[c].pid);
		p += DTL_REC_LAST_BODY;
	}
	if (k->len)
		memcpy(p, k->delta, k->len);
	*len = need;
	k->len = 0;
	return 0;
}
