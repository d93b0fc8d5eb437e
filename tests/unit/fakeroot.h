/* SPDX-License-Identifier: GPL-2.0-only */
/* A temporary directory that stands in for "/" (--root). */
#ifndef FAKEROOT_H
#define FAKEROOT_H

#include <stddef.h>

/* Returns a static path to a new empty directory. */
const char *fakeroot_new(void);
/* Writes a file under the root, creating the directories above it. */
void fakeroot_write(const char *root, const char *rel, const void *data, size_t len);
void fakeroot_puts(const char *root, const char *rel, const char *text);
/* Reads a file under the root into buf (NUL-terminated); returns length or -1. */
long fakeroot_read(const char *root, const char *rel, char *buf, size_t len);
void fakeroot_free(const char *root);

#endif
