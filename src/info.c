/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * info.c - what dtltop prints about itself and exits: --version and the
 * --list-* tables, each printed from the one table it names.
 */
#include "info.h"

#include <ncurses.h>
#include <stdio.h>
#include <zlib.h>
#include <zstd.h>

#include "tui/keys.h"
#include "version.h"
#include "view/columns.h"

/* What a bug report needs: the version, where libperf came from, what it was built with. */
static void print_version(void)
{
	printf("dtltop %s\n%s; ncursesw %s, zstd %s, zlib %s, libcap\nbuilt with cc %s%s\n",
	       DTLTOP_VERSION, DTLTOP_LIBPERF, NCURSES_VERSION, ZSTD_VERSION_STRING, ZLIB_VERSION,
	       __VERSION__,
#ifdef __OPTIMIZE__
	       ", optimised"
#else
	       ""
#endif
	       );
}

static void list_keys(void)
{
	size_t n;
	const struct dtl_key *k = dtl_keys(&n);

	for (size_t i = 0; i < n; i++)
		printf("%-13s %s\n", k[i].names, k[i].help);
}

static void list_fields(void)
{
	size_t n;
	const struct dtl_col *c = dtl_cols(&n);

	for (size_t i = 0; i < n; i++)
		printf("%-40s %-14s %s\n", c[i].name, c[i].unit[0] ? c[i].unit : "-", c[i].legend);
}

bool dtl_info__print(const struct dtl_opts *o)
{
	if (o->help)
		dtl_opts__usage(stdout);
	else if (o->version)
		print_version();
	else if (o->list_fields)
		list_fields();
	else if (o->list_keys)
		list_keys();
	else if (o->list_options)
		dtl_opts__list(stdout);
	else
		return false;
	return true;
}
