/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topo.h - which logical CPUs are threads of one virtual processor.
 *
 * On PowerVM a virtual processor (VP) is a core of 1-8 SMT threads; each
 * thread has its own DTL, and the hypervisor dispatches a VP's threads
 * together. A VP is named by its first CPU, as the kernel's
 * thread_siblings_list starts with it.
 */
#ifndef DTL_TOPO_H
#define DTL_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"

struct dtl_topo {
	bool known;			/* false: each CPU stands alone */
	uint16_t vp[DTL_MAX_CPUS];	/* the first CPU of each CPU's VP */
};

/* Each CPU its own VP: what is left when nobody says. */
void dtl_topo__alone(struct dtl_topo *t);
/* Regular: CPUs smt at a time, 0..smt-1 the first VP. */
void dtl_topo__regular(struct dtl_topo *t, unsigned int smt);
/* From <root>/sys/devices/system/cpu/cpuN/topology/thread_siblings_list of the CPUs in cpus. */
void dtl_topo__sysfs(struct dtl_topo *t, const char *root, const struct dtl_cpuset *cpus);

/* "0-7;8-15": the VPs among cpus, for a recording's meta. */
void dtl_topo__format(const struct dtl_topo *t, const struct dtl_cpuset *cpus, char *buf,
		      size_t len);
/* The same text back; -1 with err when it is not a list of disjoint CPU lists. */
int dtl_topo__parse(struct dtl_topo *t, const char *s, char *err, size_t errlen);

/* VPs with a CPU in cpus, and the most threads one of them has there. */
unsigned int dtl_topo__count(const struct dtl_topo *t, const struct dtl_cpuset *cpus,
			     unsigned int *smt);

#endif
