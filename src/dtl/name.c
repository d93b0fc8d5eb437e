// SPDX-License-Identifier: GPL-2.0-only
/*
 * name.c - clean names: valid UTF-8 without control characters.
 */
#include "name.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dtl.h"

/* The length of the character at s if it is UTF-8 (dtl.h) and no control, else 0. */
static size_t good_char(const unsigned char *s)
{
	uint32_t cp;
	size_t n = dtl_utf8__char(s, &cp);

	return n && cp >= 0x20 && !(cp >= 0x7f && cp <= 0x9f) ? n : 0;
}

size_t dtl_name__clean(char *s)
{
	unsigned char *in = (unsigned char *)s, *out = in;

	while (*in) {
		size_t n = good_char(in);

		if (!n) {
			*out++ = '?';
			in++;
			continue;
		}
		while (n--)
			*out++ = *in++;
	}
	*out = '\0';
	return (size_t)(out - (unsigned char *)s);
}

bool dtl_name__is_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = good_char(p);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

size_t dtl_name__chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

size_t dtl_name__prefix(const char *s, int chars)
{
	size_t n = 0;

	/* a UTF-8 continuation byte starts no character */
	for (; s[n] && chars > 0; n++)
		chars -= ((unsigned char)s[n] & 0xc0) != 0x80;
	while (((unsigned char)s[n] & 0xc0) == 0x80)
		n++;	/* never half a character */
	return n;
}

void dtl_name__fit(char *dst, size_t len, const char *s, int width)
{
	size_t n = 0, next;
	int w = 0;

	if (!len)
		return;
	/* whole characters, as many as the width and the buffer take */
	for (; w < width && s[n] && (next = n + dtl_name__prefix(s + n, 1)) < len; w++)
		n = next;
	memcpy(dst, s, n);
	for (; w < width && n + 1 < len; w++)
		dst[n++] = ' ';
	dst[n] = '\0';
}

void dtl_name__elide(char *dst, size_t len, const char *s, int width)
{
	int n = (int)dtl_name__chars(s), tail;
	char head[256];

	if (n <= width || width < 5) {
		dtl_name__fit(dst, len, s, width);
		return;
	}
	tail = (width - 1) * 2 / 3;
	dtl_name__fit(head, sizeof(head), s, width - 1 - tail);
	/* past the characters that are neither the head's nor the tail's */
	snprintf(dst, len, "%s\xe2\x80\xa6%s", head, s + dtl_name__prefix(s, n - tail));
}
