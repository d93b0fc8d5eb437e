/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * webconfig.c - --web-config FILE: node_exporter's web configuration, the
 * part dtltop serves (TLS with a certificate and key, basic authentication
 * with bcrypt hashes), parsed from its YAML, its files read and checked.
 */
#include "webconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef DTLTOP_HTTP
#include <crypt.h>
#endif

#include "../platform/sys.h"

#define WEB_CONFIG_BYTES (64 * 1024)
#define WEB_PEM_BYTES (1024 * 1024)

enum section { NONE, TLS, USERS };

/* node_exporter's keys that dtltop does not serve: refused by name, so none is believed in force */
static const char *const tls_unserved[] = { "client_auth_type", "client_ca_file",
	"client_allowed_sans", "min_version", "max_version", "cipher_suites",
	"curve_preferences", "prefer_server_cipher_suites", NULL };

static bool one_of(const char *k, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(k, *list) == 0)
			return true;
	return false;
}

/* A scalar: plain (up to a " #" comment), or '...' / "..." without escapes. 0 or -1. */
static int scalar(char *v, const char **why)
{
	size_t n = strlen(v);
	char q = v[0];

	if (q == '\'' || q == '"') {
		char *end = strchr(v + 1, q);

		if (!end || end[1 + strspn(end + 1, " ")] != '\0') {
			*why = "an unterminated quote, or text after it";
			return -1;
		}
		if (q == '"' && memchr(v + 1, '\\', (size_t)(end - v - 1))) {
			*why = "a backslash escape (write the value plainly or in single quotes)";
			return -1;
		}
		memmove(v, v + 1, (size_t)(end - v - 1));
		v[end - v - 1] = '\0';
		return 0;
	}
	for (char *c = v; *c; c++)
		if (*c == '#' && c > v && (c[-1] == ' ' || c[-1] == '\t')) {
			*c = '\0';
			n = (size_t)(c - v);
			break;
		}
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		v[--n] = '\0';
	return 0;
}

static bool bcrypt_shaped(const char *h)
{
	return strlen(h) == 60 && h[0] == '$' && h[1] == '2' && strchr("aby", h[2]) &&
	       h[3] == '$' && h[4] >= '0' && h[4] <= '3' && h[5] >= '0' && h[5] <= '9' &&
	       h[6] == '$' && strspn(h + 7, "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				     "0123456789") == 53;
}

static int put(char *dst, size_t len, const char *v, const char *key, const char *path,
	       unsigned int ln, char *err, size_t errlen)
{
	if (!*v || strlen(v) >= len) {
		snprintf(err, errlen, "%s:%u: %s must be 1 to %zu bytes", path, ln, key, len - 1);
		return -1;
	}
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* One "key: value" line of a section (or the top level): 0 or -1. */
static int line_of(enum section *sec, int indent, char *key, char *v, struct dtl_webconfig *c,
		   const char *path, unsigned int ln, char *err, size_t errlen)
{
	if (indent == 0) {
		if (*v && strcmp(v, "{}") != 0) {
			snprintf(err, errlen, "%s:%u: %s wants its keys on the lines below it", path, ln,
				 key);
			return -1;
		}
		if (strcmp(key, "tls_server_config") == 0) {
			*sec = TLS;
		} else if (strcmp(key, "basic_auth_users") == 0) {
			*sec = USERS;
		} else {
			snprintf(err, errlen, "%s:%u: %s: %s", path, ln, key,
				 strcmp(key, "http_server_config") == 0 ? "not served by dtltop (its "
				 "HTTP is fixed: no HTTP/2, its own headers)" : "unknown key (dtltop "
				 "serves tls_server_config and basic_auth_users)");
			return -1;
		}
		return 0;
	}
	if (*sec == NONE) {
		snprintf(err, errlen, "%s:%u: an indented line outside a section", path, ln);
		return -1;
	}
	if (*sec == TLS) {
		if (strcmp(key, "cert_file") == 0)
			return put(c->cert_file, sizeof(c->cert_file), v, key, path, ln, err, errlen);
		if (strcmp(key, "key_file") == 0)
			return put(c->key_file, sizeof(c->key_file), v, key, path, ln, err, errlen);
		snprintf(err, errlen, "%s:%u: tls_server_config: %s: %s", path, ln, key,
			 one_of(key, tls_unserved) ? "not served by dtltop (cert_file and key_file "
			 "only)" : "unknown key");
		return -1;
	}
	if (c->nusers == DTL_WEB_USERS) {
		snprintf(err, errlen, "%s:%u: more than %d basic_auth_users", path, ln, DTL_WEB_USERS);
		return -1;
	}
	for (unsigned int i = 0; i < c->nusers; i++)
		if (strcmp(c->users[i].name, key) == 0) {
			snprintf(err, errlen, "%s:%u: user %s given twice", path, ln, key);
			return -1;
		}
	if (strlen(key) >= sizeof(c->users[0].name)) {
		snprintf(err, errlen, "%s:%u: a user name of more than %zu bytes", path, ln,
			 sizeof(c->users[0].name) - 1);
		return -1;
	}
	if (!bcrypt_shaped(v)) {
		snprintf(err, errlen, "%s:%u: user %s: not a bcrypt hash ($2y$, $2b$ or $2a$, 60 "
			 "characters, as htpasswd -nB makes)", path, ln, key);
		return -1;
	}
	snprintf(c->users[c->nusers].name, sizeof(c->users[0].name), "%s", key);
	snprintf(c->users[c->nusers].hash, sizeof(c->users[0].hash), "%s", v);
	c->nusers++;
	return 0;
}

int dtl_webconfig__parse(const char *text, size_t len, const char *path, struct dtl_webconfig *c,
			 char *err, size_t errlen)
{
	enum section sec = NONE;
	const char *t = text, *end = text + len;
	unsigned int ln = 0;
	char line[2048];

	memset(c, 0, sizeof(*c));
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "%s: not a text file (a NUL byte)", path);
		return -1;
	}
	while (t < end) {
		const char *nl = memchr(t, '\n', (size_t)(end - t)), *why = NULL;
		size_t n = (size_t)((nl ? nl : end) - t);
		char *key, *colon, *v;
		int indent;

		ln++;
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "%s:%u: a line longer than %zu bytes", path, ln,
				 sizeof(line) - 1);
			return -1;
		}
		memcpy(line, t, n);
		line[n] = '\0';
		t = nl ? nl + 1 : end;
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		indent = (int)strspn(line, " ");
		if (line[indent] == '\t') {
			snprintf(err, errlen, "%s:%u: a tab in the indentation (YAML indents with "
				 "spaces)", path, ln);
			return -1;
		}
		key = line + indent;
		if (!*key || *key == '#' || (indent == 0 && strcmp(key, "---") == 0))
			continue;
		colon = strchr(key, ':');
		if (!colon || (colon[1] != '\0' && colon[1] != ' ')) {
			snprintf(err, errlen, "%s:%u: not a 'key: value' line", path, ln);
			return -1;
		}
		*colon = '\0';
		v = colon + 1 + strspn(colon + 1, " ");
		if (!*key || strchr(key, ' ') || strchr(key, '"') || strchr(key, '\'')) {
			snprintf(err, errlen, "%s:%u: a key with spaces or quotes", path, ln);
			return -1;
		}
		if (scalar(v, &why)) {
			snprintf(err, errlen, "%s:%u: %s: %s", path, ln, key, why);
			return -1;
		}
		for (const char *k = key; *k; k++)
			if ((unsigned char)*k < 0x20 || *k == 0x7f) {
				snprintf(err, errlen, "%s:%u: a control character in a key", path, ln);
				return -1;
			}
		if (line_of(&sec, indent, key, v, c, path, ln, err, errlen))
			return -1;
	}
	if (!c->cert_file[0] != !c->key_file[0]) {
		snprintf(err, errlen, "%s: tls_server_config needs both cert_file and key_file", path);
		return -1;
	}
	return 0;
}

/* A file of at most max bytes, NUL-terminated; NULL with err. */
static char *slurp(const char *path, size_t max, bool secret, char *err, size_t errlen)
{
	char why[128], *buf;
	unsigned int mode = 0;
	size_t len;

	buf = dtl_sys__slurp(path, max, &len, &mode, why, sizeof(why));
	if (!buf) {
		snprintf(err, errlen, "--web-config: %s: %s", path, why);
		return NULL;
	}
	/* a key others may read is a key others have: refused, as ssh does */
	if (secret && (mode & (S_IRWXG | S_IRWXO))) {
		snprintf(err, errlen, "--web-config: key_file %s is open to group or others (mode "
			 "%04o): chmod 600 it", path, mode);
		explicit_bzero(buf, len);
		free(buf);
		return NULL;
	}
	return buf;
}

/* f relative to the configuration's directory, as node_exporter takes it. */
static void beside(const char *config, const char *f, char *out, size_t len)
{
	const char *slash = strrchr(config, '/');

	if (f[0] == '/' || !slash)
		snprintf(out, len, "%s", f);
	else
		snprintf(out, len, "%.*s/%s", (int)(slash - config), config, f);
}

int dtl_web__load(const char *path, struct dtl_web *w, char *err, size_t errlen)
{
	char *text = slurp(path, WEB_CONFIG_BYTES, false, err, errlen), f[2 * DTL_WEB_PATH];

	memset(w, 0, sizeof(*w));
	if (!text)
		return -1;
	if (dtl_webconfig__parse(text, strlen(text), path, &w->cfg, err, errlen)) {
		free(text);
		return -1;
	}
	free(text);
	if (w->cfg.cert_file[0]) {
		beside(path, w->cfg.cert_file, f, sizeof(f));
		w->cert_pem = slurp(f, WEB_PEM_BYTES, false, err, errlen);
		beside(path, w->cfg.key_file, f, sizeof(f));
		w->key_pem = w->cert_pem ? slurp(f, WEB_PEM_BYTES, true, err, errlen) : NULL;
		if (!w->key_pem)
			goto fail;
	}
#ifdef DTLTOP_HTTP
	/* a hash this libcrypt cannot check would refuse every scrape: said now */
	for (unsigned int i = 0; i < w->cfg.nusers; i++) {
		struct crypt_data *d = calloc(1, sizeof(*d));
		const char *h = d ? crypt_r("", w->cfg.users[i].hash, d) : NULL;
		bool bad = !h || h[0] == '*' || strncmp(h, w->cfg.users[i].hash, 7) != 0;

		free(d);
		if (bad) {
			snprintf(err, errlen, "--web-config: %s: user %s: a hash this system's crypt() "
				 "cannot check", path, w->cfg.users[i].name);
			goto fail;
		}
	}
#endif
	return 0;
fail:
	dtl_web__free(w);
	return -1;
}

void dtl_web__free(struct dtl_web *w)
{
	free(w->cert_pem);
	if (w->key_pem)
		explicit_bzero(w->key_pem, strlen(w->key_pem));
	free(w->key_pem);
	w->cert_pem = w->key_pem = NULL;
}

bool dtl_web__verify(const struct dtl_web *w, const char *user, const char *pass)
{
#ifdef DTLTOP_HTTP
	for (unsigned int i = 0; i < w->cfg.nusers; i++) {
		const char *hash = w->cfg.users[i].hash, *h;
		struct crypt_data *d;
		unsigned char diff = 0;
		bool ok;

		if (strcmp(w->cfg.users[i].name, user) != 0)
			continue;
		d = calloc(1, sizeof(*d));
		h = d ? crypt_r(pass, hash, d) : NULL;
		ok = h && strlen(h) == strlen(hash);
		for (size_t k = 0; ok && hash[k]; k++)
			diff |= (unsigned char)(h[k] ^ hash[k]);
		free(d);
		return ok && !diff;
	}
	/* no such user: as slow as a wrong password, so names cannot be told by the time */
	if (w->cfg.nusers) {
		struct crypt_data *d = calloc(1, sizeof(*d));

		if (d)
			crypt_r(pass, w->cfg.users[0].hash, d);
		free(d);
	}
#else
	(void)w, (void)user, (void)pass;
#endif
	return false;
}
