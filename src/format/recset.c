/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recset.c - where the files of a rotated recording are: FILE.N, N from 1,
 * the lowest that is left first (KEEP removes from the bottom).
 */
#include "recset.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void dtl_rec_set__path(const char *base, unsigned int n, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%u", base, n);
}

/* The lowest (or with highest, the highest) N above `above` with base.N present. */
static bool scan(const char *base, unsigned int above, bool highest, unsigned int *found_n)
{
	const char *slash = strrchr(base, '/'), *name = slash ? slash + 1 : base;
	size_t nl = strlen(name);
	char dir[4096];
	struct dirent *e;
	DIR *d;
	bool found = false;

	if (!nl)
		return false;
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - base) ? (int)(slash - base) : 1, base);
	else
		snprintf(dir, sizeof(dir), ".");
	d = opendir(dir);
	if (!d)
		return false;
	while ((e = readdir(d))) {
		char *end;
		unsigned long n;

		if (strncmp(e->d_name, name, nl) || e->d_name[nl] != '.' ||
		    e->d_name[nl + 1] < '1' || e->d_name[nl + 1] > '9')
			continue;
		errno = 0;
		n = strtoul(e->d_name + nl + 1, &end, 10);
		if (errno || *end || n > 4000000000ul || n <= above)
			continue;
		if (!found || (highest ? n > *found_n : n < *found_n))
			*found_n = (unsigned int)n;
		found = true;
	}
	closedir(d);
	return found;
}

bool dtl_rec_set__find(const char *base, unsigned int *first)
{
	struct stat st;

	if (stat(base, &st) == 0 || errno != ENOENT)
		return false;
	return scan(base, 0, false, first);
}

bool dtl_rec_set__after(const char *base, unsigned int n, unsigned int *next)
{
	return scan(base, n, false, next);
}

unsigned int dtl_rec_set__highest(const char *base)
{
	unsigned int n = 0;

	return scan(base, 0, true, &n) ? n : 0;
}

bool dtl_rec_set__member(const char *path, char *base, size_t len, unsigned int *n)
{
	const char *dot = strrchr(path, '.');
	char *end;
	unsigned long v;

	if (!dot || dot == path || dot[1] < '1' || dot[1] > '9' || (size_t)(dot - path) >= len)
		return false;
	errno = 0;
	v = strtoul(dot + 1, &end, 10);
	if (errno || *end || v > 4000000000ul)
		return false;
	snprintf(base, len, "%.*s", (int)(dot - path), path);
	*n = (unsigned int)v;
	return true;
}
