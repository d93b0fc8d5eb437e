/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * caps.h - least privilege with libcap: check before opening, then keep
 * nothing but CAP_PERFMON in the permitted set, raised only to (re)open.
 */
#ifndef DTL_CAPS_H
#define DTL_CAPS_H

#include <stdbool.h>

/* CAP_PERFMON or CAP_SYS_ADMIN is effective, or can be made so. */
bool dtl_caps__can_perfmon(void);
/*
 * After the events are open: empty effective and inheritable sets, the
 * permitted set cut to the one capability that can reopen events, no
 * ambient capabilities. -1 if libcap refuses (errno set).
 */
int dtl_caps__drop(void);
/* Around a reopen (mask change, hotplug): raise, then lower, that one. */
int dtl_caps__raise(void);
int dtl_caps__lower(void);

#endif
