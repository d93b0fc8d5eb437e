/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfdata_gen.h - perf.data files written to the layout of
 * tools/perf/Documentation/perf.data-file-format.txt, for tests and the
 * fuzz seed corpus: what `perf record -a -e vpa_dtl/dtl_all/` would leave.
 */
#ifndef PERFDATA_GEN_H
#define PERFDATA_GEN_H

#include <stddef.h>
#include <stdint.h>

struct pd_gen;

struct pd_gen *pd_gen__new(void);
/* PERF_RECORD_AUXTRACE_INFO with this auxtrace type (7 is vpa_dtl). */
void pd_gen__auxtrace_info(struct pd_gen *g, uint32_t type);
/* A record perf writes that the importer must skip (COMM, FINISHED_ROUND…). */
void pd_gen__other(struct pd_gen *g, uint32_t type, size_t payload);
/* PERF_RECORD_AUXTRACE: len bytes of AUX stream of cpu, from AUX position pos. */
void pd_gen__auxtrace(struct pd_gen *g, uint32_t cpu, uint64_t pos, const void *data,
		      size_t len);
/* The vpa_dtl event's config (its DTL mask); 7, dtl_all, unless set. */
void pd_gen__config(struct pd_gen *g, uint64_t config);
/* PERF_RECORD_AUX of cpu: [offset, offset + size) of its AUX stream, with flags. */
void pd_gen__aux(struct pd_gen *g, uint32_t cpu, uint64_t offset, uint64_t size, uint64_t flags);
/* PERF_RECORD_LOST of the CPU's vpa_dtl event. */
void pd_gen__lost(struct pd_gen *g, uint32_t cpu, uint64_t lost);
/* The same from mmap idx, which perf numbers densely: CPUs 0,8,16 are idx 0,1,2. */
void pd_gen__auxtrace_idx(struct pd_gen *g, uint32_t idx, uint32_t cpu, uint64_t pos,
			  const void *data, size_t len);
/*
 * perf record --switch-events: a CPU-wide switch at ns on cpu (out: pid
 * leaves for next_prev; in: pid arrives from next_prev), a comm record
 * (exec), a fork of a new process. Their trailers carry the tracking
 * event's id, not vpa_dtl's.
 */
void pd_gen__switch(struct pd_gen *g, uint32_t cpu, uint64_t ns, int out, uint32_t pid,
		    uint32_t next_prev);
void pd_gen__comm(struct pd_gen *g, uint32_t cpu, uint64_t ns, uint32_t pid, const char *comm);
void pd_gen__fork(struct pd_gen *g, uint32_t cpu, uint64_t ns, uint32_t pid, uint32_t ppid);
/*
 * The whole file; the caller frees it. pipe: the 16-byte pipe-mode header
 * and a HEADER_ATTR record; else perf's file header, the attr with one id
 * per CPU, and the features perf record writes: HEADER_HOSTNAME (host),
 * HEADER_EVENT_DESC, HEADER_AUXTRACE (the index of AUXTRACE records).
 */
uint8_t *pd_gen__finish_host(struct pd_gen *g, int pipe, const char *host, size_t *len);
uint8_t *pd_gen__finish(struct pd_gen *g, int pipe, size_t *len);

/* The boottb_freq record that opens each CPU's AUX stream (dtl-abi.md 4.4). */
void pd_gen__boottb(uint8_t rec[48], uint64_t boot_tb, uint64_t tb_freq);

#endif
