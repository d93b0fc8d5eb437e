/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary.c - one CPU's interval in a summary recording. Most counters of
 * an idle or ceding CPU are 0 and a latency histogram holds a few dozen
 * buckets, so only what is not 0 is written: a day of 16 vCPUs at 10 s
 * intervals is a few megabytes where its entries are gigabytes.
 */
#include "summary.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/name.h"

#define F(x) offsetof(struct dtl_interval_cpu, x)
/* The scalars in the order of the bitmap's bits; a newer minor adds at the end. */
static const size_t scalars[] = {
	F(c.dispatches), F(c.gaps), F(c.involuntary), F(c.steal_ticks), F(c.wake_ticks),
	F(c.idle_ticks), F(c.migrations), F(c.migr_core), F(c.steal_raw), F(c.e2d_raw),
	F(c.w2r_raw), F(c.vpa_steal), F(c.vpa_cpus), F(c.stat_steal), F(c.stat_cpus),
	F(c.faults), F(c.lost), F(c.bad), F(c.lat_max), F(carry_steal), F(carry_idle),
	F(proc_other),
};
#undef F
#define NSCALARS (sizeof(scalars) / sizeof(scalars[0]))

enum { S_STEAL = 3, S_IDLE = 5, S_RAW = 8, S_E2D, S_W2R, S_VPA, S_CARRY_STEAL = 19, S_CARRY_IDLE };

static inline uint64_t zz(uint64_t d)
{
	return d << 1 ^ (uint64_t)-(int64_t)(d >> 63);
}

static inline uint64_t unzz(uint64_t v)
{
	return v >> 1 ^ (uint64_t)-(int64_t)(v & 1);
}

/*
 * The waits whole at their dispatch are the interval's and the carried
 * parts, but for what fell before the capture or was clipped; the VPA's
 * steal is the DTL's, but for a lost entry; enqueue_to_dispatch is most of
 * the steal. Said as those differences, most are 0 and take no byte: a
 * third of what the counters took.
 */
static void to_stored(uint64_t *s)
{
	uint64_t raw = s[S_RAW];

	s[S_VPA] = zz(s[S_VPA] - raw);
	s[S_E2D] = raw - s[S_E2D];
	s[S_W2R] = zz(s[S_W2R] - s[S_IDLE] - s[S_CARRY_IDLE]);
	s[S_RAW] = zz(raw - s[S_STEAL] - s[S_CARRY_STEAL]);
}

static void from_stored(uint64_t *s)
{
	uint64_t raw = unzz(s[S_RAW]) + s[S_STEAL] + s[S_CARRY_STEAL];

	s[S_RAW] = raw;
	s[S_W2R] = unzz(s[S_W2R]) + s[S_IDLE] + s[S_CARRY_IDLE];
	s[S_E2D] = raw - s[S_E2D];
	s[S_VPA] = unzz(s[S_VPA]) + raw;
}

static inline uint64_t *field(struct dtl_interval_cpu *k, size_t i)
{
	return (uint64_t *)((char *)k + scalars[i]);
}

static inline uint64_t cfield(const struct dtl_interval_cpu *k, size_t i)
{
	return *(const uint64_t *)((const char *)k + scalars[i]);
}

static uint8_t *put(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* The varint at *p before end into *v; false when cut off or longer than 64 bits. */
static bool get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;

		if (shift == 63 && b > 1)
			return false;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

/* An array of n counters: a bitmap of those not 0, then they. */
static uint8_t *put_array(uint8_t *p, const uint64_t *a, unsigned int n)
{
	uint64_t bits = 0;

	for (unsigned int i = 0; i < n; i++)
		bits |= (uint64_t)(a[i] != 0) << i;
	p = put(p, bits);
	for (unsigned int i = 0; i < n; i++)
		if (a[i])
			p = put(p, a[i]);
	return p;
}

static bool get_array(const uint8_t **p, const uint8_t *end, uint64_t *a, unsigned int n)
{
	uint64_t bits;

	if (!get(p, end, &bits) || bits >> n)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if ((bits >> i & 1) && (!get(p, end, &a[i]) || !a[i]))
			return false;
	return true;
}

bool dtl_sum__empty(const struct dtl_interval_cpu *k)
{
	for (size_t i = 0; i < NSCALARS; i++)
		if (cfield(k, i))
			return false;
	for (int i = 0; i < 8; i++)
		if (k->proc_n[i])
			return false;
	/* the reasons and the histogram count dispatches: none, none of them */
	return true;
}

size_t dtl_sum__pack(const struct dtl_interval_cpu *k, unsigned int flags, uint8_t *out)
{
	uint64_t scal[NSCALARS];
	unsigned int lo, hi, np = 0;
	uint8_t *p = out;

	*p++ = (uint8_t)flags;
	for (size_t i = 0; i < NSCALARS; i++)
		scal[i] = cfield(k, i);
	to_stored(scal);
	p = put_array(p, scal, NSCALARS);
	p = put_array(p, k->c.preempt, DTL_N_PREEMPT + 1);
	p = put_array(p, k->c.dispatch, DTL_N_DISPATCH + 1);
	/*
	 * The histogram: from its first bucket not 0 to its last, every one.
	 * A CPU's waits spread over a hundred buckets of a few each: as bytes
	 * of their own (not a bucket number beside each), zstd's entropy stage
	 * takes them to half a byte.
	 */
	for (lo = 0; lo < DTL_HIST_BUCKETS && !k->c.hist[lo]; lo++)
		;
	for (hi = DTL_HIST_BUCKETS; hi > lo && !k->c.hist[hi - 1]; hi--)
		;
	p = put(p, lo);
	p = put(p, hi - lo);
	for (unsigned int b = lo; b < hi; b++)
		p = put(p, k->c.hist[b]);
	for (int i = 0; i < 8; i++)
		np += k->proc_n[i] != 0;
	p = put(p, np);
	for (int i = 0; i < 8; i++)
		if (k->proc_n[i]) {
			p = put(p, k->proc_id[i]);
			p = put(p, k->proc_n[i]);
		}
	return (size_t)(p - out);
}

static int bad(const char **why, const char *what)
{
	*why = what;
	return -1;
}

static uint64_t sum(const uint64_t *a, unsigned int n)
{
	uint64_t s = 0;

	for (unsigned int i = 0; i < n; i++)
		s += a[i];
	return s;
}

/* What the stats take for granted of counters they add (dtl_counts__add, the quantiles). */
static int check(const struct dtl_interval_cpu *k, const char **why)
{
	const struct dtl_counts *c = &k->c;
	unsigned int top = c->dispatches ? dtl_hist__bucket((uint32_t)c->lat_max) : 0;

	if (sum(c->preempt, DTL_N_PREEMPT + 1) != c->dispatches ||
	    sum(c->dispatch, DTL_N_DISPATCH + 1) != c->dispatches ||
	    sum(c->hist, DTL_HIST_BUCKETS) != c->dispatches)
		return bad(why, "counts whose reasons or latencies do not add up to their dispatches");
	if (c->lat_max > UINT32_MAX || (!c->dispatches && c->lat_max))
		return bad(why, "counts with a latency no entry could have");
	for (unsigned int b = top + 1; b < DTL_HIST_BUCKETS; b++)
		if (c->hist[b])
			return bad(why, "counts with a latency past their largest");
	if (c->involuntary > c->dispatches || c->faults > c->dispatches ||
	    c->migr_core > c->migrations || c->e2d_raw > c->steal_raw ||
	    c->wake_ticks > c->steal_raw)
		return bad(why, "counts whose parts exceed their whole");
	return 0;
}

int dtl_sum__unpack(const uint8_t *p, size_t len, struct dtl_interval_cpu *k,
		    unsigned int *flags, const char **why)
{
	const uint8_t *end = p + len;
	uint64_t scal[NSCALARS] = { 0 }, n, b, v;

	memset(k, 0, sizeof(*k));
	if (!len)
		return bad(why, "empty counts");
	*flags = *p++;
	if (!get_array(&p, end, scal, NSCALARS) ||
	    !get_array(&p, end, k->c.preempt, DTL_N_PREEMPT + 1) ||
	    !get_array(&p, end, k->c.dispatch, DTL_N_DISPATCH + 1) || !get(&p, end, &n))
		return bad(why, "counts cut off");
	from_stored(scal);
	for (size_t i = 0; i < NSCALARS; i++)
		*field(k, i) = scal[i];
	if (!get(&p, end, &v))
		return bad(why, "counts cut off in their latencies");
	/* buckets n from n, the first and the last not 0 */
	if (n > DTL_HIST_BUCKETS || v > DTL_HIST_BUCKETS - n)
		return bad(why, "counts with more latency buckets than there are");
	for (uint64_t i = 0; i < v; i++)
		if (!get(&p, end, &k->c.hist[n + i]))
			return bad(why, "counts cut off in their latencies");
	if (v && (!k->c.hist[n] || !k->c.hist[n + v - 1]))
		return bad(why, "counts whose latencies do not begin and end with one");
	if (!get(&p, end, &n) || n > 8)
		return bad(why, "counts cut off in their processors");
	for (uint64_t i = 0; i < n; i++) {
		if (!get(&p, end, &b) || !get(&p, end, &v) || b > UINT32_MAX || !v)
			return bad(why, "counts cut off in their processors");
		/* a processor's slot is its id's low bits, as the stats sample them */
		if (k->proc_n[b & 7])
			return bad(why, "counts with two processors in one slot");
		k->proc_id[b & 7] = (uint32_t)b;
		k->proc_n[b & 7] = v;
	}
	/* bytes past these are a newer minor version's fields: ignored */
	return check(k, why);
}

static uint8_t *put_name(uint8_t *p, const char *s)
{
	size_t n = s ? strnlen(s, DTL_SUM_NAME_MAX) : 0;

	p = put(p, n);
	memcpy(p, s ? s : "", n);
	return p + n;
}

static int by_pc(const void *a, const void *b)
{
	const struct dtl_task_pc *x = a, *y = b;

	return (x->pc > y->pc) - (x->pc < y->pc);
}

/*
 * A pid as a zigzag varint: the rows' own ids (idle 0, "other") as any.
 * The srr0s in order, each as the step from the last: a task's lie in a
 * few kernel functions, so a step takes two bytes where an address took 8.
 */
size_t dtl_sum__pack_task(const struct dtl_task_interval *ti, uint8_t *out)
{
	struct dtl_interval_cpu k;
	struct dtl_task_pc pcs[DTL_SUM_PCS_MAX];
	size_t npcs = ti->npcs < DTL_SUM_PCS_MAX ? ti->npcs : DTL_SUM_PCS_MAX;
	uint8_t *p = out;
	uint64_t last = 0;

	if (npcs)
		memcpy(pcs, ti->pcs, npcs * sizeof(pcs[0]));
	qsort(pcs, npcs, sizeof(pcs[0]), by_pc);
	p = put(p, (uint32_t)ti->pid << 1 ^ (uint32_t)(ti->pid >> 31));
	p = put_name(p, ti->name);
	p = put_name(p, ti->cgroup);
	p = put(p, ti->run);
	p = put(p, ti->user);
	p = put(p, ti->invol);
	p = put(p, npcs);
	for (size_t i = 0; i < npcs; i++) {
		p = put(p, pcs[i].pc - last);
		p = put(p, pcs[i].n);
		last = pcs[i].pc;
	}
	memset(&k, 0, sizeof(k));
	k.c = ti->c;
	return (size_t)(p - out) + dtl_sum__pack(&k, 0, p);
}

static bool get_name(const uint8_t **p, const uint8_t *end, char *dst)
{
	uint64_t n;

	if (!get(p, end, &n) || n > DTL_SUM_NAME_MAX || n > (uint64_t)(end - *p))
		return false;
	memcpy(dst, *p, n);
	dst[n] = '\0';
	*p += n;
	dtl_name__clean(dst);	/* a NUL inside ends it there */
	return true;
}

int dtl_sum__unpack_task(const uint8_t *p, size_t len, struct dtl_sum_task *t, const char **why)
{
	const uint8_t *end = p + len;
	struct dtl_task_interval *ti = &t->ti;
	struct dtl_interval_cpu k;
	unsigned int flags;
	uint64_t pid, n, sum = 0, pc = 0;

	memset(ti, 0, sizeof(*ti));
	if (!get(&p, end, &pid) || pid > UINT32_MAX || !get_name(&p, end, t->name) ||
	    !get_name(&p, end, t->cgroup) || !get(&p, end, &ti->run) || !get(&p, end, &ti->user) ||
	    !get(&p, end, &ti->invol) || !get(&p, end, &n))
		return bad(why, "a task's counts cut off");
	ti->pid = (int32_t)((uint32_t)pid >> 1 ^ -((uint32_t)pid & 1));
	ti->name = t->name;
	ti->cgroup = t->cgroup[0] ? t->cgroup : NULL;
	if (n > DTL_SUM_PCS_MAX)
		return bad(why, "a task's counts with more srr0s than a task keeps");
	for (uint64_t i = 0; i < n; i++) {
		uint64_t step;

		if (!get(&p, end, &step) || !get(&p, end, &t->pcs[i].n) || !t->pcs[i].n)
			return bad(why, "a task's counts cut off in their srr0s");
		/* each after the last, once: a step of 0 or past the top is no srr0 of ours */
		if ((i && !step) || step > UINT64_MAX - pc)
			return bad(why, "a task's srr0s out of order");
		pc += step;
		if (t->pcs[i].n > UINT64_MAX - sum)
			return bad(why, "a task's preempts whose parts exceed their whole");
		t->pcs[i].pc = pc;
		sum += t->pcs[i].n;
	}
	ti->pcs = t->pcs;
	ti->npcs = (size_t)n;
	if (ti->user > ti->invol || sum > ti->invol)
		return bad(why, "a task's preempts whose parts exceed their whole");
	if (dtl_sum__unpack(p, (size_t)(end - p), &k, &flags, why))
		return -1;
	ti->c = k.c;
	return 0;
}
