/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recset.h - a rotated recording (-w FILE --rotate): FILE.1, FILE.2, ...,
 * each a whole recording beginning where the one before ended; the oldest
 * may be gone (KEEP). -r FILE, where FILE itself is absent, reads the set.
 */
#ifndef DTL_RECSET_H
#define DTL_RECSET_H

#include <stdbool.h>
#include <stddef.h>

/* "FILE.N" */
void dtl_rec_set__path(const char *base, unsigned int n, char *buf, size_t len);
/* Whether base is absent and base.N exist: the lowest N into *first. */
bool dtl_rec_set__find(const char *base, unsigned int *first);
/* Whether a base.M with M > n is present: the lowest such M into *next. */
bool dtl_rec_set__after(const char *base, unsigned int n, unsigned int *next);
/* The highest N with base.N present, or 0: a new set numbers on from it. */
unsigned int dtl_rec_set__highest(const char *base);
/* Whether path is "BASE.N" (N from 1): BASE into base, N into *n. */
bool dtl_rec_set__member(const char *path, char *base, size_t len, unsigned int *n);

#endif
