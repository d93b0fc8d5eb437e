/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.c - the CPU grouping's life: made for the CPUs, told their VPs, which
 * are online, the mask and the window's edges; torn down.
 */
#include "internal.h"

#include <stdlib.h>

struct dtl_stats *dtl_stats__new(unsigned int nr_cpus, uint64_t tb_freq)
{
	struct dtl_stats *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->v = calloc(nr_cpus ? nr_cpus : 1, sizeof(*s->v));
	if (!s->v) {
		free(s);
		return NULL;
	}
	s->nr_cpus = nr_cpus;
	s->tb_freq = tb_freq ? tb_freq : DTL_DEFAULT_TB_FREQ;
	for (unsigned int i = 0; i < nr_cpus; i++) {
		s->v[i].last_proc = UINT32_MAX;
		s->v[i].last.cpu = (int)i;
	}
	s->last_all.cpu = DTL_ROW_ALL;
	s->mask = s->cur_mask = s->total_mask = DTL_MASK_ALL;
	s->core_shift = 3;	/* 8 threads */
	return s;
}

void dtl_stats__delete(struct dtl_stats *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->vp);
	free(s->next);
	free(s->vp_last);
	free(s->vp_ord);
	free(s->kept);
	free(s);
}

int dtl_stats__set_vps(struct dtl_stats *s, const uint16_t *vp, unsigned int core_threads)
{
	if (!s->vp) {
		s->vp = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->vp));
		s->next = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->next));
		s->vp_last = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->vp_last));
		s->vp_ord = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->vp_ord));
		if (!s->vp || !s->next || !s->vp_last || !s->vp_ord) {
			free(s->vp), free(s->next), free(s->vp_last), free(s->vp_ord);
			s->vp = s->next = s->vp_ord = NULL;
			s->vp_last = NULL;
			return -1;
		}
	}
	/* cores have 1, 2, 4 or 8 threads: a shift, not a division, per migration */
	s->core_shift = 0;
	while (core_threads >> (s->core_shift + 1))
		s->core_shift++;
	/* a VP is named by its first CPU: anything else stands alone */
	for (unsigned int i = 0; i < s->nr_cpus; i++) {
		s->vp[i] = vp[i] <= i && (vp[i] == i || vp[vp[i]] == vp[i]) ? vp[i] : i;
		s->next[i] = UINT32_MAX;
	}
	for (unsigned int i = s->nr_cpus; i-- > 0;) {
		unsigned int head = s->vp[i];

		if (head != i) {	/* i after head: link it in after the head */
			s->next[i] = s->next[head];
			s->next[head] = i;
		}
	}
	/* numbered as lparstat numbers them: 0..N-1 in the order of their first CPUs */
	for (unsigned int i = 0, n = 0; i < s->nr_cpus; i++)
		s->vp_ord[i] = s->vp[i] == i ? n++ : s->vp_ord[s->vp[i]];
	return 0;
}

int dtl_stats__vp_index(const struct dtl_stats *s, unsigned int cpu)
{
	if (cpu >= s->nr_cpus)
		return -1;
	return s->vp ? (int)s->vp_ord[cpu] : (int)cpu;
}

unsigned int dtl_stats__nr_cpus(const struct dtl_stats *s)
{
	return s->nr_cpus;
}

void dtl_stats__set_online(struct dtl_stats *s, unsigned int cpu, bool online)
{
	if (cpu >= s->nr_cpus || s->v[cpu].online == online)
		return;
	s->v[cpu].online = online;
	s->nr_online += online ? 1 : -1u;
}

bool dtl_stats__online(const struct dtl_stats *s, unsigned int cpu)
{
	return cpu < s->nr_cpus && s->v[cpu].online;
}

unsigned int dtl_stats__nr_online(const struct dtl_stats *s)
{
	return s->nr_online;
}

void dtl_stats__set_mask(struct dtl_stats *s, unsigned int mask)
{
	s->mask = mask;
	s->cur_mask &= mask;
}

void dtl_stats__start_at(struct dtl_stats *s, uint64_t tb)
{
	s->win_start = s->origin = tb;
}

void dtl_stats__restart_at(struct dtl_stats *s, uint64_t tb)
{
	s->win_start = tb;
}

void dtl_stats__end_at(struct dtl_stats *s, uint64_t tb)
{
	s->win_end = tb;
}

uint64_t dtl_stats__intervals(const struct dtl_stats *s)
{
	return s->intervals;
}

uint64_t dtl_stats__tb_freq(const struct dtl_stats *s)
{
	return s->tb_freq;
}

int dtl_stats__vp_of(const struct dtl_stats *s, unsigned int cpu)
{
	if (cpu >= s->nr_cpus)
		return -1;
	return s->vp ? (int)s->vp[cpu] : (int)cpu;
}
