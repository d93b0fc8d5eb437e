/* SPDX-License-Identifier: GPL-2.0-only */
/* Fake: everything is in fake_kernel.h. */
#include "../fake_kernel.h"
