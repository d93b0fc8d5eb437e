/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfdata.h - perf.data with vpa_dtl AUX data, converted to a recording.
 */
#ifndef DTL_PERFDATA_H
#define DTL_PERFDATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record.h"

/* The first bytes of a file: is it a perf.data (PERFILE2)? */
int dtl_perfdata__is(const uint8_t *head, size_t len);
/*
 * Write in as a dtltop recording to out_fd, cut into intervals of
 * interval_s by the entries' timebase. 0, or -1 with "FILE: offset N: why"
 * in err. Damage after valid data keeps what came before and says so in warn.
 */
int dtl_perfdata__convert(FILE *in, const char *name, int out_fd, double interval_s,
			  char *err, size_t errlen, char *warn, size_t warnlen);

#endif
