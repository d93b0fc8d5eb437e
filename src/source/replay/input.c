/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * input.c - what -r names, made a dtltop recording read from its start: a
 * file as it is, a pipe with its sniffed bytes handed back, a perf.data
 * converted into a scratch file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../format/perfdata.h"
#include "../../platform/caps.h"
#include "../../platform/usock.h"

#include "internal.h"

/*
 * A scratch file that is gone when closed: on disk under TMPDIR (a day of
 * perf record is gigabytes, more than memory should hold), else in memory.
 */
static int scratch(void)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	return fd >= 0 ? fd : memfd_create("dtltop", MFD_CLOEXEC);
}

/* The bytes a pipe's sniff took, then the pipe: a recording read in one go. */
struct prefixed {
	FILE *f;
	uint8_t head[8];
	size_t len, pos;
};

static ssize_t prefixed_read(void *cookie, char *buf, size_t size)
{
	struct prefixed *q = cookie;
	size_t n = 0;

	if (q->pos < q->len) {
		n = q->len - q->pos < size ? q->len - q->pos : size;
		memcpy(buf, q->head + q->pos, n);
		q->pos += n;
		return (ssize_t)n;
	}
	n = fread(buf, 1, size, q->f);
	return n || !ferror(q->f) ? (ssize_t)n : -1;
}

static int prefixed_close(void *cookie)
{
	struct prefixed *q = cookie;
	int rc = fclose(q->f);

	free(q);
	return rc;
}

/*
 * Whether the service lets this viewer in, by its first bytes (peeked: a
 * stream's are the reader's). It decides by the capabilities this process
 * holds as it connects; once it has, none is needed any more: all go.
 */
static int let_in(int fd, const char *path, char *err, size_t errlen)
{
	char first[300];
	ssize_t n;

	do
		n = recv(fd, first, 4, MSG_PEEK | MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	if (n == 4 && !memcmp(first, DTL_USOCK_REFUSED, 4)) {
		size_t got = 0;

		while (got < sizeof(first) - 1 && (n = recv(fd, first + got, sizeof(first) - 1 - got, 0)) > 0)
			got += (size_t)n;
		first[got] = '\0';
		first[strcspn(first, "\n")] = '\0';
		snprintf(err, errlen, "cannot attach to %s: %s", path, got > 4 ? first + 4 : "refused");
		return -1;
	}
	if (n <= 0) {
		snprintf(err, errlen, "cannot attach to %s: the service closed the connection", path);
		return -1;
	}
	if (dtl_caps__drop_all() && errno != EPERM) {
		snprintf(err, errlen, "cannot drop capabilities: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Open the file, say what it is, and leave p->f reading a dtltop recording
 * from its start: a perf.data is converted first (into a scratch file), and
 * a pipe's first bytes are handed back to the reader, as a pipe cannot
 * rewind (p->pipe then says going back is impossible).
 */
int replay__open_input(struct replay *p, const struct dtl_source_opts *o, char *err,
		       size_t errlen)
{
	uint8_t head[8];
	size_t got;
	bool seekable;
	FILE *conv;
	int fd;

	if (o->attach) {
		/* a service's stream: read as it comes, a byte never held back by stdio */
		fd = dtl_usock__connect(o->replay, err, errlen);
		if (fd >= 0 && let_in(fd, o->replay, err, errlen)) {
			close(fd);
			return -1;
		}
		p->f = fd >= 0 ? fdopen(fd, "rb") : NULL;
		if (!p->f) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		setvbuf(p->f, NULL, _IONBF, 0);
		p->pipe = p->attached = true;
		return 0;
	}
	p->f = fopen(o->replay, "rb");
	if (!p->f) {
		snprintf(err, errlen, "%s: %s", o->replay, strerror(errno));
		return -1;
	}
	seekable = fseeko(p->f, 0, SEEK_CUR) == 0;
	got = fread(head, 1, sizeof(head), p->f);
	if (!dtl_perfdata__is(head, got)) {
		struct prefixed *q;
		cookie_io_functions_t io = { .read = prefixed_read, .close = prefixed_close };

		if (seekable) {
			rewind(p->f);
			return 0;
		}
		q = calloc(1, sizeof(*q));
		if (!q) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		q->f = p->f;
		memcpy(q->head, head, got);
		q->len = got;
		p->f = fopencookie(q, "rb", io);
		if (!p->f) {
			p->f = q->f;
			free(q);
			snprintf(err, errlen, "%s: %s", o->replay, strerror(errno));
			return -1;
		}
		p->pipe = true;
		return 0;
	}
	if (!seekable) {
		/* The importer reads the file twice: a pipe is spooled first. */
		char buf[65536];
		size_t n;

		fd = scratch();
		conv = fd >= 0 ? fdopen(fd, "w+b") : NULL;
		if (!conv) {
			snprintf(err, errlen, "%s: no scratch file: %s", o->replay, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		fwrite(head, 1, got, conv);
		while ((n = fread(buf, 1, sizeof(buf), p->f)) > 0)
			if (fwrite(buf, 1, n, conv) != n)
				break;
		if (ferror(p->f) || ferror(conv) || fflush(conv)) {
			snprintf(err, errlen, "%s: spooling: %s", o->replay, strerror(errno));
			fclose(conv);
			return -1;
		}
		fclose(p->f);
		p->f = conv;
	}
	fd = scratch();
	if (fd < 0) {
		snprintf(err, errlen, "%s: no scratch file: %s", o->replay, strerror(errno));
		return -1;
	}
	if (dtl_perfdata__convert(p->f, o->replay, fd, o->replay_interval_s > 0 ?
				  o->replay_interval_s : 1.0, err, errlen, p->import_warning,
				  sizeof(p->import_warning)) ||
	    lseek(fd, 0, SEEK_SET) != 0 || !(conv = fdopen(fd, "rb"))) {
		close(fd);
		return -1;
	}
	fclose(p->f);
	p->f = conv;
	p->converted = true;
	return 0;
}
