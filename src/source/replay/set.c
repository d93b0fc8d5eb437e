/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * set.c - a rotated set (FILE.1, FILE.2, ...) read as one recording: the
 * next file where one ends, checked to continue it, and the set's end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../format/recset.h"

#include "internal.h"

/*
 * Whether m, the meta of FILE.N+1, continues FILE.N: the same partition, the
 * same run (its identity, where both files carry one), and time going on
 * from where FILE.N ended. Else why not, in err.
 */
static bool continues(const struct replay *p, const struct dtl_rec_meta *m, char *err,
		      size_t errlen)
{
	if (m->nr_cpus != p->meta.nr_cpus || m->tb_freq != p->meta.tb_freq)
		snprintf(err, errlen, "not the partition of the files before it");
	else if ((p->set_id || m->set_id) && (m->set_id != p->set_id || m->set_seq != p->seq + 1))
		snprintf(err, errlen, "another recording (set %016llx file %u, not set %016llx file "
			 "%u)", (unsigned long long)m->set_id, m->set_seq,
			 (unsigned long long)p->set_id, p->seq + 1);
	else if (p->tb && m->start_tb && m->start_tb < p->tb)
		snprintf(err, errlen, "it begins before the file before it ended (timebase %llu, "
			 "not %llu or later)", (unsigned long long)m->start_tb,
			 (unsigned long long)p->tb);
	else
		return true;
	return false;
}

/*
 * The next file of a rotated set, where this one ended whole: it begins
 * where this one ended, with the CPUs online then. False at the set's end,
 * or where the next is not of the same partition (the warning says so).
 */
bool replay__next_file(struct dtl_source *src)
{
	struct replay *p = src->priv;
	struct dtl_rec_reader *r;
	struct dtl_rec_meta m;
	char path[4096], err[512];
	FILE *f;

	if (!p->set || !p->r || dtl_rec_reader__warning(p->r))
		return false;
	dtl_rec_set__path(p->base, p->seq + 1, path, sizeof(path));
	f = fopen(path, "rb");
	if (!f) {
		unsigned int later;
		int e = errno;

		/* the set's end, or a hole in it: a loss is said, never silent */
		if (dtl_rec_set__after(p->base, p->seq + 1, &later))
			snprintf(p->import_warning, sizeof(p->import_warning), "%.500s: %.100s; the "
				 "replay ends at %.500s, before %.500s.%u", path, strerror(e),
				 p->name, p->base, later);
		return false;
	}
	r = dtl_rec_reader__open(f, path, &m, err, sizeof(err));
	if (!r || !continues(p, &m, err, sizeof(err))) {
		snprintf(p->import_warning, sizeof(p->import_warning), "%.600s: %.300s; the replay "
			 "ends at %.600s", path, err, p->name);
		dtl_rec_reader__close(r);
		fclose(f);
		return false;
	}
	if (!dtl_rec_reader__complete(p->r))
		snprintf(p->import_warning, sizeof(p->import_warning), "%.900s ends without its "
			 "end marker; the replay went on with %.900s", p->name, path);
	dtl_rec_reader__close(p->r);
	fclose(p->f);
	dtl_rec_reader__skim(r, p->skim);
	p->r = r;
	p->f = f;
	p->seq++;
	p->follow_waits = 0;
	p->set_id = m.set_id;
	snprintf(p->name, sizeof(p->name), "%.4000s", path);
	src->cpus = m.cpus;
	if (p->have_filter)
		dtl_cpuset__and(&src->cpus, &p->filter);
	src->mask = m.mask;
	return true;
}

/* The last file of the set (or the file): its last chunks' tick, read by a reader of its own. */
bool replay__end_clock(const struct dtl_source *src, uint64_t *ns)
{
	const struct replay *p = src->priv;
	char path[4096], next[4096];
	struct dtl_rec_reader *r;
	struct dtl_rec_meta *m;
	unsigned int n = p->seq;
	bool ok = false;
	char err[512];
	FILE *f;

	if (p->pipe || p->converted)
		return false;
	snprintf(path, sizeof(path), "%s", p->name);
	for (; p->set; n++) {
		dtl_rec_set__path(p->base, n + 1, next, sizeof(next));
		if (access(next, R_OK))
			break;
		memcpy(path, next, sizeof(path));
	}
	m = malloc(sizeof(*m));
	f = m ? fopen(path, "rb") : NULL;
	r = f ? dtl_rec_reader__open(f, path, m, err, sizeof(err)) : NULL;
	ok = r && dtl_rec_reader__last_tick(r, ns) == 0;
	dtl_rec_reader__close(r);
	if (f)
		fclose(f);
	free(m);
	return ok;
}
