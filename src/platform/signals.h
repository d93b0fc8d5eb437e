/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * signals.h - helper threads never take the process's signals.
 *
 * A keyless view sleeps up to a second between drains; SIGTERM must end
 * that sleep, so it has to land on the loop's thread. A thread inherits
 * its creator's mask: hold every signal while one is started.
 */
#ifndef DTL_SIGNALS_H
#define DTL_SIGNALS_H

#include <pthread.h>
#include <signal.h>

static inline void dtl_signals__hold(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

static inline void dtl_signals__restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

#endif
