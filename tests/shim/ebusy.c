/*
 * LD_PRELOAD shim for tests/cli.sh: the debugfs DTL files answer EBUSY, as
 * the kernel does while another reader (a dtltop service, perf on vpa_dtl,
 * vcpudispatch_stats) holds them. A fake root cannot say busy by itself.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>

static int busy(const char *path)
{
	if (strstr(path, "/powerpc/dtl/cpu-") == NULL)
		return 0;
	errno = EBUSY;
	return 1;
}

static int pass(const char *name, int dirfd, const char *path, int flags, mode_t mode)
{
	if (dirfd == -1) {
		int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);

		return real ? real(path, flags, mode) : (errno = ENOSYS, -1);
	}
	int (*real_at)(int, const char *, int, ...) =
		(int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, name);

	return real_at ? real_at(dirfd, path, flags, mode) : (errno = ENOSYS, -1);
}

#define MODE_ARG(flags, mode)                                         \
	do {                                                          \
		if ((flags) & (O_CREAT | O_TMPFILE)) {                \
			va_list ap;                                   \
			va_start(ap, flags);                          \
			mode = va_arg(ap, mode_t);                    \
			va_end(ap);                                   \
		}                                                     \
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return busy(path) ? -1 : pass("open", -1, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return busy(path) ? -1 : pass("open64", -1, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return busy(path) ? -1 : pass("openat", dirfd, path, flags, mode);
}

int __open_2(const char *path, int flags)
{
	return busy(path) ? -1 : pass("open", -1, path, flags, 0);
}
