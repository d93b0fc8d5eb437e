/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpa.c - --source=vpa: no DTL at all, only each thread's VPA counters
 * (<debugfs>/powerpc/vpa/cpu-N). For when vpa_dtl is held by another user
 * (perf record, vcpudispatch_stats) or absent: steal, ceded wait, dispatch
 * cycles and dispersions per CPU still come through; latency, reasons and
 * faults need the DTL and stay blank.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"
#include "../platform/sys.h"
#include "../platform/vpa.h"
#include "backend.h"

struct vsrc {
	char root[4096];
	struct dtl_vpa *last;
	bool *have, *pending;
	struct dtl_summary sum;
	unsigned int next;
};

static int vpa_open(struct dtl_source *src, const struct dtl_source_opts *o, char *err,
		    size_t errlen)
{
	struct vsrc *p = calloc(1, sizeof(*p));
	struct dtl_cpuset possible;
	const char *note;
	unsigned int cpu, seen = 0;
	char why[512] = "";

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(p->root, sizeof(p->root), "%s", o->root ? o->root : "/");
	if (dtl_source__online_cpus(p->root, o->have_cpus ? &o->cpus : NULL, &src->cpus, err, errlen))
		goto fail;
	src->nr_cpus = dtl_sys__possible(p->root, &possible) == 0 ? dtl_cpuset__end(&possible) : 0;
	if (dtl_cpuset__end(&src->cpus) > src->nr_cpus)
		src->nr_cpus = dtl_cpuset__end(&src->cpus);
	src->tb_freq = dtl_sys__timebase(p->root, &note);
	if (!src->tb_freq) {
		snprintf(err, errlen, "%s", note);
		goto fail;
	}
	p->last = calloc(src->nr_cpus ? src->nr_cpus : 1, sizeof(*p->last));
	p->have = calloc(src->nr_cpus ? src->nr_cpus : 1, sizeof(*p->have));
	p->pending = calloc(src->nr_cpus ? src->nr_cpus : 1, sizeof(*p->pending));
	if (!p->last || !p->have || !p->pending) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	dtl_cpuset__for_each(cpu, &src->cpus) {
		p->have[cpu] = dtl_vpa__read(p->root, cpu, &p->last[cpu], why, sizeof(why)) == 0;
		seen += p->have[cpu];
	}
	if (!seen) {
		snprintf(err, errlen, "no VPA to read: %s (debugfs on a shared-processor LPAR; "
			 "root only)", why[0] ? why : "no CPU online");
		goto fail;
	}
	snprintf(src->detail, sizeof(src->detail), "VPA counters of %u CPUs (no DTL: latency, "
		 "reasons and faults unknown)", seen);
	src->priv = p;
	return 0;
fail:
	if (p) {
		free(p->last);
		free(p->have);
		free(p->pending);
	}
	free(p);
	return -1;
}

static void vpa_close(struct dtl_source *src)
{
	struct vsrc *p = src->priv;

	free(p->last);
	free(p->have);
	free(p->pending);
	free(p);
}

static int vpa_poll(struct dtl_source *src, int ms)
{
	(void)src;
	dtl_source__sleep(ms);
	return 0;
}

static void vpa_tick(struct dtl_source *src, uint64_t ns)
{
	struct vsrc *p = src->priv;
	unsigned int cpu;

	(void)ns;
	dtl_cpuset__for_each(cpu, &src->cpus)
		if (cpu < src->nr_cpus)
			p->pending[cpu] = true;
	p->next = 0;
}

/* One CPU's counters since the last read, as a summary; a counter going back restarts it. */
static int vpa_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct vsrc *p = src->priv;
	char why[512];

	for (; p->next < src->nr_cpus; p->next++) {
		unsigned int cpu = p->next;
		struct dtl_vpa v, *l = &p->last[cpu];
		struct dtl_vpa_delta d;

		if (!p->pending[cpu])
			continue;
		p->pending[cpu] = false;
		if (dtl_vpa__read(p->root, cpu, &v, why, sizeof(why))) {
			p->have[cpu] = false;
			continue;
		}
		if (!p->have[cpu] || !dtl_vpa__delta(l, &v, &d)) {
			p->have[cpu] = true;
			*l = v;
			continue;
		}
		p->sum = (struct dtl_summary){ .dispatches = d.dispatches, .dispersions = d.dispersions,
					       .steal_ticks = d.steal_ticks, .idle_ticks = d.idle_ticks };
		*l = v;
		c->cpu = cpu;
		c->summary = &p->sum;
		p->next++;
		return 1;
	}
	return 0;
}

static int vpa_set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	(void)src, (void)mask;
	snprintf(err, errlen, "the VPA source reads no DTL, so it has no event mask");
	return -1;
}

const struct dtl_source_ops dtl_vpa_ops = {
	.name = "vpa",
	.help = "each thread's VPA counters, no DTL (root)",
	.counts_lost = true,	/* it reads counters, so it loses nothing */
	.open = vpa_open,
	.close = vpa_close,
	.poll = vpa_poll,
	.read = vpa_read,
	.tick = vpa_tick,
	.set_mask = vpa_set_mask,
	.tb = dtl_source__hw_tb,
};
