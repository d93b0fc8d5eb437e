// SPDX-License-Identifier: GPL-2.0-only
/*
 * syms.c - one symbol table for every view, read when first asked for and
 * again when the source's own text has grown (a replay reads a recording's
 * symbols as they come).
 */
#include "syms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dtl_syms {
	const char *text, *none, *root;
	size_t len;		/* the text's, measured once an interval, not at each row's ask */
	size_t parsed;		/* the text's length when parsed */
	bool tried;
	struct dtl_ksyms *k;
	char why[400];
};

struct dtl_syms *dtl_syms__new(void)
{
	return calloc(1, sizeof(struct dtl_syms));
}

void dtl_syms__delete(struct dtl_syms *s)
{
	if (s) {
		dtl_ksyms__free(s->k);
		free(s);
	}
}

void dtl_syms__from(struct dtl_syms *s, const char *text, const char *none, const char *root)
{
	s->text = text;
	s->len = text ? strlen(text) : 0;
	s->none = none;
	s->root = root;
}

const struct dtl_ksyms *dtl_syms__get(struct dtl_syms *s, const char **why)
{
	size_t len = s->len;

	if (s->text && s->tried && len != s->parsed) {
		dtl_ksyms__free(s->k);
		s->k = NULL;
		s->tried = false;
	}
	if (!s->tried) {
		s->tried = true;
		s->parsed = len;
		if (s->text)
			s->k = dtl_ksyms__parse(s->text, len, s->why, sizeof(s->why));
		else if (s->none)
			snprintf(s->why, sizeof(s->why), "%s", s->none);
		else
			s->k = dtl_ksyms__load(s->root, s->why, sizeof(s->why));
	}
	*why = s->why;
	return s->k;
}
