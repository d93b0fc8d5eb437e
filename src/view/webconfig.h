/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * webconfig.h - --web-config FILE: TLS and basic authentication for
 * --listen, in node_exporter's web configuration format (the part of it
 * dtltop serves: tls_server_config's cert_file and key_file, and
 * basic_auth_users with bcrypt hashes). The YAML is parsed here (pure);
 * the TLS is libmicrohttpd's (GnuTLS), the hashes libxcrypt's crypt_r.
 */
#ifndef DTL_WEBCONFIG_H
#define DTL_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define DTL_WEB_USERS 32
#define DTL_WEB_PATH 1024

struct dtl_webconfig {
	char cert_file[DTL_WEB_PATH], key_file[DTL_WEB_PATH];	/* "" without TLS */
	unsigned int nusers;
	struct dtl_web_user {
		char name[64];
		char hash[64];	/* bcrypt: $2a$, $2b$ or $2y$, 60 characters */
	} users[DTL_WEB_USERS];
};

/*
 * The configuration's text (len bytes; path names it in messages): 0, or
 * -1 with err "PATH:LINE: what is wrong". Keys of node_exporter's format
 * that dtltop does not serve are refused by name, never ignored.
 */
int dtl_webconfig__parse(const char *text, size_t len, const char *path, struct dtl_webconfig *c,
			 char *err, size_t errlen);

/* What the server needs: the configuration, its certificate and key read. */
struct dtl_web {
	struct dtl_webconfig cfg;
	char *cert_pem, *key_pem;	/* NULL without TLS */
};

/*
 * Reads and checks path: its files relative to its directory, the key
 * readable by its owner only, every hash one crypt_r can check. 0, or -1
 * with err (w freed).
 */
int dtl_web__load(const char *path, struct dtl_web *w, char *err, size_t errlen);
void dtl_web__free(struct dtl_web *w);
/* user and password against the hashes (bcrypt: slow on purpose). */
bool dtl_web__verify(const struct dtl_web *w, const char *user, const char *pass);

#endif
