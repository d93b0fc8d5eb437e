/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * http.c - the exporter's HTTP server, on libmicrohttpd: it parses HTTP,
 * limits connections, request sizes and idle time, and reference-counts
 * responses, so this file only says what to answer. Built without
 * libmicrohttpd (the static ppc64le binary), --listen says so and
 * --textfile remains.
 */
#include "http.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "webconfig.h"

/*
 * Numeric addresses only (and "localhost"): a name would need the resolver,
 * which a static binary cannot carry, and an exporter binds to an address.
 */
int dtl_http__parse_addr(const char *s, struct dtl_listen_addr *a, char *err, size_t errlen)
{
	char host[64] = "127.0.0.1";
	const char *port = s, *colon = strrchr(s, ':');
	struct sockaddr_in *v4 = (struct sockaddr_in *)&a->ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&a->ss;
	bool bracket = false;
	char *end;
	long p;

	if (colon) {
		size_t n = (size_t)(colon - s);

		if (s[0] == '[' && n >= 2 && s[n - 1] == ']')	/* [v6]:port */
			s++, n -= 2, bracket = true;
		if (n == 0 || n >= sizeof(host)) {
			snprintf(err, errlen, "bad --listen address in '%s' (want [ADDR:]PORT)", s);
			return -1;
		}
		memcpy(host, s, n);
		host[n] = '\0';
		port = colon + 1;
	}
	p = strtol(port, &end, 10);
	if (!*port || *end || p < 1 || p > 65535) {
		snprintf(err, errlen, "bad --listen port '%s' (want 1-65535, as [ADDR:]PORT)", port);
		return -1;
	}
	memset(&a->ss, 0, sizeof(a->ss));
	if (strcmp(host, "localhost") == 0)
		strcpy(host, "127.0.0.1");
	if (!bracket && inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
		a->len = sizeof(*v4);
		snprintf(a->text, sizeof(a->text), "%s:%ld", host, p);
	} else if (bracket && inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
		a->len = sizeof(*v6);
		snprintf(a->text, sizeof(a->text), "[%s]:%ld", host, p);
	} else {
		snprintf(err, errlen, "bad --listen address '%s' (want an IPv4 address, [IPv6] or "
			 "localhost)", host);
		return -1;
	}
	return 0;
}

/* Each media range up to its ',', its parameters after ';': q=0 means "not this one". */
bool dtl_http__accepts_om(const char *accept)
{
	static const char om[] = "application/openmetrics-text";
	const char *p = accept;

	while (p && *p) {
		const char *end = strchr(p, ','), *semi;
		size_t n = end ? (size_t)(end - p) : strlen(p);
		bool q0 = false;

		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		if (n >= sizeof(om) - 1 && strncasecmp(p, om, sizeof(om) - 1) == 0 &&
		    (n == sizeof(om) - 1 || p[sizeof(om) - 1] == ';' || p[sizeof(om) - 1] == ' ')) {
			for (semi = memchr(p, ';', n); semi; semi = memchr(semi + 1, ';',
								     n - (size_t)(semi + 1 - p))) {
				const char *v = semi + 1;

				while (*v == ' ')
					v++;
				if ((v[0] == 'q' || v[0] == 'Q') && v[1] == '=')
					q0 = strtod(v + 2, NULL) <= 0;
			}
			if (!q0)
				return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

#ifdef DTLTOP_HTTP
#include <microhttpd.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>

#include "../platform/signals.h"

/*
 * A connection, from its start (or its last answer's end) to its next
 * answer: a request that has not come whole within HTTP_REQUEST_S is cut.
 */
struct conn {
	struct conn *prev, *next;
	int fd;
	double since;		/* monotonic seconds */
	bool answering;		/* the request came whole: an answer is queued */
	bool cut;
};

struct dtl_http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	struct MHD_Response *prom, *om;	/* NULL until the first interval has ended */
	struct MHD_Response *index, *missing, *method, *early;
	unsigned long scrapes;
	/* the connections, for the reaper; conns_lock also orders a cut before the close */
	pthread_mutex_t conns_lock;
	pthread_cond_t wake;
	struct conn *conns;
	pthread_t reaper;
	bool have_reaper, stopping;
	/*
	 * --web-config: TLS and basic authentication. A bcrypt check costs tens
	 * of milliseconds on purpose; each user's last password that passed is
	 * kept, so a scraper's every scrape does not pay it again (only answer()
	 * reads it: one thread).
	 */
	struct dtl_web *web;
	char *passed[DTL_WEB_USERS];
};

static const char index_page[] =
	"<!DOCTYPE html><html><head><title>dtltop exporter</title></head><body>"
	"<h1>dtltop exporter</h1><p>The hypervisor's dispatch trace log as metrics: "
	"<a href=\"/metrics\">/metrics</a>.</p></body></html>\n";

static struct MHD_Response *fixed(const char *body, const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body,
								 MHD_RESPMEM_PERSISTENT);

	if (r)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

/* Prometheus asks for OpenMetrics first; curl and the textfile way get the text format. */
static bool wants_om(struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);

	return accept && dtl_http__accepts_om(accept);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i = MHD_get_connection_info(
		c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

/* The request came whole (answering), or its answer went and the next may come. */
static void conn_mark(struct dtl_http *h, struct MHD_Connection *c, bool answering)
{
	struct conn *k = conn_of(c);

	if (!k)
		return;
	pthread_mutex_lock(&h->conns_lock);
	k->answering = answering;
	k->since = mono();
	if (!answering)
		pthread_cond_signal(&h->wake);	/* a new deadline */
	pthread_mutex_unlock(&h->conns_lock);
}

static enum MHD_Result queue(struct dtl_http *h, struct MHD_Connection *c, unsigned int status,
			     struct MHD_Response *r)
{
	conn_mark(h, c, true);
	return MHD_queue_response(c, status, r);
}

static bool same(const char *a, const char *b)
{
	size_t n = strlen(a);
	unsigned char diff = n != strlen(b);

	for (size_t i = 0; i < n && !diff; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return !diff;
}

/* The request's basic authentication passes one of --web-config's users. */
static bool authorized(struct dtl_http *h, struct MHD_Connection *c)
{
	char *pass = NULL, *user = MHD_basic_auth_get_username_password(c, &pass);
	unsigned int i = 0;
	bool ok = false;

	while (user && i < h->web->cfg.nusers && strcmp(h->web->cfg.users[i].name, user) != 0)
		i++;
	if (user && pass && i < h->web->cfg.nusers && h->passed[i] && same(h->passed[i], pass)) {
		ok = true;
	} else if (user && pass && dtl_web__verify(h->web, user, pass)) {
		ok = true;	/* an unknown user took as long as a wrong password */
		if (h->passed[i])
			explicit_bzero(h->passed[i], strlen(h->passed[i]));
		free(h->passed[i]);
		h->passed[i] = strdup(pass);
	}
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return ok;
}

static enum MHD_Result denied(struct dtl_http *h, struct MHD_Connection *c)
{
	struct MHD_Response *r = fixed("unauthorized\n", "text/plain; charset=utf-8");
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	conn_mark(h, c, true);
	ret = MHD_queue_basic_auth_fail_response(c, "dtltop", r);
	MHD_destroy_response(r);	/* the queue holds its own reference */
	return ret;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_len, void **state)
{
	struct dtl_http *h = cls;
	struct MHD_Response *r;
	unsigned int status = MHD_HTTP_OK;
	enum MHD_Result ret;

	(void)version, (void)upload;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return queue(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, h->method);
	if (!*state || *upload_len) {	/* the headers' call, then any body, dropped */
		*state = h;
		*upload_len = 0;
		return MHD_YES;
	}
	if (h->web && h->web->cfg.nusers && !authorized(h, c))
		return denied(h, c);
	pthread_mutex_lock(&h->lock);
	if (strcmp(url, "/metrics") == 0 && !h->prom) {
		r = h->early;	/* no figure yet: a zero would be a guess */
		status = MHD_HTTP_SERVICE_UNAVAILABLE;
	} else if (strcmp(url, "/metrics") == 0) {
		r = wants_om(c) ? h->om : h->prom;
		h->scrapes++;
	} else if (strcmp(url, "/") == 0) {
		r = h->index;
	} else {
		r = h->missing;
		status = MHD_HTTP_NOT_FOUND;
	}
	ret = queue(h, c, status, r);	/* takes its own reference */
	pthread_mutex_unlock(&h->lock);
	return ret;
}

static struct MHD_Response *exposition(char *buf, size_t len, const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
		len, buf, free, buf);

	if (!r)
		return NULL;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

int dtl_http__publish(struct dtl_http *h, char *prom, size_t prom_len, char *om, size_t om_len)
{
	struct MHD_Response *p = exposition(prom, prom_len, "text/plain; version=0.0.4; "
					    "charset=utf-8");
	struct MHD_Response *o = p ? exposition(om, om_len, "application/openmetrics-text; "
						"version=1.0.0; charset=utf-8") : NULL;
	struct MHD_Response *old_p, *old_o;

	if (!o) {
		if (p)
			MHD_destroy_response(p);	/* frees prom */
		else
			free(prom);
		free(om);
		return -1;
	}
	pthread_mutex_lock(&h->lock);
	old_p = h->prom, old_o = h->om;
	h->prom = p, h->om = o;
	pthread_mutex_unlock(&h->lock);
	/* a scrape still sending them holds its own reference */
	if (old_p)
		MHD_destroy_response(old_p);
	if (old_o)
		MHD_destroy_response(old_o);
	return 0;
}

unsigned long dtl_http__scrapes(struct dtl_http *h)
{
	unsigned long n;

	pthread_mutex_lock(&h->lock);
	n = h->scrapes;
	pthread_mutex_unlock(&h->lock);
	return n;
}

static void responses_free(struct dtl_http *h)
{
	struct MHD_Response *all[] = { h->prom, h->om, h->index, h->missing, h->method, h->early };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i])
			MHD_destroy_response(all[i]);
}

/*
 * Limits: a scraper per connection and then some; 32 KiB of request (a
 * larger header is answered 431 and closed); 5 s without a byte closes a
 * connection, so a client that sends nothing is cut off without harm.
 */
#define HTTP_CONNECTIONS 128
#define HTTP_MEMORY (32 * 1024)
#define HTTP_IDLE_S 5
/*
 * Clients that trickle a header line a second never go idle. One address
 * may hold this many slots; and a request has HTTP_REQUEST_S in all to come
 * whole, however it trickles, so clients from many addresses cannot hold
 * every slot for longer: a scrape waiting in the listen queue is let in
 * within that (Prometheus waits 10 s by default).
 */
#define HTTP_PER_ADDRESS 16
#define HTTP_REQUEST_S 5.0

static void conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
			enum MHD_ConnectionNotificationCode code)
{
	struct dtl_http *h = cls;
	struct conn *k = *ctx;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *i = MHD_get_connection_info(
			c, MHD_CONNECTION_INFO_CONNECTION_FD);

		k = i ? calloc(1, sizeof(*k)) : NULL;
		if (!k)
			return;	/* out of memory: the idle timeout still applies */
		k->fd = i->connect_fd;
		k->since = mono();
		pthread_mutex_lock(&h->conns_lock);
		k->next = h->conns;
		if (h->conns)
			h->conns->prev = k;
		h->conns = k;
		pthread_cond_signal(&h->wake);	/* a new deadline */
		pthread_mutex_unlock(&h->conns_lock);
		*ctx = k;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && k) {
		/* libmicrohttpd says so before it closes the socket: a cut never hits a reused fd */
		pthread_mutex_lock(&h->conns_lock);
		if (k->prev)
			k->prev->next = k->next;
		else
			h->conns = k->next;
		if (k->next)
			k->next->prev = k->prev;
		pthread_mutex_unlock(&h->conns_lock);
		free(k);
		*ctx = NULL;
	}
}

static void request_done(void *cls, struct MHD_Connection *c, void **state,
			 enum MHD_RequestTerminationCode code)
{
	(void)state, (void)code;
	conn_mark(cls, c, false);
}

/*
 * Cuts what is overdue, then sleeps to the next deadline, or until a
 * connection starts or waits for its next request: an exporter nobody
 * scrapes never wakes for this. shutdown(), not close(): libmicrohttpd sees
 * the end of the stream on its own thread and closes the connection as any
 * other.
 */
static void *reap(void *arg)
{
	struct dtl_http *h = arg;

	pthread_mutex_lock(&h->conns_lock);
	while (!h->stopping) {
		double now = mono(), next = 0;
		struct timespec ts;

		for (struct conn *k = h->conns; k; k = k->next) {
			if (k->answering || k->cut)
				continue;
			if (now - k->since >= HTTP_REQUEST_S) {
				shutdown(k->fd, SHUT_RDWR);
				k->cut = true;
			} else if (!next || k->since + HTTP_REQUEST_S < next) {
				next = k->since + HTTP_REQUEST_S;
			}
		}
		if (!next) {
			pthread_cond_wait(&h->wake, &h->conns_lock);
			continue;
		}
		ts.tv_sec = (time_t)next;
		ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&h->wake, &h->conns_lock, &ts);
	}
	pthread_mutex_unlock(&h->conns_lock);
	return NULL;
}

static void conns_init(struct dtl_http *h)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&h->wake, &a);
	pthread_condattr_destroy(&a);
	pthread_mutex_init(&h->conns_lock, NULL);
}

static void reaper_stop(struct dtl_http *h)
{
	if (h->have_reaper) {
		pthread_mutex_lock(&h->conns_lock);
		h->stopping = true;
		pthread_cond_signal(&h->wake);
		pthread_mutex_unlock(&h->conns_lock);
		pthread_join(h->reaper, NULL);
		h->have_reaper = false;
	}
}

static void http_free(struct dtl_http *h)
{
	responses_free(h);
	for (unsigned int i = 0; i < DTL_WEB_USERS; i++) {
		if (h->passed[i])
			explicit_bzero(h->passed[i], strlen(h->passed[i]));
		free(h->passed[i]);
	}
	if (h->web)
		dtl_web__free(h->web);
	free(h->web);
	pthread_cond_destroy(&h->wake);
	pthread_mutex_destroy(&h->conns_lock);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

struct dtl_http *dtl_http__start(const struct dtl_listen_addr *a, struct dtl_web *web, char *err,
				 size_t errlen)
{
	struct dtl_http *h = calloc(1, sizeof(*h));
	struct MHD_OptionItem tls[3] = { { MHD_OPTION_END, 0, NULL } };
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
	sigset_t old;

	if (!h) {
		if (web)
			dtl_web__free(web);
		free(web);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->web = web;
	pthread_mutex_init(&h->lock, NULL);
	conns_init(h);
	if (web && web->cert_pem) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			snprintf(err, errlen, "--web-config: this libmicrohttpd has no TLS");
			goto fail;
		}
		flags |= MHD_USE_TLS;
		tls[0] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, web->key_pem };
		tls[1] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, web->cert_pem };
	}
	h->index = fixed(index_page, "text/html; charset=utf-8");
	h->missing = fixed("not found: try /metrics\n", "text/plain; charset=utf-8");
	h->method = fixed("only GET and HEAD\n", "text/plain; charset=utf-8");
	h->early = fixed("no interval has ended yet\n", "text/plain; charset=utf-8");
	if (h->early)
		MHD_add_response_header(h->early, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	if (!h->index || !h->missing || !h->method || !h->early) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	dtl_signals__hold(&old);
	h->d = MHD_start_daemon(flags | (a->ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0), 0,
				NULL, NULL, answer, h,
				MHD_OPTION_ARRAY, tls,
				MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&a->ss,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HTTP_CONNECTIONS,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_MEMORY,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HTTP_IDLE_S,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)HTTP_PER_ADDRESS,
				MHD_OPTION_NOTIFY_CONNECTION, conn_notify, h,
				MHD_OPTION_NOTIFY_COMPLETED, request_done, h,
				MHD_OPTION_END);
	if (h->d)
		h->have_reaper = pthread_create(&h->reaper, NULL, reap, h) == 0;
	dtl_signals__restore(&old);
	if (!h->d) {
		snprintf(err, errlen, "cannot listen on %s (%s)", a->text, web && web->cert_pem ?
			 "in use, not this machine's address, or a certificate and key that do not "
			 "load or match" : "in use, or not this machine's address");
		goto fail;
	}
	if (!h->have_reaper) {
		snprintf(err, errlen, "cannot start the exporter's request timer thread");
		goto fail;
	}
	return h;
fail:
	if (h->d)
		MHD_stop_daemon(h->d);
	http_free(h);
	return NULL;
}

void dtl_http__stop(struct dtl_http *h)
{
	if (!h)
		return;
	reaper_stop(h);
	MHD_stop_daemon(h->d);	/* each connection's close frees its struct conn */
	http_free(h);
}

#else	/* built without libmicrohttpd */

struct dtl_http {
	int unused;
};

struct dtl_http *dtl_http__start(const struct dtl_listen_addr *a, struct dtl_web *web, char *err,
				 size_t errlen)
{
	(void)a;
	if (web)
		dtl_web__free(web);
	free(web);
	snprintf(err, errlen, "this dtltop was built without libmicrohttpd: no --listen "
		 "(--textfile works)");
	return NULL;
}

int dtl_http__publish(struct dtl_http *h, char *prom, size_t prom_len, char *om, size_t om_len)
{
	(void)h, (void)prom_len, (void)om_len;
	free(prom);
	free(om);
	return -1;
}

unsigned long dtl_http__scrapes(struct dtl_http *h)
{
	(void)h;
	return 0;
}

void dtl_http__stop(struct dtl_http *h)
{
	(void)h;
}
#endif
