/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frame.c - frame=FILE: the simulated LPAR is one line of a file that
 * describes every LPAR of its frame, the others of its pool its peers.
 * Each dtltop of the frame reads the same file and so works the same
 * division of the pool (hv.c), which is how their use adds up to at most
 * the pool without their talking to each other.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../platform/sys.h"
#include "internal.h"

#define FRAME_LINE 4096		/* a line's keys, tasks= and load= schedules among them */
#define FRAME_BYTES (256 * 1024)

/* What the command line may add to its frame line: nothing that changes a share. */
static const char *const own_keys[] = { "frame", "name", "clock", "tasks", "busy", "faults",
					"poll", "slice" };

static bool own_key(const char *key)
{
	for (size_t i = 0; i < sizeof(own_keys) / sizeof(own_keys[0]); i++)
		if (strcmp(own_keys[i], key) == 0)
			return true;
	return false;
}

/* The key of the table given in p that the command line must leave to the file, or NULL. */
static const char *shared_key(const struct dtl_sim_params *p)
{
	static const char *const all[] = { "vcpus", "vps", "ent", "pool", "capped", "profile",
					   "dedicated", "donating", "weight", "load", "other",
					   "oent", "smt", "lpar_id", "pool_id", "serial" };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!own_key(all[i]) && sim_params_given(p, all[i]))
			return all[i];
	return NULL;
}

/* The next line of text into buf, trimmed; 0 at the end, -1 if too long. */
static int next_line(const char **t, const char *end, char *buf, size_t len)
{
	const char *a = *t, *b;
	size_t n;

	if (a >= end)
		return 0;
	b = memchr(a, '\n', (size_t)(end - a));
	if (!b)
		b = end;
	*t = b < end ? b + 1 : end;
	while (a < b && (*a == ' ' || *a == '\t'))
		a++;
	while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
		b--;
	n = (size_t)(b - a);
	if (n >= len)
		return -1;
	memcpy(buf, a, n);
	buf[n] = '\0';
	return 1;
}

static double peer_want(const struct dtl_sim_params *q)
{
	return q->vps * (1 - pow(1 - q->load, q->smt));
}

/*
 * The first pass: every line checked (q holds each in turn), names and ids
 * told apart, and the line of the LPAR named name kept in self with the
 * command line's keys s after it. 0, or -1 with err.
 */
static int find_self(const char *s, const char *path, const char *text, size_t len,
		     const char *name, struct dtl_sim_params *q, char *self, size_t selflen,
		     unsigned int *self_ln, char *err, size_t errlen)
{
	char line[FRAME_LINE], names[DTL_HV_FRAME_MAX][64], e[384];
	unsigned int ids[DTL_HV_FRAME_MAX], nl = 0, ln = 0;
	const char *t = text, *end = text + len;
	int r;

	self[0] = '\0';
	while ((r = next_line(&t, end, line, sizeof(line))) != 0) {
		ln++;
		if (r < 0) {
			snprintf(err, errlen, "%s:%u: a line longer than %d bytes", path, ln, FRAME_LINE - 1);
			return -1;
		}
		if (!line[0] || line[0] == '#')
			continue;
		if (sim_params_parse(line, q, e, sizeof(e))) {
			snprintf(err, errlen, "%s:%u: %s", path, ln, e);
			return -1;
		}
		if (q->frame[0] || !q->name[0] || nl == DTL_HV_FRAME_MAX) {
			snprintf(err, errlen, "%s:%u: %s", path, ln, q->frame[0] ? "frame= in a frame file" :
				 !q->name[0] ? "an LPAR without name=" : "more than 32 LPARs in one frame");
			return -1;
		}
		if (sim_params_given(q, "other") || sim_params_given(q, "oent")) {
			snprintf(err, errlen, "%s:%u: other= and oent= are the frame's other lines "
				 "here", path, ln);
			return -1;
		}
		for (unsigned int i = 0; i < nl; i++)
			if (strcmp(names[i], q->name) == 0 || ids[i] == q->lpar_id) {
				snprintf(err, errlen, "%s:%u: LPAR %s (id %u) named twice in one frame",
					 path, ln, q->name, q->lpar_id);
				return -1;
			}
		snprintf(names[nl], sizeof(names[nl]), "%s", q->name);
		ids[nl++] = q->lpar_id;
		if (strcmp(q->name, name) == 0) {
			snprintf(self, selflen, "%s,%s", line, s);
			*self_ln = ln;
		}
	}
	if (!self[0]) {
		snprintf(err, errlen, "%s: no LPAR name=%s in the frame (%u LPARs)", path, name, nl);
		return -1;
	}
	return 0;
}

/* The second pass: the other LPARs of p's pool, its peers (q holds each line in turn). */
static int add_peers(const char *path, const char *text, size_t len, unsigned int self_ln,
		     struct dtl_sim_params *p, struct dtl_sim_params *q, char *err, size_t errlen)
{
	const char *t = text, *end = text + len;
	char line[FRAME_LINE], e[384];
	double ents = p->dedicated ? 0 : p->ent;
	unsigned int ln = 0;

	p->other = p->other_ent = 0;	/* the defaults' other= and oent=: the peers now */
	while (next_line(&t, end, line, sizeof(line)) > 0) {
		struct dtl_sim_peer *o;

		ln++;
		if (!line[0] || line[0] == '#' || ln == self_ln)
			continue;
		sim_params_parse(line, q, e, sizeof(e));	/* parsed in the first pass: it passes */
		if (strcmp(q->serial, p->serial) != 0) {
			snprintf(err, errlen, "%s:%u: serial=%s beside %s's %s (one file, one frame)",
				 path, ln, q->serial, p->name, p->serial);
			return -1;
		}
		if (q->dedicated || q->pool_id != p->pool_id || p->dedicated)
			continue;	/* not in our pool */
		if (q->pool != p->pool) {
			snprintf(err, errlen, "%s:%u: pool_id=%u has pool=%u here but pool=%u in %s's "
				 "line (one pool, one size)", path, ln, p->pool_id, q->pool, p->pool,
				 p->name);
			return -1;
		}
		o = &p->peers[p->npeers++];
		*o = (struct dtl_sim_peer){ .ent = q->ent, .load = q->load, .vps = q->vps,
					    .smt = q->smt, .weight = q->weight, .capped = q->capped,
					    .nloads = q->nloads };
		memcpy(o->loads, q->loads, sizeof(o->loads));
		ents += q->ent;
		p->other += peer_want(q);
		p->other_ent += q->ent;
	}
	if (ents > p->pool + 1e-9) {
		snprintf(err, errlen, "%s: the entitlements of pool_id=%u add up to %g, past its %u "
			 "processors (PowerVM starts no LPAR past its pool)", path, p->pool_id, ents,
			 p->pool);
		return -1;
	}
	return 0;
}

int dtl_sim__frame(const char *s, const char *path, const char *text, size_t len,
		   struct dtl_sim_params *p, char *err, size_t errlen)
{
	char self[FRAME_LINE + 512], e[384], name[sizeof(p->name)];
	struct dtl_sim_params *q;
	unsigned int self_ln = 0;
	const char *k;
	int ret = -1;

	if (sim_params_parse(s, p, err, errlen))
		return -1;
	if (!p->name[0]) {
		snprintf(err, errlen, "bad --sim: frame=%s needs name= (which of its LPARs this is)",
			 path);
		return -1;
	}
	if ((k = shared_key(p))) {
		snprintf(err, errlen, "bad --sim: %s= belongs in %s's line of %s (every LPAR of the "
			 "frame works the pool's division from that file)", k, p->name, path);
		return -1;
	}
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "%s: not a text file (a NUL byte)", path);
		return -1;
	}
	q = malloc(sizeof(*q));	/* large: the peers' table */
	if (!q) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(name, p->name, sizeof(name));
	if (find_self(s, path, text, len, name, q, self, sizeof(self), &self_ln, err, errlen))
		goto out;
	/* its line, then the command line's keys over it */
	if (sim_params_parse(self, p, e, sizeof(e))) {
		snprintf(err, errlen, "%s:%u: %s", path, self_ln, e);
		goto out;
	}
	ret = add_peers(path, text, len, self_ln, p, q, err, errlen);
out:
	free(q);
	return ret;
}

int sim_frame_read(const char *s, struct dtl_sim_params *p, char *err, size_t errlen)
{
	char path[sizeof(p->frame)], why[128], *text;
	unsigned int mode;
	size_t len;
	int r;

	snprintf(path, sizeof(path), "%s", p->frame);
	text = dtl_sys__slurp(path, FRAME_BYTES, &len, &mode, why, sizeof(why));
	if (!text) {
		snprintf(err, errlen, "--sim frame=%s: %s", path, why);
		return -1;
	}
	r = dtl_sim__frame(s, path, text, len, p, err, errlen);
	free(text);
	return r;
}
