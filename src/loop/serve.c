/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * serve.c - --serve: the one reader of the partition's DTL hands each
 * interval, as a summary (src/format/summary.c), to the viewers attached
 * to its Unix socket (dtltop --attach). A viewer gets a recording's header
 * as it connects, then each interval's chunk; one that does not read keeps
 * at most QUEUE_MAX bytes waiting, past which its intervals are dropped,
 * counted and told to it, and capture never waits for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../format/grow.h"
#include "../format/request.h"
#include "../format/summary.h"
#include "../platform/caps.h"
#include "../platform/usock.h"
#include "internal.h"

/* A viewer's bytes not yet taken: about 64 intervals, and never past 16 MB. */
#define QUEUE_MAX (16u << 20)
#define QUEUE_IVS 64
#define VIEWERS_MAX 64

struct viewer {
	int fd;
	struct dtl_rec_writer *w;	/* the summary, into q */
	uint8_t *q;
	size_t off, len, cap;		/* q[off, len) not yet sent */
	size_t told;			/* tasks named to it */
	uint64_t dropped;		/* intervals it was too slow for */
	bool dropping;			/* the interval being written is dropped */
	bool restate;			/* after drops: the mask and the CPUs again */
	bool gone;
	bool may;			/* root or the service's own user: may ask for a mask */
	uint8_t in[64];			/* its requests read, not yet whole */
	size_t inlen;
	uint64_t bad;			/* bytes of it that were no request (runs counted) */
};

struct serve {
	int lfd;
	char path[108];
	struct viewer *v[VIEWERS_MAX];	/* each its own: its writer holds it */
	size_t n;
	/* let in between intervals, started at the next one's end: the fd, and may */
	int pend[VIEWERS_MAX];
	bool pend_may[VIEWERS_MAX];
	size_t npend;
	struct dtl_cpuset cpus;		/* what the viewers were told is online */
	uint64_t start_tb;		/* where the interval being captured began */
};

/* A viewer's writer hands its bytes here: queued, or dropped past the bound. */
static int to_viewer(void *ctx, int what, const uint8_t *bytes, size_t len)
{
	struct viewer *v = ctx;

	if (v->dropping)
		return 0;
	if (what == 2 && (v->len - v->off + len > QUEUE_MAX || v->len - v->off > QUEUE_IVS * len)) {
		v->dropping = true;	/* the chunk goes; the next interval is told it did */
		v->dropped++;
		v->restate = true;
		return 0;
	}
	/* what was sent goes once it is as much as what waits: the queue never creeps */
	if (v->off && v->off >= v->len - v->off) {
		memmove(v->q, v->q + v->off, v->len - v->off);
		v->len -= v->off;
		v->off = 0;
	}
	return dtl_grow__append(&v->q, &v->len, &v->cap, bytes, len);
}

/* As much as the socket takes now; a viewer that left is gone, never a signal. */
static void send_some(struct viewer *v)
{
	while (!v->gone && v->off < v->len) {
		ssize_t n = send(v->fd, v->q + v->off, v->len - v->off, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0)
			v->off += (size_t)n;
		else if (n < 0 && errno == EINTR)
			continue;
		else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		else
			v->gone = true;
	}
}

static void viewer_free(struct viewer *v)
{
	char err[128];

	dtl_rec_writer__close(v->w, err, sizeof(err));
	close(v->fd);
	free(v->q);
	free(v);
}

/* The run's meta as a recording's header says it, where the stream stands now. */
static void meta_now(struct dtl_loop *l, struct dtl_rec_meta *m, uint64_t ts, uint64_t tb)
{
	loop_rec_meta(l, m);
	m->start_ns = ts;
	m->start_tb = tb;
	if (l->lparcfg_text[0])
		snprintf(m->lparcfg, sizeof(m->lparcfg), "%s", l->lparcfg_text);
	m->summary = true;
}

int loop_serve_open(struct dtl_loop *l, char *err, size_t errlen)
{
	struct serve *s;

	if (!l->o.serve)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(s->path, sizeof(s->path), "%s", l->o.socket ? l->o.socket : DTL_USOCK_DEFAULT);
	s->lfd = dtl_usock__listen(s->path, err, errlen);
	if (s->lfd < 0) {
		free(s);
		return -1;
	}
	if (dtl_stats__keep(l->stats)) {
		close(s->lfd);
		free(s);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (l->tasks)
		dtl_tasks__keep(l->tasks);
	s->cpus = *dtl_source__cpus(l->src);
	if (!dtl_source__tb(l->src, &s->start_tb))
		s->start_tb = 0;
	l->serve = s;
	return 0;
}

void loop_serve_close(struct dtl_loop *l)
{
	struct serve *s = l->serve;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		viewer_free(s->v[i]);
	for (size_t i = 0; i < s->npend; i++)
		close(s->pend[i]);
	close(s->lfd);
	unlink(s->path);
	free(s);
	l->serve = NULL;
}

/*
 * Who may attach: whoever could read the DTL itself. Root and the
 * service's own user (who may also ask for a mask); with any source but
 * debugfs (root's files), a process holding CAP_PERFMON as it connects,
 * as a `make setcap` dtltop does. Asked of the kernel, never of the peer.
 */
static bool may_attach(struct dtl_loop *l, int fd, bool *own, char *why, size_t len)
{
	bool debugfs = !strcmp(dtl_source__name(l->src), "debugfs");
	uint32_t uid;
	int pid;

	*own = false;
	if (dtl_usock__peer(fd, &uid, &pid)) {
		snprintf(why, len, "refused: the kernel did not say who connected");
		return false;
	}
	*own = uid == 0 || uid == (uint32_t)geteuid();
	if (*own || (!debugfs && dtl_caps__pid_perfmon(pid)))
		return true;
	snprintf(why, len, "permission denied (the service serves only those who may read the DTL "
		 "themselves: %s)", debugfs ? "root, as it reads debugfs" : "root, or CAP_PERFMON");
	return false;
}

/* Callers since: each let in (to start at the next interval's end) or told why not. */
static void take_calls(struct dtl_loop *l, struct serve *s)
{
	char why[200], line[210];
	bool own;
	int fd;

	while ((fd = dtl_usock__accept(s->lfd)) >= 0) {
		if (s->n + s->npend >= VIEWERS_MAX) {
			close(fd);	/* the viewer says the service ended on it */
			continue;
		}
		if (!may_attach(l, fd, &own, why, sizeof(why))) {
			int n = snprintf(line, sizeof(line), DTL_USOCK_REFUSED "%s\n", why);

			/* a line into an empty socket buffer: whole, or the viewer sees the close */
			(void)!send(fd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
			close(fd);
			continue;
		}
		s->pend[s->npend] = fd;
		s->pend_may[s->npend++] = own;
	}
}

/* Viewers let in since: each gets the header of a summary that starts here. */
static void take_new(struct dtl_loop *l, struct serve *s, uint64_t ts, uint64_t tb)
{
	struct dtl_rec_meta m;
	char err[512];

	take_calls(l, s);
	for (size_t i = 0; i < s->npend; i++) {
		struct viewer *v = calloc(1, sizeof(*v));
		int fd = s->pend[i];

		if (!v) {
			close(fd);
			continue;
		}
		v->fd = fd;
		v->may = s->pend_may[i];
		meta_now(l, &m, ts, tb);
		v->w = dtl_rec_writer__open_sink(&m, to_viewer, v, err, sizeof(err));
		if (!v->w) {
			close(fd);
			free(v->q);
			free(v);
			continue;
		}
		{
			/* a source's own kernel (the simulator's): its names, once; else this machine's */
			const char *none, *text = dtl_source__kallsyms(l->src, &none);

			if (text && dtl_rec_writer__symbols(v->w, text, strlen(text)))
				v->gone = true;
		}
		s->v[s->n++] = v;
		send_some(v);
	}
	s->npend = 0;
}

struct asked {
	struct dtl_loop *l;
	struct viewer *v;
};

/* A viewer's request: a mask as its own key would set it, where it could have set it itself. */
static void on_request(void *ctx, unsigned int kind, unsigned int value)
{
	struct asked *a = ctx;

	if (kind == DTL_REQ_MASK && a->v->may)
		loop_set_mask(a->l, value);
	else
		a->v->bad++;
}

/* What a viewer wrote: its requests taken, the rest counted; never a wait. */
static void take_requests(struct dtl_loop *l, struct viewer *v)
{
	struct asked a = { l, v };

	while (!v->gone) {
		ssize_t n = recv(v->fd, v->in + v->inlen, sizeof(v->in) - v->inlen, MSG_DONTWAIT);
		size_t used;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			v->gone = true;	/* it left (or its socket broke) */
			return;
		}
		v->inlen += (size_t)n;
		used = dtl_req__parse(v->in, v->inlen, on_request, &a, &v->bad);
		memmove(v->in, v->in + used, v->inlen - used);
		v->inlen -= used;
	}
}

/* One viewer's interval: what a summary file holds of it, and a tick. */
static void interval_to(struct dtl_loop *l, struct viewer *v, uint64_t ts, double secs,
			uint64_t s_start, uint64_t end_tb)
{
	int rc = 0;

	v->dropping = false;
	if (v->restate) {
		/* what the dropped chunks said of the mask and the CPUs, said again */
		rc |= dtl_rec_writer__mask(v->w, dtl_source__mask(l->src));
		for (unsigned int c = 0; c < dtl_source__nr_cpus(l->src); c++)
			rc |= dtl_rec_writer__cpu(v->w, c, dtl_cpuset__has(dtl_source__cpus(l->src), c));
		rc |= dtl_rec_writer__dropped(v->w, v->dropped, s_start);
		v->restate = false;
	}
	rc |= loop_summary_write(l, v->w, &v->told);
	if (l->lparcfg_text[0])
		rc |= dtl_rec_writer__lparcfg(v->w, l->lparcfg_text);
	rc |= dtl_rec_writer__tick(v->w, ts, secs, end_tb);
	if (rc)
		v->gone = true;	/* out of memory: this viewer goes, the others stay */
}

void loop_serve_tick(struct dtl_loop *l, uint64_t ts, double secs)
{
	struct serve *s = l->serve;
	uint64_t end_tb = dtl_stats__ended_at(l->stats);
	size_t n = 0;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		take_requests(l, s->v[i]);
		interval_to(l, s->v[i], ts, secs, s->start_tb, end_tb);
		send_some(s->v[i]);
	}
	/* the gone leave; new viewers start after this interval, with its end as their start */
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i]->gone)
			viewer_free(s->v[i]);
		else
			s->v[n++] = s->v[i];
	}
	s->n = n;
	s->start_tb = end_tb;
	take_new(l, s, ts, end_tb);
}

/* Between intervals: a viewer slow a moment ago takes what waits now. */
void loop_serve_poll(struct dtl_loop *l)
{
	struct serve *s = l->serve;

	for (size_t i = 0; s && i < s->n; i++) {
		take_requests(l, s->v[i]);
		send_some(s->v[i]);
	}
	if (s)
		take_calls(l, s);
}

/* The mask changed, or a CPU came or went: every viewer is told as a recording is. */
void loop_serve_mask(struct dtl_loop *l, unsigned int mask)
{
	struct serve *s = l->serve;

	for (size_t i = 0; s && i < s->n; i++)
		if (dtl_rec_writer__mask(s->v[i]->w, mask))
			s->v[i]->gone = true;
}

void loop_serve_cpu(struct dtl_loop *l, unsigned int cpu, bool on)
{
	struct serve *s = l->serve;

	if (!s || on == dtl_cpuset__has(&s->cpus, cpu))
		return;
	if (on)
		dtl_cpuset__set(&s->cpus, cpu);
	else
		dtl_cpuset__unset(&s->cpus, cpu);
	for (size_t i = 0; i < s->n; i++)
		if (dtl_rec_writer__cpu(s->v[i]->w, cpu, on))
			s->v[i]->gone = true;
}
