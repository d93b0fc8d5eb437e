/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aux.c - take DTL entries out of an AUX ring image, and perf records out of
 * a main ring image. The trick for both: absolute positions, reduced modulo
 * the size only to address bytes, so wraps are arithmetic, not state.
 */
#include "aux.h"

#include <string.h>

#include "dtl.h"

#define PERF_RECORD_LOST 2
#define PERF_RECORD_AUX 11
#define AUX_FLAG_TRUNCATED 0x01
#define AUX_FLAG_PARTIAL 0x04
#define AUX_FLAG_COLLISION 0x08

void dtl_aux__init(struct dtl_aux *a, uint64_t size, bool upstream)
{
	memset(a, 0, sizeof(*a));
	a->size = size;
	a->upstream = upstream;
}

static void ring_copy(const uint8_t *base, uint64_t size, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos % size;
	size_t first = len < size - off ? len : (size_t)(size - off);

	memcpy(dst, base + off, first);
	if (len > first)
		memcpy((uint8_t *)dst + first, base, len - first);
}

/* Accept a record: the stream's first may be the boot-timebase header. */
static bool take(struct dtl_aux *a, const uint8_t *rec)
{
	uint64_t tb;

	memcpy(&tb, rec + 16, sizeof(tb));
	if (tb != 0)
		return true;
	if (!a->header_seen) {
		memcpy(&a->boot_tb, rec, 8);
		memcpy(&a->tb_freq, rec + 8, 8);
		a->header_seen = true;
	} else {
		a->bad_records++;
	}
	return false;
}

size_t dtl_aux__consume(struct dtl_aux *a, const uint8_t *base, uint64_t head,
			uint8_t *out, size_t max)
{
	uint64_t limit = a->upstream ? (a->size - 32) / DTL_ENTRY_SIZE * DTL_ENTRY_SIZE : a->size;
	size_t n = 0;

	if (!a->size || head < a->pos || head - a->pos > a->size) {
		a->junk_bytes += head > a->pos ? head - a->pos : 0;
		a->pos = head;
		return 0;
	}
	if (!a->upstream) {
		/* A true ring: one or two memcpy for the lot, then check timebases. */
		uint64_t avail = (head - a->pos) / DTL_ENTRY_SIZE;
		size_t take_n, k = 0;

		if (!a->header_seen && avail) {
			uint8_t first[DTL_ENTRY_SIZE];

			ring_copy(base, a->size, a->pos, first, DTL_ENTRY_SIZE);
			if (!take(a, first)) {
				a->pos += DTL_ENTRY_SIZE;
				avail--;
			}
		}
		take_n = avail < max ? (size_t)avail : max;

		ring_copy(base, a->size, a->pos, out, take_n * DTL_ENTRY_SIZE);
		a->pos += take_n * DTL_ENTRY_SIZE;
		for (size_t i = 0; i < take_n; i++) {
			uint8_t *rec = out + i * DTL_ENTRY_SIZE;

			if (!take(a, rec))
				continue;
			if (k != i)
				memmove(out + k * DTL_ENTRY_SIZE, rec, DTL_ENTRY_SIZE);
			k++;
		}
		return k;
	}
	while (n < max && head - a->pos >= DTL_ENTRY_SIZE) {
		uint64_t off = a->pos % a->size;

		if (a->upstream) {
			uint64_t skip = 0;

			if (off >= limit)
				skip = a->size - off;	/* the junk above threshold */
			else if (off % DTL_ENTRY_SIZE)
				skip = DTL_ENTRY_SIZE - off % DTL_ENTRY_SIZE;
			if (skip) {
				if (skip > head - a->pos)
					skip = head - a->pos;
				a->junk_bytes += skip;
				a->pos += skip;
				continue;
			}
		}
		ring_copy(base, a->size, a->pos, out + n * DTL_ENTRY_SIZE, DTL_ENTRY_SIZE);
		a->pos += DTL_ENTRY_SIZE;
		if (take(a, out + n * DTL_ENTRY_SIZE))
			n++;
	}
	/* Upstream: a junk tail shorter than a record is still junk. */
	if (a->upstream && n < max && head > a->pos && a->pos % a->size >= limit) {
		a->junk_bytes += head - a->pos;
		a->pos = head;
	}
	return n;
}

uint64_t dtl_ring__parse(const uint8_t *base, uint64_t size, uint64_t tail, uint64_t head,
			 struct dtl_ring_news *news)
{
	if (head < tail || head - tail > size) {
		news->bad++;
		return head;
	}
	while (head - tail >= 8) {
		uint8_t rec[64];
		uint32_t type;
		uint16_t len;

		ring_copy(base, size, tail, rec, 8);
		memcpy(&type, rec, 4);
		memcpy(&len, rec + 6, 2);
		if (len < 8 || len > head - tail || len % 8) {
			news->bad++;
			return head;
		}
		if (type == PERF_RECORD_AUX && len >= 8 + 24) {
			uint64_t flags;

			ring_copy(base, size, tail, rec, 8 + 24);
			memcpy(&flags, rec + 8 + 16, 8);
			news->aux_records++;
			news->truncated += !!(flags & AUX_FLAG_TRUNCATED);
			news->partial += !!(flags & AUX_FLAG_PARTIAL);
			news->collision += !!(flags & AUX_FLAG_COLLISION);
		} else if (type == PERF_RECORD_LOST && len >= 8 + 16) {
			uint64_t lost;

			ring_copy(base, size, tail, rec, 8 + 16);
			memcpy(&lost, rec + 16, 8);
			news->lost += lost;
		}
		news->records++;
		tail += len;
	}
	return tail;
}
