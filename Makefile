# homefeed — build, test, run, benchmark.
#
#   make run     build, solve feeds/layout.json at 375x812@2x, print it and write its SVG
#   make test    install missing Debian packages (as root), build clean of warnings, swift test
#   make bench   release benchmarks (homefeed-bench)

SHELL := /bin/bash
# The toolchain's usr/bin is not on PATH by default on this machine kind.
SWIFT_DIR ?= /opt/swift/usr/bin
export PATH := $(SWIFT_DIR):$(PATH)

SWIFT ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
DEB_PACKAGES := libsqlite3-dev libxml2-dev pkg-config
BUILD_DIR := .build
BENCH ?= all

.PHONY: all deps build run test bench lint clean

all: build

## deps: install the Debian -dev packages the C targets need, when missing and when root.
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

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

run: build
	$(SWIFT) run $(SWIFT_FLAGS) homefeedctl layout solve feeds/layout.json \
	    --width 375 --height 812 --scale 2 --svg $(BUILD_DIR)/home-375.svg
	@echo "wireframe: $(BUILD_DIR)/home-375.svg" >&2

test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --disable-xctest $(SWIFT_FLAGS)

bench: deps
	$(SWIFT) run -c release homefeed-bench $(BENCH)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

clean:
	rm -rf $(BUILD_DIR)

## fuzz: libFuzzer over the HomeFeeds entry point for FUZZ_SECONDS (not part of swift build/test).
## The corpus grows in fuzz-artifacts/corpus (gitignored, survives a clean build); crashers land in
## fuzz-artifacts/ and each one goes into Tests/HomeFeedsTests/Fixtures/fuzz/, replayed by FuzzRegressionTests.
FUZZ_SECONDS ?= 60
FUZZ_DIR := $(BUILD_DIR)/fuzz
.PHONY: fuzz fuzz-build
fuzz-build:
	mkdir -p $(FUZZ_DIR) fuzz-artifacts
	swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name HomeFeedsFuzz \
	    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
	    -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature NonisolatedNonsendingByDefault \
	    -I Sources/CLibXML2 $$(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') -lxml2 \
	    $$(find Sources/HomeFeeds -name '*.swift' | sort) Fuzz/FuzzEntry.swift -o $(FUZZ_DIR)/homefeeds-fuzz
fuzz: fuzz-build
	mkdir -p fuzz-artifacts/corpus
	cp -n Tests/HomeFeedsTests/Fixtures/*.* Fuzz/seeds/* fuzz-artifacts/corpus/ 2>/dev/null || true
	$(FUZZ_DIR)/homefeeds-fuzz fuzz-artifacts/corpus -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix=fuzz-artifacts/ -print_final_stats=1
