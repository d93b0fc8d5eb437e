/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * caps.h - least privilege with libcap: check before opening, then keep
 * nothing but CAP_PERFMON in the permitted set, raised only to (re)open.
 */
#ifndef DTL_CAPS_H
#define DTL_CAPS_H

#include <stdbool.h>
#include <stdint.h>

/* CAP_PERFMON or CAP_SYS_ADMIN is effective, or can be made so. */
bool dtl_caps__can_perfmon(void);
/*
 * After the events are open: empty effective and inheritable sets, the
 * permitted set cut to the one capability that can reopen events, no
 * ambient capabilities. -1 if libcap refuses (errno set).
 */
int dtl_caps__drop(void);
/* A viewer's, once its service let it in: nothing kept at all. */
int dtl_caps__drop_all(void);
/* Around a reopen (mask change, hotplug): raise, then lower, that one. */
int dtl_caps__raise(void);
int dtl_caps__lower(void);
/*
 * The CapEff line of a /proc/PID/status text, into eff: 0, or -1 where it
 * has none or an unreadable one (pure: the text is another process's).
 */
int dtl_caps__parse_eff(const char *status, uint64_t *eff);
/* Process pid holds CAP_PERFMON or CAP_SYS_ADMIN effective now, as /proc says. */
bool dtl_caps__pid_perfmon(int pid);

#endif
