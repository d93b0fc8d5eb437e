/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The perf source: PMU discovery and its messages on fake roots, and the
 * libperf plumbing (open per CPU, mmap, poll, read the main ring, reopen,
 * a CPU going away) for real, on the cpu-clock software event.
 */
#include "t.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "platform/caps.h"
#include "platform/perf.h"
#include "fakeroot.h"

#define PMU "sys/bus/event_source/devices/vpa_dtl/"

static const char *pmu_root(const char *type)
{
	const char *root = fakeroot_new();

	fakeroot_puts(root, PMU "type", type);
	fakeroot_puts(root, PMU "events/dtl_all", "event=0x07\n");
	fakeroot_puts(root, PMU "format/event", "config:0-7\n");
	fakeroot_puts(root, "sys/devices/system/cpu/online", "0-1\n");
	return root;
}

TEST(perf_discovery_reads_the_type)
{
	const char *root = pmu_root("42\n");
	struct dtl_pmu pmu;
	char err[1024];

	CHECK_EQ(dtl_pmu__discover(root, &pmu, err, sizeof(err)), 0);
	CHECK_EQ(pmu.type, 42);
	fakeroot_free(root);
}

TEST(perf_discovery_errors_name_the_file)
{
	const char *root = fakeroot_new();
	struct dtl_pmu pmu;
	char err[1024];

	CHECK_EQ(dtl_pmu__discover(root, &pmu, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "vpa_dtl");
	CHECK_CONTAINS(err, "6.18");
	CHECK_CONTAINS(err, "--source=debugfs");
	fakeroot_free(root);

	root = pmu_root("x7\n");
	CHECK_EQ(dtl_pmu__discover(root, &pmu, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "vpa_dtl/type");
	CHECK_CONTAINS(err, "'x7'");
	fakeroot_puts(root, PMU "type", "-3\n");
	CHECK_EQ(dtl_pmu__discover(root, &pmu, err, sizeof(err)), -1);
	fakeroot_puts(root, PMU "type", "99999999999\n");
	CHECK_EQ(dtl_pmu__discover(root, &pmu, err, sizeof(err)), -1);
	fakeroot_puts(root, PMU "type", "8\n");
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s/" PMU "events/dtl_all", root);
		unlink(path);
	}
	CHECK_EQ(dtl_pmu__discover(root, &pmu, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "events/dtl_all");
	fakeroot_free(root);
}

TEST(perf_errors_explain_the_cause_and_the_way_out)
{
	const char *root = fakeroot_new();
	char msg[1024];

	dtl_perf__explain(EACCES, root, 3, msg, sizeof(msg));
	CHECK_CONTAINS(msg, "CPU 3");
	CHECK_CONTAINS(msg, "CAP_PERFMON");
	CHECK_CONTAINS(msg, "setcap cap_perfmon+ep");
	CHECK_CONTAINS(msg, "perf_event_paranoid");
	dtl_perf__explain(EBUSY, root, 0, msg, sizeof(msg));
	CHECK_CONTAINS(msg, "vcpudispatch_stats (not visible");
	CHECK_CONTAINS(msg, "debug/powerpc/dtl/cpu-N");
	CHECK_CONTAINS(msg, "perf session");
	fakeroot_puts(root, "proc/powerpc/vcpudispatch_stats", "cpu0 1 2 3 4 5 6 7 8\n");
	dtl_perf__explain(EBUSY, root, 0, msg, sizeof(msg));
	CHECK_CONTAINS(msg, "vcpudispatch_stats (ENABLED");
	fakeroot_puts(root, "proc/powerpc/vcpudispatch_stats", "off\n");
	dtl_perf__explain(EBUSY, root, 0, msg, sizeof(msg));
	CHECK_CONTAINS(msg, "vcpudispatch_stats (off");
	dtl_perf__explain(ENOMEM, root, 0, msg, sizeof(msg));
	CHECK_CONTAINS(msg, "perf_event_mlock_kb");
	dtl_perf__explain(EMFILE, root, 0, msg, sizeof(msg));
	CHECK_CONTAINS(msg, "ulimit -n");
	dtl_perf__explain(EACCES, root, -1, msg, sizeof(msg));
	CHECK(strncmp(msg, "vpa_dtl: permission denied", 26) == 0);
	CHECK(dtl_pmu__upstream_mask(7) && dtl_pmu__upstream_mask(4) && !dtl_pmu__upstream_mask(3));
	fakeroot_free(root);
}

static void spin_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static struct dtl_perf_cpus *open_clock(const struct dtl_cpuset *set, char *err, size_t len)
{
	struct dtl_perf_opts o = { 0 };

	o.type = PERF_TYPE_SOFTWARE;
	o.config = PERF_COUNT_SW_CPU_CLOCK;
	o.period_ns = 1000000;
	return dtl_perf_cpus__open(&o, set, "/", err, len);
}

static bool perf_refused(const char *err)
{
	if (strstr(err, "permission denied") || strstr(err, "No such") ||
	    strstr(err, "Function not implemented")) {
		printf("SKIP libperf plumbing: perf_event_open refused here: %s\n", err);
		return true;
	}
	return false;
}

TEST(perf_libperf_plumbing_on_a_real_software_event)
{
	struct dtl_cpuset set;
	struct dtl_perf_cpus *p;
	struct dtl_perf_news news;
	char err[1024];
	uint64_t records = 0;
	static uint8_t ready[DTL_MAX_CPUS];

	dtl_cpuset__parse(&set, "0", err, sizeof(err));
	p = open_clock(&set, err, sizeof(err));
	if (!p) {
		if (!perf_refused(err))
			T_FAIL("open cpu-clock: %s", err);
		return;
	}
	CHECK(dtl_perf_cpus__has(p, 0));
	CHECK(!dtl_perf_cpus__has(p, 1));
	for (int i = 0; i < 20 && records < 5; i++) {
		spin_ms(10);
		CHECK(dtl_perf_cpus__poll(p, 100, ready) >= 0);
		CHECK_EQ(dtl_perf_cpus__drain(p, 0, 16, false, &news), 0);
		records += news.records;
		CHECK_EQ(news.n, 0);		/* no AUX area mapped */
	}
	CHECK(records >= 5);			/* samples came through the main ring */
	/* Undrained, the ring passes its watermark: the one epoll set says which CPU. */
	memset(ready, 0, sizeof(ready));
	for (int i = 0; i < 30 && !ready[0]; i++)
		CHECK(dtl_perf_cpus__poll(p, 100, ready) >= 0);
	CHECK_EQ(ready[0], 1);
	CHECK_EQ(ready[1], 0);
	/* A CPU going away, and coming back. */
	dtl_perf_cpus__remove(p, 0);
	CHECK(!dtl_perf_cpus__has(p, 0));
	CHECK_EQ(dtl_perf_cpus__drain(p, 0, 16, false, &news), -1);
	CHECK_EQ(dtl_perf_cpus__add(p, 0, err, sizeof(err)), 0);
	CHECK(dtl_perf_cpus__has(p, 0));
	/* One past the CPUs it was opened on (its slots grow), where the machine has one. */
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		CHECK_EQ(dtl_perf_cpus__add(p, 1, err, sizeof(err)), 0);
		CHECK(dtl_perf_cpus__has(p, 1) && dtl_perf_cpus__has(p, 0));
		CHECK_EQ(dtl_perf_cpus__drain(p, 1, 16, false, &news), 0);
		CHECK(!dtl_perf_cpus__has(p, 7000));
	}
	dtl_perf_cpus__close(p);
	/* Reopen, as a mask change does, on every CPU this machine has. */
	dtl_cpuset__fill(&set, (unsigned int)sysconf(_SC_NPROCESSORS_ONLN));
	p = open_clock(&set, err, sizeof(err));
	CHECK(p != NULL);
	dtl_perf_cpus__close(p);
}

/*
 * A sparse CPU list (-C 1, or an offline CPU below an online one): the slots
 * reach the highest CPU, not the count of CPUs; under ASan a slot past the
 * array would fail here, and without it has() says which CPUs were opened.
 */
TEST(perf_sparse_cpu_list_sizes_slots_by_the_highest_cpu)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct dtl_perf_cpus *p;
	struct dtl_perf_news news;
	struct dtl_cpuset set;
	char err[1024], list[16];
	unsigned int hi = online > 1 ? (unsigned int)online - 1 : 0;

	if (hi == 0) {
		printf("SKIP sparse CPU list: one CPU online\n");
		return;
	}
	snprintf(list, sizeof(list), "%u", hi);
	dtl_cpuset__parse(&set, list, err, sizeof(err));
	p = open_clock(&set, err, sizeof(err));
	if (!p) {
		if (!perf_refused(err))
			T_FAIL("open cpu-clock on CPU %u: %s", hi, err);
		return;
	}
	CHECK(dtl_perf_cpus__has(p, hi));
	CHECK(!dtl_perf_cpus__has(p, 0));
	CHECK_EQ(dtl_perf_cpus__drain(p, hi, 16, false, &news), 0);
	CHECK_EQ(dtl_perf_cpus__drain(p, 0, 16, false, &news), -1);
	dtl_perf_cpus__remove(p, hi);
	CHECK(!dtl_perf_cpus__has(p, hi));
	CHECK_EQ(dtl_perf_cpus__add(p, 0, err, sizeof(err)), 0);
	CHECK(dtl_perf_cpus__has(p, 0));
	dtl_perf_cpus__close(p);
}

TEST(perf_aux_area_that_cannot_be_mapped_is_an_error_naming_the_cpu)
{
	struct dtl_perf_opts o = { 0 };
	struct dtl_cpuset set;
	struct dtl_perf_cpus *p;
	char err[1024];

	o.type = PERF_TYPE_SOFTWARE;
	o.config = PERF_COUNT_SW_CPU_CLOCK;
	o.period_ns = 1000000;
	o.aux = true;
	o.aux_bytes = 65536;
	dtl_cpuset__parse(&set, "0", err, sizeof(err));
	p = open_clock(&set, err, sizeof(err));
	if (!p && perf_refused(err))
		return;
	dtl_perf_cpus__close(p);
	p = dtl_perf_cpus__open(&o, &set, "/", err, sizeof(err));
	CHECK(p == NULL);			/* software events have no AUX area */
	CHECK_CONTAINS(err, "CPU 0");
	dtl_perf_cpus__close(p);
}

static long cap_field(const char *name)
{
	char buf[8192], *p;
	FILE *f = fopen("/proc/self/status", "r");
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);

	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, name);
	return p ? (long)strtoull(p + strlen(name) + 1, NULL, 16) : -1;
}

TEST(perf_capabilities_are_dropped_after_open_but_perfmon_stays_permitted)
{
	pid_t pid;
	int status;

	if (geteuid() != 0) {
		printf("SKIP capability drop: not root\n");
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct dtl_cpuset set;
		struct dtl_perf_cpus *p;
		char err[1024];
		int bad = 0;

		bad |= !dtl_caps__can_perfmon();
		dtl_cpuset__parse(&set, "0", err, sizeof(err));
		p = open_clock(&set, err, sizeof(err));
		bad |= dtl_caps__drop() != 0;
		bad |= cap_field("CapEff:") != 0;
		bad |= cap_field("CapInh:") != 0;
		bad |= cap_field("CapPrm:") != (1L << 38);	/* CAP_PERFMON only */
		bad |= dtl_caps__raise() != 0;
		bad |= cap_field("CapEff:") != (1L << 38);
		if (p)
			dtl_perf_cpus__remove(p, 0), bad |= dtl_perf_cpus__add(p, 0, err, sizeof(err));
		bad |= dtl_caps__lower() != 0;
		bad |= cap_field("CapEff:") != 0;
		dtl_perf_cpus__close(p);
		_exit(bad ? 1 : 0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
