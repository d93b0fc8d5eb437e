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

#include "../platform/signals.h"

struct dtl_http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	struct MHD_Response *prom, *om;	/* NULL until the first interval has ended */
	struct MHD_Response *index, *missing, *method, *early;
	unsigned long scrapes;
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
		return MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, h->method);
	if (!*state || *upload_len) {	/* the headers' call, then any body, dropped */
		*state = h;
		*upload_len = 0;
		return MHD_YES;
	}
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
	ret = MHD_queue_response(c, status, r);	/* takes its own reference */
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
 * Clients that trickle a header line every few seconds never go idle: one
 * address may hold this many slots, so a slow or hostile peer cannot take
 * every slot from the scrapers (the man page: bind to localhost, or put a
 * proxy in front, for more).
 */
#define HTTP_PER_ADDRESS 16

struct dtl_http *dtl_http__start(const struct dtl_listen_addr *a, char *err, size_t errlen)
{
	struct dtl_http *h = calloc(1, sizeof(*h));
	sigset_t old;

	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
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
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO |
				(a->ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0), 0, NULL, NULL,
				answer, h,
				MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&a->ss,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HTTP_CONNECTIONS,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_MEMORY,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HTTP_IDLE_S,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)HTTP_PER_ADDRESS,
				MHD_OPTION_END);
	dtl_signals__restore(&old);
	if (!h->d) {
		snprintf(err, errlen, "cannot listen on %s (in use, or not this machine's address)",
			 a->text);
		goto fail;
	}
	return h;
fail:
	responses_free(h);
	pthread_mutex_destroy(&h->lock);
	free(h);
	return NULL;
}

void dtl_http__stop(struct dtl_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	responses_free(h);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

#else	/* built without libmicrohttpd */

struct dtl_http {
	int unused;
};

struct dtl_http *dtl_http__start(const struct dtl_listen_addr *a, char *err, size_t errlen)
{
	(void)a;
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
