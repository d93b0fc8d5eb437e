#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Print the screen the README shows: dtltop's first interval of the simulated
# pool in a 100x24 terminal, captured through tmux as a person would see it.
# The simulator makes each interval exactly, so the figures never vary;
# tests/tui.sh checks the README against this, `make readme-screen` rewrites it.
set -e
DTLTOP=${DTLTOP:-./dtltop}
sock=dtltop-readme-$$
empty=$(mktemp -d)
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$empty"' EXIT
# --root at an empty directory: no lparcfg line from the machine this runs on
tmux -L "$sock" new-session -d -s s -x 100 -y 24 \
	"TZ=UTC $DTLTOP --sim=vcpus=64,ent=6,pool=8,load=0.7 --root $empty --no-color; sleep 30"
for _ in $(seq 200); do
	# the first interval is on screen once a row shows dispatches
	if tmux -L "$sock" capture-pane -p -t s | grep -qE '^ +0 +[1-9][0-9]*\.'; then
		# the clock is the one thing that varies: shown as noon
		tmux -L "$sock" capture-pane -p -t s | sed 's/ *$//' |
			sed -E '1s/  [0-9]{2}:[0-9]{2}:[0-9]{2} [A-Z]+  /  12:00:00 UTC  /'
		exit 0
	fi
	sleep 0.05
done
echo "readme-screen.sh: no interval within 10 s" >&2
exit 1
