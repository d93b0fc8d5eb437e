// SPDX-License-Identifier: GPL-2.0-only
/*
 * recsyms.c - the kernel symbols a recording carries: at each tick, the
 * functions the srr0s new since the last fell in, as kallsyms lines, each
 * once a file. A replay then names exactly what the run named: for an
 * address, the nearest function at or below it among those written is the
 * one the run's whole table gave, as no other written one lies between.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/task.h"
#include "internal.h"

#define BATCH 4096

/* start + 1 into the set; false if it was there (or no room: it is written again) */
static bool add_seen(struct dtl_loop *l, uint64_t start)
{
	uint64_t key = start + 1, *s;
	size_t h;

	if (2 * (l->rec_sym_nseen + 1) > l->rec_sym_cap) {
		size_t cap = l->rec_sym_cap ? 2 * l->rec_sym_cap : 1024;

		s = calloc(cap, sizeof(*s));
		if (!s)
			return true;
		for (size_t i = 0; i < l->rec_sym_cap; i++)
			if (l->rec_sym_seen[i]) {
				for (h = (l->rec_sym_seen[i] >> 4) & (cap - 1); s[h]; h = (h + 1) & (cap - 1))
					;
				s[h] = l->rec_sym_seen[i];
			}
		free(l->rec_sym_seen);
		l->rec_sym_seen = s;
		l->rec_sym_cap = cap;
	}
	for (h = (key >> 4) & (l->rec_sym_cap - 1); l->rec_sym_seen[h]; h = (h + 1) & (l->rec_sym_cap - 1))
		if (l->rec_sym_seen[h] == key)
			return false;
	l->rec_sym_seen[h] = key;
	l->rec_sym_nseen++;
	return true;
}

static int append(struct dtl_loop *l, uint64_t start, const char *name)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "%016" PRIx64 " T %s\n", start, name);

	if (n <= 0 || (size_t)n >= sizeof(line))
		return -1;
	if (l->rec_sym_len + (size_t)n > l->rec_sym_allcap) {
		size_t cap = l->rec_sym_allcap ? 2 * l->rec_sym_allcap : 4096;
		char *m = realloc(l->rec_sym_all, cap);

		if (!m)
			return -1;
		l->rec_sym_all = m;
		l->rec_sym_allcap = cap;
	}
	memcpy(l->rec_sym_all + l->rec_sym_len, line, (size_t)n);
	l->rec_sym_len += (size_t)n;
	return 0;
}

int loop_recsyms_tick(struct dtl_loop *l)
{
	static uint64_t pc[BATCH];
	const struct dtl_ksyms *k = NULL;
	size_t from = l->rec_sym_len, n;
	const char *why;
	bool asked = false;

	if (!l->rec || !l->tasks)
		return 0;
	while ((n = dtl_tasks__take_pcs(l->tasks, pc, BATCH)) > 0) {
		if (!asked)
			k = dtl_syms__get(l->syms, &why), asked = true;
		for (size_t i = 0; k && i < n; i++) {
			uint64_t start;
			const char *name;

			/* an address no function holds is shown as itself, live and replayed */
			if (dtl_ksyms__find(k, pc[i], &start, &name) || !add_seen(l, start))
				continue;
			if (append(l, start, name))
				return -1;
		}
	}
	if (l->rec_sym_rewrite) {
		l->rec_sym_rewrite = false;
		from = 0;
	}
	if (l->rec_sym_len > from &&
	    dtl_rec_writer__symbols(l->rec, l->rec_sym_all + from, l->rec_sym_len - from))
		return -1;
	return 0;
}

void loop_recsyms_free(struct dtl_loop *l)
{
	free(l->rec_sym_seen);
	free(l->rec_sym_all);
}
