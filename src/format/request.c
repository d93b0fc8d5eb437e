/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * request.c - a viewer's requests to the service.
 */
#include "request.h"

#include <string.h>

#include "../dtl/dtl.h"

static const uint8_t magic[4] = { 'D', 'T', 'L', 'Q' };

void dtl_req__mask(uint8_t out[DTL_REQ_LEN], unsigned int mask)
{
	memcpy(out, magic, 4);
	out[4] = DTL_REQ_MASK;
	out[5] = (uint8_t)mask;
	out[6] = out[7] = 0;
}

static int valid(const uint8_t *p)
{
	return p[4] == DTL_REQ_MASK && p[5] >= 1 && p[5] <= DTL_MASK_ALL && !p[6] && !p[7];
}

size_t dtl_req__parse(const uint8_t *buf, size_t len,
		      void (*fn)(void *ctx, unsigned int kind, unsigned int value), void *ctx,
		      uint64_t *bad)
{
	size_t at = 0;
	int junk = 0;

	while (len - at >= DTL_REQ_LEN) {
		if (!memcmp(buf + at, magic, 4) && valid(buf + at)) {
			fn(ctx, buf[at + 4], buf[at + 5]);
			at += DTL_REQ_LEN;
			junk = 0;
			continue;
		}
		*bad += !junk;	/* one count a run of what is not a request */
		junk = 1;
		at++;
	}
	/* a tail that cannot begin a request is not kept for the next read */
	while (at < len && memcmp(buf + at, magic, len - at < 4 ? len - at : 4)) {
		*bad += !junk;
		junk = 1;
		at++;
	}
	return at;
}
