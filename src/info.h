/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * info.h - --help, --version and the --list-* options.
 */
#ifndef DTL_INFO_H
#define DTL_INFO_H

#include <stdbool.h>

#include "opts/opts.h"

/* Prints what o asks about dtltop itself; false when it asks nothing. */
bool dtl_info__print(const struct dtl_opts *o);

#endif
