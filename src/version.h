/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DTLTOP_VERSION
#define DTLTOP_VERSION "0.2.0"
#endif
