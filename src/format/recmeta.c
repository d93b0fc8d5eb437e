/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recmeta.c - a recording's header chunk: its struct dtl_rec_meta as
 * "key=value" lines and back.
 *
 * Text, one key a line, so a newer minor version adds keys an older reader
 * skips; every value is cleaned on the way out and on the way in, so no
 * value can start a line of its own.
 */
#include "recmeta.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dtl/dtl.h"

void dtl_rec_meta__text(const struct dtl_rec_meta *meta, char *buf, size_t len)
{
	size_t off = 0;
	char *cpus = malloc(DTL_CPUSET_TEXT);
	struct dtl_rec_meta *m = malloc(sizeof(*m));

	if (!cpus || !m) {
		free(cpus);
		free(m);
		buf[0] = '\0';
		return;
	}
	/* one key a line: a newline in a host name (a perf.data's) must not start another */
	*m = *meta;
	dtl_sanitize(m->dtltop_version);
	dtl_sanitize(m->host);
	dtl_sanitize(m->source);
	dtl_sanitize(m->detail);
	dtl_cpuset__format(&m->cpus, cpus, DTL_CPUSET_TEXT);
	off += (size_t)snprintf(buf + off, len - off,
		"format=%d.%d\ndtltop_version=%s\nhost=%s\nsource=%s\ndetail=%s\n"
		"tb_freq=%" PRIu64 "\nboot_tb=%" PRIu64 "\nstart_tb=%" PRIu64 "\nstart_ns=%" PRIu64 "\n"
		"interval_ns=%" PRIu64 "\nmask=%u\nnr_cpus=%u\ncpus=%s\n",
		DTL_REC_MAJOR, DTL_REC_MINOR, m->dtltop_version, m->host, m->source, m->detail,
		m->tb_freq, m->boot_tb, m->start_tb, m->start_ns, (uint64_t)(m->interval_s * 1e9 + 0.5),
		m->mask, m->nr_cpus, cpus);
	if (m->topo.known) {
		dtl_topo__format(&m->topo, &m->cpus, cpus, DTL_CPUSET_TEXT);
		if (cpus[0])
			off += (size_t)snprintf(buf + off, len - off, "siblings=%s\n", cpus);
	}
	if (m->core_threads && off < len)
		off += (size_t)snprintf(buf + off, len - off, "core_threads=%u\n", m->core_threads);
	if (m->set_id && off < len)
		off += (size_t)snprintf(buf + off, len - off, "set_id=%016" PRIx64 "\nset_seq=%u\n",
					m->set_id, m->set_seq);
	dtl_sanitize(m->partition_name);
	if (m->partition_name[0] && off < len)
		off += (size_t)snprintf(buf + off, len - off, "partition_name=%s\n",
					m->partition_name);
	free(cpus);
	/* lparcfg verbatim, one "lparcfg.key=value" per line. */
	for (const char *p = m->lparcfg; *p && off < len;) {
		size_t n = strcspn(p, "\n");

		if (n && memchr(p, '=', n))
			off += (size_t)snprintf(buf + off, len - off, "lparcfg.%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	free(m);
}

void dtl_rec_meta__parse(char *text, struct dtl_rec_meta *m)
{
	size_t lp = 0;

	dtl_topo__alone(&m->topo);

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *v = strchr(line, '=');
		char err[64];

		if (!v)
			continue;
		*v++ = '\0';
		dtl_sanitize(v);
		if (!strcmp(line, "dtltop_version"))
			snprintf(m->dtltop_version, sizeof(m->dtltop_version), "%s", v);
		else if (!strcmp(line, "host"))
			snprintf(m->host, sizeof(m->host), "%s", v);
		else if (!strcmp(line, "source"))
			snprintf(m->source, sizeof(m->source), "%s", v);
		else if (!strcmp(line, "detail"))
			snprintf(m->detail, sizeof(m->detail), "%s", v);
		else if (!strcmp(line, "partition_name"))
			snprintf(m->partition_name, sizeof(m->partition_name), "%s", v);
		else if (!strcmp(line, "tb_freq"))
			m->tb_freq = strtoull(v, NULL, 10);
		else if (!strcmp(line, "boot_tb"))
			m->boot_tb = strtoull(v, NULL, 10);
		else if (!strcmp(line, "start_tb"))
			m->start_tb = strtoull(v, NULL, 10);
		else if (!strcmp(line, "start_ns"))
			m->start_ns = strtoull(v, NULL, 10);
		else if (!strcmp(line, "interval_ns"))
			m->interval_s = (double)strtoull(v, NULL, 10) / 1e9;
		else if (!strcmp(line, "mask"))
			m->mask = (unsigned int)strtoul(v, NULL, 10) & DTL_MASK_ALL;
		else if (!strcmp(line, "nr_cpus"))
			m->nr_cpus = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(line, "cpus") && *v)
			dtl_cpuset__parse(&m->cpus, v, err, sizeof(err));
		else if (!strcmp(line, "core_threads") && strtoul(v, NULL, 10) <= 64)
			m->core_threads = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(line, "set_id"))
			m->set_id = strtoull(v, NULL, 16);
		else if (!strcmp(line, "set_seq"))
			m->set_seq = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(line, "siblings"))
			dtl_topo__parse(&m->topo, v, err, sizeof(err));	/* bad: unknown */
		else if (!strncmp(line, "lparcfg.", 8) && lp < sizeof(m->lparcfg))
			lp += (size_t)snprintf(m->lparcfg + lp, sizeof(m->lparcfg) - lp, "%s=%s\n",
					       line + 8, v);
		/* Unknown keys are a newer minor version's: ignored. */
	}
	if (m->nr_cpus > DTL_MAX_CPUS)
		m->nr_cpus = DTL_MAX_CPUS;
	if (dtl_cpuset__end(&m->cpus) > m->nr_cpus)
		m->nr_cpus = dtl_cpuset__end(&m->cpus);
	if (!m->mask)
		m->mask = DTL_MASK_ALL;
}
