// SPDX-License-Identifier: GPL-2.0-only
/*
 * mark.c - a mark chunk's records, packed and checked. A mark holds what
 * a replay carries across the chunks before it (the mask, the CPUs online,
 * who runs on each, the names and symbols told since the mark before) so
 * that opening a day's last hour reads the marks, not the day.
 */
#include "mark.h"

#include <string.h>

#include "chunk.h"
#include "le.h"
#include "record.h"
#include "switches.h"

size_t dtl_rec_mark__size(const struct dtl_rec_mark *m)
{
	unsigned int top = 0;

	for (unsigned int c = 0; c < DTL_MAX_CPUS; c++)
		if (dtl_cpuset__has(&m->online, c))
			top = c + 1;
	return DTL_REC_MARK_HEAD + (top + 7) / 8;
}

void dtl_rec_mark__pack(uint8_t *p, const struct dtl_rec_mark *m)
{
	size_t n = dtl_rec_mark__size(m) - DTL_REC_MARK_HEAD;

	put64(p, m->set_ticks);
	put64(p + 8, m->file_ticks);
	put64(p + 16, m->ts_ns);
	put64(p + 24, m->tb);
	put32(p + 32, m->mask);
	put32(p + 36, m->set_syms);
	put32(p + 40, m->file_syms);
	put32(p + 44, m->set_names);
	put32(p + 48, m->file_names);
	p[52] = m->final;
	p[53] = p[54] = p[55] = 0;
	memset(p + DTL_REC_MARK_HEAD, 0, n);
	for (unsigned int c = 0; c < n * 8; c++)
		if (dtl_cpuset__has(&m->online, c))
			p[DTL_REC_MARK_HEAD + c / 8] |= (uint8_t)(1u << (c % 8));
}

int dtl_rec_mark__unpack(const uint8_t *p, size_t len, unsigned int nr_cpus,
			 struct dtl_rec_mark *m)
{
	if (len < DTL_REC_MARK_HEAD || len - DTL_REC_MARK_HEAD > (nr_cpus + 7) / 8 || p[52] > 1)
		return -1;
	memset(m, 0, sizeof(*m));
	m->set_ticks = get64(p);
	m->file_ticks = get64(p + 8);
	m->ts_ns = get64(p + 16);
	m->tb = get64(p + 24);
	m->mask = get32(p + 32);
	m->set_syms = get32(p + 36);
	m->file_syms = get32(p + 40);
	m->set_names = get32(p + 44);
	m->file_names = get32(p + 48);
	m->final = p[52];
	if (m->file_ticks > m->set_ticks || m->file_syms > m->set_syms ||
	    m->file_names > m->set_names || !m->mask || m->mask > 7)
		return -1;
	for (unsigned int c = 0; c < (len - DTL_REC_MARK_HEAD) * 8; c++) {
		if (!(p[DTL_REC_MARK_HEAD + c / 8] >> (c % 8) & 1))
			continue;
		if (c >= nr_cpus)
			return -1;
		dtl_cpuset__set(&m->online, c);
	}
	return 0;
}

void dtl_rec_mark__pack_last(uint8_t *p, uint64_t tb, int32_t pid)
{
	put64(p, tb);
	put32(p + 8, (uint32_t)pid);
}

int dtl_rec_mark__unpack_last(const uint8_t *p, size_t len, uint64_t *tb, int32_t *pid)
{
	if (len != DTL_REC_LAST_BODY)
		return -1;
	*tb = get64(p);
	*pid = (int32_t)get32(p + 8);
	return 0;
}

/* One record of a mark chunk other than the mark, at r (8-byte header, body bytes). */
static int told(const uint8_t *r, uint32_t body, unsigned int nr_cpus,
		const struct dtl_rec_mark_told *t)
{
	unsigned int cpu = get16(r + 2);
	uint64_t tb;
	int32_t pid;
	size_t n;
	int bad = 0;

	if (r[0] == DTL_REC_LAST) {
		if (cpu >= nr_cpus || dtl_rec_mark__unpack_last(r + REC_HDR, body, &tb, &pid))
			return -1;
		return t->last(t->ctx, cpu, tb, pid);
	}
	if (r[0] == DTL_REC_SYMBOLS)
		return t->sym(t->ctx, r + REC_HDR, body);
	if (r[0] != DTL_REC_SWITCHES)
		return 0;
	/* a switch is 14 bytes and more: a record that could hold more than swcap is refused */
	if (cpu >= nr_cpus || body / 14 > t->swcap)
		return -1;
	n = dtl_rec_switches__unpack(r + REC_HDR, body, t->sw, t->swcap, t->text, t->textcap, &bad);
	if (bad)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((!t->sw[i].comm && !t->sw[i].cgroup) || t->name(t->ctx, cpu, &t->sw[i]))
			return -1;
	return 0;
}

int dtl_rec_mark__read(const uint8_t *recs, size_t len, unsigned int nr_cpus,
		       struct dtl_rec_mark *h, const struct dtl_rec_mark_told *t)
{
	for (size_t pos = 0; pos < len;) {
		const uint8_t *r = recs + pos;
		uint32_t body;

		if (len - pos < REC_HDR || (body = get32(r + 4)) > len - pos - REC_HDR)
			return -1;
		if (pos == 0) {
			if (r[0] != DTL_REC_MARK || dtl_rec_mark__unpack(r + REC_HDR, body, nr_cpus, h))
				return -1;
		} else if (told(r, body, nr_cpus, t)) {
			return -1;
		}
		pos += REC_HDR + body;
	}
	return len ? 0 : -1;
}
