/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source.c - a source's calls, forwarded to its backend.
 */
#include "backend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../dtl/dtl.h"
#include "../dtl/name.h"
#include "../platform/sys.h"

struct dtl_source *dtl_source__open_with(const struct dtl_source_ops *ops,
					 const struct dtl_source_opts *o, char *err, size_t errlen)
{
	struct dtl_source *src = calloc(1, sizeof(*src));
	int rc;

	if (!src) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	src->ops = ops;
	src->mask = o->mask ? o->mask : DTL_MASK_ALL;
	src->tb_freq = DTL_DEFAULT_TB_FREQ;
	dtl_topo__alone(&src->topo);
	src->core_threads = 8;	/* POWER8 to POWER10 cores under PowerVM */
	rc = ops->open(src, o, err, errlen);
	if (rc) {
		free(src);
		errno = rc == -EBUSY ? EBUSY : 0;
		return NULL;
	}
	/* A live source's threads are the machine's; a replay says its own. */
	if (!src->topo.known && !ops->ended)
		dtl_topo__sysfs(&src->topo, o->root ? o->root : "/", &src->cpus);
	/* and its name the device tree's, where it has no lparcfg of its own (the simulator) */
	if (!src->partition_name[0] && !ops->ended && !src->lparcfg &&
	    dtl_sys__read(o->root ? o->root : "/", "proc/device-tree/ibm,partition-name",
			  src->partition_name, sizeof(src->partition_name)) > 0) {
		src->partition_name[strcspn(src->partition_name, "\n")] = '\0';
		dtl_name__clean(src->partition_name);
	} else if (!src->lparcfg && !ops->ended) {
		src->partition_name[0] = '\0';
	}
	return src;
}

void dtl_source__close(struct dtl_source *src)
{
	if (!src)
		return;
	src->ops->close(src);
	free(src);
}

int dtl_source__poll(struct dtl_source *src, int timeout_ms)
{
	return src->ops->poll(src, timeout_ms);
}

int dtl_source__drain_ms(const struct dtl_source *src)
{
	return src->ops->drain_ms;
}

int dtl_source__read(struct dtl_source *src, struct dtl_chunk *c)
{
	memset(c, 0, sizeof(*c));	/* a backend sets what it knows; the rest is none */
	return src->ops->read(src, c);
}

void dtl_source__tick(struct dtl_source *src, uint64_t interval_ns)
{
	src->ops->tick(src, interval_ns);
}

int dtl_source__set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	if (!(mask & DTL_MASK_ALL) || (mask & ~DTL_MASK_ALL)) {
		snprintf(err, errlen, "bad event mask 0x%x (want a non-zero subset of 0x7)", mask);
		return -1;
	}
	if (mask == src->mask)
		return 0;
	if (src->ops->set_mask(src, mask, err, errlen))
		return -1;
	src->mask = mask;
	return 0;
}

unsigned int dtl_source__mask(const struct dtl_source *src)
{
	return src->mask;
}

unsigned int dtl_source__hv_mask(const struct dtl_source *src)
{
	return src->hv_mask ? src->hv_mask : src->mask;
}

const char *dtl_source__name(const struct dtl_source *src)
{
	return src->ops->name;
}

const char *dtl_source__detail(const struct dtl_source *src)
{
	return src->detail;
}

uint64_t dtl_source__tb_freq(const struct dtl_source *src)
{
	return src->tb_freq;
}

unsigned int dtl_source__nr_cpus(const struct dtl_source *src)
{
	return src->nr_cpus;
}

const struct dtl_cpuset *dtl_source__cpus(const struct dtl_source *src)
{
	return &src->cpus;
}

bool dtl_source__clock(const struct dtl_source *src, uint64_t *ns)
{
	return src->ops->clock && src->ops->clock(src, ns);
}

bool dtl_source__hw_tb(const struct dtl_source *src, uint64_t *tb)
{
	(void)src;
#if defined(__powerpc64__)
	/* The partition's timebase register: the clock the hypervisor stamps entries with. */
	*tb = __builtin_ppc_get_timebase();
	return true;
#else
	*tb = 0;
	return false;	/* a fake root on another machine: its entries are not on our clock */
#endif
}

bool dtl_source__tb(const struct dtl_source *src, uint64_t *tb)
{
	return src->ops->tb && src->ops->tb(src, tb);
}

double dtl_source__interval(const struct dtl_source *src)
{
	return src->ops->interval ? src->ops->interval(src) : 0;
}

bool dtl_source__ended(const struct dtl_source *src, const char **warning)
{
	*warning = NULL;
	return src->ops->ended && src->ops->ended(src, warning);
}

bool dtl_source__end_clock(const struct dtl_source *src, uint64_t *ns)
{
	*ns = 0;
	return src->ops->end_clock && src->ops->end_clock(src, ns);
}

void dtl_source__skim(struct dtl_source *src, bool on)
{
	if (src->ops->skim)
		src->ops->skim(src, on);
}

int dtl_source__seek(struct dtl_source *src, uint64_t iv_max, uint64_t ns_max, uint64_t *iv_at,
		     char *err, size_t errlen)
{
	if (!src->ops->seek)
		return 1;
	return src->ops->seek(src, iv_max, ns_max, iv_at, err, errlen);
}

bool dtl_source__ready(struct dtl_source *src)
{
	return !src->ops->ready || src->ops->ready(src);
}

const char *dtl_source__incident(struct dtl_source *src, char *buf, size_t len)
{
	if (!src->incident[0])
		return NULL;
	snprintf(buf, len, "%s", src->incident);
	src->incident[0] = '\0';
	return buf;
}

int dtl_source__ask_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	if (!src->ops->ask_mask) {
		snprintf(err, errlen, "no service to ask");
		return -1;
	}
	return src->ops->ask_mask(src, mask, err, errlen);
}

uint64_t dtl_source__dropped(const struct dtl_source *src)
{
	return src->dropped;
}

bool dtl_source__restart(struct dtl_source *src, uint64_t *tb)
{
	*tb = src->restart_tb;
	src->restart_tb = 0;
	return *tb != 0;
}

bool dtl_source__summary(const struct dtl_source *src)
{
	return src->summary;
}

bool dtl_source__recorded(const struct dtl_source *src)
{
	return src->ops->ended != NULL;
}

int dtl_source__rewind(struct dtl_source *src, char *err, size_t errlen)
{
	if (!src->ops->rewind) {
		snprintf(err, errlen, "only a replay (-r) can go back");
		return -1;
	}
	return src->ops->rewind(src, err, errlen);
}

const struct dtl_topo *dtl_source__topo(const struct dtl_source *src)
{
	return &src->topo;
}

int dtl_source__vpa(const struct dtl_source *src, unsigned int cpu, struct dtl_vpa *v)
{
	return src->ops->vpa ? src->ops->vpa(src, cpu, v) : -1;
}

int dtl_source__reg_idx(const struct dtl_source *src, unsigned int cpu, uint64_t *idx)
{
	return src->ops->reg_idx ? src->ops->reg_idx(src, cpu, idx) : -1;
}

bool dtl_source__counts_lost(const struct dtl_source *src)
{
	return src->ops->counts_lost && !src->lost_unknown;
}

bool dtl_source__copies_later(const struct dtl_source *src)
{
	return src->ops->copies_later;
}

unsigned int dtl_source__core_threads(const struct dtl_source *src)
{
	return src->core_threads;
}

const char *dtl_source__partition_name(const struct dtl_source *src)
{
	return src->partition_name[0] ? src->partition_name : NULL;
}

const char *dtl_source__host(const struct dtl_source *src)
{
	return src->host[0] ? src->host : NULL;
}

const char *dtl_source__note(const struct dtl_source *src)
{
	return src->note[0] ? src->note : NULL;
}

const char *dtl_source__kallsyms(const struct dtl_source *src, const char **none)
{
	*none = src->kallsyms ? NULL : src->kallsyms_none;
	return src->kallsyms;
}

const char *dtl_source__lparcfg(const struct dtl_source *src)
{
	return src->lparcfg;
}

int dtl_source__online_cpus(const char *root, const struct dtl_cpuset *filter,
			    struct dtl_cpuset *set, char *err, size_t errlen)
{
	if (dtl_sys__online(root, set, err, errlen))
		return -1;
	if (filter)
		dtl_cpuset__and(set, filter);
	return 0;
}

void dtl_source__follow(struct dtl_source *src, const struct dtl_cpuset *want,
			int (*add)(struct dtl_source *src, unsigned int cpu),
			void (*remove)(struct dtl_source *src, unsigned int cpu))
{
	for (unsigned int cpu = 0; cpu < DTL_MAX_CPUS; cpu++) {
		bool w = dtl_cpuset__has(want, cpu), have = dtl_cpuset__has(&src->cpus, cpu);

		if (have && !w) {
			remove(src, cpu);
			dtl_cpuset__unset(&src->cpus, cpu);
		} else if (!have && w && add(src, cpu) == 0) {
			dtl_cpuset__set(&src->cpus, cpu);
		}
	}
}

double dtl_source__recorded_interval(const struct dtl_source *src)
{
	return src->recorded_interval_s;
}

bool dtl_source__probe(const char *root, const char *rel, const char *what, char *why,
		       size_t whylen)
{
	char path[4096];

	dtl_sys__path(path, sizeof(path), root, rel);
	snprintf(why, whylen, "%s (%s)", path, what);
	return dtl_sys__exists(root, rel);
}

void dtl_source__sleep(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}
