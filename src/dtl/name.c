// SPDX-License-Identifier: GPL-2.0-only
/*
 * name.c - clean names: valid UTF-8 without control characters.
 */
#include "name.h"

#include <stdint.h>
#include <stdio.h>

/*
 * The length of the character at s if it is valid UTF-8 and no control
 * character, else 0. Overlong forms, surrogates and code points past
 * U+10FFFF are not UTF-8 (RFC 3629); C1 controls are U+0080..U+009F.
 */
static size_t good_char(const unsigned char *s)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* a NUL ends it here too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return n;
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

void dtl_name__fit(char *dst, size_t len, const char *s, int width)
{
	size_t o = 0;
	int w = 0;

	if (!len)
		return;
	for (; *s && w < width; w++) {
		size_t n = 1;

		while (((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
		if (o + n >= len)
			break;
		for (size_t i = 0; i < n; i++)
			dst[o++] = *s++;
	}
	for (; w < width && o + 1 < len; w++)
		dst[o++] = ' ';
	dst[o] = '\0';
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
	for (int k = 0; k < n - tail; k++) {
		s++;
		while (((unsigned char)*s & 0xc0) == 0x80)
			s++;
	}
	snprintf(dst, len, "%s\xe2\x80\xa6%s", head, s);	/* U+2026, the ellipsis */
}
