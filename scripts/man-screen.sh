#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The man page's SCREEN example from a capture (scripts/readme-screen.sh's):
# roff that shows it as is, a backslash as \e and a leading dot or quote
# escaped. `make readme-screen` puts it between the markers in man/dtltop.1;
# tests/tui.sh checks the page against the screen dtltop shows now.
echo '.\" screen: made by make readme-screen; do not edit'
echo '.PP'
echo '.nf'
echo '.ft CR'
# the trend's block characters as dtltop draws them outside UTF-8: every
# groff device shows ASCII
sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" "${1:-/dev/stdin}" |
	perl -CS -pe 's/([\x{2581}-\x{2588}])/substr("_.-:=+*#", ord($1) - 0x2581, 1)/ge'
echo '.ft'
echo '.fi'
echo '.\" screen: end'
