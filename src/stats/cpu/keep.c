/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keep.c - a summary's side of the CPU grouping: what each CPU's interval
 * came to, kept for the writer, and such counts folded back in by a replay
 * exactly as the entries were.
 */
#include "internal.h"

#include <stdlib.h>

void dtl_stats__add_interval(struct dtl_stats *s, unsigned int cpu,
			     const struct dtl_interval_cpu *k, bool told)
{
	struct vcpu *v;

	if (cpu >= s->nr_cpus)
		return;
	v = &s->v[cpu];
	dtl_counts__add(&v->cur, &k->c);
	v->carry_steal += k->carry_steal;
	v->carry_idle += k->carry_idle;
	v->proc_other += k->proc_other;
	/* a slot goes to the first processor sampled in it, as add_one() gives it */
	for (int j = 0; j < 8; j++) {
		uint64_t *slot = &v->procs[k->proc_id[j] & 7];

		if (!k->proc_n[j])
			continue;
		if ((*slot >> 32) == k->proc_id[j] || !(uint32_t)*slot)
			*slot = (uint64_t)k->proc_id[j] << 32 | (uint32_t)(*slot + k->proc_n[j]);
		else
			v->proc_other += k->proc_n[j];
	}
	s->summaries |= told;
}

int dtl_stats__keep(struct dtl_stats *s)
{
	if (!s->kept)
		s->kept = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->kept));
	return s->kept ? 0 : -1;
}

const struct dtl_interval_cpu *dtl_stats__kept(const struct dtl_stats *s, unsigned int cpu)
{
	return s->kept && cpu < s->nr_cpus ? &s->kept[cpu].k : NULL;
}

uint64_t dtl_stats__ended_at(const struct dtl_stats *s)
{
	return s->ended_at;
}

bool dtl_stats__told(const struct dtl_stats *s)
{
	return s->summaries;
}

/* What a CPU's interval came to, before it goes into the totals: the processors as a difference. */
void stats_keep_cpu(struct dtl_stats *s, unsigned int cpu)
{
	const struct vcpu *v = &s->v[cpu];
	struct kept *k = &s->kept[cpu];

	k->k.c = v->cur;
	k->k.carry_steal = v->carry_steal;
	k->k.carry_idle = v->carry_idle;
	k->k.proc_other = v->proc_other - k->proc_other;
	k->proc_other = v->proc_other;
	for (int j = 0; j < 8; j++) {
		k->k.proc_id[j] = (uint32_t)(v->procs[j] >> 32);
		k->k.proc_n[j] = (uint32_t)((uint32_t)v->procs[j] - (uint32_t)k->procs[j]);
		k->procs[j] = v->procs[j];
	}
}
