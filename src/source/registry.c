/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * registry.c - the backends, and --source=auto's choice among them.
 */
#include "backend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

extern const struct dtl_source_ops dtl_perf_ops, dtl_debugfs_ops, dtl_sim_ops, dtl_replay_ops,
	dtl_vpa_ops;

/* A new backend is a line here; auto tries the probing ones in this order. */
static const struct dtl_source_ops *const backends[] = {
	&dtl_perf_ops,
	&dtl_debugfs_ops,
	&dtl_sim_ops,
	&dtl_replay_ops,
	&dtl_vpa_ops,
};

#define NR_BACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct dtl_source_ops *const *dtl_backends(size_t *n)
{
	*n = NR_BACKENDS;
	return backends;
}

const struct dtl_source_ops *dtl_backends__find(const char *name)
{
	for (size_t i = 0; i < NR_BACKENDS; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

/* The first backend whose probe says yes; else what each one looked for. */
static const struct dtl_source_ops *pick(const char *root, char *err, size_t errlen)
{
	char why[2][4200];
	size_t nwhy = 0;

	for (size_t i = 0; i < NR_BACKENDS; i++) {
		if (!backends[i]->probe)
			continue;
		if (backends[i]->probe(root, why[nwhy < 2 ? nwhy : 1], sizeof(why[0])))
			return backends[i];
		nwhy++;
	}
	if (nwhy == 2)
		snprintf(err, errlen, "no DTL source: neither %s nor %s exists; run with --sim to "
			 "use the simulator", why[0], why[1]);
	else
		snprintf(err, errlen, "no DTL source: %s does not exist; run with --sim to use the "
			 "simulator", nwhy ? why[0] : "nothing to probe");
	return NULL;
}

struct dtl_source *dtl_source__open(const struct dtl_source_opts *o, char *err, size_t errlen)
{
	const struct dtl_source_ops *ops;

	bool autopick = !o->backend || strcmp(o->backend, "auto") == 0;
	struct dtl_source *src;
	char busy[512];

	if (autopick)
		ops = pick(o->root ? o->root : "/", err, errlen);
	else if (!(ops = dtl_backends__find(o->backend)))
		snprintf(err, errlen, "no source backend '%s'", o->backend);
	if (!ops)
		return NULL;
	src = dtl_source__open_with(ops, o, err, errlen);
	if (src || !autopick || errno != EBUSY)
		return src;
	/* the DTL is another's (perf record, vcpudispatch_stats): its VPA counters are not */
	snprintf(busy, sizeof(busy), "%s", err);
	src = dtl_source__open_with(&dtl_vpa_ops, o, err, errlen);
	if (!src) {
		snprintf(err, errlen, "%s", busy);
		return NULL;
	}
	snprintf(src->note, sizeof(src->note), "VPA counters only: %.500s", busy);
	return src;
}
