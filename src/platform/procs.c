/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procs.c - comm and cgroup per process from /proc, read once. A table
 * indexed by the pid's low bits: a pid that lands on another's slot only
 * costs a second read of /proc, never a wrong name.
 */
#include "procs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/name.h"
#include "sys.h"

#define SLOTS 65536

struct slot {
	int32_t pid;		/* 0: empty */
	bool told;		/* its names were handed on */
	bool renamed;		/* a comm record came: comm holds the new name */
	char comm[16];
};

struct dtl_procs {
	char root[4096];
	struct slot *s;
};

struct dtl_procs *dtl_procs__new(const char *root)
{
	struct dtl_procs *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->s = calloc(SLOTS, sizeof(*p->s));
	if (!p->s) {
		free(p);
		return NULL;
	}
	snprintf(p->root, sizeof(p->root), "%s", root ? root : "/");
	return p;
}

void dtl_procs__delete(struct dtl_procs *p)
{
	if (!p)
		return;
	free(p->s);
	free(p);
}

static struct slot *slot_of(struct dtl_procs *p, int32_t pid)
{
	struct slot *s = &p->s[(uint32_t)pid % SLOTS];

	if (s->pid != pid)
		memset(s, 0, sizeof(*s));
	s->pid = pid;
	return s;
}

void dtl_procs__parse_cgroup(const char *text, char *cgroup, size_t cglen)
{
	const char *line = text, *first = NULL;

	cgroup[0] = '\0';
	/* "0::/system.slice/db.service" (v2); v1 lines are "N:controllers:/path" */
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *path = strchr(line, ':');

		path = path ? strchr(path + 1, ':') : NULL;
		if (!path)
			continue;
		if (!first)
			first = path + 1;
		if (!strncmp(line, "0::", 3)) {
			first = path + 1;
			break;
		}
	}
	if (first)
		snprintf(cgroup, cglen, "%.*s", (int)strcspn(first, "\n"), first);
}

bool dtl_procs__names(struct dtl_procs *p, int32_t pid, char *comm, char *cgroup,
		      size_t cglen)
{
	struct slot *s;
	char rel[64], text[4096];

	comm[0] = cgroup[0] = '\0';
	if (pid <= 0)
		return false;
	s = slot_of(p, pid);
	if (s->told && !s->renamed)
		return false;
	if (s->renamed) {
		/* exec: the name is the record's; the cgroup stays what it was */
		memcpy(comm, s->comm, sizeof(s->comm));
		dtl_name__clean(comm);
		s->renamed = false;
		s->told = true;
		return true;
	}
	snprintf(rel, sizeof(rel), "proc/%d/comm", (int)pid);
	if (dtl_sys__read(p->root, rel, text, 17) > 0)
		snprintf(comm, 16, "%.*s", (int)strcspn(text, "\n"), text);
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", (int)pid);
	if (dtl_sys__read(p->root, rel, text, sizeof(text)) > 0)
		dtl_procs__parse_cgroup(text, cgroup, cglen);
	dtl_name__clean(comm);
	dtl_name__clean(cgroup);
	s->told = true;
	return true;
}

void dtl_procs__comm(struct dtl_procs *p, int32_t pid, const char *comm)
{
	struct slot *s;

	if (pid <= 0)
		return;
	s = slot_of(p, pid);
	snprintf(s->comm, sizeof(s->comm), "%s", comm);
	/* not yet seen: /proc is read at first sight, and says the same name */
	s->renamed = s->told;
}

void dtl_procs__exit(struct dtl_procs *p, int32_t pid)
{
	if (pid > 0 && p->s[(uint32_t)pid % SLOTS].pid == pid)
		memset(&p->s[(uint32_t)pid % SLOTS], 0, sizeof(struct slot));
}
