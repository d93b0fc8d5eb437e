/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * floor.h - the information a summary's counters carry (floor.c): the bytes
 * an ideal coder would need, to judge the summary's size against.
 */
#ifndef DTL_BENCH_FLOOR_H
#define DTL_BENCH_FLOOR_H

#include <stdint.h>

struct dtl_floor {
	uint64_t intervals, cpu_intervals;
	/* bytes over the whole file, the histograms apart from the rest */
	double known_hist, known_rest;		/* each CPU's rates known beforehand */
	double learnt_hist, learnt_rest;	/* learnt from its intervals before */
};

/* The summary at path, its CPUs below ncpu: 0, or -1 when it does not read. */
int dtl_floor__measure(const char *path, unsigned int ncpu, struct dtl_floor *out);

#endif
