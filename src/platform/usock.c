/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usock.c - the service's Unix stream socket.
 */
#include "usock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int address(const char *path, struct sockaddr_un *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (!path[0] || strlen(path) >= sizeof(a->sun_path)) {
		snprintf(err, errlen, "bad socket path '%.200s' (1 to %zu bytes)", path,
			 sizeof(a->sun_path) - 1);
		return -1;
	}
	memcpy(a->sun_path, path, strlen(path));
	return 0;
}

int dtl_usock__alive(const char *path)
{
	struct sockaddr_un a;
	char err[256];
	int fd, ok;

	if (address(path, &a, err, sizeof(err)))
		return 0;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 || errno == EACCES;
	close(fd);
	return ok;
}

int dtl_usock__service(const char *root)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	size_t n = strlen(root);

	while (n && root[n - 1] == '/')
		n--;
	if (snprintf(path, sizeof(path), "%.*s%s", (int)n, root, DTL_USOCK_DEFAULT) >=
	    (int)sizeof(path) - 1)
		return 0;
	return dtl_usock__alive(path);
}

/* The socket's directory, made where it is missing (/run/dtltop after a boot). */
static int make_dir(const char *path, char *err, size_t errlen)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

int dtl_usock__listen(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a;
	struct stat st;
	int fd;

	if (address(path, &a, err, errlen) || make_dir(path, err, errlen))
		return -1;
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "%s exists and is not a socket", path);
			return -1;
		}
		if (dtl_usock__alive(path)) {
			snprintf(err, errlen, "%s: a dtltop service listens there already", path);
			return -1;
		}
		unlink(path);	/* a service's that died: stale */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || chmod(path, 0666) || listen(fd, 16)) {
		snprintf(err, errlen, "cannot listen at %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int dtl_usock__accept(int lfd)
{
	return accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int dtl_usock__peer(int fd, uint32_t *uid, int *pid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || len != sizeof(cred))
		return -1;
	*uid = cred.uid;
	*pid = cred.pid;
	return 0;
}

int dtl_usock__connect(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a;
	int fd;

	if (address(path, &a, err, errlen))
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
		return fd;
	if (errno == EACCES || errno == EPERM)
		snprintf(err, errlen, "cannot attach to %s: permission denied (the service serves "
			 "only those who may read the DTL themselves: root, or CAP_PERFMON)", path);
	else if (errno == ENOENT || errno == ECONNREFUSED)
		snprintf(err, errlen, "cannot attach to %s: no dtltop service there (start one with "
			 "dtltop --serve)", path);
	else
		snprintf(err, errlen, "cannot attach to %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}
