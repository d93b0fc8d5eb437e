/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usock.h - the service's Unix stream socket (dtltop --serve, --attach):
 * made so that only whom it may serve can connect, read without blocking
 * the capture, never a TCP port.
 */
#ifndef DTL_USOCK_H
#define DTL_USOCK_H

#include <stddef.h>

#define DTL_USOCK_DEFAULT "/run/dtltop/dtltop.sock"

/*
 * Listens at path, non-blocking: its directory made (0755) where missing,
 * a stale socket (no one listening) replaced, the socket 0600 (the DTL is
 * root's: CAP_PERFMON alone does not open debugfs). -1 with err.
 */
int dtl_usock__listen(const char *path, char *err, size_t errlen);
/* A client waiting, non-blocking and close-on-exec; -1 when none waits. */
int dtl_usock__accept(int lfd);
/* Connects to path (blocking reads): -1 with err ("permission denied: ..."). */
int dtl_usock__connect(const char *path, char *err, size_t errlen);
/* Whether a service listens at path: a direct run that finds the DTL held says so. */
int dtl_usock__alive(const char *path);
/* Whether one listens at the default socket under root ("/" or --root's). */
int dtl_usock__service(const char *root);

#endif
