/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sumiv.c - a summary's own interval (--summary-interval): the service
 * shows its viewers 1 s intervals, but a day of them is ten times a day of
 * 10 s ones on disk. Counts of ten short intervals do not add up to one
 * long one (a wait across their edges is cut where the long one keeps it
 * whole), so a second stats and task table are fed the same chunks and end
 * their interval once it is that long: the summary is what a run at its
 * interval would have written.
 */
#include <stdlib.h>

#include "internal.h"

struct sumiv {
	struct dtl_stats *stats;
	struct dtl_tasks *tasks;
	unsigned int n;		/* live intervals in the summary's so far */
	double secs;		/* of the summary's interval so far */
	double last_secs;	/* of the one that ended last */
	bool due;		/* the live interval just ended one of the summary's */
};

int loop_sumiv_open(struct dtl_loop *l)
{
	struct sumiv *v;
	unsigned int nr = dtl_source__nr_cpus(l->src);
	uint64_t freq = dtl_source__tb_freq(l->src);
	double every = l->o.summary_s / l->o.interval_s;

	if (l->sumiv || !l->o.summary_s || every < 1.5)
		return 0;	/* one live interval a summary's: the live stats write it */
	v = calloc(1, sizeof(*v));
	if (!v)
		return -1;
	v->stats = dtl_stats__new(nr, freq);
	v->tasks = l->tasks ? dtl_tasks__new(nr, freq) : NULL;
	if (!v->stats || (l->tasks && !v->tasks) || dtl_stats__keep(v->stats)) {
		dtl_tasks__delete(v->tasks);
		dtl_stats__delete(v->stats);
		free(v);
		return -1;
	}
	if (v->tasks)
		dtl_tasks__keep(v->tasks);
	l->sumiv = v;
	loop_sumiv_sync(l);
	return 0;
}

void loop_sumiv_close(struct dtl_loop *l)
{
	if (!l->sumiv)
		return;
	dtl_tasks__delete(l->sumiv->tasks);
	dtl_stats__delete(l->sumiv->stats);
	free(l->sumiv);
	l->sumiv = NULL;
}

struct dtl_stats *loop_sumiv_stats(const struct dtl_loop *l)
{
	return l->sumiv ? l->sumiv->stats : l->stats;
}

struct dtl_tasks *loop_sumiv_tasks(const struct dtl_loop *l)
{
	return l->sumiv ? l->sumiv->tasks : l->tasks;
}

/* What the live stats were told of the partition, told to the summary's too (the mask: each chunk). */
void loop_sumiv_sync(struct dtl_loop *l)
{
	const struct dtl_topo *t = dtl_source__topo(l->src);
	const struct dtl_cpuset *cpus = dtl_source__cpus(l->src);
	uint64_t tb;

	if (!l->sumiv)
		return;
	if (t->known)
		dtl_stats__set_vps(l->sumiv->stats, t->vp, dtl_source__core_threads(l->src));
	for (unsigned int cpu = 0; cpu < dtl_stats__nr_cpus(l->sumiv->stats); cpu++)
		dtl_stats__set_online(l->sumiv->stats, cpu, dtl_cpuset__has(cpus, cpu));
	if (dtl_source__tb(l->src, &tb))
		dtl_stats__start_at(l->sumiv->stats, tb);
}

void loop_sumiv_online(struct dtl_loop *l, unsigned int cpu, bool on)
{
	if (l->sumiv)
		dtl_stats__set_online(l->sumiv->stats, cpu, on);
}

/* The summary's interval ends at end_tb (0: unknown), its secs so far. */
static void end(struct dtl_loop *l, struct sumiv *v, uint64_t end_tb)
{
	dtl_stats__set_mask(v->stats, dtl_source__mask(l->src));
	if (end_tb)
		dtl_stats__end_at(v->stats, end_tb);
	dtl_stats__end_interval(v->stats, v->secs);
	if (v->tasks)
		dtl_tasks__end_interval(v->tasks, v->secs, dtl_source__mask(l->src));
	v->last_secs = v->secs;
	v->due = true;
	v->n = 0;
	v->secs = 0;
}

/* The live interval ended at end_tb (0: unknown) after secs: the summary's too, once long enough. */
void loop_sumiv_end(struct dtl_loop *l, uint64_t end_tb, double secs)
{
	struct sumiv *v = l->sumiv;

	if (!v)
		return;
	v->secs += secs;
	v->due = false;
	v->n++;
	/* by time, not count: a replay's live intervals are its recording's, whatever -d says */
	if (v->secs >= l->o.summary_s * (1 - 1e-9))
		end(l, v, end_tb);
}

/* The run ends inside the summary's interval: what it holds is the last, shorter one. */
bool loop_sumiv_cut(struct dtl_loop *l, uint64_t end_tb)
{
	if (!l->sumiv || !l->sumiv->n)
		return false;
	end(l, l->sumiv, end_tb);
	return true;
}

double loop_sumiv_secs(const struct dtl_loop *l, double live_secs)
{
	return l->sumiv ? l->sumiv->last_secs : live_secs;
}

bool loop_sumiv_due(const struct dtl_loop *l)
{
	return !l->sumiv || l->sumiv->due;
}

void loop_sumiv_chunk(struct dtl_loop *l, const struct dtl_chunk *c, const uint64_t *restart_tb)
{
	struct sumiv *v = l->sumiv;

	if (!v)
		return;
	if (restart_tb)
		dtl_stats__restart_at(v->stats, *restart_tb);
	dtl_stats__set_mask(v->stats, dtl_source__mask(l->src));
	loop_feed(v->stats, v->tasks, c);
}

/* What the VPA and /proc/stat told of a CPU beside its chunks (witness.c), told here too. */
void loop_sumiv_vpa_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks)
{
	if (l->sumiv)
		dtl_stats__add_witness(l->sumiv->stats, cpu, ticks);
}

void loop_sumiv_lost(struct dtl_loop *l, unsigned int cpu, uint64_t n)
{
	if (l->sumiv)
		dtl_stats__add_lost(l->sumiv->stats, cpu, n);
}

void loop_sumiv_stat_steal(struct dtl_loop *l, unsigned int cpu, uint64_t ticks)
{
	if (l->sumiv)
		dtl_stats__add_stat_steal(l->sumiv->stats, cpu, ticks);
}
