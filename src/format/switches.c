/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * switches.c - task switches in a recording (format 1.3, record kind 12):
 * per switch a big-endian u64 timebase and s32 pid, a u8 comm length and a
 * u8 cgroup length, then those bytes (no NUL). A length of 0 means "not
 * said here": the name came with an earlier switch, or is unknown.
 */
#include "switches.h"

#include <string.h>

#include "../dtl/name.h"

static size_t clip(const char *s, size_t max)
{
	return s ? strnlen(s, max) : 0;
}

size_t dtl_rec_switches__size(const struct dtl_switch *sw, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += 14 + clip(sw[i].comm, DTL_REC_COMM_MAX) + clip(sw[i].cgroup, DTL_REC_CGROUP_MAX);
	return len;
}

void dtl_rec_switches__pack(uint8_t *p, const struct dtl_switch *sw, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t cl = clip(sw[i].comm, DTL_REC_COMM_MAX);
		size_t gl = clip(sw[i].cgroup, DTL_REC_CGROUP_MAX);
		uint32_t pid = (uint32_t)sw[i].pid;

		for (int b = 0; b < 8; b++)
			p[b] = (uint8_t)(sw[i].tb >> (56 - 8 * b));
		for (int b = 0; b < 4; b++)
			p[8 + b] = (uint8_t)(pid >> (24 - 8 * b));
		p[12] = (uint8_t)cl;
		p[13] = (uint8_t)gl;
		if (cl)
			memcpy(p + 14, sw[i].comm, cl);
		if (gl)
			memcpy(p + 14 + cl, sw[i].cgroup, gl);
		p += 14 + cl + gl;
	}
}

/* A name of len bytes at p into text at *used, NUL-terminated; NULL when it does not fit. */
static const char *take(const uint8_t *p, size_t len, char *text, size_t cap, size_t *used)
{
	char *s;

	if (!len || cap - *used < len + 1)
		return NULL;
	s = text + *used;
	memcpy(s, p, len);
	s[len] = '\0';
	*used += len + 1;
	dtl_name__clean(s);	/* a NUL inside ends it there */
	return s;
}

/* One switch of 14 + cl + gl bytes at p into *out. */
static void one(const uint8_t *p, size_t cl, size_t gl, struct dtl_switch *out, char *text,
		size_t textcap, size_t *used)
{
	uint64_t tb = 0;
	uint32_t pid = 0;

	for (int b = 0; b < 8; b++)
		tb = tb << 8 | p[b];
	for (int b = 0; b < 4; b++)
		pid = pid << 8 | p[8 + b];
	out->tb = tb;
	out->pid = (int32_t)pid;
	out->comm = take(p + 14, cl, text, textcap, used);
	out->cgroup = take(p + 14 + cl, gl, text, textcap, used);
}

/* The length of the switch at p, 0 when it is malformed or overruns len. */
static size_t length(const uint8_t *p, size_t len, size_t *cl, size_t *gl)
{
	if (len < 14 || (*cl = p[12]) > DTL_REC_COMM_MAX || (*gl = p[13]) > DTL_REC_CGROUP_MAX ||
	    len < 14 + *cl + *gl)
		return 0;
	return 14 + *cl + *gl;
}

size_t dtl_rec_switches__unpack(const uint8_t *p, size_t len, struct dtl_switch *out, size_t max,
				char *text, size_t textcap, int *bad)
{
	size_t n = 0, used = 0, cl, gl, step;

	*bad = 0;
	while (len && n < max) {
		if (!(step = length(p, len, &cl, &gl))) {
			*bad = 1;
			break;
		}
		one(p, cl, gl, &out[n++], text, textcap, &used);
		p += step;
		len -= step;
	}
	return n;
}

size_t dtl_rec_switches__skim(const uint8_t *p, size_t len, struct dtl_switch *out, size_t max,
			      char *text, size_t textcap, int *bad)
{
	size_t n = 0, used = 0, cl, gl, step, seen = 0;
	const uint8_t *last = NULL;
	size_t last_cl = 0, last_gl = 0;

	*bad = 0;
	/* as unpack reads them: at most max, up to the first malformed one */
	while (len && seen < max) {
		if (!(step = length(p, len, &cl, &gl))) {
			*bad = 1;
			break;
		}
		seen++;
		if (last && (last_cl || last_gl))
			one(last, last_cl, last_gl, &out[n++], text, textcap, &used);
		last = p;
		last_cl = cl;
		last_gl = gl;
		p += step;
		len -= step;
	}
	if (last)
		one(last, last_cl, last_gl, &out[n++], text, textcap, &used);
	return n;
}
