// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_frame.c - several simulated LPARs of one pool (frame=): the pool's
 * division by hand and over random frames, and the frame file's parser.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "source/sim.h"
#include "source/sim/hv.h"
#include "t.h"

/* A greedy LPAR of weight 255 beside two of 32, in a pool of 8. */
TEST(hv_frame_divides_the_pool_as_worked_by_hand)
{
	struct dtl_hv_lpar l[3] = { { .ent = 1.5, .want = 3.84, .vps = 4, .weight = 255 },
				    { .ent = 1.5, .want = 3.36, .vps = 4, .weight = 32 },
				    { .ent = 1.5, .want = 3.36, .vps = 4, .weight = 32 } };
	struct dtl_hv_share s;
	double use[3];

	/*
	 * Entitlements first: 4.5 used, 3.5 idle. Claims 2.34, 1.86, 1.86; the
	 * greedy one's fair share (3.5 x 255/319) covers its claim, the 1.16 left
	 * goes half and half to the others.
	 */
	dtl_hv__frame(l, 3, 1, 8, use, &s);
	CHECK_NEAR(use[0], 3.84, 1e-9);
	CHECK_NEAR(use[1], 1.5 + 0.58, 1e-9);
	CHECK_NEAR(use[2], 1.5 + 0.58, 1e-9);
	CHECK_NEAR(s.ceiling, 2.08, 1e-9);
	CHECK_NEAR(s.other_use, 3.84 + 2.08, 1e-9);
	CHECK_NEAR(s.budget, 2.08 / 4, 1e-9);
	CHECK_NEAR(s.busy, 1.0, 1e-9);
	CHECK_EQ(s.hold, DTL_HV_HOLD_POOL);
	dtl_hv__frame(l, 3, 0, 8, NULL, &s);
	CHECK_NEAR(s.ceiling, 3.84, 1e-9);
	/* capped: its entitlement, however idle the pool */
	l[1].capped = true;
	dtl_hv__frame(l, 3, 1, 8, use, &s);
	CHECK_NEAR(s.ceiling, 1.5, 1e-9);
	CHECK_EQ(s.hold, DTL_HV_HOLD_CAP);
	CHECK_NEAR(use[2], 1.5 + 1.16, 1e-9);	/* the third takes what the capped one cannot */
}

/* No one wants past the pool: what stays idle is room to burst, by weight, up to the VPs. */
TEST(hv_frame_leaves_idle_as_room_to_burst)
{
	struct dtl_hv_lpar l[2] = { { .ent = 1, .want = 0.6, .vps = 2, .weight = 128 },
				    { .ent = 1, .want = 0.8, .vps = 2, .weight = 128 } };
	struct dtl_hv_share s;
	double use[2];

	/* idle 2.6; rooms 1.4 and 1.2 at 1.3 each: the second is filled, its 0.1 goes to the first */
	dtl_hv__frame(l, 2, 0, 4, use, &s);
	CHECK_NEAR(use[0], 0.6, 1e-9);
	CHECK_NEAR(use[1], 0.8, 1e-9);
	CHECK_NEAR(s.ceiling, 2.0, 1e-9);
	CHECK_NEAR(s.busy, 1.4 / 4, 1e-9);
	dtl_hv__frame(l, 2, 1, 4, use, &s);
	CHECK_NEAR(s.ceiling, 2.0, 1e-9);
	/* a weight of 0 bursts into nothing, but keeps its entitlement */
	l[0].weight = 0;
	dtl_hv__frame(l, 2, 0, 4, use, &s);
	CHECK_NEAR(s.ceiling, 1.0, 1e-9);
	/* the entitlement is guaranteed against a greedy neighbour of any weight */
	l[0] = (struct dtl_hv_lpar){ .ent = 3, .want = 0.5, .vps = 4, .weight = 1 };
	l[1] = (struct dtl_hv_lpar){ .ent = 1, .want = 4, .vps = 4, .weight = 255 };
	dtl_hv__frame(l, 2, 0, 4, use, &s);
	CHECK_NEAR(s.ceiling, 3.0, 1e-9);
	CHECK_NEAR(use[1], 3.5, 1e-9);
}

/* Any frame: together at most the pool, each its entitlement as far as it wants, no one held while idle. */
TEST(hv_frame_rules_hold_for_random_frames)
{
	uint64_t x = 88172645463325252ull;
	unsigned int bad = 0;

	for (int round = 0; round < 2000; round++) {
		struct dtl_hv_lpar l[DTL_HV_FRAME_MAX];
		double use[DTL_HV_FRAME_MAX], pool, ents = 0, sum = 0;
		unsigned int n, self;
		struct dtl_hv_share s;

#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
		n = 1 + (unsigned int)(RND() % DTL_HV_FRAME_MAX);
		pool = 1 + (double)(RND() % 64);
		for (unsigned int i = 0; i < n; i++) {
			l[i].vps = 1 + (unsigned int)(RND() % 8);
			l[i].ent = l[i].vps * (0.05 + 0.95 * (double)(RND() % 1000) / 1000);
			if (ents + l[i].ent > pool)
				l[i].ent = pool - ents > 0.05 ? pool - ents : 0;
			ents += l[i].ent;
			l[i].want = l[i].vps * (double)(RND() % 1001) / 1000;
			l[i].weight = (unsigned int)(RND() % 256);
			l[i].capped = RND() % 4 == 0;
		}
		self = (unsigned int)(RND() % n);
		dtl_hv__frame(l, n, self, pool, use, &s);
		for (unsigned int i = 0; i < n; i++) {
			double fair = l[i].want < l[i].ent ? l[i].want : l[i].ent;
			bool up = !l[i].capped && l[i].weight;

			sum += use[i];
			bad += use[i] < fair - 1e-9 || use[i] > l[i].vps + 1e-9;
			bad += !up && use[i] > l[i].ent + 1e-9;
			bad += up && use[i] > l[i].want + 1e-9;
		}
		bad += sum > pool + 1e-6;
		/* idle left: every uncapped LPAR has what it wants */
		for (unsigned int i = 0; i < n && sum < pool - 1e-6; i++)
			bad += !l[i].capped && l[i].weight && use[i] < l[i].want - 1e-6;
		bad += s.ceiling < l[self].ent - 1e-9 || s.ceiling > l[self].vps + 1e-9;
		bad += !(s.budget >= 0 && s.budget <= 1) || !(s.busy >= 0 && s.busy <= 1);
		bad += fabs(s.other_use - (sum - use[self])) > 1e-6;
		if (bad) {
			T_FAIL("round %d: %u LPARs in a pool of %g break a rule", round, n, pool);
			break;
		}
	}
}

static const char frame[] =
	"# two pools of one frame\n"
	"serial=F1,name=a,lpar_id=1,pool_id=1,pool=8,vps=4,ent=2,load=0.9,weight=200\n"
	"  serial=F1,name=b,lpar_id=2,pool_id=1,pool=8,vps=4,ent=1,load=0.2,capped=1\r\n"
	"\n"
	"serial=F1,name=c,lpar_id=3,pool_id=2,pool=4,vps=2,ent=1\n"
	"serial=F1,name=d,lpar_id=4,pool_id=1,dedicated=1,vps=2\n"
	"serial=F1,name=e,lpar_id=5,pool_id=1,pool=8,vps=2,ent=1,load=0.1@00:00+0.9@12:00";

TEST(sim_frame_file_gives_the_line_and_the_pool_peers)
{
	struct dtl_sim_params *p = malloc(sizeof(*p));
	char err[256];

	/* no file x here: the reader's error */
	CHECK_EQ(dtl_sim__parse("frame=x,name=b,tasks=db:1", p, err, sizeof(err)), -1);
	CHECK_STR(err, "--sim frame=x: No such file or directory");
	CHECK_EQ(dtl_sim__frame("frame=x,name=b,tasks=db:1,clock=virtual", "x", frame,
				sizeof(frame) - 1, p, err, sizeof(err)), 0);
	CHECK_EQ(p->lpar_id, 2);
	CHECK_NEAR(p->ent, 1, 1e-9);
	CHECK(p->capped);
	CHECK(p->virtual_clock);
	CHECK_EQ(p->ntasks, 1);
	CHECK_STR(p->serial, "F1");
	/* a and e share pool 1; c is in pool 2, d has its own processors */
	CHECK_EQ(p->npeers, 2);
	CHECK_NEAR(p->peers[0].ent, 2, 1e-9);
	CHECK_EQ(p->peers[0].weight, 200);
	CHECK_EQ(p->peers[1].nloads, 2);
	CHECK_NEAR(p->other_ent, 3, 1e-9);
	/* what they want, said in the source's line: a VP wants its core while any thread runs */
	CHECK_NEAR(p->other, 4 * (1 - pow(0.1, 8)) + 2 * (1 - pow(0.9, 8)), 1e-9);
	free(p);
}

/* Each bad frame: a one-line error naming the file (and the line where there is one). */
TEST(sim_frame_file_refuses_bad_frames)
{
	static const struct {
		const char *cmd, *text, *want;
	} bad[] = {
		{ "frame=f", "name=a", "needs name=" },
		{ "frame=f,name=z", "name=a\nname=b,lpar_id=2", "f: no LPAR name=z in the frame (2 LPARs)" },
		{ "frame=f,name=a,ent=1", "name=a", "ent= belongs in a's line of f" },
		{ "frame=f,name=a,pool_id=3", "name=a", "pool_id= belongs" },
		{ "frame=f,name=a", "name=a,lpar_id=2\nname=b,lpar_id=2", "f:2: LPAR b (id 2) named twice" },
		{ "frame=f,name=a", "name=a\nname=a,lpar_id=2", "f:2: LPAR a (id 2) named twice" },
		{ "frame=f,name=a", "name=a,pool=4,ent=1\nname=b,lpar_id=2,pool=8,ent=1", "f:2: pool_id=0 has pool=8 here but pool=4" },
		{ "frame=f,name=a", "name=a,pool=4,vps=4,ent=3\nname=b,lpar_id=2,pool=4,ent=2,vps=4", "add up to 5" },
		{ "frame=f,name=a", "name=a,other=3", "f:1: other= and oent=" },
		{ "frame=f,name=a", "#\nname=a,frame=g", "f:2: frame= in a frame file" },
		{ "frame=f,name=a", "name=a\nlpar_id=2", "f:2: an LPAR without name=" },
		{ "frame=f,name=a", "name=a\nname=b,vps=0", "f:2: bad --sim value 'vps=0'" },
		{ "frame=f,name=a", "name=a,serial=X\nname=b,lpar_id=2,serial=Y", "f:2: serial=Y beside a's X" },
		{ "frame=f,name=a", "name=a\nname=b,lpar_id=2,garbage", "f:2: bad --sim parameter 'garbage'" },
		{ "frame=f,name=a", "", "no LPAR name=a in the frame (0 LPARs)" },
	};
	struct dtl_sim_params *p = malloc(sizeof(*p));
	char err[256], *big;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK_EQ(dtl_sim__frame(bad[i].cmd, "f", bad[i].text, strlen(bad[i].text), p, err,
					sizeof(err)), -1);
		if (!strstr(err, bad[i].want) || strchr(err, '\n'))
			T_FAIL("frame %zu: '%s', want '%s'", i, err, bad[i].want);
	}
	/* a NUL, a line too long, more LPARs than a frame file holds */
	CHECK_EQ(dtl_sim__frame("frame=f,name=a", "f", "name=a\0x", 8, p, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "not a text file");
	big = malloc(64 * 1024);
	memset(big, 'x', 8000);
	memcpy(big, "name=a\nname=", 12);
	CHECK_EQ(dtl_sim__frame("frame=f,name=a", "f", big, 8000, p, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "f:2: a line longer than 4095 bytes");
	big[0] = '\0';
	for (int i = 1; i <= 33; i++)
		snprintf(big + strlen(big), 64, "name=l%d,lpar_id=%d,pool=64,vps=1,ent=1\n", i, i);
	CHECK_EQ(dtl_sim__frame("frame=f,name=a", "f", big, strlen(big), p, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "f:33: more than 32 LPARs in one frame");
	free(big);
	free(p);
}
