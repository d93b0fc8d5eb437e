/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * writer.c - the registry of output formats.
 */
#include "writer.h"

#include <stdio.h>
#include <string.h>

extern const struct dtl_writer dtl_writer_text, dtl_writer_csv, dtl_writer_json, dtl_writer_influx,
	dtl_writer_prom, dtl_writer_openmetrics, dtl_writer_where;

/* A new format is a line here; the first is the default. */
static const struct dtl_writer *const writers[] = {
	&dtl_writer_text,
	&dtl_writer_csv,
	&dtl_writer_json,
	&dtl_writer_influx,
	&dtl_writer_prom,
	&dtl_writer_openmetrics,
	&dtl_writer_where,
};

#define NR_WRITERS (sizeof(writers) / sizeof(writers[0]))

const struct dtl_writer *const *dtl_writers(size_t *n)
{
	*n = NR_WRITERS;
	return writers;
}

const struct dtl_writer *dtl_writers__find(const char *name)
{
	for (size_t i = 0; i < NR_WRITERS; i++)
		if (strcmp(writers[i]->name, name) == 0)
			return writers[i];
	return NULL;
}

void dtl_writers__names(char *buf, size_t len, const char *sep)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_WRITERS && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? sep : "",
					writers[i]->name);
}
