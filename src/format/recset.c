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

/* The lowest N above `above` with base.N present (false: none). */
static bool scan(const char *base, unsigned int above, unsigned int *lowest)
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
		if (!found || n < *lowest)
			*lowest = (unsigned int)n;
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
	return scan(base, 0, first);
}

bool dtl_rec_set__after(const char *base, unsigned int n, unsigned int *next)
{
	return scan(base, n, next);
}
