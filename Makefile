# homefeed — build, test, run, benchmark.
#
#   make run     build, start homefeedd on feeds/ (offline), show the home screen it serves
#   make layout  solve feeds/layout.json at 375x812@2x offline and write its SVG wireframe
#   make test    install missing Debian packages (as root), build clean of warnings, swift test
#   make bench   release benchmarks (homefeed-bench)
#   make fuzz    libFuzzer over the feed parser (FUZZ_TARGET=layout, varlink, fetch: the others)
#   make install install homefeedd, homefeedctl, units, default config and man pages under
#                $(DESTDIR)$(PREFIX) (see "Running under systemd" in README.md)

SHELL := /bin/bash
# The toolchain's usr/bin is not on PATH by default on this machine kind.
SWIFT_DIR ?= /opt/swift/usr/bin
export PATH := $(SWIFT_DIR):$(PATH)

SWIFT ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
# libvips-dev: homefeed-thumbnail; libvips-tools: vips and vipsthumbnail, homefeed-bench images'
# floor. libpango1.0-dev: TextMeasure (pangoft2 + fontconfig); pango1.0-tools: pango-view, which
# the text tests compare with; the fonts the sample homefeedd.conf measures with. systemd:
# systemd-socket-activate for SystemdTests and systemd-analyze for check-units (a fresh CI
# container has neither).
DEB_PACKAGES := libsqlite3-dev libxml2-dev libcurl4-openssl-dev libvips-dev libvips-tools pkg-config sqlite3 curl \
                debhelper lintian libpango1.0-dev pango1.0-tools fonts-nanum fonts-dejavu-core systemd
# The Python `varlink` client, a real third-party client for VarlinkTests and the consumer example,
# and `jsonschema`, the validator the integration tests check served manifests with (PyPI).
PYTHON ?= python3
PYTHON_PACKAGES := varlink jsonschema
BUILD_DIR := .build
BENCH ?= all

.PHONY: all deps build run layout test bench lint clean check-units check-deb check-spawn release install deb

all: build

## deps: install the Debian -dev packages the C targets need, and the Python packages the tests
## use (PYTHON_PACKAGES: the varlink client, the jsonschema validator), when missing and when root.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing:$$missing"; \
	        export DEBIAN_FRONTEND=noninteractive; \
	        apt-get update -qq && apt-get install -y -qq $$missing; \
	    else \
	        echo "missing Debian packages:$$missing (run 'sudo apt-get install$$missing')" >&2; exit 1; \
	    fi; \
	fi
	@for p in $(PYTHON_PACKAGES); do \
	    $(PYTHON) -c "import $$p" 2>/dev/null && continue; \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing: python $$p"; \
	        export DEBIAN_FRONTEND=noninteractive; \
	        $(PYTHON) -m pip --version >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-pip; }; \
	        $(PYTHON) -m pip install --quiet $$p 2>/dev/null \
	            || $(PYTHON) -m pip install --quiet --break-system-packages $$p || exit 1; \
	    else \
	        echo "missing Python package $$p (run '$(PYTHON) -m pip install --user $$p')" >&2; exit 1; \
	    fi; \
	done

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

## run: the daemon on the sample configuration in feeds/, offline, state and socket under
## .build/run; shows the served home screen and keeps running until Ctrl-C.
RUN_DIR := $(BUILD_DIR)/run
SOCKET := $(RUN_DIR)/homefeed.sock
run: build
	@bin=$$($(SWIFT) build --show-bin-path); mkdir -p $(RUN_DIR); \
	$$bin/homefeedd --config feeds --state-dir $(RUN_DIR)/state --cache-dir $(RUN_DIR)/cache \
	    --socket $(SOCKET) & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid; exit 0' INT TERM; \
	for i in $$(seq 100); do $$bin/homefeedctl status --socket $(SOCKET) >/dev/null 2>&1 && break; sleep 0.1; done; \
	$$bin/homefeedctl refresh --socket $(SOCKET) && \
	$$bin/homefeedctl preview --profile phone --socket $(SOCKET) && \
	$$bin/homefeedctl preview --profile phone --svg $(BUILD_DIR)/home.svg --socket $(SOCKET) && \
	echo && echo "homefeedd is serving on $(SOCKET) (Ctrl-C stops it). Try:" && \
	echo "  export HOMEFEED_SOCKET=$(SOCKET)" && \
	echo "  $$bin/homefeedctl status | manifest --profile tablet | watch | history add \"도서관\" | notices" && \
	echo "  python3 -c 'import varlink; print(varlink.Client(address=\"unix:$(SOCKET)\").open(\"io.homefeed\").GetStatus())'"; \
	wait $$pid

## layout: the layout engine alone: solve feeds/layout.json at 375x812@2x and draw its wireframe.
layout: build
	$(SWIFT) run $(SWIFT_FLAGS) homefeedctl layout solve feeds/layout.json \
	    --width 375 --height 812 --scale 2 --svg $(BUILD_DIR)/home-375.svg
	@echo "wireframe: $(BUILD_DIR)/home-375.svg" >&2

test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
# The log is long and CI keeps only its tail, so a failed run ends by repeating its issues
# (expectations, crashes), or its last 40 lines when it names none.
	@mkdir -p $(BUILD_DIR); set -o pipefail; \
	$(SWIFT) test --disable-xctest $(SWIFT_FLAGS) 2>&1 | tee $(BUILD_DIR)/test.log || { \
	    status=$$?; set +o pipefail; echo "== swift test failed (exit $$status); from $(BUILD_DIR)/test.log:"; \
	    issues=$$(grep -a -A3 -E 'recorded an issue|Fatal error|Precondition failed|Assertion failed|Program crashed|unexpected signal|^error:' \
	        $(BUILD_DIR)/test.log | head -80); \
	    if [ -n "$$issues" ]; then echo "$$issues"; else tail -n 40 $(BUILD_DIR)/test.log; fi; exit $$status; }
	@$(MAKE) --no-print-directory check-units
	@$(MAKE) --no-print-directory check-deb
	@$(MAKE) --no-print-directory check-spawn
	@$(MAKE) --no-print-directory check-fuzz
	$(SWIFT) format lint --strict --recursive Sources Tests

## check-units: systemd-analyze verify (any warning fails: verify itself exits 0 on unknown keys)
## and the offline security score (<= SECURITY_THRESHOLD/10) of systemd/, with ExecStart=
## pointed at the built homefeedd (verify needs the binary); then `systemd-analyze --user verify`
## of the per-user units in systemd/user/ with a private $XDG_RUNTIME_DIR (SKIPPED, said, when no
## user manager can be set up). The user service is not scored: it runs with the user's rights.
SECURITY_THRESHOLD ?= 20
check-units:
	@if ! command -v systemd-analyze >/dev/null 2>&1; then \
	    echo "check-units: SKIPPED, systemd-analyze is not installed (apt-get install systemd)"; exit 0; \
	fi; \
	set -e; bin=$$($(SWIFT) build --show-bin-path)/homefeedd; test -x $$bin; \
	tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	cp systemd/homefeed.socket $$tmp/; \
	sed "s|^ExecStart=/usr/libexec/homefeedd|ExecStart=$$bin|" systemd/homefeed.service > $$tmp/homefeed.service; \
	out=$$(systemd-analyze verify --man=no $$tmp/homefeed.socket $$tmp/homefeed.service 2>&1); \
	if [ -n "$$out" ]; then echo "$$out" >&2; echo "check-units: verify warned (it exits 0 on unknown keys)" >&2; exit 1; fi; \
	echo "check-units: systemd-analyze verify ok (no warnings)"; \
	mkdir $$tmp/homefeed.service.d; cp systemd/homefeed.service.d-notify-reload/*.conf $$tmp/homefeed.service.d/; \
	out=$$(systemd-analyze verify --man=no $$tmp/homefeed.socket $$tmp/homefeed.service 2>&1); \
	if [ "$$(systemd-analyze --version | awk 'NR==1 {print $$2}')" -lt 253 ]; then \
	    out=$$(echo "$$out" | grep -v 'Failed to parse service type, ignoring: notify-reload' || true); \
	    note=" (systemd < 253: only Type=notify-reload itself is rejected)"; \
	fi; \
	if [ -n "$$out" ]; then echo "$$out" >&2; exit 1; fi; \
	echo "check-units: with the notify-reload drop-in, verify ok$$note"; \
	rm -r $$tmp/homefeed.service.d; \
	systemd-analyze security --offline=true --threshold=$(SECURITY_THRESHOLD) $$tmp/homefeed.service \
	    | tail -n 1; \
	systemd-analyze security --offline=true --threshold=$(SECURITY_THRESHOLD) $$tmp/homefeed.service >/dev/null \
	    || { echo "check-units: exposure above $(SECURITY_THRESHOLD)/10" >&2; exit 1; }; \
	mkdir $$tmp/user $$tmp/runtime; chmod 0700 $$tmp/runtime; cp systemd/user/homefeed.socket $$tmp/user/; \
	sed "s|^ExecStart=/usr/libexec/homefeedd|ExecStart=$$bin|" systemd/user/homefeed.service > $$tmp/user/homefeed.service; \
	out=$$(XDG_RUNTIME_DIR=$$tmp/runtime systemd-analyze --user verify --man=no \
	    $$tmp/user/homefeed.socket $$tmp/user/homefeed.service 2>&1) || true; \
	if echo "$$out" | grep -q 'Failed to initialize manager'; then \
	    echo "check-units: user units SKIPPED, systemd-analyze --user cannot start a user manager here: $$out"; \
	elif [ -n "$$out" ]; then \
	    echo "$$out" >&2; echo "check-units: --user verify of systemd/user/ warned" >&2; exit 1; \
	else \
	    echo "check-units: systemd-analyze --user verify of systemd/user/ ok (no warnings)"; \
	fi

## release: the shipped binaries, release build with --static-swift-stdlib when it links here,
## linked by the toolchain's lld with packed relative relocations when that links too (DT_RELR,
## glibc >= 2.36: a 1.8 MB relocation table stays out of the daemon's resident memory, issue
## 17); else with the default linker; else a plain release build, which needs the Swift runtime
## at the toolchain's path. RELEASE_SCRATCH (e.g. --scratch-path DIR) builds elsewhere than .build.
RELEASE_PRODUCTS := homefeedd homefeedctl homefeed-thumbnail
# Full RELRO: the GOT is read-only after start-up (lintian's hardening-no-bindnow).
RELEASE_FLAGS := -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
RELEASE_RELR := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
RELEASE_SCRATCH ?=
release:
	@build() { for product in $(RELEASE_PRODUCTS); do \
	        $(SWIFT) build -c release $(RELEASE_SCRATCH) "$$@" $(RELEASE_FLAGS) --product $$product || return 1; done; }; \
	if build --static-swift-stdlib $(RELEASE_RELR); then \
	    echo "release: built with --static-swift-stdlib, lld and DT_RELR"; \
	elif build --static-swift-stdlib; then \
	    echo "release: built with --static-swift-stdlib (lld with DT_RELR failed)"; \
	else \
	    echo "release: --static-swift-stdlib failed, plain release build (needs the Swift runtime libraries)"; \
	    build || exit 1; \
	fi

## install: the release binaries (homefeed-thumbnail beside homefeedd), system and per-user units, sysusers.d
## entries (the socket's group and the daemon's user), default config, man pages, and
## homefeedctl's bash completion (generated by the built homefeedctl from its command table).
##   make install DESTDIR=/tmp/pkg PREFIX=/usr [SYSTEMD_NOTIFY_RELOAD=yes for systemd >= 253]
PREFIX ?= /usr
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
BASHCOMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
SYSTEMD_NOTIFY_RELOAD ?= no
install: release
	@set -e; bin=$$($(SWIFT) build -c release $(RELEASE_SCRATCH) $(RELEASE_FLAGS) --show-bin-path); \
	install -D -m 0755 $$bin/homefeedd $(DESTDIR)$(PREFIX)/libexec/homefeedd; \
	install -D -m 0755 $$bin/homefeedctl $(DESTDIR)$(PREFIX)/bin/homefeedctl; \
	install -d -m 0755 $(DESTDIR)$(BASHCOMPLETIONDIR); \
	$$bin/homefeedctl completion bash > $(DESTDIR)$(BASHCOMPLETIONDIR)/homefeedctl; \
	chmod 0644 $(DESTDIR)$(BASHCOMPLETIONDIR)/homefeedctl; \
	install -D -m 0755 $$bin/homefeed-thumbnail $(DESTDIR)$(PREFIX)/libexec/homefeed-thumbnail; \
	install -d -m 0755 $(DESTDIR)$(UNITDIR); \
	for unit in homefeed.service homefeed.socket; do \
	    sed -e "s|/usr/libexec/homefeedd|$(PREFIX)/libexec/homefeedd|" -e "s|/etc/homefeed|$(SYSCONFDIR)/homefeed|g" \
	        systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit; chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit; \
	done; \
	install -d -m 0755 $(DESTDIR)$(USERUNITDIR); \
	for unit in homefeed.service homefeed.socket; do \
	    sed -e "s|/usr/libexec/homefeedd|$(PREFIX)/libexec/homefeedd|" \
	        systemd/user/$$unit > $(DESTDIR)$(USERUNITDIR)/$$unit; chmod 0644 $(DESTDIR)$(USERUNITDIR)/$$unit; \
	done; \
	if [ "$(SYSTEMD_NOTIFY_RELOAD)" = yes ]; then \
	    install -D -m 0644 systemd/homefeed.service.d-notify-reload/notify-reload.conf \
	        $(DESTDIR)$(UNITDIR)/homefeed.service.d/notify-reload.conf; \
	else \
	    install -D -m 0644 systemd/homefeed.service.d-notify-reload/notify-reload.conf \
	        $(DESTDIR)$(PREFIX)/share/doc/homefeed/notify-reload.conf; \
	fi; \
	if [ -n "$(SYSUSERSDIR)" ]; then install -D -m 0644 systemd/homefeed.sysusers $(DESTDIR)$(SYSUSERSDIR)/homefeed.conf; fi; \
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/homefeed/samples/icons $(DESTDIR)$(SYSCONFDIR)/homefeed/samples/images; \
	install -m 0644 feeds/homefeedd.conf feeds/layout.json feeds/sources.opml $(DESTDIR)$(SYSCONFDIR)/homefeed/; \
	install -m 0644 feeds/samples/*.* $(DESTDIR)$(SYSCONFDIR)/homefeed/samples/; \
	install -m 0644 feeds/samples/icons/* $(DESTDIR)$(SYSCONFDIR)/homefeed/samples/icons/; \
	install -m 0644 feeds/samples/images/* $(DESTDIR)$(SYSCONFDIR)/homefeed/samples/images/; \
	install -D -m 0644 docs/man/homefeedd.8 $(DESTDIR)$(PREFIX)/share/man/man8/homefeedd.8; \
	install -D -m 0644 docs/man/homefeed-thumbnail.8 $(DESTDIR)$(PREFIX)/share/man/man8/homefeed-thumbnail.8; \
	install -D -m 0644 docs/man/homefeedctl.1 $(DESTDIR)$(PREFIX)/share/man/man1/homefeedctl.1; \
	echo "installed under $(DESTDIR)$(PREFIX) and $(DESTDIR)$(SYSCONFDIR)"

## deb: the Debian package (debhelper, debian/), built from the checkout without
## dpkg-buildpackage's .changes in the parent directory: .build/deb/homefeed_<version>_<arch>.deb.
## Needs debhelper (make deps installs it); the Swift toolchain comes from SWIFT_DIR.
DEB_DIR := $(BUILD_DIR)/deb
deb: deps
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)
	debian/rules clean
	debian/rules binary
	@ls $(DEB_DIR)/*.deb

## check-deb: builds the package and compares its contents with debian/homefeed.contents
## (path and mode per line), then runs lintian (warnings fail) when it is installed; SKIPPED
## without dpkg-deb or debhelper.
check-deb:
	@if ! command -v dpkg-deb >/dev/null 2>&1 || ! command -v dh >/dev/null 2>&1; then \
	    echo "check-deb: SKIPPED, dpkg-deb or debhelper is not installed (apt-get install dpkg-dev debhelper)"; exit 0; \
	fi; \
	set -e; $(MAKE) --no-print-directory deb >$(BUILD_DIR)/deb.log 2>&1 || { tail -n 40 $(BUILD_DIR)/deb.log; exit 1; }; \
	deb=$$(ls $(DEB_DIR)/homefeed_*.deb); \
	dpkg-deb --contents $$deb | awk '$$6 != "./" {sub(/^\./, "", $$6); sub(/\/$$/, "", $$6); print $$6, $$1}' \
	    | LC_ALL=C sort > $(DEB_DIR)/contents; \
	if ! diff -u debian/homefeed.contents $(DEB_DIR)/contents; then \
	    echo "check-deb: $$deb differs from debian/homefeed.contents (update it if the change is meant)" >&2; exit 1; \
	fi; \
	echo "check-deb: $$(basename $$deb) holds what debian/homefeed.contents lists"; \
	if command -v lintian >/dev/null 2>&1; then \
	    lintian --fail-on warning,error $$deb \
	        && echo "check-deb: lintian clean"; \
	else \
	    echo "check-deb: lintian SKIPPED (apt-get install lintian)"; \
	fi

## bench: the serve benchmark's last part measures a separate daemon, the shipped (release)
## build of homefeedd, made in its own scratch directory so the two builds never rebuild each other.
BENCH_DAEMON_SCRATCH := $(BUILD_DIR)/bench-daemon
bench: deps
	@$(MAKE) --no-print-directory release RELEASE_PRODUCTS=homefeedd \
	    RELEASE_SCRATCH="--scratch-path $(BENCH_DAEMON_SCRATCH)"
	$(SWIFT) run -c release homefeed-bench $(BENCH) \
	    --daemon $$($(SWIFT) build -c release --scratch-path $(BENCH_DAEMON_SCRATCH) --show-bin-path)/homefeedd

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

## check-spawn: no child is started through Foundation's Process (or read through its Pipe) in
## Sources/ or Tests/: on Linux its run() can fault reading /proc/self/fd, and did in CI. Tests
## spawn through Tests/TestSupport/ChildProcess.swift, the bench through BenchChild.
check-spawn:
	@if grep -rnE '\bProcess\(\)|\bPipe\(\)|\.executableURL\b' Sources Tests; then \
	    echo "check-spawn: Foundation's Process above; spawn through ChildProcess or BenchChild" >&2; exit 1; \
	else echo "check-spawn: no Foundation Process"; fi

clean:
	rm -rf $(BUILD_DIR)

## fuzz: libFuzzer for FUZZ_SECONDS over FUZZ_TARGET (not part of swift build/test):
##   homefeeds (default)  the feed parser: every format, encoding and chunking, and the page-icon
##                        readers (a web page's head, a web app manifest) (Fuzz/FuzzEntry.swift);
##   layout               a spec's and measurements' JSON, the solver in ordinary, extreme and invalid
##                        containers, and the result's JSON (Fuzz/LayoutFuzzEntry.swift);
##   varlink              a connection's byte stream: its messages decoded as the server decodes them,
##                        which must agree with the general decoding, and as replies (Fuzz/VarlinkFuzzEntry.swift);
##   fetch                a server's response: its head read as a fetch reads it, its body through the
##                        feed fetch's consumer knowing no digest, its own and another: the body must be
##                        unchanged with its own and parse the same with the other (Fuzz/FetchFuzzEntry.swift).
## Each corpus grows in fuzz-artifacts/ (gitignored, survives a clean build: corpus/ for homefeeds,
## <target>-corpus/ for the others); findings land in fuzz-artifacts/ and each one goes into the
## target's Tests/…/Fixtures/fuzz/, replayed by its FuzzRegressionTests. The modules a target imports
## are built first, instrumented the same way (CSystem's C too), with HOMEFEED_FUZZING, under which
## String(validUTF8:) checks its bytes. Two targets at once: `make fuzz-build`, then
## `make -o fuzz-build fuzz FUZZ_TARGET=…` for each, so that neither rebuilds under the other.
## FUZZ_RUNS=0 replays the corpus once, mutating nothing (check-fuzz).
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_TARGET ?= homefeeds
FUZZ_TARGETS := homefeeds layout varlink fetch
FUZZ_DIR := $(BUILD_DIR)/fuzz
FUZZ_SWIFTC := swiftc -sanitize=fuzzer,address -D HOMEFEED_FUZZING -parse-as-library -O -g -swift-version 6 \
    -package-name homefeed \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
    -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature NonisolatedNonsendingByDefault \
    -I $(FUZZ_DIR) -L $(FUZZ_DIR)
FUZZ_CORPUS_homefeeds := fuzz-artifacts/corpus
FUZZ_CORPUS_layout := fuzz-artifacts/layout-corpus
FUZZ_CORPUS_varlink := fuzz-artifacts/varlink-corpus
FUZZ_CORPUS_fetch := fuzz-artifacts/fetch-corpus
# $(call fuzz_module,Name): Sources/Name as an instrumented static library and module.
fuzz_module = $(FUZZ_SWIFTC) -module-name $(1) -emit-module -emit-module-path $(FUZZ_DIR)/$(1).swiftmodule \
    -emit-library -static -o $(FUZZ_DIR)/lib$(1).a $$(find Sources/$(1) -name '*.swift' | sort)
# $(call fuzz_target,name,Sources dir,entry,flags): the libFuzzer executable $(FUZZ_DIR)/name-fuzz.
fuzz_target = $(FUZZ_SWIFTC) -module-name $(2)Fuzz $(4) $$(find Sources/$(2) -name '*.swift' | sort) Fuzz/$(3) \
    -o $(FUZZ_DIR)/$(1)-fuzz
.PHONY: fuzz fuzz-build check-fuzz
# Checked as make reads the file, so that a mistyped target fails before the build.
ifneq ($(filter fuzz,$(MAKECMDGOALS)),)
  ifeq ($(filter $(FUZZ_TARGET),$(FUZZ_TARGETS)),)
    $(error FUZZ_TARGET must be one of $(FUZZ_TARGETS), not '$(FUZZ_TARGET)')
  endif
endif
# Every part is remade on each fuzz-build (-B: the sources' changes are not tracked), two at a time.
fuzz-build:
	mkdir -p $(FUZZ_DIR)/CSystem fuzz-artifacts
	$(MAKE) --no-print-directory -B -j2 $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%-fuzz)
$(FUZZ_DIR)/lib%.a:
	mkdir -p $(FUZZ_DIR)
	$(call fuzz_module,$*)
$(FUZZ_DIR)/CSystem.o:
	mkdir -p $(FUZZ_DIR)/CSystem
	printf 'module CSystem {\n    header "%s"\n    export *\n}\n' "$(CURDIR)/Sources/CSystem/include/CSystem.h" \
	    > $(FUZZ_DIR)/CSystem/module.modulemap
	clang -c -O2 -g -fsanitize=address,fuzzer-no-link -I Sources/CSystem/include Sources/CSystem/CSystem.c \
	    -o $(FUZZ_DIR)/CSystem.o
# HomeFeeds needs libxml2's headers, and CSystem's module map, wherever it is compiled.
# Recursive (=), not :=: the $$ must survive until the recipe, where the shell runs pkg-config.
FUZZ_LIBXML2 = -I Sources/CLibXML2 $$(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g')
# HomeFeeds is built once, as a module of its own (its own rule, for those flags), for its entry
# and for the fetch target, which imports it. A static library does not bring the libraries its
# module imports: the entry, which imports HomeFeeds alone, names them.
$(FUZZ_DIR)/libHomeFeeds.a: $(FUZZ_DIR)/libJSONCore.a $(FUZZ_DIR)/CSystem.o
	$(call fuzz_module,HomeFeeds) -I $(FUZZ_DIR)/CSystem $(FUZZ_LIBXML2)
$(FUZZ_DIR)/homefeeds-fuzz: $(FUZZ_DIR)/libHomeFeeds.a $(FUZZ_DIR)/libJSONCore.a $(FUZZ_DIR)/CSystem.o
	$(FUZZ_SWIFTC) -module-name HomeFeedsFuzz Fuzz/FuzzEntry.swift -lHomeFeeds -lJSONCore \
	    -lFoundationEssentials -lswiftGlibc -lswiftSynchronization -I $(FUZZ_DIR)/CSystem $(FUZZ_DIR)/CSystem.o \
	    $(FUZZ_LIBXML2) -lxml2 -o $@
$(FUZZ_DIR)/fetch-fuzz: $(FUZZ_DIR)/libHomeFeeds.a $(FUZZ_DIR)/libJSONCore.a $(FUZZ_DIR)/libLogCore.a \
    $(FUZZ_DIR)/libSystemCalls.a $(FUZZ_DIR)/libHomefeedVersion.a $(FUZZ_DIR)/CSystem.o
	$(call fuzz_target,fetch,HomeFetch,FetchFuzzEntry.swift,-lHomeFeeds -lJSONCore -lLogCore -lSystemCalls \
	    -lHomefeedVersion -I $(FUZZ_DIR)/CSystem $(FUZZ_DIR)/CSystem.o $(FUZZ_LIBXML2) -lxml2 \
	    -I Sources/CCurl $$(pkg-config --cflags-only-I libcurl | sed 's/-I/-Xcc -I/g') -lcurl)
$(FUZZ_DIR)/layout-fuzz: $(FUZZ_DIR)/libJSONCore.a
	$(call fuzz_target,layout,HomeLayout,LayoutFuzzEntry.swift,-lJSONCore -lm)
$(FUZZ_DIR)/varlink-fuzz: $(FUZZ_DIR)/libJSONCore.a $(FUZZ_DIR)/libLogCore.a $(FUZZ_DIR)/libSystemCalls.a \
    $(FUZZ_DIR)/CSystem.o
	$(call fuzz_target,varlink,Varlink,VarlinkFuzzEntry.swift,-lJSONCore -lLogCore -lSystemCalls \
	    -I $(FUZZ_DIR)/CSystem $(FUZZ_DIR)/CSystem.o)
fuzz: fuzz-build
	mkdir -p $(FUZZ_CORPUS_$(FUZZ_TARGET))
	case "$(FUZZ_TARGET)" in \
	homefeeds) cp Tests/HomeFeedsTests/Fixtures/*.* Tests/HomeFeedsTests/Fixtures/fuzz/* $(FUZZ_CORPUS_homefeeds)/ && \
	    for seed in Fuzz/seeds/*; do cp "$$seed" $(FUZZ_CORPUS_homefeeds)/seed-$${seed##*/} || exit 1; done;; \
	layout) cp Tests/HomeLayoutTests/Fixtures/fuzz/* $(FUZZ_CORPUS_layout)/; \
	    { printf 'A'; cat feeds/layout.json; } > $(FUZZ_CORPUS_layout)/seed-sample-layout;; \
	varlink) cp Tests/VarlinkTests/Fixtures/fuzz/* $(FUZZ_CORPUS_varlink)/;; \
	fetch) cp Tests/HomeFetchTests/Fixtures/fuzz/* $(FUZZ_CORPUS_fetch)/;; \
	esac
	$(FUZZ_DIR)/$(FUZZ_TARGET)-fuzz $(FUZZ_CORPUS_$(FUZZ_TARGET)) -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix=fuzz-artifacts/$(FUZZ_TARGET)- -print_final_stats=1 \
	    $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS))

## check-fuzz: every fuzz target builds and replays its corpus (its seeds and regression inputs on a
## fresh clone) without a crash, leak or timeout, mutating nothing: `make fuzz` is no part of swift
## build, and it had stopped building, hung on every parse and failed to seed its corpus, each
## unseen for days. A finding is a regression input in Fixtures/fuzz/ and so already fails swift test.
check-fuzz:
	@mkdir -p $(BUILD_DIR); \
	$(MAKE) --no-print-directory fuzz-build >$(BUILD_DIR)/fuzz-build.log 2>&1 \
	    || { tail -n 40 $(BUILD_DIR)/fuzz-build.log; echo "check-fuzz: the fuzz targets do not build" >&2; exit 1; }; \
	for target in $(FUZZ_TARGETS); do \
	    $(MAKE) --no-print-directory -o fuzz-build fuzz FUZZ_TARGET=$$target FUZZ_RUNS=0 \
	        >$(BUILD_DIR)/fuzz-$$target.log 2>&1 \
	        || { tail -n 40 $(BUILD_DIR)/fuzz-$$target.log; echo "check-fuzz: $$target failed its corpus" >&2; exit 1; }; \
	done; \
	echo "check-fuzz: $(FUZZ_TARGETS) build and replay their corpora"
