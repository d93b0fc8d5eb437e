#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The harness at every step of the upstream series (scripts/patches.sh check):
# each step's vpa-dtl.c against the fakes, each test in a process of its own
# (an early step's crash takes only its test down). A test that passes at one
# step passes at every later one, and the last step passes them all: no patch
# undoes what an earlier one fixed, and the series ends where the harness is.
# With FIXES_STEPS=N, the Nth step (the end of the fixes) passes every test
# but those that assert a feature (the loss count, any mask, the period's
# bounds), named here: the fixes posting stands on its own.
#   tests/kernel/steps.sh STEP.c...    (in series order)
cd "$(dirname "$0")/../.." || exit 1
CC=${CC:-cc}
out=build/kharness-steps
mkdir -p "$out"
# the fakes, the tests and dtltop's consumer are the same at every step: built once
common=""
for f in tests/kernel/fake_kernel.c tests/kernel/harness.c tests/kernel/test_vpa_dtl.c \
	tests/unit/main.c src/dtl/aux.c; do
	o=$out/$(basename "$f" .c).o
	$CC -std=gnu11 -D_GNU_SOURCE -g -w -pthread -Itests/kernel -Isrc -c -o "$o" "$f" ||
		{ echo "steps.sh: $f does not build"; exit 1; }
	common="$common $o"
done
names=$(grep -o '^TEST([a-z0-9_]*)' tests/kernel/test_vpa_dtl.c | sed 's/TEST(\(.*\))/\1/')
total=$(wc -w <<<"$names")
# the tests that assert what only the features series gives
needs_features="kdrv_any_nonzero_subset_of_the_mask_is_valid kdrv_frequency_becomes_a_fixed_period_of_at_least_1ms
kdrv_entries_overwritten_during_the_copy_are_discarded_and_counted kdrv_full_aux_truncates_whole_records_and_counts_them
kdrv_lapped_ring_and_missing_aux_are_counted_and_flagged kdrv_output_through_dtltops_aux_consumer_one_for_one
kdrv_start_stop_exist_and_aux_unmap_while_running_is_safe"
prev="" k=0 bad=0
for f in "$@"; do
	k=$((k + 1))
	b=$out/step-$k
	if ! $CC -std=gnu11 -D_GNU_SOURCE -DCONFIG_PPC_SPLPAR -g -w -pthread -O1 -Itests/kernel/include \
		-c -o "$b.o" "$f" 2>"$b.err" ||
	   ! $CC -pthread -o "$b" "$b.o" $common 2>>"$b.err"; then
		echo "steps.sh: step $k ($f) does not build against the harness: $(head -n3 "$b.err")"
		exit 1
	fi
	pass=""
	for t in $names; do
		(timeout -k 2 20 "$b" "$t" >"$b.$t.log" 2>&1; exit $?) 2>/dev/null && pass="$pass $t"
	done
	for t in $prev; do
		grep -qw -- "$t" <<<"$pass" || { echo "steps.sh: step $k ($f) fails $t, which passed before it"; bad=1; }
	done
	echo "steps.sh: step $k: $(wc -w <<<"$pass") of $total harness tests pass${VERBOSE:+; not:$(comm -13 <(tr ' ' '\n' <<<"$pass" | sort) <(tr ' ' '\n' <<<"$names" | sort) | tr '\n' ' ')}"
	if [ "$k" = "${FIXES_STEPS:-0}" ]; then
		for t in $names; do
			grep -qw -- "$t" <<<"$pass $needs_features" ||
				{ echo "steps.sh: the fixes alone (step $k) fail $t, which needs no feature"; bad=1; }
		done
	fi
	prev=$pass
done
[ "$(wc -w <<<"$prev")" = "$total" ] || { echo "steps.sh: the last step fails some: $(comm -13 <(tr ' ' '\n' <<<"$prev" | sort) <(tr ' ' '\n' <<<"$names" | sort) | tr '\n' ' ')"; bad=1; }
exit $bad
