/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * switches.h - recording format 1.3's task switches (record kind 12), the
 * stream who pays is made from; man/dtltop-format.5 specifies the bytes.
 * Pure: a writer packs into its buffer, a reader unpacks from its chunk.
 */
#ifndef DTL_FORMAT_SWITCHES_H
#define DTL_FORMAT_SWITCHES_H

#include <stddef.h>
#include <stdint.h>

#include "../dtl/switch.h"

#define DTL_REC_COMM_MAX 16	/* a comm's bytes, as the kernel's TASK_COMM_LEN - 1 */
#define DTL_REC_CGROUP_MAX 127	/* a cgroup's bytes kept */

/* The bytes n switches take. */
size_t dtl_rec_switches__size(const struct dtl_switch *sw, size_t n);
/* Pack n switches at p (dtl_rec_switches__size bytes). */
void dtl_rec_switches__pack(uint8_t *p, const struct dtl_switch *sw, size_t n);
/*
 * Unpack a record's body of len bytes: up to max switches into out, their
 * names into text (textcap bytes, NUL-terminated, pointed to by out). The
 * count; *bad true where the body did not end on a whole switch.
 */
size_t dtl_rec_switches__unpack(const uint8_t *p, size_t len, struct dtl_switch *out, size_t max,
				char *text, size_t textcap, int *bad);
/*
 * The same, skimmed: of the switches unpack would read, only those that
 * name their task (a comm or a cgroup) and the last, what a reader that
 * charges no entry needs to know who runs next. Each is as unpack makes it.
 */
size_t dtl_rec_switches__skim(const uint8_t *p, size_t len, struct dtl_switch *out, size_t max,
			      char *text, size_t textcap, int *bad);

#endif
