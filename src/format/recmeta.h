/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recmeta.h - a recording's header as text (private to src/format/).
 */
#ifndef DTL_FORMAT_RECMETA_H
#define DTL_FORMAT_RECMETA_H

#include <stddef.h>

#include "record.h"

/* Into buf (len bytes, at least 64 KiB and a CPU set's text): "" when out of memory. */
void dtl_rec_meta__text(const struct dtl_rec_meta *m, char *buf, size_t len);
/* From text (changed in place), over what m holds already. */
void dtl_rec_meta__parse(char *text, struct dtl_rec_meta *m);

#endif
