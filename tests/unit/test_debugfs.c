/* SPDX-License-Identifier: GPL-2.0-only */
/* The debugfs source against a fake root of regular files. */
#include "t.h"

#include <stdlib.h>

#include "dtl/dtl.h"
#include "source/source.h"
#include "fakeroot.h"

#define DIR "sys/kernel/debug/powerpc/dtl/"
#define OFF_MASK 0xb8	/* lppaca.dtl_enable_mask */

static void entries(const char *root, unsigned int cpu, unsigned int n, size_t extra)
{
	uint8_t *buf = calloc(n + 1, 48);
	char rel[128];

	for (unsigned int i = 0; i < n; i++) {
		struct dtl_rec r = { 0 };

		r.timebase = 1000 + i;
		r.dispatch_reason = 3;
		r.preempt_reason = i % 2 ? 4 : 2;
		r.processor_id = (uint16_t)(cpu * 10 + i % 3);
		r.enqueue_to_dispatch = 512;
		dtl_rec__encode(&r, buf + i * 48);
	}
	snprintf(rel, sizeof(rel), DIR "cpu-%u", cpu);
	fakeroot_write(root, rel, buf, n * 48 + extra);
	free(buf);
}

static const char *lpar(unsigned int cpus)
{
	const char *root = fakeroot_new();
	char online[32];

	snprintf(online, sizeof(online), "0-%u\n", cpus - 1);
	fakeroot_puts(root, "sys/devices/system/cpu/online", online);
	fakeroot_puts(root, "proc/cpuinfo", "processor\t: 0\ntimebase\t: 512000000\n");
	fakeroot_puts(root, DIR "dtl_event_mask", "0x7\n");
	for (unsigned int c = 0; c < cpus; c++)
		entries(root, c, 10 + c, 0);
	return root;
}

static struct dtl_source *open_dbg(const char *root, unsigned int mask, char *err, size_t len)
{
	struct dtl_source_opts o = { 0 };

	o.backend = "debugfs";
	o.root = root;
	o.mask = mask;
	return dtl_source__open(&o, err, len);
}

TEST(debugfs_reads_every_online_cpu_and_writes_the_mask)
{
	const char *root = lpar(4);
	char err[1024], mask[16];
	struct dtl_source *s = open_dbg(root, DTL_MASK_CEDE | DTL_MASK_FAULT, err, sizeof(err));
	struct dtl_chunk c;
	size_t per_cpu[4] = { 0 };

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR(dtl_source__name(s), "debugfs");
	CHECK_EQ(dtl_source__tb_freq(s), 512000000);
	fakeroot_read(root, DIR "dtl_event_mask", mask, sizeof(mask));
	CHECK_STR(mask, "0x5\n");
	while (dtl_source__read(s, &c) > 0) {
		CHECK(c.cpu < 4);
		if (c.cpu < 4)
			per_cpu[c.cpu] += c.n;
		CHECK_EQ(c.bad, 0);
	}
	for (unsigned int i = 0; i < 4; i++)
		CHECK_EQ(per_cpu[i], 10 + i);
	CHECK_EQ(dtl_source__read(s, &c), 0);	/* nothing new: 0, not an error */
	dtl_source__close(s);
	fakeroot_free(root);
}

TEST(debugfs_new_mask_is_written_and_files_reopened)
{
	const char *root = lpar(2);
	char err[1024], mask[16];
	struct dtl_source *s = open_dbg(root, DTL_MASK_ALL, err, sizeof(err));
	struct dtl_chunk c;
	size_t n = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	while (dtl_source__read(s, &c) > 0)
		n += c.n;
	CHECK_EQ(n, 21);
	CHECK_EQ(dtl_source__set_mask(s, DTL_MASK_PREEMPT, err, sizeof(err)), 0);
	CHECK_EQ(dtl_source__mask(s), DTL_MASK_PREEMPT);
	fakeroot_read(root, DIR "dtl_event_mask", mask, sizeof(mask));
	CHECK_STR(mask, "0x2\n");
	/* Reopened: regular files read from the start again. */
	n = 0;
	while (dtl_source__read(s, &c) > 0)
		n += c.n;
	CHECK_EQ(n, 21);
	CHECK_EQ(dtl_source__set_mask(s, 0, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "0x0");
	CHECK_EQ(dtl_source__mask(s), DTL_MASK_PREEMPT);
	dtl_source__close(s);
	fakeroot_free(root);
}

TEST(debugfs_partial_entry_is_counted_not_decoded)
{
	const char *root = lpar(1);
	char err[1024];
	struct dtl_source *s;
	struct dtl_chunk c;
	size_t n = 0, bad = 0;

	entries(root, 0, 3, 20);	/* 3 entries and 20 stray bytes */
	s = open_dbg(root, DTL_MASK_ALL, err, sizeof(err));
	CHECK(s != NULL);
	if (!s)
		return;
	while (dtl_source__read(s, &c) > 0) {
		n += c.n;
		bad += c.bad;
	}
	CHECK_EQ(n, 3);
	CHECK_EQ(bad, 1);
	dtl_source__close(s);
	fakeroot_free(root);
}

TEST(debugfs_missing_directory_names_the_path)
{
	const char *root = fakeroot_new();
	char err[1024];

	fakeroot_puts(root, "sys/devices/system/cpu/online", "0-1\n");
	CHECK(open_dbg(root, DTL_MASK_ALL, err, sizeof(err)) == NULL);
	CHECK_CONTAINS(err, root);
	CHECK_CONTAINS(err, "powerpc/dtl");
	fakeroot_free(root);
}

TEST(debugfs_missing_cpu_file_and_bad_online_are_errors)
{
	const char *root = lpar(2);
	char err[1024];

	fakeroot_puts(root, "sys/devices/system/cpu/online", "0-2\n");
	CHECK(open_dbg(root, DTL_MASK_ALL, err, sizeof(err)) == NULL);
	CHECK_CONTAINS(err, "cpu-2");
	fakeroot_puts(root, "sys/devices/system/cpu/online", "garbage\n");
	CHECK(open_dbg(root, DTL_MASK_ALL, err, sizeof(err)) == NULL);
	CHECK_CONTAINS(err, "online");
	fakeroot_free(root);
}

TEST(debugfs_follows_cpu_hotplug_at_each_interval)
{
	const char *root = lpar(4);
	char err[1024];
	struct dtl_source *s;

	fakeroot_puts(root, "sys/devices/system/cpu/possible", "0-7\n");
	fakeroot_puts(root, "sys/devices/system/cpu/online", "0-2\n");
	s = open_dbg(root, DTL_MASK_ALL, err, sizeof(err));
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(dtl_cpuset__count(dtl_source__cpus(s)), 3);
	CHECK_EQ(dtl_source__nr_cpus(s), 8);
	fakeroot_puts(root, "sys/devices/system/cpu/online", "0,2-3\n");
	dtl_source__tick(s, 1000000);
	CHECK(!dtl_cpuset__has(dtl_source__cpus(s), 1));
	CHECK(dtl_cpuset__has(dtl_source__cpus(s), 3));
	CHECK_EQ(dtl_cpuset__count(dtl_source__cpus(s)), 3);
	dtl_source__close(s);
	fakeroot_free(root);
}

TEST(auto_source_without_pmu_or_debugfs_suggests_sim)
{
	const char *root = fakeroot_new();
	struct dtl_source_opts o = { 0 };
	char err[2048];

	o.backend = "auto";
	o.root = root;
	CHECK(dtl_source__open(&o, err, sizeof(err)) == NULL);
	CHECK_CONTAINS(err, "--sim");
	CHECK_CONTAINS(err, "vpa_dtl");
	fakeroot_free(root);
}

TEST(auto_source_picks_debugfs_when_present)
{
	const char *root = lpar(2);
	struct dtl_source_opts o = { 0 };
	char err[2048];
	struct dtl_source *s;

	o.backend = "auto";
	o.root = root;
	o.mask = DTL_MASK_ALL;
	s = dtl_source__open(&o, err, sizeof(err));
	CHECK(s != NULL);
	if (s)
		CHECK_STR(dtl_source__name(s), "debugfs");
	dtl_source__close(s);
	fakeroot_free(root);
}

/* A mask change whose reopen fails puts the old mask back, in the file and the source. */
TEST(debugfs_failed_mask_change_restores_the_old_mask)
{
	const char *root = lpar(2);
	char err[1024], mask[16], path[4096], moved[4096];
	struct dtl_source *s = open_dbg(root, DTL_MASK_ALL, err, sizeof(err));

	CHECK(s != NULL);
	if (!s)
		return;
	snprintf(path, sizeof(path), "%s/" DIR "cpu-1", root);
	snprintf(moved, sizeof(moved), "%s/" DIR "gone", root);
	CHECK_EQ(rename(path, moved), 0);	/* cpu-1 cannot be reopened */
	CHECK_EQ(dtl_source__set_mask(s, DTL_MASK_CEDE, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "cpu-1");
	CHECK_EQ(dtl_source__mask(s), DTL_MASK_ALL);
	fakeroot_read(root, DIR "dtl_event_mask", mask, sizeof(mask));
	CHECK_STR(mask, "0x7\n");
	rename(moved, path);
	dtl_source__close(s);
	fakeroot_free(root);
}

TEST(debugfs_knows_where_each_cpu_started_counting_when_the_vpa_is_there)
{
	const char *root = lpar(3);
	uint8_t vpa[640] = { 0 };
	struct dtl_source *s;
	char err[1024];
	uint64_t idx = 99;

	vpa[0x218 + 6] = 0x01;	/* dtl_idx 300, big-endian, the same on either side of the open */
	vpa[0x218 + 7] = 0x2c;
	vpa[OFF_MASK] = 0x2;	/* the kernel's accounting logs preempts: the count runs on */
	fakeroot_write(root, "sys/kernel/debug/powerpc/vpa/cpu-0", vpa, sizeof(vpa));
	vpa[OFF_MASK] = 0;
	fakeroot_write(root, "sys/kernel/debug/powerpc/vpa/cpu-1", vpa, sizeof(vpa));
	s = open_dbg(root, 0x7, err, sizeof(err));
	CHECK(s != NULL);
	CHECK_EQ(dtl_source__reg_idx(s, 0, &idx), 0);
	CHECK_EQ(idx, 300);
	CHECK_EQ(dtl_source__reg_idx(s, 1, &idx), 0);
	CHECK_EQ(idx, 0);	/* nobody logged before: dtl.c counts from 0 */
	CHECK_EQ(dtl_source__reg_idx(s, 2, &idx), -1);	/* no VPA file: unknown */
	CHECK_EQ(dtl_source__reg_idx(s, 7, &idx), -1);
	dtl_source__close(s);
	fakeroot_free(root);
}
