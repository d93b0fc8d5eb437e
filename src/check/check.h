/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - dtltop --check: on the machine it runs on, what works and why
 * not, one line each, the output an admin pastes into a bug report.
 *
 * facts.c reads what the machine says (the DTL interfaces, lockdown, the
 * privileges, lparcfg); run.c runs the source asked for a few seconds and
 * says what came (entries, the switch stream and its clock, steal against
 * the VPA and /proc/stat). Each line is one struct dtl_check_line.
 */
#ifndef DTL_CHECK_H
#define DTL_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "../opts/opts.h"

enum dtl_check_state { DTL_CHECK_OK, DTL_CHECK_NO, DTL_CHECK_INFO };

struct dtl_check_line {
	enum dtl_check_state state;
	const char *what;	/* "pmu", "debugfs", ... */
	char text[480];
};

/* Fills l: its state, its name, its text as printf would make it. */
void dtl_check__say(struct dtl_check_line *l, enum dtl_check_state s, const char *what,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The machine's facts under o's --root: up to max lines into out, how many. */
size_t dtl_check__facts(const struct dtl_opts *o, struct dtl_check_line *out, size_t max);
/*
 * Runs o's source for a few intervals: lines into out (how many in *n); true
 * when what o asks for works (the DTL from the source asked, who pays where
 * --group asks for it).
 */
bool dtl_check__run_source(const struct dtl_opts *o, struct dtl_check_line *out, size_t max,
			   size_t *n);
/* The lines, then a last one saying whether what was asked works: the exit status, 0 or 1. */
int dtl_check__print(const struct dtl_opts *o, FILE *f);

#endif
