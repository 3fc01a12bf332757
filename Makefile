# penkit: two commands on a fresh Debian 12 machine with Swift installed.
#   make demo   - replay a bundled real trace and show what penkit makes of it
#   make test   - install what the tests need, build, and run every test
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
DEBS := pkg-config libinput-dev libevdev-dev libudev-dev
DEMO_TRACE ?= traces/wacom-intuos4-6x9-stylus-drag.evemu

.PHONY: all deps build release demo test unit fuzz e2e e2e-if-possible oracle clean install uninstall

all: build

# Install the Debian packages that are missing; silent when all are present.
deps:
	@missing=$$(for p in $(DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:" $$missing; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

demo: build
	$(SWIFT) run $(BUILD_FLAGS) penkit replay $(DEMO_TRACE) --events

unit: deps
	$(SWIFT) test --disable-xctest $(BUILD_FLAGS)

test: unit e2e-if-possible

# Traces through the real kernel and libinput in a VM (QEMU, software emulation; see README).
e2e: deps
	scripts/vm/e2e.sh

# make test runs e2e wherever QEMU and the Debian kernel can be installed.
e2e-if-possible:
	@if scripts/vm/setup.sh >/dev/null; then $(MAKE) --no-print-directory e2e; \
	else echo "make test: e2e skipped: QEMU or the Debian kernel cannot be installed here"; fi

# Regenerate Tests/Fixtures/libinput/ with real libinput in a VM (see README).
oracle: deps
	scripts/vm/oracle.sh

clean:
	rm -rf .build .build-*
