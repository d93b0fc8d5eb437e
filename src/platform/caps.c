/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * caps.c - the capabilities dtltop holds, and when.
 *
 * Opening vpa_dtl events needs CAP_PERFMON (CAP_SYS_ADMIN on kernels that
 * predate it); reading their mappings needs nothing. So once the events are
 * open everything goes except that one, kept permitted but not effective
 * for the reopen a mask change or a hotplugged CPU needs.
 */
#include "caps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

static cap_value_t kept = CAP_PERFMON;

static bool has(cap_t c, cap_value_t v, cap_flag_t set)
{
	cap_flag_value_t f = CAP_CLEAR;

	return cap_get_flag(c, v, set, &f) == 0 && f == CAP_SET;
}

bool dtl_caps__can_perfmon(void)
{
	cap_t c = cap_get_proc();
	bool ok;

	if (!c)
		return false;
	ok = has(c, CAP_PERFMON, CAP_PERMITTED) || has(c, CAP_SYS_ADMIN, CAP_PERMITTED);
	if (!has(c, CAP_PERFMON, CAP_PERMITTED) && has(c, CAP_SYS_ADMIN, CAP_PERMITTED))
		kept = CAP_SYS_ADMIN;
	cap_free(c);
	return ok;
}

static int set_only(bool effective)
{
	cap_t c = cap_init();	/* all clear */
	int rc, saved;

	if (!c)
		return -1;
	rc = cap_set_flag(c, CAP_PERMITTED, 1, &kept, CAP_SET);
	if (!rc && effective)
		rc = cap_set_flag(c, CAP_EFFECTIVE, 1, &kept, CAP_SET);
	if (!rc)
		rc = cap_set_proc(c);
	saved = errno;
	cap_free(c);
	errno = saved;
	return rc;
}

int dtl_caps__drop(void)
{
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	return set_only(false);
}

int dtl_caps__raise(void)
{
	return set_only(true);
}

int dtl_caps__lower(void)
{
	return set_only(false);
}

int dtl_caps__drop_all(void)
{
	cap_t c = cap_init();	/* all clear */
	int rc, saved;

	if (!c)
		return -1;
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	rc = cap_set_proc(c);
	saved = errno;
	cap_free(c);
	errno = saved;
	return rc;
}

int dtl_caps__parse_eff(const char *status, uint64_t *eff)
{
	const char *line = status;
	uint64_t v = 0;
	int digits = 0;

	while (line && strncmp(line, "CapEff:", 7) != 0) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (!line)
		return -1;
	for (line += 7; *line == ' ' || *line == '\t'; line++)
		;
	for (; *line && *line != '\n'; line++, digits++) {
		int d = *line >= '0' && *line <= '9' ? *line - '0' :
			*line >= 'a' && *line <= 'f' ? *line - 'a' + 10 : -1;

		if (d < 0 || digits == 16)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (!digits)
		return -1;
	*eff = v;
	return 0;
}

bool dtl_caps__pid_perfmon(int pid)
{
	char path[64], text[8192];
	uint64_t eff;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = pid > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return false;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	return !dtl_caps__parse_eff(text, &eff) &&
	       ((eff >> CAP_PERFMON & 1) || (eff >> CAP_SYS_ADMIN & 1));
}
