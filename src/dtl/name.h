/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * name.h - task and cgroup names as they may be shown and written.
 *
 * A comm is the task's to choose (prctl), a cgroup path whoever may make a
 * cgroup's (a delegated systemd subtree, a container): both reach the
 * terminal, CSV, JSON, Influx and the exposition. Every source cleans them
 * where they come in, so no view needs to: valid UTF-8, no control
 * characters (C0, DEL, C1); anything else becomes '?', byte by byte.
 */
#ifndef DTL_NAME_H
#define DTL_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* Cleans s in place (it never grows); returns its new length. */
size_t dtl_name__clean(char *s);
/* Whether s is clean already: what a name a person typed must be. */
bool dtl_name__is_clean(const char *s);
/* The bytes of the first chars characters of s (all of s if shorter), never half of one. */
size_t dtl_name__prefix(const char *s, int chars);
/* Characters (code points) of a clean name: its width in a column. */
size_t dtl_name__chars(const char *s);
/*
 * s in a column of width characters, read from the left: cut at a
 * character's end, never inside one, then padded with spaces.
 */
void dtl_name__fit(char *dst, size_t len, const char *s, int width);
/*
 * The same, a name too long elided in the middle ("/system.s...c0d.scope", with U+2026):
 * its end, where a cgroup's unit and a container's hash are, is kept longer.
 */
void dtl_name__elide(char *dst, size_t len, const char *s, int width);

#endif
