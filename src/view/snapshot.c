/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snapshot.c - the TUI's export: one interval to a new file, never half
 * written and never over another.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "table.h"
#include "writer.h"

/* w's whole output for m into the new file fd; 0, or -1 with errno. */
static int write_one(const struct dtl_writer *w, int fd, const struct dtl_model *m)
{
	FILE *f = fdopen(fd, "w");
	int werr;

	if (!f) {
		close(fd);
		return -1;
	}
	if (w->begin)
		w->begin(f, m);
	if (w->interval)
		w->interval(f, m);
	if (w->end)
		w->end(f, m);
	werr = ferror(f) | fflush(f) | fsync(fd);
	return fclose(f) || werr ? -1 : 0;
}

int dtl_snapshot__write_as(const struct dtl_writer *w, const char *dir,
			   const struct dtl_model *m, time_t now, char *path, size_t pathlen,
			   char *err, size_t errlen)
{
	char tmp[4096], stamp[32];
	struct tm tm;
	int fd;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(tmp, sizeof(tmp), "%s/.dtltop-%s.%ld.tmp", dir, stamp, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	if (write_one(w, fd, m)) {
		snprintf(err, errlen, "writing %s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	/* link() fails on an existing name, unlike rename(): never clobber. */
	for (int i = 0; i < 100; i++) {
		if (i)
			snprintf(path, pathlen, "%s/dtltop-%s-%d.%s", dir, stamp, i, w->name);
		else
			snprintf(path, pathlen, "%s/dtltop-%s.%s", dir, stamp, w->name);
		if (link(tmp, path) == 0) {
			unlink(tmp);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
	unlink(tmp);
	return -1;
}

int dtl_snapshot__write(const char *dir, const struct dtl_table *t, time_t now,
			char *path, size_t pathlen, char *err, size_t errlen)
{
	struct dtl_model m = { .table = t, .source = "", .detail = "" };

	return dtl_snapshot__write_as(dtl_writers__find("csv"), dir, &m, now, path, pathlen, err,
				      errlen);
}
