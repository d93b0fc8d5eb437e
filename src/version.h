/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DTLTOP_VERSION
#define DTLTOP_VERSION "0.3.0"
#endif
#ifndef DTLTOP_LIBPERF
#define DTLTOP_LIBPERF "libperf of unknown origin"	/* the Makefile says which */
#endif
