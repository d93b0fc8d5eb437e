/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf.c - the vpa_dtl PMU through libperf: one sampling event per CPU, its
 * main ring for PERF_RECORD_AUX/LOST, its AUX area for the DTL entries.
 *
 * libperf opens and closes the events and maps the main ring; it has no AUX
 * helper, so we set aux_offset/aux_size in the user page and map the event
 * fd ourselves. libperf exposes no fd either: a single-CPU event is the only
 * descriptor perf_evsel__open() creates, so it gets the lowest free number,
 * which we reserve just before and verify with PERF_EVENT_IOC_ID after.
 */
#include "perf.h"
#include "usock.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "../dtl/aux.h"
#include "../dtl/dtl.h"
#include "sys.h"
#include "tbclock.h"

#define DTL_PMU_REL "sys/bus/event_source/devices/vpa_dtl"

int dtl_pmu__discover(const char *root, struct dtl_pmu *pmu, char *err, size_t errlen)
{
	char path[4096], buf[64], *end;
	long type;

	memset(pmu, 0, sizeof(*pmu));
	dtl_sys__path(path, sizeof(path), root, DTL_PMU_REL);
	if (!dtl_sys__exists(root, DTL_PMU_REL)) {
		snprintf(err, errlen, "no vpa_dtl PMU at %s (it needs Linux 6.18+ on a "
			 "shared-processor LPAR; on older kernels use --source=debugfs, or --sim)",
			 path);
		return -1;
	}
	if (dtl_sys__read(root, DTL_PMU_REL "/type", buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "%s/type: %s", path, strerror(errno));
		return -1;
	}
	errno = 0;
	type = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || type < 0 || type > INT32_MAX) {
		snprintf(err, errlen, "%s/type: not a PMU type: '%.20s'", path,
			 strtok(buf, "\n") ? buf : "");
		return -1;
	}
	if (dtl_sys__read(root, DTL_PMU_REL "/events/dtl_all", buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "%s/events/dtl_all: %s (not the vpa_dtl PMU dtltop knows?)",
			 path, strerror(errno));
		return -1;
	}
	pmu->type = (int)type;
	return 0;
}

int dtl_pmu__takes_any_mask(const struct dtl_pmu *pmu, int cpu)
{
	struct perf_event_attr a = {
		.type = (uint32_t)pmu->type,
		.size = sizeof(a),
		.config = 0x3,		/* cede and preempt: no mask the 6.18 driver has */
		.sample_period = 1000000000,
		.disabled = 1,
	};
	int fd = (int)syscall(__NR_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL ? 0 : -1;
}

bool dtl_pmu__upstream_mask(unsigned int mask)
{
	return mask == 0x1 || mask == 0x2 || mask == 0x4 || mask == 0x7;
}

static void explain_as(int e, const char *what, const char *root, int cpu, char *buf,
		       size_t len)
{
	char vds[16] = "", who[48];
	const char *vstate = "not visible";

	if (cpu >= 0)
		snprintf(who, sizeof(who), "%s on CPU %d", what, cpu);
	else
		snprintf(who, sizeof(who), "%s", what);

	switch (e) {
	case EACCES:
	case EPERM:
		/* the core lets anyone have CPU-wide software events at paranoid <= 0; not the PMU */
		if (strcmp(what, "vpa_dtl"))
			snprintf(buf, len, "%s: permission denied: it needs CAP_PERFMON, root, "
				 "or perf_event_paranoid 0 or below", who);
		else
			snprintf(buf, len, "%s: permission denied: it needs CAP_PERFMON "
				 "(or root): run as root, or once 'setcap cap_perfmon+ep dtltop'; "
				 "/proc/sys/kernel/perf_event_paranoid does not lift this", who);
		break;
	case EBUSY:
		if (dtl_usock__service(root)) {
			snprintf(buf, len, "%s: busy: a dtltop service holds it: attach with dtltop "
				 "--attach", who);
			break;
		}
		if (dtl_sys__read(root, "proc/powerpc/vcpudispatch_stats", vds, sizeof(vds)) >= 0)
			vstate = strncmp(vds, "off", 3) ? "ENABLED" : "off";
		snprintf(buf, len, "%s: busy: another DTL user holds it; "
			 "candidates: /proc/powerpc/vcpudispatch_stats (%s; 'echo 0 >' it), a "
			 "reader of /sys/kernel/debug/powerpc/dtl/cpu-N (see 'fuser'), another "
			 "perf session on vpa_dtl (see 'pgrep -a perf')", who, vstate);
		break;
	case ENOMEM:
		snprintf(buf, len, "%s: out of memory for the ring buffers: "
			 "raise /proc/sys/kernel/perf_event_mlock_kb or 'ulimit -l'", who);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len, "%s: too many open files: raise 'ulimit -n' "
			 "(one descriptor per CPU)", who);
		break;
	case ENOENT:
	case ENODEV:
		snprintf(buf, len, "%s: no such PMU or CPU (%s)", who, strerror(e));
		break;
	default:
		snprintf(buf, len, "%s: %s", who, strerror(e));
		break;
	}
}

void dtl_perf__explain(int e, const char *root, int cpu, char *buf, size_t len)
{
	explain_as(e, "vpa_dtl", root, cpu, buf, len);
}

struct pcpu {
	struct perf_evsel *evsel;
	int fd;
	struct perf_event_mmap_page *pg;
	uint8_t *data;
	uint64_t data_size;
	uint8_t *aux;
	size_t aux_len;
	struct dtl_aux st;
	uint64_t lost_seen;
	uint8_t bounce[DTL_ENTRY_SIZE];	/* the record that straddles the AUX end */
	/* the CPU's switch stream: a dummy event's side-band records */
	struct perf_evsel *sb;
	int sb_fd;
	struct perf_event_mmap_page *sb_pg;
	uint8_t *sb_data;
	uint64_t sb_size;
};

struct dtl_perf_cpus {
	struct dtl_perf_opts o;
	char root[4096];
	long page;
	struct perf_thread_map *threads;
	struct pcpu *c;		/* by CPU number, evsel NULL when closed */
	unsigned int nr;	/* the CPUs asked for, or come online since: a close visits these */
	int epfd;		/* every open event: one wait, whatever the CPU count */
	char sb_why[256];	/* why there is no switch stream ("" while there is) */
	enum dtl_aux_layout layout;	/* the first any CPU's AUX told: one driver writes all */
	struct epoll_event ev[256];
};

static int lowest_free_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd;
}

static void close_cpu(struct dtl_perf_cpus *p, unsigned int cpu)
{
	struct pcpu *c = &p->c[cpu];

	if (c->sb) {
		epoll_ctl(p->epfd, EPOLL_CTL_DEL, c->sb_fd, NULL);
		perf_evsel__munmap(c->sb);
		perf_evsel__close(c->sb);
		perf_evsel__delete(c->sb);
		c->sb = NULL;
	}
	if (!c->evsel)
		return;
	epoll_ctl(p->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	if (c->aux)
		munmap(c->aux, c->aux_len);
	perf_evsel__munmap(c->evsel);
	perf_evsel__close(c->evsel);
	perf_evsel__delete(c->evsel);
	/* a descriptor counts only beside its evsel: zero is closed */
	memset(c, 0, sizeof(*c));
}

/*
 * The CPU's switch stream: a CPU-wide dummy event with context_switch, comm
 * and task (for exits), which needs no more privilege than the DTL's own.
 * Its ring is 64 KiB (a 20 k/s switch rate fills half in 20 ms: the wake-up).
 * Failing is not fatal: the DTL is what was asked for, and the views say
 * why there is no task data.
 */
static void open_sideband(struct dtl_perf_cpus *p, unsigned int cpu, struct perf_cpu_map *map)
{
	struct perf_event_attr attr;
	struct pcpu *c = &p->c[cpu];
	size_t pages = 65536 / (size_t)p->page ? 65536 / (size_t)p->page : 1;
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = cpu };
	int want, rc;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.context_switch = 1;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.task = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.watermark = 1;
	attr.wakeup_watermark = (uint32_t)(pages * (size_t)p->page / 2);
	if (p->o.raw_clock) {
		/* no AUX header maps sched_clock: a clock user space reads too (tbclock.h) */
		attr.use_clockid = 1;
		attr.clockid = DTL_TBCLOCK_ID;
	}
	c->sb = perf_evsel__new(&attr);
	if (!c->sb)
		goto fail;
	want = lowest_free_fd();
	rc = perf_evsel__open(c->sb, map, p->threads);
	if (rc) {
		explain_as(-rc > 0 ? -rc : errno, "the switch stream", p->root, (int)cpu, p->sb_why,
			   sizeof(p->sb_why));
		perf_evsel__delete(c->sb);
		c->sb = NULL;
		return;
	}
	c->sb_fd = want;
	if (perf_evsel__mmap(c->sb, (int)pages)) {
		explain_as(errno ? errno : ENOMEM, "the switch stream", p->root, (int)cpu, p->sb_why,
			   sizeof(p->sb_why));
		goto close;
	}
	c->sb_pg = perf_evsel__mmap_base(c->sb, 0, 0);
	c->sb_data = (uint8_t *)c->sb_pg + p->page;
	c->sb_size = pages * (uint64_t)p->page;
	if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, c->sb_fd, &ev)) {
		explain_as(errno, "the switch stream", p->root, (int)cpu, p->sb_why,
			   sizeof(p->sb_why));
		perf_evsel__munmap(c->sb);
		goto close;
	}
	return;
close:
	perf_evsel__close(c->sb);
	perf_evsel__delete(c->sb);
	c->sb = NULL;
	return;
fail:
	snprintf(p->sb_why, sizeof(p->sb_why), "out of memory");
}

/* Only the switch stream: the DTL comes another way (debugfs). */
static int open_stream_only(struct dtl_perf_cpus *p, unsigned int cpu, char *err, size_t errlen)
{
	struct perf_cpu_map *map;
	char list[16];

	snprintf(list, sizeof(list), "%u", cpu);
	map = perf_cpu_map__new(list);
	if (!map) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->sb_why[0] = 0;
	open_sideband(p, cpu, map);
	perf_cpu_map__put(map);
	if (p->c[cpu].sb)
		return 0;
	snprintf(err, errlen, "%s", p->sb_why[0] ? p->sb_why : "the switch stream: cannot open");
	return -1;
}

static int open_cpu(struct dtl_perf_cpus *p, unsigned int cpu, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	struct pcpu *c = &p->c[cpu];
	struct perf_cpu_map *map;
	char list[16];
	uint64_t id;
	int rc, want;

	if (p->o.stream_only)
		return open_stream_only(p, cpu, err, errlen);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = p->o.type;
	attr.config = p->o.config;
	attr.sample_period = p->o.period_ns;
	/*
	 * Enabled only once both rings are mapped, as perf record does: the
	 * core stops an AUX event when its ring buffer is attached and does
	 * not start it again, so one opened enabled would never capture.
	 */
	attr.disabled = 1;
	/*
	 * Wake the reader when a quarter of the AUX area is full, or the main
	 * ring half: between those it drains only at the interval's end.
	 */
	attr.aux_watermark = (uint32_t)(p->o.aux_bytes / 4);
	attr.watermark = 1;
	attr.wakeup_watermark = (uint32_t)p->page / 2;
	snprintf(list, sizeof(list), "%u", cpu);
	map = perf_cpu_map__new(list);
	c->evsel = perf_evsel__new(&attr);
	if (!map || !c->evsel) {
		perf_cpu_map__put(map);
		perf_evsel__delete(c->evsel);
		c->evsel = NULL;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	want = lowest_free_fd();
	rc = perf_evsel__open(c->evsel, map, p->threads);
	if (!rc && p->o.switches)
		open_sideband(p, cpu, map);
	perf_cpu_map__put(map);
	if (rc) {
		dtl_perf__explain(-rc > 0 ? -rc : errno, p->root, (int)cpu, err, errlen);
		perf_evsel__delete(c->evsel);
		c->evsel = NULL;
		return -1;
	}
	c->fd = want;
	if (want < 0 || ioctl(want, PERF_EVENT_IOC_ID, &id) != 0) {
		snprintf(err, errlen, "CPU %u: cannot find the event's descriptor", cpu);
		goto fail;
	}
	/* One data page is plenty: it only carries AUX and LOST records. */
	if (perf_evsel__mmap(c->evsel, 1)) {
		dtl_perf__explain(errno ? errno : ENOMEM, p->root, (int)cpu, err, errlen);
		goto fail;
	}
	c->pg = perf_evsel__mmap_base(c->evsel, 0, 0);
	c->data = (uint8_t *)c->pg + p->page;
	c->data_size = (uint64_t)p->page;
	if (p->o.aux) {
		c->aux_len = p->o.aux_bytes;
		c->pg->aux_offset = 2 * (uint64_t)p->page;
		c->pg->aux_size = c->aux_len;
		c->aux = mmap(NULL, c->aux_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
			      (off_t)c->pg->aux_offset);
		if (c->aux == MAP_FAILED) {
			c->aux = NULL;
			dtl_perf__explain(errno, p->root, (int)cpu, err, errlen);
			goto fail;
		}
		dtl_aux__init(&c->st, c->aux_len, DTL_AUX_UNKNOWN);
	}
	{
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = cpu };

		if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, c->fd, &ev)) {
			dtl_perf__explain(errno, p->root, (int)cpu, err, errlen);
			goto fail;
		}
	}
	if (ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0)) {
		dtl_perf__explain(errno, p->root, (int)cpu, err, errlen);
		goto fail;
	}
	return 0;
fail:
	close_cpu(p, cpu);
	return -1;
}

/*
 * A switch stream says who runs from its first record on; a CPU-bound task
 * may not switch for minutes. So dtltop runs once on each CPU: leaving it,
 * the kernel writes who runs there next. The caller's affinity is restored.
 */
static void visit(const struct dtl_cpuset *set)
{
	cpu_set_t *was = CPU_ALLOC(DTL_MAX_CPUS), *one = CPU_ALLOC(DTL_MAX_CPUS);
	size_t sz = CPU_ALLOC_SIZE(DTL_MAX_CPUS);
	unsigned int cpu;

	if (was && one && sched_getaffinity(0, sz, was) == 0) {
		dtl_cpuset__for_each(cpu, set) {
			CPU_ZERO_S(sz, one);
			CPU_SET_S(cpu, sz, one);
			sched_setaffinity(0, sz, one);
		}
		sched_setaffinity(0, sz, was);
	}
	CPU_FREE(was);
	CPU_FREE(one);
}

/* libperf prints to stderr by default; our errors say it better, once. */
static int quiet(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

struct dtl_perf_cpus *dtl_perf_cpus__open(const struct dtl_perf_opts *o,
					  const struct dtl_cpuset *set,
					  const char *root, char *err, size_t errlen)
{
	struct dtl_perf_cpus *p = calloc(1, sizeof(*p));
	static bool libperf_ready;
	unsigned int cpu;

	/* libperf learns the page size here; without it, every mmap fails. */
	if (!libperf_ready) {
		libperf_init(quiet);
		libperf_ready = true;
	}

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->o = *o;
	p->epfd = -1;
	snprintf(p->root, sizeof(p->root), "%s", root ? root : "/");
	p->page = sysconf(_SC_PAGESIZE);
	if (p->o.aux) {
		size_t pages = (p->o.aux_bytes + (size_t)p->page - 1) / (size_t)p->page, pow = 1;

		while (pow < pages)
			pow *= 2;
		p->o.aux_bytes = pow * (size_t)p->page;	/* the kernel wants 2^n pages */
	}
	/*
	 * Slots for the CPUs asked for, grown when one comes online: calloc of
	 * all 8192 was a memset of megabytes at every mask change.
	 */
	p->nr = dtl_cpuset__end(set) ? dtl_cpuset__end(set) : 1;
	p->c = calloc(p->nr, sizeof(*p->c));
	p->threads = perf_thread_map__new_dummy();
	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (p->epfd < 0) {
		snprintf(err, errlen, "epoll: %s", strerror(errno));
		goto fail;
	}
	if (!p->c || !p->threads) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	dtl_cpuset__for_each(cpu, set)
		if (open_cpu(p, cpu, err, errlen))
			goto fail;
	if (p->o.switches)
		visit(set);
	return p;
fail:
	dtl_perf_cpus__close(p);
	return NULL;
}

void dtl_perf_cpus__close(struct dtl_perf_cpus *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; p->c && i < p->nr; i++)
		close_cpu(p, i);
	perf_thread_map__put(p->threads);
	if (p->epfd >= 0)
		close(p->epfd);
	free(p->c);
	free(p);
}

int dtl_perf_cpus__add(struct dtl_perf_cpus *p, unsigned int cpu, char *err, size_t errlen)
{
	struct dtl_cpuset one;

	if (cpu >= DTL_MAX_CPUS)
		return 0;
	if (cpu >= p->nr) {
		struct pcpu *c = realloc(p->c, (cpu + 1) * sizeof(*c));

		if (!c) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memset(c + p->nr, 0, (cpu + 1 - p->nr) * sizeof(*c));
		p->c = c;
		p->nr = cpu + 1;
	}
	if (dtl_perf_cpus__has(p, cpu))
		return 0;
	if (open_cpu(p, cpu, err, errlen))
		return -1;
	if (p->c[cpu].sb) {
		dtl_cpuset__clear(&one);
		dtl_cpuset__set(&one, cpu);
		visit(&one);
	}
	return 0;
}

void dtl_perf_cpus__remove(struct dtl_perf_cpus *p, unsigned int cpu)
{
	if (cpu < p->nr)
		close_cpu(p, cpu);
}

bool dtl_perf_cpus__has(const struct dtl_perf_cpus *p, unsigned int cpu)
{
	return cpu < p->nr && (p->c[cpu].evsel || p->c[cpu].sb);
}

int dtl_perf_cpus__poll(struct dtl_perf_cpus *p, int timeout_ms, uint8_t *ready)
{
	int n = epoll_wait(p->epfd, p->ev, (int)(sizeof(p->ev) / sizeof(p->ev[0])), timeout_ms);

	for (int i = 0; i < n; i++)
		if (p->ev[i].data.u32 < p->nr)
			ready[p->ev[i].data.u32] = 1;
	return n;
}

int dtl_perf_cpus__drain(struct dtl_perf_cpus *p, unsigned int cpu, size_t max, bool count,
			 struct dtl_perf_news *news)
{
	struct dtl_ring_news rn = { 0 };
	struct perf_counts_values counts = { .val = 0 };
	struct pcpu *c;
	uint64_t head, junk;

	memset(news, 0, sizeof(*news));
	if (cpu >= p->nr || !p->c[cpu].evsel)
		return -1;
	c = &p->c[cpu];
	/* The kernel writes the data before it publishes the head. */
	head = __atomic_load_n(&c->pg->data_head, __ATOMIC_ACQUIRE);
	if (head != c->pg->data_tail)
		c->pg->data_tail = dtl_ring__parse(c->data, c->data_size, c->pg->data_tail, head,
						   &rn);
	news->records = rn.records;
	news->truncated = rn.truncated;
	news->partial = rn.partial;
	news->collision = rn.collision;
	if (c->aux) {
		junk = c->st.junk_bytes;
		head = __atomic_load_n(&c->pg->aux_head, __ATOMIC_ACQUIRE);
		if (c->st.layout == DTL_AUX_UNKNOWN)
			c->st.layout = p->layout;
		news->n = dtl_aux__next(&c->st, c->aux, head, max, c->bounce, &news->data);
		if (p->layout == DTL_AUX_UNKNOWN)
			p->layout = c->st.layout;
		news->junk = c->st.junk_bytes - junk;
		news->more = c->st.pos < head;
	}
	/*
	 * The driver's loss count: a read(2), so only when a flag or the caller
	 * asks, and then once the CPU is drained, not at every run of it.
	 */
	if (((count && !news->more) || rn.partial || rn.truncated || rn.collision) &&
	    perf_evsel__read(c->evsel, 0, 0, &counts) == 0 && counts.val > c->lost_seen) {
		news->lost = counts.val - c->lost_seen;
		c->lost_seen = counts.val;
	}
	/* A TRUNCATED record means the core disabled the event: space is free now. */
	if (rn.truncated) {
		perf_evsel__enable(c->evsel);
		news->reenabled = true;
	}
	return 0;
}

void dtl_perf_cpus__release(struct dtl_perf_cpus *p, unsigned int cpu)
{
	/* Done reading before the kernel may reuse the space. */
	if (cpu < p->nr && p->c[cpu].aux)
		__atomic_store_n(&p->c[cpu].pg->aux_tail, p->c[cpu].st.pos, __ATOMIC_RELEASE);
}

bool dtl_perf_cpus__sideband(struct dtl_perf_cpus *p, unsigned int cpu, struct dtl_sb *out,
			     size_t max, size_t *n, uint64_t *bad)
{
	struct pcpu *c;
	uint64_t head;

	*n = 0;
	if (cpu >= p->nr || !p->c[cpu].sb)
		return false;
	c = &p->c[cpu];
	head = __atomic_load_n(&c->sb_pg->data_head, __ATOMIC_ACQUIRE);
	if (head == c->sb_pg->data_tail)
		return false;
	/* parsed into out, so the space is the kernel's again at once */
	__atomic_store_n(&c->sb_pg->data_tail,
			 dtl_sb__ring(c->sb_data, c->sb_size, c->sb_pg->data_tail, head,
				      PERF_SAMPLE_TID | PERF_SAMPLE_TIME, out, max, n, bad),
			 __ATOMIC_RELEASE);
	return c->sb_pg->data_tail != head;
}

enum dtl_aux_layout dtl_perf_cpus__layout(const struct dtl_perf_cpus *p)
{
	return p->layout;
}

const char *dtl_perf_cpus__sideband_why(const struct dtl_perf_cpus *p)
{
	return p->sb_why[0] ? p->sb_why : NULL;
}

bool dtl_perf_cpus__clock(const struct dtl_perf_cpus *p, unsigned int cpu, uint64_t *boot_tb,
			  uint64_t *tb_freq)
{
	const struct dtl_aux *st;

	if (cpu >= p->nr || !p->c[cpu].aux)
		return false;
	st = &p->c[cpu].st;
	if (!st->header_seen || !st->tb_freq)
		return false;
	*boot_tb = st->boot_tb;
	*tb_freq = st->tb_freq;
	return true;
}
