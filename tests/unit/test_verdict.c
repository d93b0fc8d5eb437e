/* SPDX-License-Identifier: GPL-2.0-only */
/* The answer in words: each rule, its thresholds, and the order between them. */
#include "t.h"

#include <string.h>

#include "view/verdict.h"

/* An lparcfg as the figures the verdict reads; wait: % of wanted time waited. */
static enum dtl_verdict_kind judge(const char *lparcfg, double physc, double app, double wait,
				   char *text)
{
	struct dtl_lparcfg cfg;
	struct dtl_lpar_figs f = { .known = DTL_LPARF_PHYSC, .physc = physc };
	/* enough dispatches to judge; a wait of 10 % or more has holds (a p99 past 2 ms) */
	struct dtl_row all = { .steal_pct = wait, .run_pct = 100 - wait, .dispatches = 1000,
			       .samples = 1000, .lat_p99_us = wait >= 10 ? 6000 : 300 };
	struct dtl_verdict v;

	dtl_sys__parse_lparcfg(lparcfg, &cfg);
	if (cfg.have_ent) {
		f.known |= DTL_LPARF_ENTC;
		f.entc_pct = physc / cfg.entitlement * 100;
	}
	if (app >= 0) {
		f.known |= DTL_LPARF_APP;
		f.app = app;
	}
	dtl_verdict__judge(&cfg, &f, &all, &v);
	if (text)
		strcpy(text, v.text);
	return v.kind;
}

#define SHARED "shared_processor_mode=1\npartition_entitled_capacity=400\n" \
	       "partition_active_processors=8\npool_capacity=3200\n"

TEST(verdict_capped_at_entitlement_names_it_and_the_pools_idle)
{
	char text[400];

	CHECK_EQ(judge(SHARED "capped=1\n", 4.0, 24.0, 44, text), DTL_VERDICT_CAPPED);
	CHECK_STR(text, "capped at its entitlement (4.00, entc 100%): waits 44% of wanted CPU time; "
		  "the pool has 24.00 of 32 idle. Raise the entitlement, or uncap it.");
	/* below 95 % of the entitlement, holds (a p99 past 2 ms) are its bursts at the cap */
	CHECK_EQ(judge(SHARED "capped=1\n", 3.0, 24.0, 44, NULL), DTL_VERDICT_CAPPED);
	{
		struct dtl_lparcfg cfg;
		struct dtl_lpar_figs f = { .known = DTL_LPARF_PHYSC | DTL_LPARF_ENTC | DTL_LPARF_APP,
					   .physc = 3.0, .entc_pct = 75, .app = 24 };
		struct dtl_row all = { .steal_pct = 30, .run_pct = 70, .dispatches = 1000,
				       .samples = 1000, .lat_p99_us = 900 };
		struct dtl_verdict v;

		/* waits that short are no cap's hold: dispatch latency */
		dtl_sys__parse_lparcfg(SHARED "capped=1\n", &cfg);
		dtl_verdict__judge(&cfg, &f, &all, &v);
		CHECK_EQ(v.kind, DTL_VERDICT_LATENCY);
		/* too few samples to tell: the entitlement's 95 % decides */
		all.samples = 5;
		dtl_verdict__judge(&cfg, &f, &all, &v);
		CHECK(v.kind != DTL_VERDICT_CAPPED);
		f.physc = 3.9, f.entc_pct = 97.5;
		dtl_verdict__judge(&cfg, &f, &all, &v);
		CHECK_EQ(v.kind, DTL_VERDICT_CAPPED);
		/* too few dispatches: unknown, and why */
		all.dispatches = 12;
		dtl_verdict__judge(&cfg, &f, &all, &v);
		CHECK_EQ(v.kind, DTL_VERDICT_UNKNOWN);
		CHECK_CONTAINS(v.text, "12 dispatches in this interval, too few");
	}
}

TEST(verdict_a_full_pool_is_starving_not_a_cap_though_entc_is_near_100)
{
	char text[400];

	/* the admin's case: entc 97.5 %, app 0.00, uncapped */
	CHECK_EQ(judge(SHARED "capped=0\n", 3.9, 0.0, 30, text), DTL_VERDICT_STARVED);
	CHECK_STR(text, "starved by the pool: at its entitlement (entc 98%), the pool has 0.00 of 32 "
		  "idle; waits 30%. Raise the entitlement or weight, or move load off the pool.");
	/* with holds, under 20 % of the pool idle is next to nothing: 6.3 of 32 is, 6.5 not */
	CHECK_EQ(judge(SHARED "capped=0\n", 3.9, 6.3, 30, NULL), DTL_VERDICT_STARVED);
	CHECK(judge(SHARED "capped=0\n", 3.9, 6.5, 30, NULL) != DTL_VERDICT_STARVED);
	/* never starved below 90 % of the entitlement: PowerVM guarantees it */
	CHECK(judge(SHARED "capped=0\n", 3.5, 0.0, 30, NULL) != DTL_VERDICT_STARVED);
	CHECK_EQ(judge(SHARED "capped=0\n", 3.7, 0.0, 30, NULL), DTL_VERDICT_STARVED);
	/* a full pool with no waiting starves nobody */
	CHECK_EQ(judge(SHARED "capped=0\n", 3.9, 0.0, 5, NULL), DTL_VERDICT_FREE);
}

TEST(verdict_borrowing_vps_and_nothing)
{
	char text[400];

	CHECK_EQ(judge(SHARED "capped=0\n", 6.3, 20.0, 5, text), DTL_VERDICT_BORROWING);
	CHECK_CONTAINS(text, "borrowing 2.30 above its entitlement (4.00)");
	/* above it, waiting, with the pool idle: dispatch latency, not the pool */
	CHECK_EQ(judge(SHARED "capped=0\n", 6.3, 20.0, 15, text), DTL_VERDICT_LATENCY);
	CHECK_EQ(judge(SHARED "capped=0\n", 7.7, 20.0, 5, text), DTL_VERDICT_VPS);
	CHECK_CONTAINS(text, "uses 7.70 of 8");
	CHECK_EQ(judge(SHARED "capped=0\n", 2.0, 20.0, 3, text), DTL_VERDICT_FREE);
	CHECK_CONTAINS(text, "not limited by the hypervisor");
	/* waiting, below the entitlement, neither capped nor a full pool */
	CHECK_EQ(judge(SHARED "capped=0\n", 2.0, 20.0, 30, NULL), DTL_VERDICT_LATENCY);
	/* uncapped and waiting where the pool cannot be read: says so, guesses nothing */
	CHECK_EQ(judge(SHARED "capped=0\n", 3.9, -1, 30, text), DTL_VERDICT_POOL_UNKNOWN);
	CHECK_CONTAINS(text, "the pool's idle unknown: pool or latency? Turn on the HMC's");
}

TEST(verdict_dedicated_donating_and_unknown)
{
	struct dtl_lparcfg cfg;
	struct dtl_row all = { .steal_pct = 1, .run_pct = 50, .dispatches = 100 };
	struct dtl_verdict v;

	CHECK_EQ(judge("shared_processor_mode=0\npartition_entitled_capacity=200\n", 1.0, -1, 1,
		       NULL), DTL_VERDICT_DEDICATED);
	CHECK_EQ(judge("DedDonMode=1\nshared_processor_mode=0\n", 1.0, -1, 1, NULL),
		 DTL_VERDICT_DONATING);
	/* no lparcfg, or the first interval: unknown, in words */
	dtl_verdict__judge(NULL, NULL, &all, &v);
	CHECK_EQ(v.kind, DTL_VERDICT_UNKNOWN);
	CHECK_CONTAINS(v.text, "no lparcfg");
	dtl_sys__parse_lparcfg(SHARED "capped=1\n", &cfg);
	dtl_verdict__judge(&cfg, NULL, &all, &v);
	CHECK_EQ(v.kind, DTL_VERDICT_UNKNOWN);
	CHECK_CONTAINS(v.text, "second lparcfg reading");
	CHECK_STR(dtl_verdict__name(DTL_VERDICT_STARVED), "starved");
	CHECK_STR(dtl_verdict__name(DTL_VERDICT__N), "unknown");
}

/*
 * The wait share is of the CPU time wanted (steal + run), not of the
 * interval: a lightly loaded partition that waits for a third of what it
 * wants is waiting, however idle it is otherwise.
 */
TEST(verdict_wait_share_is_of_the_time_wanted_not_of_the_interval)
{
	struct dtl_lparcfg cfg;
	struct dtl_lpar_figs f = { .known = DTL_LPARF_PHYSC | DTL_LPARF_ENTC | DTL_LPARF_APP,
				   .physc = 0.6, .entc_pct = 15, .app = 20 };
	struct dtl_row light = { .steal_pct = 6, .run_pct = 12, .idle_pct = 82, .dispatches = 900,
				 .samples = 900, .lat_p99_us = 400 };
	struct dtl_row busy = { .steal_pct = 6, .run_pct = 94, .dispatches = 900, .samples = 900,
				.lat_p99_us = 400 };
	struct dtl_verdict v;

	dtl_sys__parse_lparcfg(SHARED "capped=0\n", &cfg);
	dtl_verdict__judge(&cfg, &f, &light, &v);
	CHECK(v.kind != DTL_VERDICT_FREE);
	CHECK_CONTAINS(v.text, "waits (33% of wanted time) are dispatch latency");
	dtl_verdict__judge(&cfg, &f, &busy, &v);
	CHECK_EQ(v.kind, DTL_VERDICT_FREE);
	CHECK_CONTAINS(v.text, "waits 6% of wanted");
}

/* The pool clause follows what lparcfg gave: "of N" only where the pool's size is known. */
TEST(verdict_pool_clause_names_the_pool_only_where_its_size_is_known)
{
	char text[400];

	CHECK_EQ(judge(SHARED "capped=1\n", 4.0, 3.0, 44, text), DTL_VERDICT_CAPPED);
	CHECK_CONTAINS(text, "the pool has 3.00 of 32 idle");
	CHECK_EQ(judge("shared_processor_mode=1\npartition_entitled_capacity=400\n"
		       "partition_active_processors=8\npool_capacity=0\ncapped=1\n", 4.0, 3.0, 44, text),
		 DTL_VERDICT_CAPPED);
	CHECK_CONTAINS(text, "the pool has 3.00 idle");
	CHECK(strstr(text, " of 0 ") == NULL);
}

/*
 * A rule reasons only from figures lparcfg gave: an entitlement, a VP count
 * or a pool that is absent, 0, negative ("-50" is no count) or past any
 * machine gives no verdict from the rule that needs it, and is never quoted
 * as 0.00 or as 2^64 / 100.
 */
TEST(verdict_absent_zero_negative_or_huge_figures_give_no_verdict_from_their_rule)
{
	static const char *const no_ent[] = {
		"", "partition_entitled_capacity=0\n", "partition_entitled_capacity=-50\n",
		"partition_entitled_capacity= 50\n", "partition_entitled_capacity=18446744073709551615\n",
	};
	static const char *const no_vps[] = {
		"partition_active_processors=0\n", "partition_active_processors=-1\n",
		"partition_active_processors=4294967296\n",
	};
	char text[400], cfg[256];

	for (size_t i = 0; i < sizeof(no_ent) / sizeof(no_ent[0]); i++) {
		snprintf(cfg, sizeof(cfg), "shared_processor_mode=1\n%spartition_active_processors=8\n"
			 "pool_capacity=3200\ncapped=0\n", no_ent[i]);
		/* uncapped, using 0.5, not waiting: not "borrowing 0.50 above (0.00)" */
		CHECK_EQ(judge(cfg, 0.5, 20.0, 3, text), DTL_VERDICT_FREE);
		CHECK(strstr(text, "0.00") == NULL);
		/* waiting: latency, with the entc it cannot know said as unknown */
		CHECK_EQ(judge(cfg, 0.5, 20.0, 30, text), DTL_VERDICT_LATENCY);
		CHECK_CONTAINS(text, "(entc unknown)");
		/* capped and waiting: no cap rule without the entitlement it quotes */
		snprintf(cfg, sizeof(cfg), "shared_processor_mode=1\n%spartition_active_processors=8\n"
			 "pool_capacity=3200\ncapped=1\n", no_ent[i]);
		CHECK_EQ(judge(cfg, 4.0, 20.0, 44, text), DTL_VERDICT_UNKNOWN);
		CHECK_CONTAINS(text, "lparcfg gives no entitlement");
		/* the VPs' rule still has its figures; the entitlement it quotes is unknown */
		CHECK_EQ(judge(cfg, 7.8, 20.0, 5, text), DTL_VERDICT_VPS);
		CHECK_CONTAINS(text, "(entitlement unknown)");
	}
	for (size_t i = 0; i < sizeof(no_vps) / sizeof(no_vps[0]); i++) {
		snprintf(cfg, sizeof(cfg), "shared_processor_mode=1\npartition_entitled_capacity=40\n"
			 "%spool_capacity=3200\ncapped=0\n", no_vps[i]);
		CHECK(judge(cfg, 0.5, 20.0, 5, text) != DTL_VERDICT_VPS);
		CHECK(strstr(text, " of 0") == NULL);
	}
	/* a negative or huge pool is no pool: its idle is quoted without "of N" */
	CHECK_EQ(judge("shared_processor_mode=1\npartition_entitled_capacity=400\n"
		       "partition_active_processors=8\npool_capacity=-3200\ncapped=1\n", 4.0, 3.0, 44,
		       text), DTL_VERDICT_CAPPED);
	CHECK_CONTAINS(text, "the pool has 3.00 idle");
	CHECK_EQ(judge("shared_processor_mode=1\npartition_entitled_capacity=400\n"
		       "partition_active_processors=8\npool_capacity=100000001\ncapped=0\n", 3.9, 0.0,
		       30, text), DTL_VERDICT_LATENCY);
	CHECK_CONTAINS(text, "the pool has 0.00 idle (entc 98%)");
}

/* The action is the words' last sentence; "why unknown" and a text not ending in one have none. */
TEST(verdict_action_is_the_last_sentence)
{
	CHECK_STR(dtl_verdict__action("capped at its entitlement (1.00, entc 100%): waits 50%; the "
				      "pool has 3.00 idle. Raise the entitlement, or uncap it."),
		  "Raise the entitlement, or uncap it.");
	CHECK_STR(dtl_verdict__action("a; its VPs are all busy too (1.98 of 2). Add virtual "
				      "processors and raise the entitlement."),
		  "Add virtual processors and raise the entitlement.");
	CHECK(dtl_verdict__action("why unknown: no lparcfg. Run it on an LPAR.") == NULL);
	CHECK(dtl_verdict__action("waits 3.5 ms at p99") == NULL);
	CHECK(dtl_verdict__action("physc 1.05. of") == NULL);
}
