// SPDX-License-Identifier: GPL-2.0-only
/*
 * taskfeed.c - side-band records to a chunk's switches, for the live sources.
 */
#include "taskfeed.h"

#include <getopt.h>
#include <stdlib.h>

#include "../dtl/sideband.h"
#include "../dtl/switch.h"
#include "../platform/procs.h"

#define SWITCHES 1024			/* side-band records per chunk */
#define CGROUP_LEN 128

struct dtl_taskfeed {
	struct dtl_procs *procs;
	uint64_t bad, lost, dropped;
	int32_t on[DTL_MAX_CPUS];	/* the pid last switched in + 1, 0 unknown */
	uint64_t forget_at[DTL_MAX_CPUS];	/* a forget's tb + 1, 0 none pending */
	struct dtl_sb sb[SWITCHES];
	struct dtl_switch sw[SWITCHES + 1];	/* + a forget's unknown */
	char comm[SWITCHES][16];
	char cgroup[SWITCHES][CGROUP_LEN];
};

struct dtl_taskfeed *dtl_taskfeed__new(const char *root)
{
	struct dtl_taskfeed *f = calloc(1, sizeof(*f));

	if (f && !(f->procs = dtl_procs__new(root))) {
		free(f);
		f = NULL;
	}
	return f;
}

void dtl_taskfeed__delete(struct dtl_taskfeed *f)
{
	if (!f)
		return;
	dtl_procs__delete(f->procs);
	free(f);
}

void dtl_taskfeed__forget(struct dtl_taskfeed *f, unsigned int cpu, uint64_t tb)
{
	if (cpu < DTL_MAX_CPUS)
		f->forget_at[cpu] = tb + 1;
}

static void unknown(struct dtl_taskfeed *f, unsigned int cpu, uint64_t tb, size_t *k)
{
	f->on[cpu] = 0;
	f->sw[*k] = (struct dtl_switch){ .tb = tb, .pid = DTL_SWITCH_UNKNOWN };
	(*k)++;
}

void dtl_taskfeed__feed(struct dtl_taskfeed *f, unsigned int cpu, const struct dtl_tbmap *map,
			const struct dtl_sb *sb, size_t n, struct dtl_chunk *c)
{
	size_t k = 0;
	uint64_t after = 0;

	c->switches = f->sw;
	c->nswitches = 0;
	if (cpu >= DTL_MAX_CPUS || !dtl_tbmap__ok(map))
		return;
	if (f->forget_at[cpu]) {
		after = f->forget_at[cpu] - 1;
		f->forget_at[cpu] = 0;
		unknown(f, cpu, after, &k);
	}
	if (n > SWITCHES)
		n = SWITCHES;
	for (size_t i = 0; i < n; i++) {
		const struct dtl_sb *e = &sb[i];
		struct dtl_switch *sw = &f->sw[k];
		uint64_t tb;

		/*
		 * A CPU-wide switch comes twice, OUT of one task naming the
		 * next, then IN of that task: the second changes nothing. Half
		 * the stream, so it is passed over before any arithmetic.
		 */
		if (e->kind == DTL_SB_SWITCH && f->on[cpu] == e->pid + 1)
			continue;
		tb = dtl_tbmap__tb(map, e->ns);
		if (e->kind == DTL_SB_COMM) {
			dtl_procs__comm(f->procs, e->pid, e->comm);
		} else if (e->kind == DTL_SB_EXIT) {
			dtl_procs__exit(f->procs, e->pid);
		} else if (e->kind == DTL_SB_LOST) {
			f->lost += e->lost;
			/* the switches lost were before this record: who runs since is unknown */
			if (k && f->sw[k - 1].tb > tb)
				tb = f->sw[k - 1].tb;
			if (tb >= after)
				unknown(f, cpu, tb, &k);
		} else if (tb < after) {
			f->dropped += e->kind == DTL_SB_SWITCH;
		} else if (e->kind == DTL_SB_SWITCH) {
			f->on[cpu] = e->pid + 1;
			sw->tb = tb;
			sw->pid = e->pid;
			sw->comm = sw->cgroup = NULL;
			if (dtl_procs__names(f->procs, e->pid, f->comm[i], f->cgroup[i], CGROUP_LEN)) {
				sw->comm = f->comm[i][0] ? f->comm[i] : NULL;
				sw->cgroup = f->cgroup[i][0] ? f->cgroup[i] : NULL;
			}
			k++;
		}
	}
	c->nswitches = k;
}

/*
 * Taken after the CPU's entries were drained: every switch before those
 * entries' instants is in the ring by now.
 */
bool dtl_taskfeed__take(struct dtl_taskfeed *f, struct dtl_perf_cpus *cpus, unsigned int cpu,
			const struct dtl_tbmap *map, struct dtl_chunk *c)
{
	size_t n = 0;
	bool more;

	c->switches = f->sw;
	c->nswitches = 0;
	if (cpu >= DTL_MAX_CPUS || !dtl_tbmap__ok(map))
		return false;
	more = dtl_perf_cpus__sideband(cpus, cpu, f->sb, SWITCHES, &n, &f->bad);
	dtl_taskfeed__feed(f, cpu, map, f->sb, n, c);
	return more;
}

uint64_t dtl_taskfeed__lost(const struct dtl_taskfeed *f)
{
	return f->lost;
}

uint64_t dtl_taskfeed__bad(const struct dtl_taskfeed *f)
{
	return f->bad;
}

uint64_t dtl_taskfeed__dropped(const struct dtl_taskfeed *f)
{
	return f->dropped;
}

static int opt_no_tasks(struct dtl_source_opts *o, const char *a, char *err, size_t errlen)
{
	(void)a, (void)err, (void)errlen;
	o->no_tasks = true;
	return 0;
}

const struct dtl_source_opt dtl_taskfeed__opts[] = {
	{ "no-tasks", 0, no_argument, NULL, "no task switch stream beside the DTL (perf, "
	  "debugfs): no who pays (--group=task|cgroup), one event fewer per CPU", opt_no_tasks },
	{ NULL, 0, 0, NULL, NULL, NULL },
};
