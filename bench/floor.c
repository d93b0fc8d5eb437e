// SPDX-License-Identifier: GPL-2.0-only
/*
 * floor.c - how few bytes a summary's counters could take at best: the
 * information they carry, as an ideal arithmetic coder would spend it under
 * a model of each CPU's figures, so the summary's size is judged against
 * what can be reached rather than against a wish (issue 48's 10 MB a day).
 *
 * Two models, each a lower bound for its kind of coder:
 *  - "known": each CPU's rates, means and spreads over the whole file,
 *    known to the decoder beforehand for free (no coder has this);
 *  - "learnt": the same figures from the CPU's intervals before, which is
 *    the most a decoder can know.
 * A histogram bucket's count and a reason's count are Poisson about their
 * rate (the simulator draws them independently; PowerVM's are no more
 * predictable); a large counter is Gaussian about its mean, quantized to
 * the tick. Left out, so the bound stays low: the dispatch reasons (mostly
 * a preempt reason again), the sampled processors, lparcfg, the tick and
 * every byte of framing.
 */
#include "floor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "format/summary.h"

/* The counters as a summary stores them (summary.c): the sums' parts said as differences. */
enum { NSC = 12 };

static void scalars(const struct dtl_interval_cpu *k, double *s)
{
	const struct dtl_counts *c = &k->c;

	s[0] = (double)c->dispatches;
	s[1] = (double)c->involuntary;
	s[2] = (double)c->steal_ticks;
	s[3] = (double)c->wake_ticks;
	s[4] = (double)c->idle_ticks;
	s[5] = (double)c->migrations;
	s[6] = (double)c->faults;
	s[7] = (double)c->lat_max;
	s[8] = (double)(c->steal_raw - c->e2d_raw);
	s[9] = (double)k->carry_steal;
	s[10] = (double)k->carry_idle;
	s[11] = (double)c->steal_raw - (double)c->steal_ticks - (double)k->carry_steal;
}

/* What is known of one CPU's figures: sums over the intervals counted. */
struct cpu_model {
	double n;
	double hist[DTL_HIST_BUCKETS], pre[DTL_N_PREEMPT + 1];
	/* a counter: how often 0, and its values when not (Welford's: no cancellation at 10^9) */
	double zeros[NSC], nz[NSC], mean[NSC], m2[NSC];
};

struct floor_run {
	struct cpu_model *known, *learnt;	/* per CPU */
	unsigned int ncpu;
	struct dtl_floor *out;
};

static double poisson_bits(double x, double lam)
{
	if (lam < 0.02)
		lam = 0.02;	/* a rate never seen is small, not impossible */
	return -(x * log(lam) - lam - lgamma(x + 1)) / M_LN2;
}

static double gauss_bits(double x, double mean, double var)
{
	if (var < 1)
		var = 1;
	return 0.5 * log2(2 * M_PI * var) + (x - mean) * (x - mean) / (2 * var) / M_LN2;
}

/* The bits of k's interval under what m knows (an empty m: rate 1, no mean). */
static void code(const struct cpu_model *m, const struct dtl_interval_cpu *k, double *hist,
		 double *rest)
{
	double s[NSC], n = m->n;

	for (int b = 0; b < DTL_HIST_BUCKETS; b++)
		*hist += poisson_bits((double)k->c.hist[b], n ? (m->hist[b] + 0.5) / (n + 1) : 1);
	for (int i = 0; i <= DTL_N_PREEMPT; i++)
		*rest += poisson_bits((double)k->c.preempt[i], n ? (m->pre[i] + 0.5) / (n + 1) : 1);
	scalars(k, s);
	for (int i = 0; i < NSC; i++) {
		double p0 = (m->zeros[i] + 0.5) / (n + 1), nz = m->nz[i];

		*rest += -log2(s[i] == 0 ? p0 : 1 - p0);
		if (s[i] == 0)
			continue;
		if (nz < 2)
			*rest += 2 * log2(fabs(s[i]) + 2);	/* an Elias-gamma code: nothing known */
		else if (m->mean[i] < 50)
			*rest += poisson_bits(fabs(s[i]), m->mean[i]);
		else
			*rest += gauss_bits(s[i], m->mean[i], m->m2[i] / nz);
	}
}

static void learn(struct cpu_model *m, const struct dtl_interval_cpu *k)
{
	double s[NSC];

	m->n++;
	for (int b = 0; b < DTL_HIST_BUCKETS; b++)
		m->hist[b] += (double)k->c.hist[b];
	for (int i = 0; i <= DTL_N_PREEMPT; i++)
		m->pre[i] += (double)k->c.preempt[i];
	scalars(k, s);
	for (int i = 0; i < NSC; i++) {
		double d = s[i] - m->mean[i];

		if (s[i] == 0) {
			m->zeros[i]++;
			continue;
		}
		m->mean[i] += d / ++m->nz[i];
		m->m2[i] += d * (s[i] - m->mean[i]);
	}
}

/* pass 0 learns the whole file into known; pass 1 codes under known and learnt. */
static int pass(const char *path, struct floor_run *f, int which)
{
	struct dtl_rec_meta m;
	struct dtl_rec_event ev;
	char err[512];
	FILE *in = fopen(path, "rb");
	struct dtl_rec_reader *r = in ? dtl_rec_reader__open(in, path, &m, err, sizeof(err)) : NULL;
	int rc;

	if (!r) {
		if (in)
			fclose(in);
		return -1;
	}
	while ((rc = dtl_rec_reader__next(r, &ev)) > 0) {
		if (ev.kind == DTL_REC_TICK && which)
			f->out->intervals++;
		if (ev.kind != DTL_REC_COUNTS || ev.cpu >= f->ncpu)
			continue;
		if (!which) {
			learn(&f->known[ev.cpu], ev.counts);
			continue;
		}
		f->out->cpu_intervals++;
		code(&f->known[ev.cpu], ev.counts, &f->out->known_hist, &f->out->known_rest);
		code(&f->learnt[ev.cpu], ev.counts, &f->out->learnt_hist, &f->out->learnt_rest);
		learn(&f->learnt[ev.cpu], ev.counts);
	}
	dtl_rec_reader__close(r);
	fclose(in);
	return rc < 0 ? -1 : 0;
}

int dtl_floor__measure(const char *path, unsigned int ncpu, struct dtl_floor *out)
{
	struct floor_run f = { calloc(ncpu, sizeof(struct cpu_model)),
			       calloc(ncpu, sizeof(struct cpu_model)), ncpu, out };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (f.known && f.learnt && !pass(path, &f, 0) && !pass(path, &f, 1) && out->cpu_intervals) {
		/* bits to bytes */
		out->known_hist /= 8, out->known_rest /= 8;
		out->learnt_hist /= 8, out->learnt_rest /= 8;
		rc = 0;
	}
	free(f.known);
	free(f.learnt);
	return rc;
}
