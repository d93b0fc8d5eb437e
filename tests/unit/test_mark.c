/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mark chunks (format 2.3): what a raw recording's writer keeps between
 * marks, packed, and read back exactly, or refused whole when cut or
 * malformed.
 */
#include "t.h"

#include <stdlib.h>
#include <string.h>

#include "format/mark.h"
#include "format/marker.h"
#include "format/record.h"

struct got {
	unsigned int lasts, names, syms;
	int32_t last_pid[8];
	char name[64];
	char sym[64];
};

static int on_last(void *ctx, unsigned int cpu, uint64_t tb, int32_t pid)
{
	struct got *g = ctx;

	(void)tb;
	g->lasts++;
	g->last_pid[cpu & 7] = pid;
	return 0;
}

static int on_name(void *ctx, unsigned int cpu, const struct dtl_switch *sw)
{
	struct got *g = ctx;

	g->names++;
	snprintf(g->name, sizeof(g->name), "%u:%d:%s:%s", cpu, (int)sw->pid,
		 sw->comm ? sw->comm : "-", sw->cgroup ? sw->cgroup : "-");
	return 0;
}

static int on_sym(void *ctx, const uint8_t *text, size_t len)
{
	struct got *g = ctx;

	g->syms++;
	snprintf(g->sym, sizeof(g->sym), "%.*s", (int)len, (const char *)text);
	return 0;
}

static int read_mark(const uint8_t *buf, size_t len, struct dtl_rec_mark *h, struct got *g)
{
	static struct dtl_switch sw[16];
	static char text[DTL_REC_MARK_TEXT(16)];
	struct dtl_rec_mark_told t = { g, on_last, on_name, on_sym, sw, 16, text, sizeof(text) };

	memset(g, 0, sizeof(*g));
	return dtl_rec_mark__read(buf, len, 8, h, &t);
}

/* The writer's side counts what a replay counts: named switches of online CPUs, symbols records. */
TEST(mark_holds_what_a_replay_would_have_read_to_it)
{
	struct dtl_cpuset on = { 0 };
	struct dtl_rec_marker *k;
	struct dtl_switch sw[3] = { { 10, 5, "db", "/db.slice" }, { 20, 6, NULL, NULL },
				    { 30, 7, "", NULL } };
	struct dtl_rec_mark h;
	struct got g;
	uint8_t *buf = NULL;
	size_t cap = 0, len = 0;

	dtl_cpuset__set(&on, 0);
	dtl_cpuset__set(&on, 1);
	k = dtl_rec_marker__new(8, &on, 7);
	CHECK(k != NULL);
	if (!k)
		return;
	dtl_rec_marker__switches(k, 1, sw, 3);
	dtl_rec_marker__switches(k, 3, sw, 1);		/* offline: a replay passes it over */
	dtl_rec_marker__symbols(k, (const uint8_t *)"c0000000 T f\n", 13);
	dtl_rec_marker__mask(k, 8);			/* no DTL bit: a replay keeps its mask */
	dtl_rec_marker__mask(k, 2);
	dtl_rec_marker__cpu(k, 2, true);
	for (int i = 1; i < DTL_REC_MARK_EVERY; i++)
		CHECK(!dtl_rec_marker__tick(k, 1000u * (unsigned int)i, 77));
	CHECK(dtl_rec_marker__tick(k, 99000, 88));
	CHECK_EQ(dtl_rec_marker__build(k, false, &buf, &cap, &len), 0);
	CHECK_EQ(read_mark(buf, len, &h, &g), 0);
	CHECK_EQ(h.set_ticks, DTL_REC_MARK_EVERY);
	CHECK_EQ(h.file_ticks, DTL_REC_MARK_EVERY);
	CHECK_EQ(h.ts_ns, 99000);
	CHECK_EQ(h.tb, 88);
	CHECK_EQ(h.mask, 2);
	CHECK_EQ(h.set_names, 1);
	CHECK_EQ(h.set_syms, 1);
	CHECK(!h.final);
	CHECK(dtl_cpuset__has(&h.online, 2) && !dtl_cpuset__has(&h.online, 3));
	CHECK_EQ(g.lasts, 1);
	CHECK_EQ(g.last_pid[1], 7);
	CHECK_EQ(g.names, 1);
	CHECK_STR(g.name, "1:5:db:/db.slice");
	CHECK_EQ(g.syms, 1);
	CHECK_STR(g.sym, "c0000000 T f\n");
	/* the next mark tells only what came since; a set's next file counts on */
	dtl_rec_marker__file(k, &on, 1);
	CHECK_EQ(dtl_rec_marker__build(k, true, &buf, &cap, &len), 0);
	CHECK_EQ(read_mark(buf, len, &h, &g), 0);
	CHECK(h.final);
	CHECK_EQ(h.file_ticks, 0);
	CHECK_EQ(h.set_ticks, DTL_REC_MARK_EVERY);
	CHECK_EQ(h.mask, 1);
	CHECK_EQ(g.names + g.syms, 0);
	CHECK_EQ(g.lasts, 1);	/* who runs carries on */
	dtl_rec_marker__delete(k);
	free(buf);
}

/* Cut anywhere, or a byte changed: read whole, or refused, never past its end. */
TEST(mark_cut_or_malformed_is_refused)
{
	struct dtl_cpuset on = { 0 };
	struct dtl_rec_marker *k;
	struct dtl_switch sw = { 10, 5, "db", "/db.slice" };
	struct dtl_rec_mark h;
	struct got g;
	uint8_t *buf = NULL, *copy;
	size_t cap = 0, len = 0;
	int whole = 0;

	dtl_cpuset__set(&on, 0);
	k = dtl_rec_marker__new(8, &on, 7);
	CHECK(k != NULL);
	if (!k)
		return;
	dtl_rec_marker__switches(k, 0, &sw, 1);
	dtl_rec_marker__symbols(k, (const uint8_t *)"c0 T g\n", 7);
	dtl_rec_marker__tick(k, 1, 1);
	CHECK_EQ(dtl_rec_marker__build(k, false, &buf, &cap, &len), 0);
	copy = malloc(len);
	for (size_t cut = 0; copy && cut < len; cut++) {
		memcpy(copy, buf, cut);
		whole += read_mark(copy, cut, &h, &g) == 0;
	}
	/* only at a record's end, where what is read is whole */
	CHECK(whole <= 3);
	CHECK_EQ(read_mark(buf, 0, &h, &g), -1);
	/* not a mark first; a CPU past the file's; a file's ticks past the set's; a mask of none */
	for (int bad = 0; copy && bad < 4; bad++) {
		memcpy(copy, buf, len);
		if (bad == 0)
			copy[0] = DTL_REC_LAST;
		if (bad == 1)
			copy[8 + DTL_REC_MARK_HEAD] = 0xff;	/* CPUs 0-7 of 8: all right... */
		if (bad == 2)
			copy[8 + 8] = 9;			/* file_ticks 9 > set_ticks 1 */
		if (bad == 3)
			memset(copy + 8 + 32, 0, 4);
		if (bad == 1)
			CHECK_EQ(read_mark(copy, len, &h, &g), 0);
		else
			CHECK_EQ(read_mark(copy, len, &h, &g), -1);
	}
	CHECK(dtl_rec_mark__unpack(buf + 8, DTL_REC_MARK_HEAD + 2, 8, &h) == -1);	/* 16 CPUs of 8 */
	/* garbage: never a crash, never a name that is not one */
	srand(7);
	for (int i = 0; copy && i < 20000; i++) {
		memcpy(copy, buf, len);
		for (int j = 0; j < 3; j++)
			copy[(size_t)rand() % len] = (uint8_t)rand();
		if (read_mark(copy, len, &h, &g) == 0) {
			CHECK(h.file_ticks <= h.set_ticks && h.mask >= 1 && h.mask <= 7);
			CHECK(g.names == 0 || strchr(g.name, ':'));
		}
	}
	free(copy);
	free(buf);
	dtl_rec_marker__delete(k);
}

/* The CPUs online: a bit each, up to the last online one's byte (CPU 8 is a second byte's first). */
TEST(mark_keeps_every_online_cpu)
{
	struct dtl_rec_mark m = { .set_ticks = 2, .file_ticks = 1, .mask = 7 }, back;
	uint8_t buf[DTL_REC_MARK_HEAD + 8];

	dtl_cpuset__set(&m.online, 0);
	dtl_cpuset__set(&m.online, 8);
	CHECK_EQ(dtl_rec_mark__size(&m), DTL_REC_MARK_HEAD + 2);
	dtl_rec_mark__pack(buf, &m);
	CHECK_EQ(dtl_rec_mark__unpack(buf, dtl_rec_mark__size(&m), 9, &back), 0);
	CHECK(dtl_cpuset__has(&back.online, 0) && dtl_cpuset__has(&back.online, 8));
	CHECK_EQ(dtl_cpuset__count(&back.online), 2);
	CHECK_EQ(dtl_rec_mark__unpack(buf, dtl_rec_mark__size(&m), 8, &back), -1);	/* CPU 8 of 8 */
}
