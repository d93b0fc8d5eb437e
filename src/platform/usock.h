/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usock.h - the service's Unix stream socket (dtltop --serve, --attach):
 * anyone may connect, the service lets in only whom it may serve (by the
 * peer's credentials), read without blocking the capture, never a TCP port.
 */
#ifndef DTL_USOCK_H
#define DTL_USOCK_H

#include <stddef.h>
#include <stdint.h>

#define DTL_USOCK_DEFAULT "/run/dtltop/dtltop.sock"

/*
 * The first bytes a refused viewer reads, then why, a line: a service
 * decides by what each peer could read itself, which a file mode cannot
 * say (CAP_PERFMON opens the PMU, not debugfs).
 */
#define DTL_USOCK_REFUSED "DTLN"

/*
 * Listens at path, non-blocking: its directory made (0755) where missing,
 * a stale socket (no one listening) replaced, the socket 0666: whom the
 * service serves is its own check (dtl_usock__peer). -1 with err.
 */
int dtl_usock__listen(const char *path, char *err, size_t errlen);
/* A client waiting, non-blocking and close-on-exec; -1 when none waits. */
int dtl_usock__accept(int lfd);
/* The connected peer's uid and pid (SO_PEERCRED); -1 when the kernel does not say. */
int dtl_usock__peer(int fd, uint32_t *uid, int *pid);
/* Connects to path (blocking reads): -1 with err ("permission denied: ..."). */
int dtl_usock__connect(const char *path, char *err, size_t errlen);
/* Whether a service listens at path: a direct run that finds the DTL held says so. */
int dtl_usock__alive(const char *path);
/* Whether one listens at the default socket under root ("/" or --root's). */
int dtl_usock__service(const char *root);

#endif
