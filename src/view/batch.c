/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * batch.c - the batch view: each interval through a writer into a file.
 */
#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct batch {
	struct dtl_view view;
	const struct dtl_writer *w;
	const struct dtl_model *last;	/* for the writer's end */
	FILE *out;
	const char *path;
	char tmp[4096];
	bool direct;			/* -o names a device or FIFO */
	bool begun;
	int sort_col;
	bool reverse;
};

static void batch_sort(const struct dtl_view *v, int *col, bool *reverse)
{
	const struct batch *b = v->priv;

	*col = b->sort_col;
	*reverse = b->reverse;
}

static int batch_show(struct dtl_view *v, const struct dtl_model *m, bool fresh)
{
	struct batch *b = v->priv;

	if (!fresh)
		return 0;
	if (!b->begun && b->w->begin)
		b->w->begin(b->out, m);
	b->begun = true;
	b->last = m;
	if (b->w->interval)
		b->w->interval(b->out, m);
	fflush(b->out);
	if (ferror(b->out) && errno == EPIPE)
		return 1;	/* the reader left, as with `| head` */
	if (ferror(b->out)) {
		fprintf(stderr, "dtltop: writing %s: %s\n", b->path ? b->path : "stdout",
			strerror(errno));
		return -1;
	}
	return 0;
}

static const struct dtl_view_ops batch_ops = {
	.interactive = false,
	.sort = batch_sort,
	.show = batch_show,
};

static int open_file(struct batch *b)
{
	struct stat st;
	int fd;

	/* A device or FIFO (/dev/null, a pipe) is written in place, never replaced. */
	if (stat(b->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		b->out = fopen(b->path, "w");
		if (!b->out) {
			fprintf(stderr, "dtltop: cannot open %s: %s\n", b->path, strerror(errno));
			return -1;
		}
		b->direct = true;
		return 0;
	}
	if (snprintf(b->tmp, sizeof(b->tmp), "%s.%ld.tmp", b->path, (long)getpid()) >=
	    (int)sizeof(b->tmp)) {
		fprintf(stderr, "dtltop: output path too long: %s\n", b->path);
		return -1;
	}
	fd = open(b->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(b->out = fdopen(fd, "w"))) {
		fprintf(stderr, "dtltop: cannot create %s: %s\n", b->tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

struct dtl_view *dtl_batch__open(const struct dtl_writer *w, const char *path, int sort_col,
				 bool reverse)
{
	struct batch *b = calloc(1, sizeof(*b));

	if (!b) {
		fprintf(stderr, "dtltop: out of memory\n");
		return NULL;
	}
	*b = (struct batch){ .view = { &batch_ops, b }, .w = w, .sort_col = sort_col,
			     .reverse = reverse, .out = stdout };
	if (path && strcmp(path, "-") != 0) {
		b->path = path;
		if (open_file(b)) {
			free(b);
			return NULL;
		}
	}
	return &b->view;
}

static int close_file(struct batch *b, int rc)
{
	if (b->out == stdout)
		return fflush(stdout) && errno != EPIPE ? 1 : rc;
	if (b->direct)
		return fclose(b->out) ? 1 : rc;
	if (fclose(b->out) && !rc) {
		fprintf(stderr, "dtltop: writing %s: %s\n", b->tmp, strerror(errno));
		rc = 1;
	}
	if (!rc && rename(b->tmp, b->path)) {
		fprintf(stderr, "dtltop: cannot rename %s to %s: %s\n", b->tmp, b->path,
			strerror(errno));
		rc = 1;
	}
	if (rc)
		unlink(b->tmp);
	return rc;
}

int dtl_batch__close(struct dtl_view *v, int rc)
{
	struct batch *b;

	if (!v)
		return rc;
	b = v->priv;
	if (!rc && b->begun && b->w->end)
		b->w->end(b->out, b->last);
	rc = close_file(b, rc);
	free(b);
	return rc;
}
