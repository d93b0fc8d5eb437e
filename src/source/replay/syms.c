/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * syms.c - a replay's kernel symbols: --kallsyms FILE's, checked at start, or
 * the recording's own (format 2.2), which grow as its records come.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../platform/ksyms.h"

#include "internal.h"

#define SYMS_MAX (64u << 20)	/* as dtl_ksyms__load's bound: a distribution kernel's is ~10 MB */

/* len bytes of kallsyms lines onto the replay's, NUL-terminated; false past the bound. */
bool replay__syms_add(struct replay *p, const uint8_t *text, size_t len)
{
	if (p->nsyms + len + 2 > SYMS_MAX)
		return false;
	if (p->nsyms + len + 2 > p->symcap) {
		size_t cap = p->symcap ? p->symcap : 4096;
		char *m;

		while (cap < p->nsyms + len + 2)
			cap *= 2;
		m = realloc(p->syms, cap);
		if (!m)
			return false;
		p->syms = m;
		p->symcap = cap;
	}
	for (size_t i = 0; i < len; i++)	/* a NUL would end the text early */
		p->syms[p->nsyms++] = text[i] ? (char)text[i] : '\n';
	if (p->nsyms && p->syms[p->nsyms - 1] != '\n')
		p->syms[p->nsyms++] = '\n';
	p->syms[p->nsyms] = '\0';
	return true;
}

/* --kallsyms FILE: read whole, checked now, so a wrong file is said at start. */
int replay__own_syms(struct replay *p, const char *path, char *err, size_t errlen)
{
	uint8_t buf[65536];
	struct dtl_ksyms *k;
	char why[160];
	FILE *f = fopen(path, "re");
	size_t got;

	if (!f) {
		snprintf(err, errlen, "--kallsyms %s: %s", path, strerror(errno));
		return -1;
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		if (!replay__syms_add(p, buf, got)) {
			fclose(f);
			snprintf(err, errlen, "--kallsyms %s: past %u MB, or out of memory", path,
				 SYMS_MAX >> 20);
			return -1;
		}
	fclose(f);
	k = p->syms ? dtl_ksyms__parse(p->syms, p->nsyms, why, sizeof(why)) : NULL;
	if (!k) {
		snprintf(err, errlen, "--kallsyms %s: %s", path, p->syms ? why : "empty");
		return -1;
	}
	dtl_ksyms__free(k);
	p->own_syms = true;
	return 0;
}
