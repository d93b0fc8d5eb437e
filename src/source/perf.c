/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_source.c - the vpa_dtl PMU as a dtltop source: discovery, privileges,
 * mask changes by reopening, CPU hotplug, and user-space filtering where the
 * kernel refuses a mask (the 6.18 driver takes only 0x1, 0x2, 0x4, 0x7).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../platform/caps.h"
#include "../dtl/dtl.h"
#include "../platform/ksyms.h"
#include "../platform/perf.h"
#include "taskfeed.h"
#include "backend.h"
#include "../platform/sys.h"

#define PERIOD_NS 20000000ull		/* drain the 85-entry ring at 50 Hz */
#define AUX_BYTES (128 * 1024)
#define OUT_ENTRIES 1024
#define ANY_MASK_UNASKED (-2)		/* beside takes_any_mask's 1, 0 and -1 */

struct psrc {
	char root[4096];
	struct dtl_pmu pmu;
	struct dtl_perf_opts po;
	struct dtl_perf_cpus *cpus;
	bool have_filter;
	struct dtl_cpuset filter;
	bool user_filter;		/* entries the kernel mask lets through but we don't */
	int any_mask;			/* dtl_pmu__takes_any_mask(), or ANY_MASK_UNASKED */
	bool caps;			/* we manage capabilities (not in tests) */
	unsigned int next_cpu;
	int held;			/* the CPU whose entries the last chunk lent, or -1 */
	bool all;			/* drain every CPU (the interval ends), not only the woken */
	uint8_t ready[DTL_MAX_CPUS];	/* woken by the kernel since the last drain */
	double reopen_ms;
	uint8_t out[OUT_ENTRIES * DTL_ENTRY_SIZE];	/* what a user-space mask keeps */
	/* who pays: the switch stream, its clock from any CPU's AUX header */
	struct dtl_taskfeed *feed;		/* NULL: --no-tasks */
	struct dtl_tbmap map;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * Which driver: no sysfs file says, so the AUX head tells the layout (aux.h)
 * and an open of mask 0x3 whether the features series is there.
 */
static const char *driver(const struct psrc *p)
{
	enum dtl_aux_layout l = p->cpus ? dtl_perf_cpus__layout(p->cpus) : DTL_AUX_UNKNOWN;

	if (p->any_mask == 1)
		return "the fixed driver with its features (any mask, losses counted)";
	if (l == DTL_AUX_RING)
		return "the fixed driver (ring AUX layout; its losses not counted)";
	if (l == DTL_AUX_UPSTREAM)
		return "the 6.18 driver's AUX layout (its losses neither counted nor all flagged)";
	return "driver not yet known (no AUX area has wrapped)";
}

static void describe(struct dtl_source *src)
{
	struct psrc *p = src->priv;

	snprintf(src->detail, sizeof(src->detail), "vpa_dtl type %d, %s", p->pmu.type,
		 driver(p));
	src->hv_mask = p->user_filter ? (unsigned int)p->po.config : 0;
	if (p->user_filter) {
		size_t len = strlen(src->detail);

		snprintf(src->detail + len, sizeof(src->detail) - len,
			 ", mask filtered in user space (kernel has 0x%x)", (unsigned int)p->po.config);
	}
	if (!p->feed || (p->cpus && dtl_perf_cpus__sideband_why(p->cpus))) {
		size_t len = strlen(src->detail);

		snprintf(src->detail + len, sizeof(src->detail) - len, ", no task switches (%s)",
			 p->feed ? dtl_perf_cpus__sideband_why(p->cpus) : "--no-tasks");
	} else {
		size_t len = strlen(src->detail);

		/* exact: the AUX header says where sched_clock began on the timebase */
		snprintf(src->detail + len, sizeof(src->detail) - len,
			 ", task switches on sched_clock, placed by the AUX header");
	}
	if (p->feed && (dtl_taskfeed__lost(p->feed) || dtl_taskfeed__bad(p->feed))) {
		size_t len = strlen(src->detail);

		snprintf(src->detail + len, sizeof(src->detail) - len,
			 ", %llu task switch records lost, %llu bad",
			 (unsigned long long)dtl_taskfeed__lost(p->feed),
			 (unsigned long long)dtl_taskfeed__bad(p->feed));
	}
	if (p->reopen_ms > 0) {
		size_t len = strlen(src->detail);

		snprintf(src->detail + len, sizeof(src->detail) - len, ", reopen %.1f ms",
			 p->reopen_ms);
	}
}

static int wanted(struct psrc *p, struct dtl_cpuset *set, char *err, size_t errlen)
{
	return dtl_source__online_cpus(p->root, p->have_filter ? &p->filter : NULL, set, err,
				       errlen);
}

/* Open every wanted CPU with the kernel mask for `mask`; privileges raised only for this. */
static int open_all(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	struct psrc *p = src->priv;
	struct dtl_cpuset set;
	int rc;

	if (wanted(p, &set, err, errlen))
		return -1;
	if (!dtl_cpuset__count(&set)) {
		snprintf(err, errlen, "no online CPU is selected (-C)");
		return -1;
	}
	if (p->caps && dtl_caps__raise())
		snprintf(err, errlen, "cannot raise CAP_PERFMON: %s", strerror(errno));
	if (p->any_mask == ANY_MASK_UNASKED)
		p->any_mask = dtl_pmu__takes_any_mask(&p->pmu, (int)dtl_cpuset__end(&set) - 1);
	p->user_filter = p->any_mask != 1 && !dtl_pmu__upstream_mask(mask);
	/* only the features series counts a lapped ring's losses: else the VPA witness does */
	src->lost_unknown = p->any_mask != 1;
	p->po.config = p->user_filter ? DTL_MASK_ALL : mask;
	p->cpus = dtl_perf_cpus__open(&p->po, &set, p->root, err, errlen);
	rc = p->cpus ? 0 : -1;
	if (p->caps && dtl_caps__drop() && !rc) {
		snprintf(err, errlen, "cannot drop capabilities: %s", strerror(errno));
		dtl_perf_cpus__close(p->cpus);
		p->cpus = NULL;
		rc = -1;
	}
	if (!rc)
		src->cpus = set;
	return rc;
}

static int perf_open(struct dtl_source *src, const struct dtl_source_opts *o,
		     char *err, size_t errlen)
{
	struct psrc *p = calloc(1, sizeof(*p));
	struct dtl_cpuset possible;
	const char *note;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	src->priv = p;
	p->held = -1;
	p->any_mask = ANY_MASK_UNASKED;
	p->all = true;
	snprintf(p->root, sizeof(p->root), "%s", o->root ? o->root : "/");
	p->have_filter = o->have_cpus;
	p->filter = o->cpus;
	if (dtl_pmu__discover(p->root, &p->pmu, err, errlen))
		goto fail;
	p->caps = true;
	if (!dtl_caps__can_perfmon()) {
		dtl_perf__explain(EACCES, p->root, -1, err, errlen);
		goto fail;
	}
	/* One descriptor per CPU: 1920 CPUs break the usual soft limit of 1024. */
	{
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	p->po.type = (uint32_t)p->pmu.type;
	p->po.period_ns = PERIOD_NS;
	p->po.aux = true;
	p->po.aux_bytes = AUX_BYTES;
	p->po.switches = !o->no_tasks;
	if (p->po.switches && !(p->feed = dtl_taskfeed__new(p->root))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (dtl_sys__possible(p->root, &possible) == 0)
		src->nr_cpus = dtl_cpuset__end(&possible);
	src->tb_freq = dtl_sys__timebase(p->root, &note);
	if (!src->tb_freq) {
		snprintf(err, errlen, "%s", note);
		goto fail;
	}
	/* where involuntary preempts hit, named after the privileges are gone */
	if (p->feed)
		dtl_ksyms__keep_open(p->root);
	if (open_all(src, src->mask, err, errlen))
		goto fail;
	if (dtl_cpuset__end(&src->cpus) > src->nr_cpus)
		src->nr_cpus = dtl_cpuset__end(&src->cpus);
	describe(src);
	return 0;
fail:
	dtl_taskfeed__delete(p->feed);
	free(p);
	src->priv = NULL;
	/* held by another DTL user: --source=auto may still read the VPA */
	return strstr(err, ": busy: ") ? -EBUSY : -1;
}

static void perf_close(struct dtl_source *src)
{
	struct psrc *p = src->priv;

	dtl_perf_cpus__close(p->cpus);
	dtl_taskfeed__delete(p->feed);
	free(p);
}

static int perf_poll(struct dtl_source *src, int timeout_ms)
{
	struct psrc *p = src->priv;

	return dtl_perf_cpus__poll(p->cpus, timeout_ms, p->ready) < 0 ? -1 : 1;
}

/* Keep the entries whose kind the user asked for; the kernel logged more. */
static size_t filter(const uint8_t *in, size_t n, unsigned int mask, uint8_t *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (mask & dtl_preempt__mask_bit(in[i * DTL_ENTRY_SIZE + 1])) {
			if (out + k * DTL_ENTRY_SIZE != in + i * DTL_ENTRY_SIZE)
				memmove(out + k * DTL_ENTRY_SIZE, in + i * DTL_ENTRY_SIZE,
					DTL_ENTRY_SIZE);
			k++;
		}
	return k;
}

/* The CPU's switches, on the timebase by the first AUX header that came. True when more. */
static bool switches(struct psrc *p, unsigned int cpu, struct dtl_chunk *c)
{
	uint64_t boot_tb, tb_freq;

	if (!p->feed)
		return false;
	if (!dtl_tbmap__ok(&p->map)) {
		if (!dtl_perf_cpus__clock(p->cpus, cpu, &boot_tb, &tb_freq))
			return false;
		dtl_tbmap__fixed(&p->map, tb_freq, boot_tb);
	}
	return dtl_taskfeed__take(p->feed, p->cpus, cpu, &p->map, c);
}

/*
 * Entries are lent in place from the AUX area: the loop folds them into the
 * stats before it asks again, and only then is the space given back.
 */
static int perf_read(struct dtl_source *src, struct dtl_chunk *c)
{
	struct psrc *p = src->priv;
	struct dtl_perf_news news;

	if (p->held >= 0)
		dtl_perf_cpus__release(p->cpus, (unsigned int)p->held);
	p->held = -1;
	for (; p->next_cpu < DTL_MAX_CPUS; p->next_cpu++) {
		unsigned int cpu = p->next_cpu;

		if ((!p->all && !p->ready[cpu]) || !dtl_perf_cpus__has(p->cpus, cpu) ||
		    dtl_perf_cpus__drain(p->cpus, cpu, p->user_filter ? OUT_ENTRIES : SIZE_MAX,
					 p->all, &news))
			continue;
		memset(c, 0, sizeof(*c));
		news.more |= switches(p, cpu, c);
		if (!news.more)
			p->ready[cpu] = 0;
		if (!news.n && !news.lost && !news.junk && !news.truncated && !news.partial &&
		    !news.collision && !c->nswitches)
			continue;
		p->held = (int)cpu;
		c->cpu = cpu;
		c->data = news.data;
		c->n = news.n;
		if (p->user_filter) {
			c->n = filter(news.data, news.n, src->mask, p->out);
			c->data = p->out;
			c->filtered = news.n - c->n;
		}
		c->lost = news.lost;
		c->bad = news.junk ? 1 : 0;
		/*
		 * Our driver counts what it drops; a flagged AUX record with no
		 * count (upstream 6.18 counts nothing) is a gap of unknown size.
		 */
		c->gaps = news.lost ? 0 : news.truncated + news.partial + news.collision;
		if (!news.more)
			p->next_cpu++;		/* otherwise more waits here */
		return 1;
	}
	p->next_cpu = 0;
	p->all = false;
	return 0;
}

static int perf_add(struct dtl_source *src, unsigned int cpu)
{
	struct psrc *p = src->priv;
	char err[512];
	int rc;

	if (p->caps)
		dtl_caps__raise();
	rc = dtl_perf_cpus__add(p->cpus, cpu, err, sizeof(err));
	if (p->caps)
		dtl_caps__lower();
	if (!rc && cpu >= src->nr_cpus)
		src->nr_cpus = cpu + 1;
	return rc;
}

static void perf_remove(struct dtl_source *src, unsigned int cpu)
{
	struct psrc *p = src->priv;

	dtl_perf_cpus__remove(p->cpus, cpu);
}

/* A DLPAR remove is not an error; an added CPU is opened within an interval. */
static void perf_tick(struct dtl_source *src, uint64_t interval_ns)
{
	struct dtl_cpuset now;
	char err[512];

	(void)interval_ns;
	((struct psrc *)src->priv)->all = true;		/* the interval's figures need all */
	describe(src);					/* the driver, once its AUX told */
	if (wanted(src->priv, &now, err, sizeof(err)) == 0)
		dtl_source__follow(src, &now, perf_add, perf_remove);
}

static int perf_set_mask(struct dtl_source *src, unsigned int mask, char *err, size_t errlen)
{
	struct psrc *p = src->priv;
	double t0 = now_ms();
	char ignored[512];

	/*
	 * The kernel already logs every kind asked for: keep its events and
	 * filter in user space. Only a kind it does not log needs a reopen,
	 * and that one opens all three, so no later toggle reopens at all.
	 */
	if (p->cpus && (p->po.config & mask) == mask) {
		p->user_filter = mask != p->po.config;
		p->reopen_ms = 0;
		src->mask = mask;
		describe(src);
		return 0;
	}
	dtl_perf_cpus__close(p->cpus);
	p->cpus = NULL;
	p->held = -1;
	p->all = true;
	if (open_all(src, DTL_MASK_ALL, err, errlen)) {
		/* Capture something rather than nothing: the old mask again. */
		open_all(src, src->mask, ignored, sizeof(ignored));
		describe(src);
		return -1;
	}
	p->user_filter = p->po.config != mask;
	p->reopen_ms = now_ms() - t0;
	src->mask = mask;
	describe(src);
	return 0;
}

static bool perf_probe(const char *root, char *why, size_t whylen)
{
	return dtl_source__probe(root, DTL_PMU_DIR, "Linux 6.18+ on a shared-processor LPAR", why,
				 whylen);
}

const struct dtl_source_ops dtl_perf_ops = {
	.name = "perf",
	.help = "the vpa_dtl PMU (Linux 6.18+)",
	.probe = perf_probe,
	.opts = dtl_taskfeed__opts,
	.counts_lost = true,	/* with the features series; else lost_unknown (driver()) */
	.copies_later = true,	/* the driver copies every poll period (PERIOD_NS) */
	.open = perf_open,
	.close = perf_close,
	.poll = perf_poll,
	.read = perf_read,
	.tick = perf_tick,
	.set_mask = perf_set_mask,
	.tb = dtl_source__hw_tb,
};
