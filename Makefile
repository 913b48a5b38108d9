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
# The Python `varlink` client, a real third-party client for VarlinkTests (PyPI).
PYTHON ?= python3
BUILD_DIR := .build
BENCH ?= all

.PHONY: all deps build run test bench lint clean

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

run: build
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
