/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU lists, cpuinfo and lparcfg parsing, good and garbage. */
#include "t.h"

#include "platform/cpuset.h"
#include "platform/sys.h"

TEST(cpulist_parses_ranges_and_singles)
{
	struct dtl_cpuset s;
	char err[256];

	CHECK_EQ(dtl_cpuset__parse(&s, "0-7,16", err, sizeof(err)), 0);
	CHECK_EQ(dtl_cpuset__count(&s), 9);
	CHECK(dtl_cpuset__has(&s, 7));
	CHECK(!dtl_cpuset__has(&s, 8));
	CHECK(dtl_cpuset__has(&s, 16));
	CHECK_EQ(dtl_cpuset__end(&s), 17);
	CHECK_EQ(dtl_cpuset__parse(&s, "0-1919\n", err, sizeof(err)), 0);
	CHECK_EQ(dtl_cpuset__count(&s), 1920);
}

TEST(cpulist_rejects_garbage_naming_it)
{
	static const char *const bad[] = { "", "x", "3-1", "1,", ",1", "1-", "1-2-3", "8192",
					   "99999999999999999999", "-1", "1 2", "0x4" };
	struct dtl_cpuset s;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (dtl_cpuset__parse(&s, bad[i], err, sizeof(err)) != -1)
			T_FAIL("cpulist '%s' accepted", bad[i]);
		CHECK(err[0] != '\0');
	}
	dtl_cpuset__parse(&s, "0-3,zz", err, sizeof(err));
	CHECK_CONTAINS(err, "'zz'");
}

TEST(timebase_comes_from_the_cpuinfo_line)
{
	CHECK_EQ(dtl_sys__parse_timebase("processor\t: 0\ntimebase\t: 512000000\nplatform\t: pSeries\n"),
		 512000000);
	CHECK_EQ(dtl_sys__parse_timebase("timebase : 250000000"), 250000000);
	CHECK_EQ(dtl_sys__parse_timebase("processor : 0\n"), 0);
	CHECK_EQ(dtl_sys__parse_timebase("timebase\t: lots\n"), 0);
	CHECK_EQ(dtl_sys__parse_timebase("timebase\t: 12x\n"), 0);
	CHECK_EQ(dtl_sys__parse_timebase(""), 0);
}

TEST(lparcfg_gives_entitlement_mode_and_dispatches)
{
	struct dtl_lparcfg c;

	dtl_sys__parse_lparcfg("lparcfg 1.9\npartition_entitled_capacity=400\n"
			       "shared_processor_mode=1\ncapped=0\npartition_active_processors=16\n"
			       "pool_capacity=800\ndispatches=123456\n", &c);
	CHECK(c.present && c.shared && !c.capped);
	CHECK_NEAR(c.entitlement, 4.0, 1e-12);
	CHECK_EQ(c.active_vps, 16);
	CHECK_NEAR(c.pool_capacity, 8.0, 1e-12);
	CHECK(c.have_dispatches);
	CHECK_EQ(c.dispatches, 123456);
}

TEST(lparcfg_garbage_leaves_fields_unset)
{
	struct dtl_lparcfg c;

	dtl_sys__parse_lparcfg("partition_entitled_capacity=abc\ndispatches=\ncapped\n\x01\x02", &c);
	CHECK(!c.have_ent);
	CHECK(!c.have_dispatches);
	CHECK(!c.capped);
	/* counts in range, and just past it: a million processors, 2^20 VPs */
	dtl_sys__parse_lparcfg("partition_active_processors=1048575\npool_capacity=100000000\n"
			       "partition_entitled_capacity=100000000\n", &c);
	CHECK(c.have_vps && c.active_vps == 1048575);
	CHECK(c.have_pool && c.have_ent);
	dtl_sys__parse_lparcfg("partition_active_processors=1048576\npool_capacity=100000001\n"
			       "partition_entitled_capacity=100000001\n", &c);
	CHECK(!c.have_vps && !c.have_pool && !c.have_ent);
	CHECK_EQ(c.active_vps, 0);
	/* a sign is no count: strtoull would read "-5" as 2^64 - 5 */
	dtl_sys__parse_lparcfg("purr=-5\ntbr=-1\npool_idle_time=+7\ndispatches= 9\n", &c);
	CHECK(!c.have_purr && !c.have_tbr && !c.have_pool_idle && !c.have_dispatches);
}

TEST(path_joins_root_without_doubling_slashes)
{
	char buf[64];

	CHECK_EQ(dtl_sys__path(buf, sizeof(buf), "/", "proc/cpuinfo"), 0);
	CHECK_STR(buf, "/proc/cpuinfo");
	CHECK_EQ(dtl_sys__path(buf, sizeof(buf), "/tmp/r//", "proc/cpuinfo"), 0);
	CHECK_STR(buf, "/tmp/r/proc/cpuinfo");
	CHECK_EQ(dtl_sys__path(buf, 8, "/tmp/r", "proc/cpuinfo"), -1);
}

/*
 * Who and where: lparcfg's first lines, as the kernel prints them from the
 * device tree. Absent, empty or out-of-range keys stay absent; a string is
 * cleaned of what a terminal or a label must not get, and kept otherwise.
 */
TEST(lparcfg_gives_partition_pool_and_frame)
{
	struct dtl_lparcfg c;

	dtl_sys__parse_lparcfg("lparcfg 1.9\nserial_number=IBM,0221E1234\nsystem_type=IBM,9080-HEX\n"
			       "partition_id=7\npool=2\npool_capacity=1600\n", &c);
	CHECK_STR(c.serial, "IBM,0221E1234");
	CHECK_STR(c.system_type, "IBM,9080-HEX");
	CHECK(c.have_partition_id);
	CHECK_EQ(c.partition_id, 7);
	CHECK(c.have_pool_id);
	CHECK_EQ(c.pool_id, 2);
	CHECK(c.have_pool);	/* pool_capacity is not the pool's number */
	/* what lparcfg prints with no device-tree property: none of them known */
	dtl_sys__parse_lparcfg("serial_number=\nsystem_type=\npartition_id=0\n", &c);
	CHECK_STR(c.serial, "");
	CHECK_STR(c.system_type, "");
	CHECK(!c.have_partition_id && !c.have_pool_id);
	/* a huge id, a signed one, and a serial with an escape and a quote */
	dtl_sys__parse_lparcfg("partition_id=99999999999\npool=-1\n"
			       "serial_number=IBM,\"02\x1b[31m\n", &c);
	CHECK(!c.have_partition_id && !c.have_pool_id);
	CHECK(!strchr(c.serial, '\x1b'));
	CHECK(strchr(c.serial, '"') != NULL);	/* kept: every output escapes it its way */
	/* the bounds themselves: 65535 is an id, 65536 is not */
	dtl_sys__parse_lparcfg("partition_id=65535\npool=65535\n", &c);
	CHECK(c.have_partition_id && c.have_pool_id);
	CHECK_EQ(c.pool_id, 65535);
	dtl_sys__parse_lparcfg("partition_id=65536\npool=65536\n", &c);
	CHECK(!c.have_partition_id && !c.have_pool_id);
}
