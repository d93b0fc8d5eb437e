/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exporter.h - dtltop as a Prometheus exporter: --listen and --textfile.
 */
#ifndef DTL_EXPORTER_H
#define DTL_EXPORTER_H

#include "view.h"

/* Either may be NULL; NULL with a message on stderr (bad address, port taken). */
struct dtl_view *dtl_exporter__open(const char *listen, const char *web_config,
				    const char *textfile_dir);
/* Stops serving; returns rc. */
int dtl_exporter__close(struct dtl_view *v, int rc);

#endif
