/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replace.c - write a file by a temporary name and rename().
 */
#include "replace.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int dtl_replace__file(const char *path, mode_t mode, int (*fill)(FILE *f, void *ctx), void *ctx,
		      char *err, size_t errlen)
{
	char tmp[4200];
	FILE *f = NULL;
	int fd, bad;

	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "path too long: %s", path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fill(f, ctx)) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	bad = ferror(f);
	if (fclose(f) || bad) {
		snprintf(err, errlen, "writing %s: %s", tmp, strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
