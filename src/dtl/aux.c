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

void dtl_aux__init(struct dtl_aux *a, uint64_t size, enum dtl_aux_layout layout)
{
	memset(a, 0, sizeof(*a));
	a->size = size;
	a->layout = layout;
}

const char *dtl_aux__layout_name(enum dtl_aux_layout layout)
{
	return layout == DTL_AUX_RING ? "ring" : layout == DTL_AUX_UPSTREAM ? "6.18" :
	       "not yet known";
}

static uint64_t upstream_limit(uint64_t size)
{
	return size > 32 ? (size - 32) / DTL_ENTRY_SIZE * DTL_ENTRY_SIZE : 0;
}

/* aux.h: which driver wrote the ring, from where its head stands */
static void learn(struct dtl_aux *a, uint64_t head)
{
	if (head % DTL_ENTRY_SIZE)
		a->layout = DTL_AUX_UPSTREAM;
	else if (head > upstream_limit(a->size) && a->pos <= upstream_limit(a->size))
		a->layout = DTL_AUX_RING;
}

void dtl_ring__copy(const uint8_t *base, uint64_t size, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos % size;
	size_t first = len < size - off ? len : (size_t)(size - off);

	memcpy(dst, base + off, first);
	if (len > first)
		memcpy((uint8_t *)dst + first, base, len - first);
}

/* The stream's first record may be the boot-timebase header: take it aside. */
static bool header(struct dtl_aux *a, const uint8_t *rec)
{
	uint64_t tb;

	a->header_seen = true;
	memcpy(&tb, rec + 16, sizeof(tb));
	if (tb != 0)
		return false;
	memcpy(&a->boot_tb, rec, 8);
	memcpy(&a->tb_freq, rec + 8, 8);
	return true;
}

/* Skip what upstream's layout never fills; true when pos is at a record. */
static bool upstream_align(struct dtl_aux *a, uint64_t head, uint64_t limit)
{
	uint64_t off = a->pos % a->size, skip = 0;

	if (off >= limit)
		skip = a->size - off;	/* the junk above threshold */
	else if (off % DTL_ENTRY_SIZE)
		skip = DTL_ENTRY_SIZE - off % DTL_ENTRY_SIZE;
	if (skip > head - a->pos)
		skip = head - a->pos;	/* a junk tail shorter than a record is junk too */
	a->junk_bytes += skip;
	a->pos += skip;
	return !skip;
}

size_t dtl_aux__next(struct dtl_aux *a, const uint8_t *base, uint64_t head, size_t max,
		     uint8_t bounce[DTL_ENTRY_SIZE], const uint8_t **run)
{
	uint64_t limit;

	if (a->layout == DTL_AUX_UNKNOWN && a->size && head >= a->pos && head - a->pos <= a->size)
		learn(a, head);
	limit = a->layout == DTL_AUX_UPSTREAM ? upstream_limit(a->size) : a->size;
	if (!a->size || head < a->pos || head - a->pos > a->size) {
		a->junk_bytes += head > a->pos ? head - a->pos : 0;
		a->pos = head;
		return 0;
	}
	while (max && head - a->pos >= DTL_ENTRY_SIZE) {
		uint64_t off = a->pos % a->size, n;
		const uint8_t *p;

		if (a->layout == DTL_AUX_UPSTREAM && !upstream_align(a, head, limit))
			continue;
		if (off + DTL_ENTRY_SIZE > a->size) {
			/* the one record that straddles the end of our ring */
			dtl_ring__copy(base, a->size, a->pos, bounce, DTL_ENTRY_SIZE);
			p = bounce;
			n = 1;
		} else {
			p = base + off;
			n = (head - a->pos) / DTL_ENTRY_SIZE;
			if (n > (limit - off) / DTL_ENTRY_SIZE)
				n = (limit - off) / DTL_ENTRY_SIZE;
			if (n > max)
				n = max;
		}
		/*
		 * Only the first record is looked at here: a later zero timebase
		 * goes on to the stats, which count it bad, so the run is never
		 * read twice.
		 */
		if (!a->header_seen && header(a, p)) {
			a->pos += DTL_ENTRY_SIZE;
			continue;
		}
		a->pos += n * DTL_ENTRY_SIZE;
		*run = p;
		return (size_t)n;
	}
	if (max && a->layout == DTL_AUX_UPSTREAM && head > a->pos)
		upstream_align(a, head, limit);
	return 0;
}

size_t dtl_aux__consume(struct dtl_aux *a, const uint8_t *base, uint64_t head,
			uint8_t *out, size_t max)
{
	uint8_t bounce[DTL_ENTRY_SIZE];
	const uint8_t *run;
	size_t n = 0, k;

	while (n < max && (k = dtl_aux__next(a, base, head, max - n, bounce, &run))) {
		memcpy(out + n * DTL_ENTRY_SIZE, run, k * DTL_ENTRY_SIZE);
		n += k;
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

		dtl_ring__copy(base, size, tail, rec, 8);
		memcpy(&type, rec, 4);
		memcpy(&len, rec + 6, 2);
		if (len < 8 || len > head - tail || len % 8) {
			news->bad++;
			return head;
		}
		if (type == PERF_RECORD_AUX && len >= 8 + 24) {
			uint64_t flags;

			dtl_ring__copy(base, size, tail, rec, 8 + 24);
			memcpy(&flags, rec + 8 + 16, 8);
			news->aux_records++;
			news->truncated += !!(flags & AUX_FLAG_TRUNCATED);
			news->partial += !!(flags & AUX_FLAG_PARTIAL);
			news->collision += !!(flags & AUX_FLAG_COLLISION);
		} else if (type == PERF_RECORD_LOST && len >= 8 + 16) {
			uint64_t lost;

			dtl_ring__copy(base, size, tail, rec, 8 + 16);
			memcpy(&lost, rec + 16, 8);
			news->lost += lost;
		}
		news->records++;
		tail += len;
	}
	return tail;
}
