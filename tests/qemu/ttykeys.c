/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ttykeys.c - runs inside the QEMU test (tests/qemu/init.sh): a program on a
 * new pseudo-terminal, as a person at a console would run it, because
 * busybox has no script(1) or tmux to give dtltop's TUI a terminal.
 *
 *   ttykeys KEYS OUT PROGRAM [ARG...]
 *
 * Bytes written to the FIFO KEYS are typed into the terminal; everything the
 * program draws is appended to OUT (so it never blocks on a full pty). The
 * terminal is 100x30. Exits with the program's exit status, 3 on its own
 * failure.
 */
#define _GNU_SOURCE		/* posix_openpt and friends */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int fail(const char *what)
{
	perror(what);
	return 3;
}

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 30, .ws_col = 100 };
	int master, keys, out, st;
	char buf[4096];
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: ttykeys KEYS-FIFO OUT PROGRAM [ARG...]\n");
		return 3;
	}
	/* O_RDWR: the FIFO never reads as end-of-file between writers */
	keys = open(argv[1], O_RDWR | O_CLOEXEC);
	if (keys < 0)
		return fail(argv[1]);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return fail(argv[2]);
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return fail("posix_openpt");
	ioctl(master, TIOCSWINSZ, &ws);
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		int slave;

		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0 || ioctl(slave, TIOCSCTTY, 0) < 0)
			_exit(fail("pty slave"));
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		execvp(argv[3], argv + 3);
		_exit(fail(argv[3]));
	}
	for (;;) {
		struct pollfd p[2] = { { master, POLLIN, 0 }, { keys, POLLIN, 0 } };
		ssize_t n;

		if (poll(p, 2, 200) < 0 && errno != EINTR)
			return fail("poll");
		if (p[0].revents & POLLIN) {
			n = read(master, buf, sizeof(buf));
			if (n > 0 && write(out, buf, (size_t)n) != n)
				return fail(argv[2]);
		}
		if (p[1].revents & POLLIN) {
			n = read(keys, buf, sizeof(buf));
			if (n > 0 && write(master, buf, (size_t)n) != n)
				return fail("typing");
		}
		/* the slave closed (the program ended): EIO or a hangup */
		if (p[0].revents & (POLLHUP | POLLERR) && !(p[0].revents & POLLIN))
			break;
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	if (waitpid(pid, &st, 0) != pid)
		return fail("waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
