#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The upstream series cannot drift from kernel/vpa-dtl.c: make patches fails,
# naming the difference, when the driver changes and the series does not, and
# when a patch of the series no longer applies.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
scripts/patches.sh write >"$tmp/out" 2>&1 && grep -q 'byte for byte' "$tmp/out" && ok ||
	fail "make patches on the tree as it is: $(tail -3 "$tmp/out")"
# the driver changed, the series did not
sed 's/"vpa_dtl: " fmt/"vpa-dtl: " fmt/' kernel/vpa-dtl.c >"$tmp/drift.c"
cmp -s "$tmp/drift.c" kernel/vpa-dtl.c && fail "the drift mutant changed nothing"
PATCHES_DRIVER="$tmp/drift.c" scripts/patches.sh write >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "differs from $tmp/drift.c" "$tmp/out" && grep -q '^+.*"vpa-dtl: " fmt' "$tmp/out" && ok ||
	fail "a driver that drifted from the series was not caught: $(tail -3 "$tmp/out")"
# the document changed, the features did not
sed 's/^Lost entries$/Lost Entries/' kernel/vpa-dtl.rst >"$tmp/drift.rst"
cmp -s "$tmp/drift.rst" kernel/vpa-dtl.rst && fail "the document drift mutant changed nothing"
PATCHES_DOC="$tmp/drift.rst" scripts/patches.sh write >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "differs from $tmp/drift.rst" "$tmp/out" && ok ||
	fail "a vpa-dtl.rst that drifted from the features was not caught: $(tail -3 "$tmp/out")"
# a patch that no longer applies
mkdir -p "$tmp/series" && cp -r kernel/upstream/. "$tmp/series/"
sed -i 's/^ \(.\)if (event->attr.type != event->pmu->type)/ \1if (event->attr.type != 42)/' "$tmp/series"/fixes/0002-*.patch
cmp -s "$tmp/series"/fixes/0002-*.patch kernel/upstream/fixes/0002-*.patch && fail "the apply mutant changed nothing"
PATCHES_SERIES="$tmp/series" scripts/patches.sh write >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q 'the fixes series does not apply' "$tmp/out" && ok || fail "a patch that does not apply was not caught: $(tail -3 "$tmp/out")"
# a feature's document text among the fixes: the fixes must stand alone
rm -rf "$tmp/series" && mkdir -p "$tmp/series" && cp -r kernel/upstream/. "$tmp/series/"
mv "$tmp/series"/features/0001-*.patch "$tmp/series"/fixes/0012-count.patch
PATCHES_SERIES="$tmp/series" scripts/patches.sh write >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q 'the fixes change Documentation/arch/powerpc/vpa-dtl.rst' "$tmp/out" && ok ||
	fail "a feature among the fixes was not caught: $(tail -3 "$tmp/out")"
scripts/patches.sh write >/dev/null 2>&1 || fail "make patches after the mutants"
# sending: refused while From:/Signed-off-by are the placeholder, or an example address
g=$tmp/gitconfig
out=$(GIT_CONFIG_GLOBAL=$g scripts/patches.sh send 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "^patches.sh: send: From: and Signed-off-by are the placeholder" <<<"$out" &&
	[ "$(wc -l <<<"$out")" = 1 ] && ok || fail "send without a sign-off: $out"
git config --file "$g" user.name "Your Name" && git config --file "$g" user.email you@example.org
out=$(GIT_CONFIG_GLOBAL=$g SIGNOFF=1 scripts/patches.sh send 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "send: 'Your Name <you@example.org>' is a placeholder" <<<"$out" && ok ||
	fail "send as Your Name: $out"
git config --file "$g" user.name "Ada Sender" && git config --file "$g" user.email ada@kernel.org
out=$(GIT_CONFIG_GLOBAL=$g SIGNOFF=1 scripts/patches.sh send 2>&1)
[ $? -eq 0 ] && grep -q "would run (SEND=yes runs it): git send-email --to=linuxppc-dev@lists.ozlabs.org .*fixes/0011-" <<<"$out" &&
	grep -q "would run (SEND=yes runs it): git send-email .*--cc=linux-doc@vger.kernel.org .*features/0003-" <<<"$out" &&
	grep -q '^Signed-off-by: Ada Sender <ada@kernel.org>$' build/patches/fixes/0001-*.patch &&
	grep -q '^Signed-off-by: Ada Sender <ada@kernel.org>$' build/patches/features/0003-*.patch && ok ||
	fail "send as a person: $out"
scripts/patches.sh write >/dev/null 2>&1 || fail "make patches after sending"
finish
