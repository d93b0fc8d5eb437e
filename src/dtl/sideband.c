/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sideband.c - who runs where, from perf's side-band records. The trailer
 * (sample_id_all) sits at a record's end, so it is found from there; the
 * body's length then follows from what is left.
 */
#include "sideband.h"

#include <stdbool.h>
#include <string.h>

#include "aux.h"
#include "name.h"
#include "scale.h"

#define REC_LOST 2
#define REC_COMM 3
#define REC_EXIT 4
#define REC_FORK 7
#define REC_SWITCH 14
#define REC_SWITCH_CPU_WIDE 15
#define MISC_SWITCH_OUT (1u << 13)
#define MAX_REC 256		/* ours are under 100 bytes; longer ones are only walked */

static uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);	/* the recording machine's endian: ppc64le */
	return v;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* The trailer's size, and where TID, TIME and CPU are in it (-1: absent). */
struct trailer {
	size_t size;
	int tid, time, cpu;
};

static struct trailer trailer(uint64_t st)
{
	static const uint64_t order[] = { DTL_SAMPLE_TID, DTL_SAMPLE_TIME, DTL_SAMPLE_ID,
					  DTL_SAMPLE_STREAM_ID, DTL_SAMPLE_CPU,
					  DTL_SAMPLE_IDENTIFIER };
	struct trailer t = { 0, -1, -1, -1 };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(st & order[i]))
			continue;
		if (order[i] == DTL_SAMPLE_TID)
			t.tid = (int)t.size;
		else if (order[i] == DTL_SAMPLE_TIME)
			t.time = (int)t.size;
		else if (order[i] == DTL_SAMPLE_CPU)
			t.cpu = (int)t.size;
		t.size += 8;
	}
	return t;
}

static int parse(const uint8_t *rec, size_t size, const struct trailer *tr, struct dtl_sb *out)
{
	size_t body;
	uint32_t type;
	uint16_t misc;
	const uint8_t *t;

	if (size < 8)
		return -1;
	type = le32(rec);
	memcpy(&misc, rec + 4, 2);
	if (type != REC_LOST && type != REC_COMM && type != REC_EXIT && type != REC_FORK &&
	    type != REC_SWITCH && type != REC_SWITCH_CPU_WIDE)
		return 0;
	if (tr->tid < 0 || tr->time < 0)
		return 0;	/* no time or task: of no use to us */
	if (size < 8 + tr->size)
		return -1;
	body = size - 8 - tr->size;
	t = rec + size - tr->size;
	out->ns = le64(t + tr->time);
	out->pid = (int32_t)le32(t + tr->tid);
	out->cpu = tr->cpu >= 0 ? le32(t + tr->cpu) : UINT32_MAX;
	out->ppid = 0;
	out->lost = 0;
	out->comm[0] = '\0';
	switch (type) {
	case REC_LOST:
		if (body < 16)
			return -1;
		out->kind = DTL_SB_LOST;
		out->lost = le64(rec + 16);
		return 1;
	case REC_COMM:
		/* pid, tid, then the name, NUL-padded to 8 bytes */
		if (body < 8 + 8)
			return -1;
		if (le32(rec + 8) != le32(rec + 12))
			return 0;	/* a thread's own name: the process keeps its leader's */
		out->kind = DTL_SB_COMM;
		out->pid = (int32_t)le32(rec + 8);
		memset(out->comm, 0, sizeof(out->comm));
		memcpy(out->comm, rec + 16, body - 8 < sizeof(out->comm) ? body - 8 : sizeof(out->comm));
		out->comm[sizeof(out->comm) - 1] = '\0';
		dtl_name__clean(out->comm);
		return 1;
	case REC_EXIT:
		if (body < 24)
			return -1;
		out->kind = DTL_SB_EXIT;
		out->pid = (int32_t)le32(rec + 8);
		return 1;
	case REC_FORK:
		/* pid, ppid, tid, ptid, time; a new thread of a process is no new name */
		if (body < 24)
			return -1;
		if (le32(rec + 8) == le32(rec + 12))
			return 0;
		out->kind = DTL_SB_FORK;
		out->pid = (int32_t)le32(rec + 8);
		out->ppid = (int32_t)le32(rec + 12);
		return 1;
	default:
		/*
		 * Out of a CPU: the next task is in the body. Into it: the trailer
		 * is the incoming task's, as the record is written from it.
		 */
		out->kind = DTL_SB_SWITCH;
		if (misc & MISC_SWITCH_OUT) {
			if (type != REC_SWITCH_CPU_WIDE)
				return 0;	/* a per-task event: says nothing of who comes next */
			if (body < 8)
				return -1;
			out->pid = (int32_t)le32(rec + 8);
		}
		return out->pid >= 0 ? 1 : -1;
	}
}

int dtl_sb__parse(const uint8_t *rec, size_t size, uint64_t st, struct dtl_sb *out)
{
	struct trailer tr = trailer(st);

	memset(out, 0, sizeof(*out));
	return parse(rec, size, &tr, out);
}

/*
 * A CPU-wide switch is written twice, OUT from the task leaving (naming the
 * next) and IN from the next: the IN that follows its OUT says nothing new.
 * Half the records, so it is known by its header and trailer alone, before
 * anything is parsed or stored.
 */
static bool in_after_out(const uint8_t *p, size_t len, const struct trailer *tr,
			 int32_t announced)
{
	uint16_t misc;

	memcpy(&misc, p + 4, 2);
	return announced >= 0 && le32(p) == REC_SWITCH_CPU_WIDE && !(misc & MISC_SWITCH_OUT) &&
	       tr->tid >= 0 && len >= 8 + tr->size &&
	       (int32_t)le32(p + len - tr->size + tr->tid) == announced;
}

/* The task a CPU-wide OUT named, until its IN; -1 after anything else that counts. */
static int32_t next_announced(const uint8_t *p, int rc, const struct dtl_sb *sb,
			      int32_t announced)
{
	uint16_t misc;

	if (rc > 0 && sb->kind == DTL_SB_SWITCH && le32(p) == REC_SWITCH_CPU_WIDE) {
		memcpy(&misc, p + 4, 2);
		return misc & MISC_SWITCH_OUT ? sb->pid : -1;
	}
	/* lost records between: the IN may be news; one of no use to us leaves it be */
	return rc ? -1 : announced;
}

uint64_t dtl_sb__ring(const uint8_t *base, uint64_t size, uint64_t tail, uint64_t head,
		      uint64_t st, struct dtl_sb *out, size_t max, size_t *n, uint64_t *bad)
{
	struct trailer tr = trailer(st);
	/* perf's rings are a power of two: a mask, not a division, per record */
	uint64_t mask = size && !(size & (size - 1)) ? size - 1 : 0;
	uint8_t rec[MAX_REC];
	int32_t announced = -1;		/* the task a CPU-wide OUT named, until its IN */

	*n = 0;
	if (head < tail || head - tail > size) {
		(*bad)++;
		return head;
	}
	while (head - tail >= 8 && *n < max) {
		uint64_t off = mask ? tail & mask : tail % size;
		const uint8_t *p = base + off;
		uint16_t len;
		int rc;

		if (off + 8 > size) {
			dtl_ring__copy(base, size, tail, rec, 8);
			p = rec;
		}
		memcpy(&len, p + 6, 2);
		if (len < 8 || len > head - tail) {
			(*bad)++;
			return head;
		}
		if (len <= MAX_REC) {
			/* read in place; only a record across the ring's end is copied */
			if (off + len > size) {
				dtl_ring__copy(base, size, tail, rec, len);
				p = rec;
			}
			if (in_after_out(p, len, &tr, announced)) {
				announced = -1;
				tail += len;
				continue;
			}
			rc = parse(p, len, &tr, &out[*n]);
			announced = next_announced(p, rc, &out[*n], announced);
			if (rc > 0)
				(*n)++;
			else if (rc < 0)
				(*bad)++;
		}
		tail += len;
	}
	return tail;
}

uint64_t dtl_sb__tb(uint64_t ns, uint64_t boot_tb, uint64_t tb_freq)
{
	if (!tb_freq)
		return 0;
	return boot_tb + dtl_scale__ns_tb(ns, tb_freq);
}
