/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * request.h - what a viewer may ask of the service on its socket (dtltop
 * --attach, --serve): 8 bytes, the magic "DTLQ", a u8 kind, a u8 value,
 * two zero bytes. The only kind: the event mask (value 1 to 7). Pure,
 * fuzzed: the service reads its viewers' bytes as any outside input.
 */
#ifndef DTL_FORMAT_REQUEST_H
#define DTL_FORMAT_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#define DTL_REQ_LEN 8
#define DTL_REQ_MASK 1

/* A request for the event mask into out. */
void dtl_req__mask(uint8_t out[DTL_REQ_LEN], unsigned int mask);
/*
 * The whole requests in buf (len bytes) to fn(ctx, kind, value), in order;
 * bytes that are not one are passed over to the next magic, each run of
 * them counted in *bad. Returns the bytes taken: what is left (a request
 * cut short) begins the next read.
 */
size_t dtl_req__parse(const uint8_t *buf, size_t len,
		      void (*fn)(void *ctx, unsigned int kind, unsigned int value), void *ctx,
		      uint64_t *bad);

#endif
