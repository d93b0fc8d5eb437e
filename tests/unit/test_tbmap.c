/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The switch stream's clock on the timebase where no AUX header maps it:
 * calibration on the narrowest bracket, the residual it states, checks that
 * hold or catch a map that moved, and input no map can come from.
 */
#include "t.h"

#include "dtl/scale.h"
#include "dtl/tbmap.h"
#include "platform/tbclock.h"

#define F 512000000ull	/* ticks a second: 512 a microsecond */

/* A sample of a clock at ns whose timebase is tb0 + ns * 0.512, bracketed by w ticks each side. */
static struct dtl_tb_sample at(uint64_t ns, uint64_t tb0, uint64_t lo, uint64_t hi)
{
	uint64_t tb = tb0 + ns * 512 / 1000;

	return (struct dtl_tb_sample){ tb - lo, ns, tb + hi };
}

TEST(tbmap_calibrates_on_the_narrowest_bracket_and_says_how_far_off)
{
	struct dtl_tbmap m = { 0 };
	struct dtl_tb_sample s[3] = {
		at(1000000, 7000000, 400, 400),	/* 800 ticks wide */
		at(2000000, 7000000, 10, 30),	/* 40 ticks: this one, its middle 10 late */
		at(3000000, 7000000, 100, 100),
	};

	CHECK(!dtl_tbmap__ok(&m));
	CHECK_EQ(dtl_tbmap__calibrate(&m, F, s, 3), 0);
	CHECK(dtl_tbmap__ok(&m));
	CHECK_EQ(m.ns0, 2000000);
	CHECK_EQ(m.tb0, 7000000 + 1024000 + 10);
	/* half of 40 ticks: 20 ticks, 39 ns */
	CHECK_EQ(m.residual_ns, 39);
	/* forward and back at the nominal frequency */
	CHECK_EQ(dtl_tbmap__tb(&m, 3000000), 7000000 + 1536000 + 10);
	CHECK_EQ(dtl_tbmap__tb(&m, 0), 7000000 + 10);
	/* before the timebase began: 0, not a wrap */
	CHECK_EQ(dtl_tbmap__tb(&m, 0) > 0, 1);
	m.tb0 = 100;
	CHECK_EQ(dtl_tbmap__tb(&m, 0), 0);
	/* an odd width rounds the residual up */
	s[0] = at(5000, 0, 0, 3);
	CHECK_EQ(dtl_tbmap__calibrate(&m, F, s, 1), 0);
	CHECK_EQ(m.residual_ns, 3);	/* 2 ticks: 3.9 ns, not 1 tick's 1.95 */
}

TEST(tbmap_refuses_what_no_map_comes_from)
{
	struct dtl_tbmap m;
	struct dtl_tb_sample back = { 2000, 5, 1000 };	/* the timebase went back */

	dtl_tbmap__fixed(&m, F, 77);
	CHECK_EQ(dtl_tbmap__calibrate(&m, F, &back, 1), -1);
	CHECK_EQ(m.tb0, 77);	/* unchanged */
	CHECK_EQ(dtl_tbmap__calibrate(&m, F, &back, 0), -1);
	CHECK_EQ(dtl_tbmap__calibrate(&m, 0, (struct dtl_tb_sample[]){ at(1, 0, 0, 0) }, 1), -1);
	CHECK_EQ(dtl_tbmap__check(&m, &back, 1, DTL_TBMAP_BOUND_NS), -1);
	CHECK_EQ(m.checks, 0);
	/* no map: nothing is placed */
	memset(&m, 0, sizeof(m));
	CHECK(!dtl_tbmap__ok(&m));
	CHECK_EQ(dtl_tbmap__tb(&m, 123456), 0);
	CHECK_EQ(dtl_tbmap__check(&m, (struct dtl_tb_sample[]){ at(1, 0, 0, 0) }, 1, 1), -1);
	/* the far ends clamp, they do not wrap */
	dtl_tbmap__fixed(&m, F, UINT64_MAX - 10);
	CHECK_EQ(dtl_tbmap__tb(&m, 1000000000), UINT64_MAX);
}

TEST(tbmap_fixed_is_the_pmus_sched_clock_map)
{
	struct dtl_tbmap m;

	dtl_tbmap__fixed(&m, F, 1000);
	CHECK_EQ(dtl_tbmap__tb(&m, 0), 1000);
	CHECK_EQ(dtl_tbmap__tb(&m, 1000000000), 1000 + F);
	CHECK_EQ(m.residual_ns, 0);
}

/*
 * The scaling without a 128-bit division is the 128-bit one, exactly, at
 * every kind of edge: whole seconds, a second less one, the largest value,
 * odd frequencies, and past 17 GHz where it takes the 128-bit path.
 */
TEST(scale_is_the_128_bit_division_exactly)
{
	static const uint64_t ns[] = { 0, 1, 999999999, 1000000000, 1000000001,
				       123456789012345678ull, (1ull << 59) - 1, 1ull << 59,
				       UINT64_MAX / 3, UINT64_MAX };
	static const uint64_t freq[] = { 1, 512000000, 999999999, 1000000000, 3000000007ull,
					 (1ull << 34) - 1, 1ull << 34, 1ull << 40 };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (size_t k = 0; k < sizeof(freq) / sizeof(freq[0]); k++) {
			uint64_t want = (uint64_t)((unsigned __int128)ns[i] * freq[k] / 1000000000u);

			if (dtl_scale__ns_tb(ns[i], freq[k]) != want)
				T_FAIL("%llu ns at %llu Hz", (unsigned long long)ns[i],
				       (unsigned long long)freq[k]);
		}
}

/* Far from its anchor, a map saturates as the 128-bit form did: never wraps. */
TEST(tbmap_far_from_its_anchor_saturates)
{
	struct dtl_tbmap m;

	dtl_tbmap__fixed(&m, 1ull << 33, 1000);
	CHECK_EQ(dtl_tbmap__tb(&m, (1ull << 59) - 1),
		 1000 + (uint64_t)((unsigned __int128)((1ull << 59) - 1) * (1ull << 33) / 1000000000u));
	CHECK_EQ(dtl_tbmap__tb(&m, UINT64_MAX), UINT64_MAX);
	/* 36 years at 17 GHz pass 64 bits: saturated, where the split would wrap */
	dtl_tbmap__fixed(&m, (1ull << 34) - 1, 0);
	CHECK_EQ(dtl_tbmap__tb(&m, (1ull << 60) - 1), UINT64_MAX);
	/* and 18 years at 34 GHz: the split is for timebases below 17 GHz only */
	dtl_tbmap__fixed(&m, (1ull << 35) - 1, 0);
	CHECK_EQ(dtl_tbmap__tb(&m, (1ull << 59) - 1), UINT64_MAX);
	dtl_tbmap__fixed(&m, 512000000, 1ull << 62);
	CHECK_EQ(dtl_tbmap__tb(&m, 1ull << 61),
		 (1ull << 62) + (uint64_t)((unsigned __int128)(1ull << 61) * 512000000 / 1000000000u));
}

TEST(tbmap_checks_hold_within_the_bound_and_catch_a_move)
{
	struct dtl_tbmap m;
	struct dtl_tb_sample s[2];

	s[0] = at(1000000, 5000, 50, 50);
	CHECK_EQ(dtl_tbmap__calibrate(&m, F, s, 1), 0);
	/* later, the same clock: held, off by nothing */
	s[0] = at(900000000, 5000, 200, 200);
	s[1] = at(900000125, 5000, 20, 20);
	CHECK_EQ(dtl_tbmap__check(&m, s, 2, DTL_TBMAP_BOUND_NS), 1);
	CHECK_EQ(m.off_ns, 0);
	CHECK_EQ(m.ns0, 900000125);	/* re-anchored on the narrower */
	CHECK_EQ(m.checks, 1);
	CHECK_EQ(m.drifts, 0);
	/* moved by 10 us: within the 20 us bound, said */
	s[0] = at(950000000, 5000 + 5120, 20, 20);
	CHECK_EQ(dtl_tbmap__check(&m, s, 1, DTL_TBMAP_BOUND_NS), 1);
	CHECK_EQ(m.off_ns, 10000);
	CHECK_EQ(m.drifts, 0);
	/* a migration moved the timebase by 1 ms: caught, counted, and the map follows */
	s[0] = at(960000000, 5000 + 5120 - 512000, 20, 20);
	CHECK_EQ(dtl_tbmap__check(&m, s, 1, DTL_TBMAP_BOUND_NS), 0);
	CHECK_EQ(m.off_ns, -1000000);
	CHECK_EQ(m.drifts, 1);
	CHECK_EQ(dtl_tbmap__tb(&m, 961000000), 5000 + 5120 - 512000 + 961000000ull * 512 / 1000);
	/*
	 * The bound is 20 us beyond both brackets (39 ns each): 20078 ns. Past
	 * it by a tick is a move (10281 ticks, 20080 ns); within it is not.
	 */
	s[0] = at(970000000, 5000 + 5120 - 512000 + 10281, 20, 20);
	CHECK_EQ(dtl_tbmap__check(&m, s, 1, DTL_TBMAP_BOUND_NS), 0);
	CHECK_EQ(m.off_ns, 20080);
	s[0] = at(980000000, 5000 + 5120 - 512000 + 10281 + 10279, 20, 20);
	CHECK_EQ(dtl_tbmap__check(&m, s, 1, DTL_TBMAP_BOUND_NS), 1);
	CHECK_EQ(m.off_ns, 20076);
	s[0] = at(990000000, 5000 + 5120 - 512000 + 10281 + 10279 - 10279, 20, 20);
	CHECK_EQ(dtl_tbmap__check(&m, s, 1, DTL_TBMAP_BOUND_NS), 1);
	CHECK_EQ(m.off_ns, -20076);
	CHECK_EQ(m.checks, 6);
	CHECK_EQ(m.drifts, 2);
}

/* The clock samples this machine gives: ordered, and the map they make is its own. */
TEST(tbclock_samples_make_a_map_that_holds_here)
{
	struct dtl_tb_sample s[8];
	struct dtl_tbmap m;

	CHECK(dtl_tbclock__sample(F, s, 8));
	for (int i = 1; i < 8; i++)
		CHECK(s[i].ns >= s[i - 1].ns && s[i].tb_before >= s[i - 1].tb_after);
	CHECK_EQ(dtl_tbmap__calibrate(&m, F, s, 8), 0);
	CHECK(dtl_tbclock__sample(F, s, 8));
	CHECK_EQ(dtl_tbmap__check(&m, s, 8, DTL_TBMAP_BOUND_NS), 1);
}
