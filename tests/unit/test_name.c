/* SPDX-License-Identifier: GPL-2.0-only */
/* Names as they may be shown: valid UTF-8, no control character, cut at a character's end. */
#include "t.h"

#include <string.h>

#include "dtl/name.h"
#include "format/switches.h"

static const char *cleaned(const char *in)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", in);
	CHECK_EQ(dtl_name__clean(buf), strlen(buf));
	CHECK(dtl_name__is_clean(buf));
	return buf;
}

TEST(name_clean_keeps_utf8_and_replaces_controls_and_bad_bytes)
{
	CHECK_STR(cleaned("/system.slice/db.service"), "/system.slice/db.service");
	CHECK_STR(cleaned("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* C0, DEL, and the C1 controls as UTF-8 (CSI is U+009B) */
	CHECK_STR(cleaned("a\x1b[31mb\x7f\tc\n"), "a?[31mb??c?");
	CHECK_STR(cleaned("x\xc2\x9b" "1m\xc2\x80\xc2\x9f\xc2\xa0"), "x??1m????\xc2\xa0");
	/* not UTF-8: stray continuations, a cut sequence, overlong, surrogates, past U+10FFFF */
	CHECK_STR(cleaned("\x80\xbf"), "??");
	CHECK_STR(cleaned("ab\xe2\x82"), "ab??");
	CHECK_STR(cleaned("\xc0\xaf\xe0\x80\xaf\xf0\x80\x80\xaf"), "?????????");
	CHECK_STR(cleaned("\xed\xa0\x80"), "???");
	CHECK_STR(cleaned("\xf4\x90\x80\x80\xf5\xff\xfe"), "???????");
	/* the last byte of a good sequence is not eaten by a bad lead before it */
	CHECK_STR(cleaned("\xe2\xc3\xa9"), "?\xc3\xa9");
	CHECK(!dtl_name__is_clean("a\x1b"));
	CHECK(!dtl_name__is_clean("\xff"));
	CHECK(!dtl_name__is_clean("\xc2\x85"));
	CHECK(dtl_name__is_clean(""));
}

TEST(name_fit_cuts_at_a_characters_end_and_pads_to_the_width)
{
	char out[32];

	CHECK_EQ(dtl_name__chars("k\xc3\xa4se\xe2\x82\xac"), 5);
	dtl_name__fit(out, sizeof(out), "k\xc3\xa4se\xe2\x82\xac", 7);
	CHECK_STR(out, "k\xc3\xa4se\xe2\x82\xac  ");
	dtl_name__fit(out, sizeof(out), "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", 2);
	CHECK_STR(out, "\xe2\x82\xac\xe2\x82\xac");
	/* a buffer too small for the next character stops before it, still a string */
	dtl_name__fit(out, 5, "\xe2\x82\xac\xe2\x82\xac", 2);
	CHECK_STR(out, "\xe2\x82\xac ");
	CHECK(dtl_name__is_clean(out));
}

/* A recording's switch names are cleaned as they are read, whatever the writer put there. */
TEST(name_recorded_switches_come_out_clean)
{
	struct dtl_switch in[2] = { { 5, 42, "ev\x1b[31mil", "/a\xc2\x9b/\xff" },
				    { 6, 43, "caf\xc3\xa9", "/\xe2\x82\xac" } };
	struct dtl_switch out[2];
	uint8_t buf[256];
	char text[256];
	int bad;

	CHECK(dtl_rec_switches__size(in, 2) <= sizeof(buf));
	dtl_rec_switches__pack(buf, in, 2);
	CHECK_EQ(dtl_rec_switches__unpack(buf, dtl_rec_switches__size(in, 2), out, 2, text,
					  sizeof(text), &bad), 2);
	CHECK_EQ(bad, 0);
	CHECK_STR(out[0].comm, "ev?[31mil");
	CHECK_STR(out[0].cgroup, "/a?" "?/?");
	CHECK_STR(out[1].comm, "caf\xc3\xa9");
	CHECK_STR(out[1].cgroup, "/\xe2\x82\xac");
}

/* A cgroup too long for its column keeps its head and, longer, its end: a scope's hash. */
TEST(name_elide_keeps_the_end_of_a_long_name)
{
	char out[128];

	dtl_name__elide(out, sizeof(out), "/system.slice/docker-0123456789abcdef.scope", 28);
	CHECK_EQ(dtl_name__chars(out), 28);
	CHECK_STR(out, "/system.s\xe2\x80\xa6" "456789abcdef.scope");
	/* short enough: as fit has it, padded */
	dtl_name__elide(out, sizeof(out), "/batch.slice", 14);
	CHECK_STR(out, "/batch.slice  ");
	/* characters, not bytes, on both sides of the cut */
	dtl_name__elide(out, sizeof(out), "/k\xc3\xa4se/\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
			"\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", 10);
	CHECK_EQ(dtl_name__chars(out), 10);
	CHECK(dtl_name__is_clean(out));
	CHECK_STR(out, "/k\xc3\xa4\xe2\x80\xa6\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
		  "\xe2\x82\xac\xe2\x82\xac");
}
