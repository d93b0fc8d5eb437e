# SPDX-License-Identifier: GPL-2.0-only
# Driving dtltop in tmux as a person would, for tui.sh and triage.sh (after
# lib.sh): T runs tmux on the test's own server, keys types, screen reads,
# expect waits for a line to match.
sock="dtltop-test-$$-${0##*/}"
T() { tmux -L "$sock" "$@"; }
screen() { T capture-pane -p -t t 2>/dev/null; }
# wait_for REGEX [seconds]: poll the screen until it matches
wait_for() {
	local end=$((SECONDS + ${2:-10}))
	while [ $SECONDS -lt $end ]; do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
expect() { if wait_for "$1" "${3:-10}"; then ok; else fail "$2"; screen | sed 's/^/  | /' >&2; fi; }
keys() { T send-keys -t t "$@"; }
cleanup() { T kill-server 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
