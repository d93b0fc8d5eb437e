/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dtl.c - reason tables, encoding and event-mask text for DTL entries.
 *
 * The tables are the one place reason names live: the stats, the CSV schema,
 * the TUI legend and the man-page check all index them.
 */
#include "dtl.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const dtl_dispatch_names[DTL_N_DISPATCH] = {
	"external_interrupt",
	"firmware_internal_event",
	"H_PROD",
	"decrementer_interrupt",
	"system_reset",
	"firmware_internal_event",
	"conferred_cycles",
	"time_slice",
	"virtual_memory_page_fault",
	"expropriated_adjunct",
	"priv_doorbell",
};

const char *const dtl_preempt_names[DTL_N_PREEMPT] = {
	"unused",
	"firmware_internal_event",
	"H_CEDE",
	"H_CONFER",
	"time_slice",
	"migration_hibernation_page_fault",
	"virtual_memory_page_fault",
	"H_CONFER_ADJUNCT",
	"hcall_adjunct",
	"HDEC_adjunct",
};

const char *dtl_dispatch__name(unsigned int code)
{
	return code < DTL_N_DISPATCH ? dtl_dispatch_names[code] : "other";
}

const char *dtl_preempt__name(unsigned int code)
{
	return code < DTL_N_PREEMPT ? dtl_preempt_names[code] : "other";
}

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

void dtl_rec__encode(const struct dtl_rec *r, uint8_t *p)
{
	p[0] = r->dispatch_reason;
	p[1] = r->preempt_reason;
	put_be(p + 2, r->processor_id, 2);
	put_be(p + 4, r->enqueue_to_dispatch, 4);
	put_be(p + 8, r->ready_to_enqueue, 4);
	put_be(p + 12, r->waiting_to_ready, 4);
	put_be(p + 16, r->timebase, 8);
	put_be(p + 24, r->fault_addr, 8);
	put_be(p + 32, r->srr0, 8);
	put_be(p + 40, r->srr1, 8);
}

/*
 * PAPR names three mask bits: voluntary waits, time-slice preempts and
 * page faults. The other reasons are sorted to the bit whose kind they are
 * (an hcall made by the adjunct is voluntary, firmware and HDEC preempt the
 * vCPU); this is our reading, used by the simulator and user-space filters.
 */
unsigned int dtl_preempt__mask_bit(unsigned int code)
{
	switch (code) {
	case 2: case 3: case 7: case 8:
		return DTL_MASK_CEDE;
	case 5: case 6:
		return DTL_MASK_FAULT;
	default:
		return DTL_MASK_PREEMPT;
	}
}

static const struct {
	const char *word;
	unsigned int bits;
} mask_words[] = {
	{ "cede", DTL_MASK_CEDE },
	{ "preempt", DTL_MASK_PREEMPT },
	{ "fault", DTL_MASK_FAULT },
	{ "all", DTL_MASK_ALL },
};

int dtl_mask__parse(const char *s, unsigned int *mask, const char **bad)
{
	static char word[32];
	unsigned int m = 0;

	while (*s) {
		size_t n = strcspn(s, ",");
		size_t i;

		for (i = 0; i < sizeof(mask_words) / sizeof(mask_words[0]); i++)
			if (n == strlen(mask_words[i].word) &&
			    strncasecmp(s, mask_words[i].word, n) == 0)
				break;
		if (i == sizeof(mask_words) / sizeof(mask_words[0])) {
			snprintf(word, sizeof(word), "%.*s", (int)(n < 31 ? n : 31), s);
			if (bad)
				*bad = word;
			return -1;
		}
		m |= mask_words[i].bits;
		s += n;
		if (*s == ',')
			s++;
	}
	if (!m) {
		if (bad)
			*bad = "";
		return -1;
	}
	*mask = m;
	return 0;
}

void dtl_mask__format(unsigned int mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if ((mask & DTL_MASK_ALL) == DTL_MASK_ALL) {
		snprintf(buf, len, "all");
		return;
	}
	for (size_t i = 0; i < 3; i++) {
		if (!(mask & mask_words[i].bits))
			continue;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s",
					off ? "," : "", mask_words[i].word);
	}
	if (!off)
		snprintf(buf, len, "none");
}

/* (dtl.h) */
size_t dtl_utf8__char(const unsigned char *s, uint32_t *cp)
{
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 :
		   (s[0] & 0xf8) == 0xf0 ? 4 : 0;

	if (n <= 1) {
		*cp = s[0];
		return n;
	}
	*cp = s[0] & (0x7fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the terminating NUL */
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3fu);
	}
	if (*cp < least[n] || (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * In place, never longer: what is not UTF-8, and the C0 and C1 controls and
 * DEL (a terminal obeys U+009B as ESC [), become '?', so every output is
 * valid for its format's strictest parser whatever bytes came in.
 */
void dtl_sanitize(char *s)
{
	const unsigned char *r = (const unsigned char *)s;
	unsigned char *w = (unsigned char *)s;

	while (*r) {
		uint32_t cp;
		size_t n = dtl_utf8__char(r, &cp);

		if (!n || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			*w++ = '?';
			r += n ? n : 1;
			continue;
		}
		memmove(w, r, n);
		w += n;
		r += n;
	}
	*w = '\0';
}

int dtl_mask__partial(unsigned int mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if ((mask & DTL_MASK_ALL) == DTL_MASK_ALL)
		return 0;
	for (size_t i = 0; i < 3; i++)
		if (!(mask & mask_words[i].bits) && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " :
						"partial: ", mask_words[i].word);
	if (off < len)
		snprintf(buf + off, len - off, " not traced");
	return 1;
}
