/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ksyms.h - kernel addresses to function names, from /proc/kallsyms: where
 * in the kernel an involuntary preempt hit (srr0). The parser takes text.
 */
#ifndef DTL_KSYMS_H
#define DTL_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct dtl_ksyms;

/*
 * Parse kallsyms text (len bytes): its text symbols, sorted. NULL with a
 * one-line reason in why: out of memory, no symbol, or every address 0
 * (kptr_restrict hides them).
 */
struct dtl_ksyms *dtl_ksyms__parse(const char *text, size_t len, char *why, size_t whylen);
/* Read root/proc/kallsyms (and say what kptr_restrict is where it hides them). */
struct dtl_ksyms *dtl_ksyms__load(const char *root, char *why, size_t whylen);
void dtl_ksyms__free(struct dtl_ksyms *k);
/*
 * Open root/proc/kallsyms now, while privileged, for a later load: the
 * kernel shows addresses by the opener's privileges, not the reader's.
 */
void dtl_ksyms__keep_open(const char *root);
/* The symbol at or below addr: its address and name (valid while k is); -1 none. */
int dtl_ksyms__find(const struct dtl_ksyms *k, uint64_t addr, uint64_t *start, const char **name);
/* "name+0x1c" for addr into buf; 0, or -1 where no symbol is at or below addr. */
int dtl_ksyms__name(const struct dtl_ksyms *k, uint64_t addr, char *buf, size_t len);

#endif
