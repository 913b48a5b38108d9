# homefeed — build, test, run, benchmark.
#
#   make run     build, start homefeedd on feeds/ (offline), show the home screen it serves
#   make layout  solve feeds/layout.json at 375x812@2x offline and write its SVG wireframe
#   make test    install missing Debian packages (as root), build clean of warnings, swift test
#   make bench   release benchmarks (homefeed-bench)

SHELL := /bin/bash
# The toolchain's usr/bin is not on PATH by default on this machine kind.
SWIFT_DIR ?= /opt/swift/usr/bin
export PATH := $(SWIFT_DIR):$(PATH)

SWIFT ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
DEB_PACKAGES := libsqlite3-dev libxml2-dev pkg-config
# The Python `varlink` client, a real third-party client for VarlinkTests (PyPI).
PYTHON ?= python3
BUILD_DIR := .build
BENCH ?= all

.PHONY: all deps build run layout test bench lint clean

all: build

## deps: install the Debian -dev packages the C targets need and the Python varlink client the
## Varlink interop test uses, when missing and when root.
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
	@if ! $(PYTHON) -c 'import varlink' 2>/dev/null; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing: python varlink"; \
	        export DEBIAN_FRONTEND=noninteractive; \
	        $(PYTHON) -m pip --version >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-pip; }; \
	        $(PYTHON) -m pip install --quiet varlink 2>/dev/null \
	            || $(PYTHON) -m pip install --quiet --break-system-packages varlink; \
	    else \
	        echo "missing Python package varlink (run '$(PYTHON) -m pip install --user varlink')" >&2; exit 1; \
	    fi; \
	fi

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
	$(SWIFT) test --disable-xctest $(SWIFT_FLAGS)
	$(SWIFT) format lint --strict --recursive Sources Tests

bench: deps
	$(SWIFT) run -c release homefeed-bench $(BENCH)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

clean:
	rm -rf $(BUILD_DIR)
