/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vpa.c - decode the fields dtltop reads from a VPA (offsets from
 * arch/powerpc/include/asm/lppaca.h).
 */
#include "vpa.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sys.h"

#define OFF_DTL_ENABLE_MASK 0xb8
#define OFF_YIELD_COUNT 0x100
#define OFF_DISPERSION_COUNT 0x104
#define OFF_ENQUEUE_DISPATCH_TB 0x158
#define OFF_READY_ENQUEUE_TB 0x160
#define OFF_WAIT_READY_TB 0x168
#define OFF_DTL_IDX 0x218

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

int dtl_vpa__decode(const uint8_t *buf, size_t len, struct dtl_vpa *v)
{
	memset(v, 0, sizeof(*v));
	if (len < OFF_DTL_IDX + 8)
		return -1;
	v->dtl_enable_mask = buf[OFF_DTL_ENABLE_MASK];
	v->yield_count = be32(buf + OFF_YIELD_COUNT);
	v->dispersion_count = be32(buf + OFF_DISPERSION_COUNT);
	v->enqueue_dispatch_tb = be64(buf + OFF_ENQUEUE_DISPATCH_TB);
	v->ready_enqueue_tb = be64(buf + OFF_READY_ENQUEUE_TB);
	v->wait_ready_tb = be64(buf + OFF_WAIT_READY_TB);
	v->dtl_idx = be64(buf + OFF_DTL_IDX);
	return 0;
}

int dtl_vpa__read(const char *root, unsigned int cpu, struct dtl_vpa *v, char *err,
		  size_t errlen)
{
	char rel[64], path[4200];
	uint8_t buf[DTL_VPA_SIZE + 1];
	long n;

	snprintf(rel, sizeof(rel), DTL_VPA_DIR "/cpu-%u", cpu);
	n = dtl_sys__read(root, rel, (char *)buf, sizeof(buf));
	if (n < 0 || dtl_vpa__decode(buf, (size_t)n, v)) {
		dtl_sys__path(path, sizeof(path), root, rel);
		snprintf(err, errlen, "%s: %s", path, n < 0 ? strerror(errno) :
			 "too short for a VPA (want 640 bytes)");
		return -1;
	}
	return 0;
}

uint64_t dtl_vpa__registered_at(const struct dtl_vpa *before, const struct dtl_vpa *after)
{
	if (!before->dtl_enable_mask || after->dtl_idx < before->dtl_idx)
		return 0;
	return before->dtl_idx;
}

bool dtl_vpa__delta(const struct dtl_vpa *last, const struct dtl_vpa *now, struct dtl_vpa_delta *d)
{
	if (now->enqueue_dispatch_tb < last->enqueue_dispatch_tb ||
	    now->ready_enqueue_tb < last->ready_enqueue_tb || now->wait_ready_tb < last->wait_ready_tb)
		return false;
	/* yield_count steps at the yield and at the dispatch; 32 bits, so it wraps */
	d->dispatches = (uint32_t)(now->yield_count - last->yield_count) / 2;
	d->dispersions = (uint32_t)(now->dispersion_count - last->dispersion_count);
	d->steal_ticks = (now->enqueue_dispatch_tb - last->enqueue_dispatch_tb) +
			 (now->ready_enqueue_tb - last->ready_enqueue_tb);
	d->idle_ticks = now->wait_ready_tb - last->wait_ready_tb;
	return true;
}
