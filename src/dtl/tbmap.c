// SPDX-License-Identifier: GPL-2.0-only
/*
 * tbmap.c - the perf clock on the timebase: an anchor and the nominal
 * frequency, from bracketed samples. Pure.
 */
#include "tbmap.h"
#include "scale.h"

#include <string.h>

void dtl_tbmap__fixed(struct dtl_tbmap *m, uint64_t freq, uint64_t boot_tb)
{
	memset(m, 0, sizeof(*m));
	m->freq = freq;
	m->tb0 = boot_tb;
}

bool dtl_tbmap__ok(const struct dtl_tbmap *m)
{
	return m->freq != 0;
}

/* The usable sample with the narrowest bracket, or NULL. */
static const struct dtl_tb_sample *narrowest(const struct dtl_tb_sample *s, size_t n)
{
	const struct dtl_tb_sample *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (s[i].tb_after >= s[i].tb_before &&
		    (!best || s[i].tb_after - s[i].tb_before < best->tb_after - best->tb_before))
			best = &s[i];
	return best;
}

/* ticks as ns, at most INT64_MAX: a check's difference is signed */
static uint64_t ticks_ns(uint64_t ticks, uint64_t freq)
{
	unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u / freq;

	return ns > INT64_MAX ? INT64_MAX : (uint64_t)ns;
}

static void anchor(struct dtl_tbmap *m, const struct dtl_tb_sample *s)
{
	uint64_t half = (s->tb_after - s->tb_before) / 2;

	m->ns0 = s->ns;
	m->tb0 = s->tb_before + half;
	/* the odd tick of an odd width rounds up: the residual never understates */
	m->residual_ns = ticks_ns(half + ((s->tb_after - s->tb_before) & 1), m->freq);
}

int dtl_tbmap__calibrate(struct dtl_tbmap *m, uint64_t freq, const struct dtl_tb_sample *s,
			 size_t n)
{
	const struct dtl_tb_sample *best = narrowest(s, n);

	if (!best || !freq)
		return -1;
	memset(m, 0, sizeof(*m));
	m->freq = freq;
	anchor(m, best);
	return 0;
}

/*
 * Every switch comes here: the exact scaling without a 128-bit division
 * within 18 years of the anchor (its result then fits 64 bits at any
 * timebase below 17 GHz), the 128-bit one beyond, which the caller saturates.
 */
static unsigned __int128 scale(uint64_t d, uint64_t freq)
{
	if (d < (1ull << 59) && freq < (1ull << 34))
		return dtl_scale__ns_tb(d, freq);
	return (unsigned __int128)d * freq / 1000000000u;
}

uint64_t dtl_tbmap__tb(const struct dtl_tbmap *m, uint64_t ns)
{
	unsigned __int128 d;

	if (!m->freq)
		return 0;
	if (ns >= m->ns0) {
		d = scale(ns - m->ns0, m->freq);
		return d > UINT64_MAX - m->tb0 ? UINT64_MAX : m->tb0 + (uint64_t)d;
	}
	d = scale(m->ns0 - ns, m->freq);
	return d >= m->tb0 ? 0 : m->tb0 - (uint64_t)d;
}

int dtl_tbmap__check(struct dtl_tbmap *m, const struct dtl_tb_sample *s, size_t n,
		     uint64_t bound_ns)
{
	const struct dtl_tb_sample *best = narrowest(s, n);
	uint64_t mid, at, slack, was;
	int held;

	if (!best || !m->freq)
		return -1;
	mid = best->tb_before + (best->tb_after - best->tb_before) / 2;
	at = dtl_tbmap__tb(m, best->ns);
	was = m->residual_ns;
	anchor(m, best);
	if (mid >= at)
		m->off_ns = (int64_t)ticks_ns(mid - at, m->freq);
	else
		m->off_ns = -(int64_t)ticks_ns(at - mid, m->freq);
	/* both anchors may be off by their own half-brackets */
	slack = bound_ns + was + m->residual_ns;
	held = (uint64_t)(m->off_ns < 0 ? -m->off_ns : m->off_ns) <= slack;
	m->checks++;
	m->drifts += !held;
	return held;
}
