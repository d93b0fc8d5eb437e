/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * witness.c - the VPA as a second witness of what the DTL says.
 *
 * dtl_idx counts every entry the hypervisor wrote into a thread's DTL, so
 * its growth less the entries received (and the losses the source counted)
 * is what was lost unseen. The VPA is read just before an interval's last
 * drain: an entry written before that read is drained now or was lost, and
 * one written after it only makes the difference smaller for a moment, so
 * the count never runs ahead of the truth. Where a kernel copies the DTL on
 * its own clock (the PMU's poll), entries the VPA counts may still be on
 * their way: what was written by the read before must have come by now.
 * The steal accumulators give the steal the DTL's entries should add up to. A source with counters of its
 * own (the simulator) is read after the drain, in step with what it handed
 * out. /proc/stat's per-CPU steal, below, is a third opinion.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../platform/vpa.h"
#include "internal.h"

struct witness {
	unsigned int nr;
	bool *have;			/* base read for the CPU */
	struct dtl_vpa *base, *last, *snap;	/* snap: read before the last drain */
	bool *snapped;
	uint64_t *rx;			/* entries received and losses told, since base */
	uint64_t *lost;			/* losses the VPA showed, already added */
	uint64_t *prev_written;		/* written by the read before (copies_later) */
	bool count_lost;		/* the source cannot count its own losses */
	bool lagged;			/* the source copies later: judge by the read before */
	bool own;			/* the source's own counters (the simulator's), not debugfs */
};

/* A CPU's VPA: the source's own, in step with what it handed out, or debugfs'. */
static int vpa_of(struct dtl_loop *l, const struct witness *w, unsigned int cpu, struct dtl_vpa *v)
{
	char err[512];

	if (w->own)
		return dtl_source__vpa(l->src, cpu, v);
	return dtl_vpa__read(l->o.src.root, cpu, v, err, sizeof(err));
}

static void witness_free(struct witness *w)
{
	if (!w)
		return;
	free(w->have);
	free(w->base);
	free(w->last);
	free(w->snap);
	free(w->snapped);
	free(w->rx);
	free(w->lost);
	free(w->prev_written);
	free(w);
}

/* A CPU's first read, or after it came back online: the counting starts there. */
static void witness_base(struct dtl_loop *l, struct witness *w, unsigned int cpu)
{
	w->have[cpu] = vpa_of(l, w, cpu, &w->base[cpu]) == 0;
	w->last[cpu] = w->base[cpu];
	w->rx[cpu] = w->lost[cpu] = w->prev_written[cpu] = 0;
}

void loop_witness_open(struct dtl_loop *l)
{
	const struct dtl_cpuset *cpus = dtl_source__cpus(l->src);
	unsigned int nr = dtl_source__nr_cpus(l->src), cpu, seen = 0;
	struct dtl_vpa probe;
	struct witness *w;
	bool own = dtl_source__vpa(l->src, dtl_cpuset__end(cpus) ? dtl_cpuset__end(cpus) - 1 : 0,
				   &probe) == 0;

	/* a replay's VPA was the recorded machine's, not this one's */
	if (dtl_source__recorded(l->src) || !nr || strcmp(dtl_source__name(l->src), "vpa") == 0 ||
	    (!own && !dtl_sys__exists(l->o.src.root, DTL_VPA_DIR)))	/* vpa: itself */
		return;
	w = calloc(1, sizeof(*w));
	if (!w)
		return;
	w->nr = nr;
	w->have = calloc(nr, sizeof(*w->have));
	w->base = calloc(nr, sizeof(*w->base));
	w->last = calloc(nr, sizeof(*w->last));
	w->rx = calloc(nr, sizeof(*w->rx));
	w->lost = calloc(nr, sizeof(*w->lost));
	w->prev_written = calloc(nr, sizeof(*w->prev_written));
	w->snap = calloc(nr, sizeof(*w->snap));
	w->snapped = calloc(nr, sizeof(*w->snapped));
	if (!w->have || !w->base || !w->last || !w->rx || !w->lost || !w->prev_written || !w->snap ||
	    !w->snapped) {
		witness_free(w);
		return;
	}
	w->count_lost = !dtl_source__counts_lost(l->src);
	w->lagged = dtl_source__copies_later(l->src);
	w->own = own;
	dtl_cpuset__for_each(cpu, cpus)
		if (cpu < nr) {
			uint64_t reg;

			witness_base(l, w, cpu);
			seen += w->have[cpu];
			/* nothing drained yet: count from the registration, not from now */
			if (w->have[cpu] && dtl_source__reg_idx(l->src, cpu, &reg) == 0 &&
			    reg <= w->base[cpu].dtl_idx)
				w->base[cpu].dtl_idx = reg;
		}
	if (!seen) {	/* not root, or no file for any CPU: no witness at all */
		witness_free(w);
		return;
	}
	l->witness = w;
}

void loop_witness_close(struct dtl_loop *l)
{
	witness_free(l->witness);
	l->witness = NULL;
}

void loop_witness_chunk(struct dtl_loop *l, const struct dtl_chunk *c)
{
	struct witness *w = l->witness;

	if (w && c->cpu < w->nr)
		w->rx[c->cpu] += c->n + c->lost + c->filtered;
}

/* Each online CPU's VPA now, against its base. */
static void snap_all(struct dtl_loop *l, struct witness *w)
{
	const struct dtl_cpuset *cpus = dtl_source__cpus(l->src);

	for (unsigned int cpu = 0; cpu < w->nr; cpu++) {
		w->snapped[cpu] = false;
		if (!dtl_cpuset__has(cpus, cpu)) {
			w->have[cpu] = false;	/* offline: start again when it is back */
		} else if (!w->have[cpu]) {
			witness_base(l, w, cpu);
		} else if (vpa_of(l, w, cpu, &w->snap[cpu]) ||
			   w->snap[cpu].dtl_idx < w->base[cpu].dtl_idx) {
			w->have[cpu] = false;	/* gone, or a new DTL buffer: start again */
		} else {
			w->snapped[cpu] = true;
		}
	}
}

/* Before the interval's last drain (debugfs' files: the hypervisor writes on). */
void loop_witness_read(struct dtl_loop *l)
{
	if (l->witness && !l->witness->own)
		snap_all(l, l->witness);
}

/* After it: the losses so far, and the steal of the interval. */
void loop_witness_settle(struct dtl_loop *l)
{
	struct witness *w = l->witness;

	if (w && w->own)
		snap_all(l, w);	/* the source's own: in step with what it handed out */
	for (unsigned int cpu = 0; w && cpu < w->nr; cpu++) {
		const struct dtl_vpa v = w->snap[cpu];
		uint64_t written, due, missing, steal;

		if (!w->snapped[cpu])
			continue;
		steal = (v.enqueue_dispatch_tb + v.ready_enqueue_tb) -
			(w->last[cpu].enqueue_dispatch_tb + w->last[cpu].ready_enqueue_tb);
		dtl_stats__add_witness(l->stats, cpu, steal);
		loop_sumiv_vpa_steal(l, cpu, steal);
		loop_rec_vpa_steal(l, cpu, steal);	/* a replay shows the same */
		w->last[cpu] = v;
		written = v.dtl_idx - w->base[cpu].dtl_idx;
		due = w->lagged ? w->prev_written[cpu] : written;
		w->prev_written[cpu] = written;
		missing = due > w->rx[cpu] ? due - w->rx[cpu] : 0;
		if (w->count_lost && missing > w->lost[cpu]) {
			struct dtl_chunk c = { .cpu = cpu, .lost = missing - w->lost[cpu] };

			dtl_stats__add_lost(l->stats, cpu, c.lost);
			loop_sumiv_lost(l, cpu, c.lost);
			loop_rec_chunk(l, &c);	/* a replay shows it too */
			w->lost[cpu] = missing;
		}
	}
}

/*
 * /proc/stat's per-CPU steal, where the kernel accounts it from the VPA
 * (VIRT_CPU_ACCOUNTING_GEN on pseries): a third opinion, for the live
 * sources of this machine only.
 */
struct statw {
	unsigned int nr;
	long hz;		/* USER_HZ */
	uint64_t *prev, *now;
	bool *have, *now_have;
};

static char stat_buf[1 << 20];

static void statw_free(struct statw *w)
{
	if (!w)
		return;
	free(w->prev);
	free(w->now);
	free(w->have);
	free(w->now_have);
	free(w);
}

void loop_statw_open(struct dtl_loop *l)
{
	unsigned int nr = dtl_source__nr_cpus(l->src);
	struct dtl_vpa probe;
	struct statw *w;


	if (dtl_source__recorded(l->src) || !nr || strcmp(dtl_source__name(l->src), "vpa") == 0 ||
	    dtl_source__vpa(l->src, 0, &probe) == 0 ||	/* a simulated LPAR is not this machine */
	    dtl_sys__read(l->o.src.root, "proc/stat", stat_buf, sizeof(stat_buf)) < 0)
		return;
	w = calloc(1, sizeof(*w));
	if (!w)
		return;
	w->nr = nr;
	w->hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	w->prev = calloc(nr, sizeof(*w->prev));
	w->now = calloc(nr, sizeof(*w->now));
	w->have = calloc(nr, sizeof(*w->have));
	w->now_have = calloc(nr, sizeof(*w->now_have));
	if (!w->prev || !w->now || !w->have || !w->now_have) {
		statw_free(w);
		return;
	}
	dtl_sys__parse_stat_steal(stat_buf, nr, w->prev, w->have);
	l->statw = w;
}

void loop_statw_close(struct dtl_loop *l)
{
	statw_free(l->statw);
	l->statw = NULL;
}

void loop_statw_settle(struct dtl_loop *l)
{
	struct statw *w = l->statw;
	uint64_t tb_freq = dtl_source__tb_freq(l->src);

	if (!w || dtl_sys__read(l->o.src.root, "proc/stat", stat_buf, sizeof(stat_buf)) < 0)
		return;
	dtl_sys__parse_stat_steal(stat_buf, w->nr, w->now, w->now_have);
	for (unsigned int cpu = 0; cpu < w->nr; cpu++) {
		if (w->have[cpu] && w->now_have[cpu] && w->now[cpu] >= w->prev[cpu] &&
		    dtl_cpuset__has(dtl_source__cpus(l->src), cpu)) {
			uint64_t ticks = (w->now[cpu] - w->prev[cpu]) * tb_freq / (uint64_t)w->hz;

			dtl_stats__add_stat_steal(l->stats, cpu, ticks);
			loop_sumiv_stat_steal(l, cpu, ticks);
			loop_rec_stat_steal(l, cpu, ticks);
		}
		w->prev[cpu] = w->now[cpu];
		w->have[cpu] = w->now_have[cpu];
	}
}
