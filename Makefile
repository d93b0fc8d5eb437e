# SPDX-License-Identifier: GPL-2.0-only
# dtltop - see README.md. `make run` and `make check` install what they need.

# The README's commands work on a bare machine at the first try: a goal that
# needs packages runs scripts/deps.sh first, then make again, so that every
# probe below (kernel source, libperf, libmicrohttpd, ncurses) sees what it
# installed. DTLTOP_DEPS=done (set for that second make) skips the install.
DEPS_BUILD := run bench readme-perf
DEPS_CHECK := check check-fast verdict-check mutants mutants-diff package-check kernel-check patches patches-check patches-send deb rpm
DEPS_GOALS := $(DEPS_BUILD) $(DEPS_CHECK) qemu-check qemu-boots interop-check upstream-compare patches-boot fuzz bare-check
ifneq ($(if $(DTLTOP_DEPS),,$(filter $(DEPS_GOALS),$(MAKECMDGOALS))),)
DEPS_KINDS := $(if $(filter $(DEPS_CHECK),$(MAKECMDGOALS)),check) \
	$(if $(filter qemu-check qemu-boots,$(MAKECMDGOALS)),qemu) \
	$(if $(filter interop-check upstream-compare patches-boot,$(MAKECMDGOALS)),interop) \
	$(if $(filter fuzz,$(MAKECMDGOALS)),fuzz) $(if $(filter bare-check,$(MAKECMDGOALS)),bare)
.PHONY: $(MAKECMDGOALS) deps-then-make
$(MAKECMDGOALS): deps-then-make
	@:
deps-then-make:
	@scripts/deps.sh $(strip $(DEPS_KINDS))
	@$(MAKE) --no-print-directory DTLTOP_DEPS=done $(MAKECMDGOALS)
else
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2
CFLAGS ?= -O2 -g
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN)
NCURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
VERSION := $(shell sed -n 's/^\#define DTLTOP_VERSION "\(.*\)"/\1/p' src/version.h)
# libperf: the system's where pkg-config finds it (Fedora, RHEL: libperf-devel),
# else built once into build/libperf from a kernel source tree or tarball and
# linked statically: LINUX_SRC=/path, or the distribution's kernel source
# package (Debian linux-source-6.12, Ubuntu linux-source, SLES kernel-source).
LINUX_SRC ?= $(firstword $(wildcard /usr/src/linux-source-*.tar.xz /usr/src/linux-source-*.tar.bz2 \
	/usr/src/linux-source-*/linux-source-*.tar.bz2 /usr/src/linux-source-*.tar.gz /usr/src/linux))
ifeq ($(shell $(PKG_CONFIG) --exists libperf 2>/dev/null && echo y),y)
LIBPERF_CFLAGS := $(shell $(PKG_CONFIG) --cflags libperf)
LIBPERF_LIBS := $(shell $(PKG_CONFIG) --libs libperf)
LIBPERF_DEP :=
LIBPERF_ORIGIN := system libperf $(shell $(PKG_CONFIG) --modversion libperf)
else
LIBPERF_CFLAGS := -Ibuild/libperf/include
LIBPERF_LIBS := build/libperf/libperf.a build/libperf/libapi.a
LIBPERF_DEP := build/libperf/.built
LIBPERF_ORIGIN := static libperf from $(notdir $(LINUX_SRC))
endif
# libmicrohttpd for --listen, where pkg-config finds it (HTTP=0 builds without).
HTTP ?= $(shell $(PKG_CONFIG) --exists libmicrohttpd 2>/dev/null && echo 1 || echo 0)
ifeq ($(HTTP),1)
HTTP_CFLAGS := -DDTLTOP_HTTP $(shell $(PKG_CONFIG) --cflags libmicrohttpd)
HTTP_LIBS := $(shell $(PKG_CONFIG) --libs libmicrohttpd) -lcrypt -pthread
endif
override CFLAGS += $(LIBPERF_CFLAGS) $(HTTP_CFLAGS)
override CPPFLAGS += -DDTLTOP_LIBPERF='"$(LIBPERF_ORIGIN)"'
LDLIBS := $(NCURSES_LIBS) $(LIBPERF_LIBS) -lcap -lzstd -lz -lm $(HTTP_LIBS)
CORE_LIBS := $(LIBPERF_LIBS) -lcap -lzstd -lz -lm $(HTTP_LIBS)

SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

CORE := $(wildcard src/dtl/*.c src/platform/*.c src/source/*.c src/source/sim/*.c src/source/replay/*.c src/format/*.c src/stats/*.c src/stats/cpu/*.c src/stats/task/*.c \
	src/view/*.c src/view/report/*.c src/loop/*.c src/opts/*.c src/check/*.c)
TUI := $(wildcard src/tui/*.c)
SRCS := $(CORE) $(TUI) src/main.c src/info.c
HDRS := $(wildcard src/*.h src/*/*.h src/*/*/*.h) $(LIBPERF_DEP)
TESTS := $(wildcard tests/unit/*.c)

all: dtltop

dtltop: $(SRCS) $(HDRS)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(NCURSES_CFLAGS) -o $@ $(SRCS) $(LDFLAGS) $(LDLIBS)

build/dtltop-san: $(SRCS) $(HDRS)
	@mkdir -p build
	$(CC) $(CPPFLAGS) $(CFLAGS) -O1 $(SAN) $(NCURSES_CFLAGS) -o $@ $(SRCS) $(LDFLAGS) $(LDLIBS)

build/unit: $(CORE) $(TESTS) tests/unit/t.h $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS) -Isrc -o $@ $(CORE) $(TESTS) $(LDFLAGS) $(CORE_LIBS)

# The verdict against the simulator's ground truth, over a grid of LPARs.
build/verdict: $(CORE) tests/verdict/grid.c $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS) -Isrc -o $@ $(CORE) tests/verdict/grid.c $(LDFLAGS) $(CORE_LIBS)

build/verdict-san: $(CORE) tests/verdict/grid.c $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS) -O1 $(SAN) -Isrc -o $@ $(CORE) tests/verdict/grid.c $(LDFLAGS) $(CORE_LIBS)

build/unit-san: $(CORE) $(TESTS) tests/unit/t.h $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS) -O1 $(SAN) -Isrc -o $@ $(CORE) $(TESTS) $(LDFLAGS) $(CORE_LIBS)

# kernel/vpa-dtl.c, unmodified, against the fakes in tests/kernel/.
KHARNESS := tests/kernel/fake_kernel.c tests/kernel/harness.c tests/kernel/test_vpa_dtl.c \
	tests/unit/main.c src/dtl/aux.c
KDEPS := kernel/vpa-dtl.c $(KHARNESS) $(wildcard tests/kernel/*.h tests/kernel/include/*.h \
	tests/kernel/include/*/*.h) tests/unit/t.h
KFLAGS := -std=gnu11 -D_GNU_SOURCE -DCONFIG_PPC_SPLPAR -g -Wall -Wextra -Werror \
	-Wno-unused-parameter -Wno-sign-compare -pthread

build/kharness: $(KDEPS)
	@mkdir -p build
	$(CC) $(KFLAGS) -O2 -Itests/kernel/include -c -o build/vpa-dtl.o kernel/vpa-dtl.c
	$(CC) $(KFLAGS) -O2 -Itests/kernel -Isrc -o $@ build/vpa-dtl.o $(KHARNESS)

build/kharness-san: $(KDEPS)
	@mkdir -p build
	$(CC) $(KFLAGS) -O1 $(SAN) -Itests/kernel/include -c -o build/vpa-dtl-san.o kernel/vpa-dtl.c
	$(CC) $(KFLAGS) -O1 $(SAN) -Itests/kernel -Isrc -o $@ build/vpa-dtl-san.o $(KHARNESS)

build/bench: $(CORE) $(TUI) bench/bench.c bench/floor.c bench/floor.h tests/unit/perfdata_gen.c $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS) -O2 $(NCURSES_CFLAGS) -Isrc -Itests/unit -o $@ $(CORE) $(TUI) bench/bench.c bench/floor.c tests/unit/perfdata_gen.c $(LDFLAGS) $(LDLIBS)

# A recording whose task and cgroup names are hostile (tests/cli.sh plays it
# through every output); committed, remade only when its generator changes.
hostile-names: $(CORE) $(HDRS) tests/data/hostile-names.c
	@mkdir -p build
	$(CC) $(CFLAGS) -Isrc $(LIBPERF_CFLAGS) -o build/hostile-names tests/data/hostile-names.c $(CORE) $(CORE_LIBS)
	rm -f tests/data/hostile-names.dtl
	build/hostile-names tests/data/hostile-names.dtl

# Groundwork for recording format 2 (issue 32): a recording's entries in several
# layouts, bytes per entry and coding rates in one run (build/fmtstudy FILE.dtl).
build/fmtstudy: bench/fmtstudy.c src/dtl/name.c src/format/recwrite.c src/format/recread.c src/format/recmeta.c src/format/switches.c src/format/v1.c src/format/v2.c src/dtl/dtl.c $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS) -O2 -Isrc -o $@ bench/fmtstudy.c src/dtl/name.c src/format/recwrite.c src/format/recread.c src/format/recmeta.c src/format/switches.c src/format/v1.c src/format/v2.c src/dtl/dtl.c \
		src/platform/cpuset.c src/platform/topo.c src/platform/replace.c src/platform/sys.c \
		-lzstd -lz -lm

# Groundwork for a smaller summary (issue 48): its counters through a range
# coder under context models, bytes per CPU-interval (build/sumstudy FILE.dtl).
build/sumstudy: bench/sumstudy.c src/dtl/name.c src/format/recread.c src/format/recmeta.c src/format/switches.c src/format/summary.c src/format/v1.c src/format/v2.c src/dtl/dtl.c $(HDRS)
	@mkdir -p build
	$(CC) $(CFLAGS) -O2 -Isrc -o $@ bench/sumstudy.c src/dtl/name.c src/format/recread.c src/format/recmeta.c src/format/switches.c src/format/summary.c src/format/v1.c src/format/v2.c src/dtl/dtl.c \
		src/platform/cpuset.c src/platform/topo.c src/platform/replace.c src/platform/sys.c \
		-lzstd -lz -lm

FUZZERS := entries aux recording perfdata cpulist sysfiles simparams config vpa kallsyms tasks \
	sideband webconfig request
FUZZ_SECONDS ?= 30
CLANG ?= clang

# The code under test is built once for every target (instrumented, not
# linked with libFuzzer's main); each target is fuzz.c with its FUZZ_ define.
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -Isrc $(LIBPERF_CFLAGS)
FUZZ_OBJS := $(patsubst src/%.c,build/fuzzobj/%.o,$(CORE))
.SECONDARY: $(FUZZ_OBJS)
build/fuzzobj/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
build/fuzz-%: fuzz/fuzz.c $(FUZZ_OBJS) $(HDRS)
	@mkdir -p build
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_$(shell echo $* | tr a-z A-Z) \
		-o $@ fuzz/fuzz.c $(FUZZ_OBJS) $(CORE_LIBS)

# Each target for FUZZ_SECONDS, from the seed corpus in tests/corpus/; crash
# files go under build/. perf.data inputs are capped at 16 KiB: whole real files
# (50 KB) cost a third of the speed for a few more edges.
fuzz: $(addprefix build/fuzz-,$(FUZZERS))
	@for f in $(FUZZERS); do \
		opts=""; [ $$f = perfdata ] && opts=-max_len=16384; \
		mkdir -p build/corpus-$$f && cp tests/corpus/$$f/* build/corpus-$$f/ && \
		if build/fuzz-$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$opts \
			-artifact_prefix=build/ build/corpus-$$f >build/fuzz-$$f.log 2>&1; then \
			echo "$$f: $$(grep -o 'number_of_executed_units: *[0-9]*' build/fuzz-$$f.log |\
				tr -s ' '), $$(grep -o 'average_exec_per_sec: *[0-9]*' build/fuzz-$$f.log |\
				tr -s ' ')/s, edges $$(grep -o 'cov: [0-9]*' build/fuzz-$$f.log | tail -1 |\
				cut -d' ' -f2), no crash"; \
		else \
			tail -30 build/fuzz-$$f.log; echo "$$f: CRASH (build/fuzz-$$f.log)"; exit 1; \
		fi; \
	done

# dtltop for ppc64le (an LPAR, or the QEMU test in tests/qemu): static, so it
# runs from an initramfs with nothing else; ncursesw, libcap, zstd and zlib
# from Debian's ppc64el -dev packages, unpacked into a sysroot (not multiarch:
# scripts/ppc64el-sysroot.sh says why), libperf built for it.
PPC_CROSS ?= powerpc64le-linux-gnu-
PPC_LIBPERF := build/ppc64le/libperf
PPC_SYSROOT := build/ppc64el/sysroot
PPC_PKGS := libncurses-dev libcap-dev libzstd-dev zlib1g-dev libelf-dev
PPC_LIBDIR := $(PPC_SYSROOT)/usr/lib/powerpc64le-linux-gnu
build/ppc64le/dtltop: $(SRCS) $(HDRS) $(PPC_LIBPERF)/.built $(PPC_SYSROOT)/.done
	$(PPC_CROSS)gcc $(CPPFLAGS) $(filter-out $(HTTP_CFLAGS),$(CFLAGS)) -I$(PPC_LIBPERF)/include -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600 \
		-I$(PPC_SYSROOT)/usr/include -I$(PPC_SYSROOT)/usr/include/powerpc64le-linux-gnu \
		-static -o $@ $(SRCS) $(PPC_LIBPERF)/libperf.a $(PPC_LIBPERF)/libapi.a \
		-L$(PPC_LIBDIR) -lncursesw -ltinfo -lcap -lzstd -lz -lm

$(PPC_SYSROOT)/.done: scripts/ppc64el-sysroot.sh
	scripts/ppc64el-sysroot.sh $(PPC_SYSROOT) $(PPC_PKGS) >/dev/null
	touch $@

$(PPC_LIBPERF)/.built: scripts/build-libperf.sh
	LINUX_SRC="$(LINUX_SRC)" ARCH=powerpc CROSS_COMPILE=$(PPC_CROSS) scripts/build-libperf.sh $(PPC_LIBPERF)

build/libperf/.built: scripts/build-libperf.sh
	LINUX_SRC="$(LINUX_SRC)" scripts/build-libperf.sh build/libperf

deps:
	@scripts/deps.sh

deps-check:
	@scripts/deps.sh check

run: dtltop
	./dtltop --sim

# Everything: the fast tests, then the kernel driver's, then the emulated LPAR.
check: check-fast build/kharness build/kharness-san build/bench
	@if [ "$$(id -u)" -eq 0 ]; then tests/bare.sh; else \
		echo "make check: bare-check skipped: it needs root (chroot, mounts); CI runs it"; fi
	build/kharness
	build/kharness-san
	tests/kernel/mutants.sh
	for v in $(KVERS); do KVER=$$v tests/kernel/cross.sh || exit 1; done
	tests/kernel/series.sh
	scripts/patches.sh check
	DTLTOP=./dtltop tests/package.sh
	rm -rf build/destdir && $(MAKE) -s install DESTDIR=build/destdir PREFIX=/usr
	test -x build/destdir/usr/bin/dtltop && test -f build/destdir/usr/share/man/man1/dtltop.1 \
		&& test -f build/destdir/usr/share/man/man5/dtltop-format.5
	for v in $(CHECK_KVERS); do KVER=$$v tests/qemu/run.sh || exit 1; done
	FIXES=1 KVER=7.3 tests/qemu/run.sh
	$(MAKE) -s dist-ppc64le && cd build && sha256sum -c dtltop-$(VERSION)-ppc64le.sha256 \
		&& $(PPC_CROSS)readelf -h dtltop-$(VERSION)-ppc64le | grep -q 'Machine:.*PowerPC64' \
		&& ! $(PPC_CROSS)readelf -lS dtltop-$(VERSION)-ppc64le | grep -Eq 'INTERP|\.symtab'
	@echo "make check: all tests passed"

# The README's sample screen, made anew from the deterministic simulator.
readme-screen: dtltop
	scripts/readme-screen.sh >build/screen.txt
	awk 'FNR == NR { scr = scr $$0 "\n"; next } /^<!-- screen:/ { print; print "```"; printf "%s", scr; \
		skip = 1; next } skip && /^```$$/ { if (++n == 2) { skip = 0; print; } next } !skip' \
		build/screen.txt README.md >build/README.new && mv build/README.new README.md
	scripts/man-screen.sh build/screen.txt >build/man-screen.roff
	awk 'FNR == NR { scr = scr $$0 "\n"; next } /^\.\\" screen: made/ { printf "%s", scr; skip = 1; \
		next } skip && /^\.\\" screen: end/ { skip = 0; next } !skip' \
		build/man-screen.roff man/dtltop.1 >build/dtltop.1.new && mv build/dtltop.1.new man/dtltop.1

# Every test script has a hard limit that kills (and lib.sh a CPU limit for each
# command it runs): a hang fails, it does not stall CI.
TEST_LIMIT ?= 900
LIMIT = timeout -k 10 $(TEST_LIMIT)
# The user-space tests only: no kernel harness, cross build or QEMU.
check-fast: dtltop build/dtltop-san build/unit build/unit-san build/verdict build/verdict-san
	$(LIMIT) build/unit
	$(LIMIT) build/unit-san
	$(LIMIT) build/verdict
	$(LIMIT) build/verdict-san 60 >build/verdict-san.txt || { tail -5 build/verdict-san.txt; exit 1; }
	DTLTOP=./dtltop $(LIMIT) tests/cli.sh
	DTLTOP=build/dtltop-san $(LIMIT) tests/cli.sh
	DTLTOP=./dtltop $(LIMIT) tests/truth.sh
	DTLTOP=build/dtltop-san $(LIMIT) tests/truth.sh
	DTLTOP=./dtltop $(LIMIT) tests/tui.sh
	DTLTOP=build/dtltop-san $(LIMIT) tests/tui.sh
	DTLTOP=./dtltop $(LIMIT) tests/triage.sh
	DTLTOP=build/dtltop-san $(LIMIT) tests/triage.sh
	DTLTOP=./dtltop $(LIMIT) tests/whopays.sh
	DTLTOP=build/dtltop-san $(LIMIT) tests/whopays.sh
	DTLTOP=./dtltop $(LIMIT) tests/exporter.sh
	DTLTOP=build/dtltop-san $(LIMIT) tests/exporter.sh
	$(LIMIT) tests/exporter-load.py ./dtltop
	DTLTOP=./dtltop $(LIMIT) tests/fleet.sh
	DTLTOP=./dtltop $(LIMIT) tests/report.sh
	DTLTOP=build/dtltop-san REPORT_BIG=0 $(LIMIT) tests/report.sh
	$(LIMIT) tests/man.sh ./dtltop man/dtltop.1
	$(LIMIT) tests/deps.sh
	DTLTOP=./dtltop $(LIMIT) tests/style.sh
	$(LIMIT) tests/qemu/reports.sh
	@echo "make check-fast: all tests passed"

# Small realistic bugs put into src/, one at a time, against the fast tests
# (tests/mutants.sh; MUTANT=pattern runs those whose description matches).
MUT_ENV = MUT_CFLAGS="$(NCURSES_CFLAGS) $(LIBPERF_CFLAGS) $(HTTP_CFLAGS)" MUT_LIBS="$(LDLIBS)"
mutants: dtltop
	$(MUT_ENV) tests/mutants.sh "$(MUTANT)"

# Mutants made by tests/mutgen.py of the lines changed since BASE (the working
# tree against it), at most MAX of them sampled with SEED, each against the fast
# tests that run its line: how well a change's own tests catch its bugs.
BASE ?= HEAD~1
MAX ?= 40
SEED ?= 1
mutants-diff: dtltop
	$(MUT_ENV) tests/mutants.sh --diff $(BASE) $(MAX) $(SEED)

# The verdict's accuracy over 240 simulated LPARs, and PowerVM's rules on each (tests/verdict).
verdict-check: build/verdict
	build/verdict

bench: dtltop build/bench
	build/bench ./dtltop $(ONLY)

# The README's performance table from a whole `make bench` run, never typed.
readme-perf: dtltop build/bench
	build/bench ./dtltop | tee build/bench.txt
	scripts/perf-table.sh build/bench.txt >build/perf-table.md
	awk 'FNR == NR { t = t $$0 "\n"; next } /^<!-- perf:/ { print; printf "%s", t; skip = 1; next } \
		skip && /^$$/ { skip = 0 } !skip' build/perf-table.md README.md >build/README.new && \
		mv build/README.new README.md

BASH_COMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPDIR ?= $(PREFIX)/share/zsh/site-functions
# The exporter's unit: where systemd looks for the distribution's under /usr,
# /usr/local/lib/systemd/system for a local install.
SYSTEMD_UNITDIR ?= $(if $(filter /usr,$(PREFIX)),$(or $(shell $(PKG_CONFIG) \
	--variable=systemdsystemunitdir systemd 2>/dev/null),/usr/lib/systemd/system),$(PREFIX)/lib/systemd/system)
# The fleet's files: Prometheus and Grafana have no place of their own for a
# package's rules and dashboards, PCP's pmdaopenmetrics has one (its config.d).
EXAMPLESDIR ?= $(PREFIX)/share/doc/dtltop/examples
PCP_OPENMETRICS_DIR ?= $(if $(filter /usr,$(PREFIX)),/var/lib/pcp/pmdas/openmetrics/config.d,$(EXAMPLESDIR)/pcp)
INSTALLED := $(PREFIX)/bin/dtltop $(PREFIX)/share/man/man1/dtltop.1 \
	$(PREFIX)/share/man/man5/dtltop-format.5 $(BASH_COMPDIR)/dtltop $(ZSH_COMPDIR)/_dtltop \
	$(SYSTEMD_UNITDIR)/dtltop-exporter.service $(SYSTEMD_UNITDIR)/dtltop-exporter-debugfs.service \
	$(EXAMPLESDIR)/prometheus/dtltop.rules.yml $(EXAMPLESDIR)/grafana/dtltop.json \
	$(PCP_OPENMETRICS_DIR)/dtltop.url

install: dtltop
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(BASH_COMPDIR) $(DESTDIR)$(ZSH_COMPDIR) \
		$(DESTDIR)$(SYSTEMD_UNITDIR) $(DESTDIR)$(EXAMPLESDIR)/prometheus \
		$(DESTDIR)$(EXAMPLESDIR)/grafana $(DESTDIR)$(PCP_OPENMETRICS_DIR)
	install -m 0755 dtltop $(DESTDIR)$(PREFIX)/bin/dtltop
	install -m 0644 contrib/prometheus/dtltop.rules.yml $(DESTDIR)$(EXAMPLESDIR)/prometheus/
	install -m 0644 contrib/grafana/dtltop.json $(DESTDIR)$(EXAMPLESDIR)/grafana/
	install -m 0644 contrib/pcp/dtltop.url $(DESTDIR)$(PCP_OPENMETRICS_DIR)/
	install -m 0644 man/dtltop.1 $(DESTDIR)$(PREFIX)/share/man/man1/dtltop.1
	install -m 0644 man/dtltop-format.5 $(DESTDIR)$(PREFIX)/share/man/man5/dtltop-format.5
	install -m 0644 completion/dtltop.bash $(DESTDIR)$(BASH_COMPDIR)/dtltop
	install -m 0644 completion/_dtltop $(DESTDIR)$(ZSH_COMPDIR)/_dtltop
	for u in dtltop-exporter dtltop-exporter-debugfs; do \
		sed 's|@BINDIR@|$(PREFIX)/bin|g' systemd/$$u.service >$(DESTDIR)$(SYSTEMD_UNITDIR)/$$u.service && \
		chmod 0644 $(DESTDIR)$(SYSTEMD_UNITDIR)/$$u.service || exit 1; \
	done
	@echo "To use the vpa_dtl PMU without root: make setcap (setcap cap_perfmon+ep on the binary)"

# Removes what install put there, and the directories it made if they are empty.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir -p $(sort $(dir $(addprefix $(DESTDIR),$(INSTALLED)))) 2>/dev/null

# Offered, not forced: lets non-root users open vpa_dtl events.
setcap:
	setcap cap_perfmon+ep $(DESTDIR)$(PREFIX)/bin/dtltop

clean:
	rm -rf build dtltop

# A versioned source tarball, the same bytes for the same commit: the files git
# tracks, sorted, owned by root, dated by the commit.
DIST := build/dtltop-$(VERSION).tar.gz
dist:
	@mkdir -p build
	git ls-files | LC_ALL=C sort | tar --no-recursion --owner=0 --group=0 --numeric-owner \
		--mtime=@$$(git log -1 --format=%ct) --transform 's,^,dtltop-$(VERSION)/,' \
		-cf - -T - | gzip -n9 >$(DIST)
	@echo "$(DIST)"

# One static binary to copy to an LPAR, stripped, with its SHA-256.
dist-ppc64le: build/ppc64le/dtltop
	$(PPC_CROSS)strip -o build/dtltop-$(VERSION)-ppc64le build/ppc64le/dtltop
	cd build && sha256sum dtltop-$(VERSION)-ppc64le >dtltop-$(VERSION)-ppc64le.sha256
	@echo "build/dtltop-$(VERSION)-ppc64le"

# The Debian package, built with Debian's own tools from the dist tarball.
deb: dist
	rm -rf build/deb && mkdir -p build/deb
	tar xzf $(DIST) -C build/deb
	cd build/deb/dtltop-$(VERSION) && dpkg-buildpackage -b -us -uc
	lintian --fail-on error build/deb/dtltop_*.deb

# install/uninstall, completion, dist, .deb and .rpm (also part of make check).
package-check: dtltop
	DTLTOP=./dtltop tests/package.sh

# The RPM, from the same tarball; LINUX_SRC for the bundled libperf where the
# distribution has no libperf-devel.
rpm: dist
	rm -rf build/rpm && mkdir -p build/rpm/SOURCES
	cp $(DIST) build/rpm/SOURCES/
	rpmspec -P dtltop.spec >/dev/null
	rpmbuild -bb --nodeps --define "_topdir $(CURDIR)/build/rpm" --define "debug_package %{nil}" \
		$(if $(LINUX_SRC),--define "linux_src $(LINUX_SRC)") dtltop.spec

# Our driver and dtltop in a real pseries kernel under QEMU (tests/qemu/run.sh),
# on each kernel of KVERS: 7.3 (the newest, where users have the PMU) and 6.12
# (patched; lockdep stays on there, see kernel/README).
KVERS ?= 7.3 6.12
# make check boots 7.3 only: both from a fresh clone took 22 minutes here, too near
# CI's 30 with its installs; make qemu-check (or CHECK_KVERS="7.3 6.12") adds 6.12
CHECK_KVERS ?= 7.3
# and 6.12 as the fleets' distributions ship it: no vpa_dtl PMU, who pays with debugfs
qemu-check:
	for v in $(KVERS); do KVER=$$v tests/qemu/run.sh || exit 1; done
	NOPMU=1 KVER=6.12 tests/qemu/run.sh
	FIXES=1 KVER=7.3 tests/qemu/run.sh

# The test kernel booted N times to an /init that only powers off, each console
# judged as qemu-check judges it: a report that comes now and then, found and
# its fix proved by repetition (KVER=7.3 by default).
N ?= 10
qemu-boots:
	tests/qemu/boots.sh $(N)

# Upstream perf 7.3 (static, ppc64le) against our driver in the rig, and dtltop's
# import of its files against perf's own decoding (tests/interop). Not in check:
# it builds perf (about 8 minutes) on top of the 7.3 kernel.
interop-check: dtltop
	tests/interop/run.sh

# The 7.3 tree's own vpa-dtl.c in the same rig, with the same perf: the table
# of kernel/README (what upstream loses or corrupts where ours counts and flags).
upstream-compare: dtltop
	tests/interop/run.sh
	UPSTREAM=1 tests/interop/run.sh
	tests/interop/compare.sh

# The README's make run, first try, in a bare Debian 12 root (tests/bare.sh; root).
bare-check:
	tests/bare.sh

kernel-check: build/kharness build/kharness-san
	build/kharness
	build/kharness-san
	tests/kernel/mutants.sh
	for v in $(KVERS); do KVER=$$v tests/kernel/cross.sh || exit 1; done
	tests/kernel/series.sh
	scripts/patches.sh check

# The driver's fixes as a patch series against Linux 7.3.4 (kernel/upstream/,
# kernel/README.md): build/patches/, a cover letter and one patch per fix.
# SIGNOFF=1 makes you their author and adds your Signed-off-by (git config).
patches:
	scripts/patches.sh write
# ... as the sender mails it: refused while From:/Signed-off-by are a placeholder
patches-send:
	scripts/patches.sh send
# ... and each step built with W=1 in the 7.3 tree, checkpatch --strict on each
patches-check:
	scripts/patches.sh check
# ... and each step booted in the QEMU rig, recorded by upstream perf 7.3 (about 31 minutes)
patches-boot: dtltop
	scripts/patches.sh boot

.PHONY: all deps deps-check bare-check kernel-check patches patches-check patches-send patches-boot qemu-check qemu-boots interop-check upstream-compare setcap run check check-fast verdict-check hostile-names mutants mutants-diff bench fuzz install uninstall dist dist-ppc64le deb rpm package-check \
	clean readme-screen readme-perf
endif
