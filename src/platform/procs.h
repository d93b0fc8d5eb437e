/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procs.h - the names a switch stream lacks: a process's comm and cgroup,
 * read from /proc at first sight and kept, so each is read once per process
 * (again after its exit, or a comm record says it changed).
 */
#ifndef DTL_PROCS_H
#define DTL_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dtl_procs;

/* Reads root/proc/PID/{comm,cgroup}; NULL when out of memory. */
struct dtl_procs *dtl_procs__new(const char *root);
void dtl_procs__delete(struct dtl_procs *p);
/*
 * The names to hand on with a switch to pid: on first sight (or after a
 * change) the comm and cgroup, into comm (16 bytes) and cgroup (cglen), each
 * "" where /proc no longer has the process; false when they were handed on
 * already. pid 0 (idle) never has names.
 */
bool dtl_procs__names(struct dtl_procs *p, int32_t pid, char *comm, char *cgroup,
		      size_t cglen);
/* A comm record: the name changed (exec, rename); hand it on at the next switch. */
void dtl_procs__comm(struct dtl_procs *p, int32_t pid, const char *comm);
/* An exit: the pid may come back as another process. */
void dtl_procs__exit(struct dtl_procs *p, int32_t pid);
/* The cgroup of a /proc/PID/cgroup text: the v2 line's, else the first line's path. */
void dtl_procs__parse_cgroup(const char *text, char *cgroup, size_t cglen);

#endif
