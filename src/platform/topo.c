/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topo.c - VP membership from sysfs, a regular SMT mode, or a recording.
 */
#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys.h"

void dtl_topo__alone(struct dtl_topo *t)
{
	t->known = false;
	for (unsigned int cpu = 0; cpu < DTL_MAX_CPUS; cpu++)
		t->vp[cpu] = (uint16_t)cpu;
}

void dtl_topo__regular(struct dtl_topo *t, unsigned int smt)
{
	if (!smt)
		smt = 1;
	t->known = true;
	for (unsigned int cpu = 0; cpu < DTL_MAX_CPUS; cpu++)
		t->vp[cpu] = (uint16_t)(cpu - cpu % smt);
}

/* A sibling list names the VP by its first CPU; every member must agree on it. */
static void set_group(struct dtl_topo *t, const struct dtl_cpuset *group)
{
	unsigned int cpu, first = DTL_MAX_CPUS;

	dtl_cpuset__for_each(cpu, group) {
		if (first == DTL_MAX_CPUS)
			first = cpu;
		t->vp[cpu] = (uint16_t)first;
	}
}

void dtl_topo__sysfs(struct dtl_topo *t, const char *root, const struct dtl_cpuset *cpus)
{
	struct dtl_cpuset *group = malloc(sizeof(*group));
	unsigned int cpu;
	char rel[128], buf[DTL_CPUSET_TEXT < 65536 ? DTL_CPUSET_TEXT : 65536], err[128];

	dtl_topo__alone(t);
	if (!group)
		return;
	dtl_cpuset__for_each(cpu, cpus) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list",
			 cpu);
		if (dtl_sys__read(root, rel, buf, sizeof(buf)) <= 0)
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		/* a list that leaves out the CPU it describes is not its siblings */
		if (dtl_cpuset__parse(group, buf, err, sizeof(err)) || !dtl_cpuset__has(group, cpu))
			continue;
		set_group(t, group);
		t->known = true;
	}
	free(group);
}

void dtl_topo__format(const struct dtl_topo *t, const struct dtl_cpuset *cpus, char *buf,
		      size_t len)
{
	struct dtl_cpuset *group = malloc(sizeof(*group));
	unsigned int cpu, other;
	size_t off = 0;

	buf[0] = '\0';
	if (!group || !t->known) {
		free(group);
		return;
	}
	dtl_cpuset__for_each(cpu, cpus) {
		if (t->vp[cpu] != cpu && dtl_cpuset__has(cpus, t->vp[cpu]))
			continue;	/* written with its first CPU */
		dtl_cpuset__clear(group);
		for (other = cpu; other < DTL_MAX_CPUS; other++)
			if (t->vp[other] == t->vp[cpu] && dtl_cpuset__has(cpus, other))
				dtl_cpuset__set(group, other);
		if (off + 1 < len && off)
			buf[off++] = ';';
		off += dtl_cpuset__format(group, buf + off, len - off);
		if (off >= len) {
			buf[0] = '\0';	/* cut off: better unknown than wrong */
			break;
		}
	}
	free(group);
}

int dtl_topo__parse(struct dtl_topo *t, const char *s, char *err, size_t errlen)
{
	struct dtl_cpuset *group = malloc(sizeof(*group)), *seen = calloc(1, sizeof(*seen));
	char part[4096], why[128];
	int rc = -1;

	dtl_topo__alone(t);
	if (!group || !seen) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, ";");
		unsigned int cpu;

		if (n >= sizeof(part) || (snprintf(part, sizeof(part), "%.*s", (int)n, p),
					  dtl_cpuset__parse(group, part, why, sizeof(why)))) {
			snprintf(err, errlen, "bad VP list '%.60s'", p);
			goto out;
		}
		dtl_cpuset__for_each(cpu, group) {
			if (dtl_cpuset__has(seen, cpu)) {
				snprintf(err, errlen, "CPU %u in two VPs", cpu);
				goto out;
			}
			dtl_cpuset__set(seen, cpu);
		}
		set_group(t, group);
		p += n + (p[n] == ';');
	}
	t->known = dtl_cpuset__count(seen) > 0;
	rc = 0;
out:
	if (rc)
		dtl_topo__alone(t);
	free(group);
	free(seen);
	return rc;
}

unsigned int dtl_topo__count(const struct dtl_topo *t, const struct dtl_cpuset *cpus,
			     unsigned int *smt)
{
	static uint16_t threads[DTL_MAX_CPUS];
	unsigned int cpu, vps = 0;

	*smt = 0;
	dtl_cpuset__for_each(cpu, cpus) {
		if (!threads[t->vp[cpu]]++)
			vps++;
		if (threads[t->vp[cpu]] > *smt)
			*smt = threads[t->vp[cpu]];
	}
	/* left as found, all zero: a count an interval clears only what it touched */
	dtl_cpuset__for_each(cpu, cpus)
		threads[t->vp[cpu]] = 0;
	return vps;
}
