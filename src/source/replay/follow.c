/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * follow.c - --follow: a recording read as it is written, as tail -f
 * reads, each interval once it is whole on disk.
 */
#include "internal.h"

/* The header and meta chunk; followed from its first moment, a file may not hold them yet. */
struct dtl_rec_reader *replay__open_reader(struct replay *p, const struct dtl_source_opts *o,
					   char *err, size_t errlen)
{
	const char *name = p->set ? p->name : o->replay;
	struct dtl_rec_reader *r = dtl_rec_reader__open(p->f, name, &p->meta, err, errlen);

	for (int i = 0; !r && o->replay_follow && !p->pipe && i < 50; i++) {
		dtl_source__sleep(100);
		rewind(p->f);
		r = dtl_rec_reader__open(p->f, name, &p->meta, err, errlen);
	}
	return r;
}

/* --follow reads a file as it grows, each interval as recorded. */
int replay__follow_check(struct replay *p, const struct dtl_source_opts *o, char *err,
			 size_t errlen)
{
	p->follow = o->replay_follow;
	if (!p->follow || (!p->pipe && !p->converted && p->group == 1) || o->attach)
		return 0;
	snprintf(err, errlen, "--follow plays a dtltop recording file as it is written, each "
		 "interval as recorded: %s", p->pipe ? "not a pipe" : p->converted ?
		 "not a perf.data" : "no -d");
	return -1;
}

/*
 * --follow, a set's file closed whole: its writer opens the next at once,
 * so it is waited for a moment (40 times 50 ms) before the replay ends.
 */
bool replay__follow_next_file(struct replay *p)
{
	if (!p->follow || !p->set || !p->r || !dtl_rec_reader__complete(p->r) ||
	    dtl_rec_reader__warning(p->r) || p->follow_waits >= 40)
		return false;
	p->follow_waits++;
	dtl_source__sleep(50);
	return true;
}

/*
 * --follow, within an interval: the loop saw its first chunk written, but
 * the rest may be in a set's next file, not written yet. A short wait (at
 * most two recorded intervals and a second) before it is taken for the end.
 */
void replay__follow_within(struct replay *p)
{
	double most = 2 * (p->meta.interval_s > 0 ? p->meta.interval_s : 1.0) + 1;

	for (int i = 0; p->r && i < most * 20 && !dtl_rec_reader__ready(p->r); i++)
		dtl_source__sleep(50);
}
