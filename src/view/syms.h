/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * syms.h - the kernel's symbols, for the views that name where preempts hit:
 * the source's own (the simulator's kernel, a recording's, --kallsyms) or
 * this machine's /proc/kallsyms. Read at the first need, not at start: a
 * distribution kernel's table is megabytes an exporter never looks at.
 */
#ifndef DTL_SYMS_H
#define DTL_SYMS_H

#include <stdbool.h>

#include "../platform/ksyms.h"

struct dtl_syms;

struct dtl_syms *dtl_syms__new(void);
void dtl_syms__delete(struct dtl_syms *s);
/*
 * Where names come from, said each interval (cheap: nothing is read).
 * text: the source's own kallsyms text (it may grow: a replay's); else
 * none, the reason there are none (a replay that carries none); else the
 * machine's under root.
 */
void dtl_syms__from(struct dtl_syms *s, const char *text, const char *none, const char *root);
/* The table, or NULL and why in *why. */
const struct dtl_ksyms *dtl_syms__get(struct dtl_syms *s, const char **why);

#endif
