# penkit: two commands on a fresh Debian 12 machine with Swift installed.
#   make demo   - penkitd serves a bundled real trace; a client prints its strokes and an SVG
#   make test   - install what the tests need, build, and run every test
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
DEBS := pkg-config libinput-dev libevdev-dev libudev-dev zlib1g-dev libwacom-common python3-jsonschema \
	libinput-tools python3-libevdev python3-yaml gsettings-desktop-schemas libglib2.0-bin
# What `pip install ./clients/python` needs offline, on Debian's python3 (scripts/python-install-test.sh).
PYTHON_INSTALL_DEBS := python3-venv python3-pip python3-setuptools python3-wheel
DAEMON_DEMO_TRACE ?= traces/wacom-dth2242-pen.evemu
# One long stroke: the clearest first look at the view (ink, predictions, pressure).
VIEW_DEMO_TRACE ?= traces/wacom-intuos4-6x9-stylus-drag.evemu

.PHONY: all deps build release demo test unit fuzz e2e e2e-if-possible desktop desktop-if-possible systemd-vm systemd-vm-if-possible oracle clean install uninstall
.PHONY: demo-daemon install-no-smoothing view-browser-test soak-short deb lintian python-test generated xournal-host-check

all: build

# Install the Debian packages ($(1)) that are missing; silent when all are present.
define install_debs
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:" $$missing; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps:
	$(call install_debs,$(DEBS))

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

# penkitd serves a bundled real trace on a temporary socket; a client prints each finalized
# stroke and writes an SVG of the drawing; penkitd stops cleanly.
demo: build
	./scripts/demo-daemon.sh $(DAEMON_DEMO_TRACE)
	./scripts/demo-view.sh $(VIEW_DEMO_TRACE)

unit: deps
	@mkdir -p .build
	set -o pipefail; PENKIT_KILL_RUNS=$${PENKIT_KILL_RUNS:-200} $(SWIFT) test --disable-xctest $(BUILD_FLAGS) 2>&1 | tee .build/unit-tests.log

# Each libFuzzer target (trace readers, replay schedule, client protocol), FUZZ_SECONDS each (Fuzz/run.sh; separate .build-fuzz).
FUZZ_SECONDS ?= 30
fuzz: deps
	SWIFT=$(SWIFT) bash Fuzz/run.sh $(FUZZ_SECONDS)

# The unit run's count again at the very end, after the fuzz and VM output, as a plain summary line.
test: unit python-test soak-short view-browser-test xournal-host-check fuzz e2e-if-possible systemd-vm-if-possible desktop-if-possible
	@n=$$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} in .* passed.*/\1/p' .build/unit-tests.log | tail -1); \
	echo "tests: $${n:-0} passed, 0 failed"

# What is generated from a declaration in Swift and committed: systemd/penkitd.conf's top and
# docs/daemon.md's key table, from ConfigKeys (ConfigKeyTableTests); docs/strokes.md's table of the
# inks, from InkDefinition (InkDocsTableTests); docs/protocol.md's table of every message, from
# docs/protocol.schema.json (ProtocolReferenceTableTests). The tests check them and, with
# PENKIT_UPDATE_GENERATED=1, rewrite them. Run after adding or changing a config key, an ink or a message.
generated:
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	PENKIT_UPDATE_GENERATED=1 $(SWIFT) test $(BUILD_FLAGS) --disable-xctest --skip-build --filter "ConfigKeyTableTests|InkDocsTableTests|ProtocolReferenceTableTests"

# The Python client package (clients/python): its own tests, standard library only, against the
# shared SurfacePairing vectors (Tests/Fixtures/surface-pairing/vectors.json) among others; then
# the same tests against a copy installed by `pip install` into a venv, offline.
python-test:
	$(call install_debs,$(PYTHON_INSTALL_DEBS))
	cd clients/python && python3 -m unittest discover -s tests -t .
	sh scripts/python-install-test.sh

# penkitd under every kind of client at once for 30 s (penkit bench soak; the long run is 10^8
# frames, docs/daemon.md): fails on a crash, a stroke seq gap, an unaccounted frame, or growth.
soak-short: build
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" bench soak --seconds 30 --sample-seconds 3

# penkit view in headless Chromium (Debian's chromium, installed when missing): screenshots and
# pixel checks against real libinput's output; then the surface page (an app drawing with penkit
# in its own window, docs/apps.md) driven by DevTools pen events; then the canvas (inks, lasso,
# live pixel eraser, undo, save, the file reopened as SVG); screenshots in .build/view-browser-test/.
view-browser-test: build
	@if ! command -v chromium >/dev/null; then \
		echo "installing Debian's chromium for the view's browser test"; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null || true; \
	fi
	@if command -v chromium >/dev/null; then \
		python3 scripts/view-browser-test.py "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" .build/view-browser-test && \
		python3 scripts/view-surface-browser-test.py "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" .build/view-browser-test && \
		python3 scripts/view-canvas-browser-test.py "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" .build/view-browser-test && \
		python3 scripts/view-picker-browser-test.py "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" .build/view-browser-test && \
		python3 scripts/view-settings-browser-test.py "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" .build/view-browser-test; \
	else echo "make test: view browser test skipped: Debian's chromium cannot be installed here"; fi
	@# The Python client's SurfacePairing on penkit-surface.js's ended/update delivery scenarios.
	python3 scripts/surface-delivery-check.py "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit"
	@# The canvas's ink formulas against PenKit's, and penkit-surface.js's ended/update delivery, in node
	@# too where node is (the canvas and surface tests run both in Chromium).
	@if command -v node >/dev/null; then node scripts/ink-response-check.mjs "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" && \
		node scripts/surface-delivery-check.mjs "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit"; fi
	@# Then the inks' pixels as Chromium renders penkit's SVG (scripts/ink-pixels-test.py; pictures in .build/ink-pixels-test/).
	@if command -v chromium >/dev/null; then \
		python3 scripts/ink-pixels-test.py "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" .build/ink-pixels-test; \
	fi

# Real Xournal++ under Xvfb, drawn by xdotool along shared traces' expected events, saving with its
# own Ctrl+S; its file judged by scripts/desktop/xournal-results.py (no pressure: a pointer has none;
# the pen's widths need the desktop guest). About 20 s.
XOURNAL_HOST_DEBS := xournalpp xvfb xdotool
xournal-host-check: build
	$(call install_debs,$(XOURNAL_HOST_DEBS))
	scripts/desktop/xournal-host-check.sh "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/penkit" .build/xournal-host-check

# Traces through the real kernel and libinput in a VM (QEMU, software emulation; see README).
e2e: deps
	scripts/vm/e2e.sh

# make test runs e2e wherever QEMU and the Debian kernel can be installed.
e2e-if-possible:
	@if scripts/vm/setup.sh >/dev/null; then $(MAKE) --no-print-directory e2e; \
	else echo "make test: e2e skipped: QEMU or the Debian kernel cannot be installed here"; fi

# Real display servers and apps get penkit's pen in a VM (scripts/vm/desktop.sh, issue 42): sway and
# Xorg reading the devices with their own libinput (Xorg: xf86-input-wacom for GTK), Chromium and
# the GTK 4 example logging what they got, on the virtual tablet and directly, as
# `desktop-result {json}` lines.
DESKTOP_DEBS := sway seatd xserver-xorg-core xserver-xorg-video-dummy xserver-xorg-input-libinput \
	chromium python3-gi python3-gi-cairo gir1.2-gtk-4.0 xdotool wtype xinput xournalpp \
	xserver-xorg-input-wacom
desktop: deps
	$(call install_debs,$(DESKTOP_DEBS))
	scripts/vm/desktop.sh

# make test runs it last, wherever QEMU and the Debian kernel can be installed (it passed twice in a
# row, the VM 553 and 542 s on this 2-core machine).
desktop-if-possible:
	@if scripts/vm/setup.sh >/dev/null; then $(MAKE) --no-print-directory desktop; \
	else echo "make test: desktop guest skipped: QEMU or the Debian kernel cannot be installed here"; fi

# The package in a guest that boots systemd as PID 1 (scripts/vm/systemd.sh): socket activation,
# allowed and refused clients, watchdog, reload, exposure score, tablets only, the user units.
systemd-vm: deps
	scripts/vm/systemd.sh

# make test runs it after the e2e step, wherever QEMU and the Debian kernel can be installed.
systemd-vm-if-possible:
	@if scripts/vm/setup.sh >/dev/null; then $(MAKE) --no-print-directory systemd-vm; \
	else echo "make test: systemd guest skipped: QEMU or the Debian kernel cannot be installed here"; fi

# Regenerate Tests/Fixtures/libinput/ with real libinput in a VM (see README).
oracle: deps
	scripts/vm/oracle.sh

clean:
	rm -rf .build .build-*

# --- penkitd: installation (systemd units, udev rules, config) and its demo ---
PREFIX ?= /usr/local
DESTDIR ?=
# Vendor locations under PREFIX that systemd, udev and sysusers read (/etc is the administrator's).
SYSTEMD_SYSTEM_DIR ?= $(PREFIX)/lib/systemd/system
SYSTEMD_USER_DIR ?= $(PREFIX)/lib/systemd/user
UDEV_RULES_DIR ?= $(PREFIX)/lib/udev/rules.d
SYSUSERS_DIR ?= $(PREFIX)/lib/sysusers.d
LIBINPUT_QUIRKS_DIR ?= /etc/libinput
# libinput reads its *.quirks from the folder it was built with (Debian's: /usr/share/libinput), not
# from PREFIX; /etc/libinput holds only the one local-overrides.quirks file.
LIBINPUT_DATA_DIR ?= /usr/share/libinput
# Xorg reads InputClass snippets from /usr/share/X11/xorg.conf.d (the system's, beside
# xf86-input-wacom's 70-wacom.conf, which penkit's must sort after) and /etc/X11/xorg.conf.d.
XORG_CONF_DIR ?= /usr/share/X11/xorg.conf.d
INSTALLED_FILES := $(PREFIX)/bin/penkitd $(PREFIX)/bin/penkit \
	$(SYSTEMD_SYSTEM_DIR)/penkit.socket $(SYSTEMD_SYSTEM_DIR)/penkit.service \
	$(SYSTEMD_USER_DIR)/penkit.socket $(SYSTEMD_USER_DIR)/penkit.service \
	$(UDEV_RULES_DIR)/70-penkit.rules $(UDEV_RULES_DIR)/70-penkit-uinput.rules $(SYSUSERS_DIR)/penkit.conf \
	$(LIBINPUT_DATA_DIR)/70-penkit-virtual-tablet.quirks $(XORG_CONF_DIR)/75-penkit-virtual-tablet.conf \
	$(PREFIX)/share/doc/penkit/daemon.md $(PREFIX)/share/doc/penkit/protocol.md

# Installs what `make release` built (as your user: nothing is compiled as root here). The Debian
# package (`make deb`) is the way to install on Debian; this is for other systems.
RELEASE_BIN := .build/release
install:
	@[ -x $(RELEASE_BIN)/penkitd ] && [ -x $(RELEASE_BIN)/penkit ] || { echo "make install: run \`make release\` first (as your user)"; exit 1; }
	install -D -m 0755 $(RELEASE_BIN)/penkitd $(DESTDIR)$(PREFIX)/bin/penkitd
	install -D -m 0755 $(RELEASE_BIN)/penkit $(DESTDIR)$(PREFIX)/bin/penkit
	install -D -m 0644 systemd/penkit.socket $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/penkit.socket
	sed 's|/usr/bin/penkitd|$(PREFIX)/bin/penkitd|; s|/usr/share/doc/penkit|$(PREFIX)/share/doc/penkit|' systemd/penkit.service > penkit.service.tmp && install -D -m 0644 penkit.service.tmp $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/penkit.service && rm -f penkit.service.tmp
	install -D -m 0644 systemd/user/penkit.socket $(DESTDIR)$(SYSTEMD_USER_DIR)/penkit.socket
	sed 's|/usr/bin/penkitd|$(PREFIX)/bin/penkitd|; s|/usr/share/doc/penkit|$(PREFIX)/share/doc/penkit|' systemd/user/penkit.service > penkit.service.tmp && install -D -m 0644 penkit.service.tmp $(DESTDIR)$(SYSTEMD_USER_DIR)/penkit.service && rm -f penkit.service.tmp
	install -D -m 0644 udev/70-penkit.rules $(DESTDIR)$(UDEV_RULES_DIR)/70-penkit.rules
	install -D -m 0644 udev/70-penkit-uinput.rules $(DESTDIR)$(UDEV_RULES_DIR)/70-penkit-uinput.rules
	install -D -m 0644 libinput/70-penkit-virtual-tablet.quirks $(DESTDIR)$(LIBINPUT_DATA_DIR)/70-penkit-virtual-tablet.quirks
	install -D -m 0644 xorg/75-penkit-virtual-tablet.conf $(DESTDIR)$(XORG_CONF_DIR)/75-penkit-virtual-tablet.conf
	install -D -m 0644 systemd/penkit.sysusers $(DESTDIR)$(SYSUSERS_DIR)/penkit.conf
	[ -e $(DESTDIR)/etc/penkit/penkitd.conf ] || install -D -m 0644 systemd/penkitd.conf $(DESTDIR)/etc/penkit/penkitd.conf
	install -D -m 0644 docs/daemon.md $(DESTDIR)$(PREFIX)/share/doc/penkit/daemon.md
	install -D -m 0644 docs/protocol.md $(DESTDIR)$(PREFIX)/share/doc/penkit/protocol.md
	@if [ -z "$(DESTDIR)" ]; then \
		if command -v systemd-sysusers >/dev/null; then systemd-sysusers $(SYSUSERS_DIR)/penkit.conf; \
		else getent group penkit >/dev/null || groupadd --system penkit; \
		     getent passwd penkit >/dev/null || useradd --system --gid penkit --no-create-home --shell /usr/sbin/nologin penkit; \
		     getent group penkit-uinput >/dev/null || groupadd --system penkit-uinput; \
		     id -nG penkit | tr ' ' '\n' | grep -qx penkit-uinput || usermod --append --groups penkit-uinput penkit; fi; \
		if command -v udevadm >/dev/null && [ -d /run/udev ]; then udevadm control --reload && udevadm trigger --subsystem-match=input --action=change \
			&& udevadm trigger --subsystem-match=misc --sysname-match=uinput --action=change || true; fi; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload; echo "enable with: systemctl enable --now penkit.socket"; fi; \
	fi

# Opt-in: turn off libinput's tablet smoothing (see libinput/70-penkit-no-smoothing.quirks).
# libinput 1.22 reads one override file, /etc/libinput/local-overrides.quirks (no .d folder):
# the section is appended to it once, and `make uninstall` takes it out again.
QUIRKS_OVERRIDE := $(DESTDIR)$(LIBINPUT_QUIRKS_DIR)/local-overrides.quirks
install-no-smoothing:
	install -d $(DESTDIR)$(LIBINPUT_QUIRKS_DIR)
	@if grep -qs '^\[penkit: no tablet smoothing\]' $(QUIRKS_OVERRIDE); then echo "$(QUIRKS_OVERRIDE) already turns smoothing off"; \
	else cat libinput/70-penkit-no-smoothing.quirks >> $(QUIRKS_OVERRIDE) && echo "appended the no-smoothing quirk to $(QUIRKS_OVERRIDE)"; fi

uninstall:
	-@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl disable --now penkit.socket penkit.service 2>/dev/null; fi
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	-@if [ -f $(QUIRKS_OVERRIDE) ]; then sed -i '/^# Opt-in (make install-no-smoothing)/,/^AttrTabletSmoothing=0$$/d' $(QUIRKS_OVERRIDE); fi
	-rmdir $(DESTDIR)$(PREFIX)/share/doc/penkit 2>/dev/null
	-@if [ -z "$(DESTDIR)" ] && command -v udevadm >/dev/null && [ -d /run/udev ]; then udevadm control --reload; fi
	-@if [ -z "$(DESTDIR)" ] && [ -c /dev/uinput ] && [ "$$(stat -c %G /dev/uinput)" = penkit-uinput ]; then chown root:root /dev/uinput && chmod 0600 /dev/uinput; fi
	@echo "kept /etc/penkit/penkitd.conf, the penkit user and the groups penkit and penkit-uinput; remove them by hand if wanted"
	-@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi

# penkitd on a bundled trace, on a temporary socket: one line per finalized stroke, an SVG, a clean stop.
demo-daemon: build
	./scripts/demo-daemon.sh $(DAEMON_DEMO_TRACE)

# --- the Debian package ---
# penkit_<version>_amd64.deb in .build-deb/, built by dpkg-buildpackage (debian/rules): release
# binaries with the Swift runtime linked statically, units, udev rule, sysusers, man pages and
# completions generated from the argument parser. Then lintian (its overrides say why each stays).
DEB_TOOLS := dpkg-dev debhelper fakeroot lintian python3
deb: deps
	@missing=$$(for p in $(DEB_TOOLS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:" $$missing; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	mkdir -p .build-deb
	SWIFT=$(SWIFT) dpkg-buildpackage -b --no-sign \
		--buildinfo-option=-u.build-deb --buildinfo-file=.build-deb/penkit.buildinfo \
		--changes-option=-u.build-deb --changes-file=.build-deb/penkit.changes
	@$(MAKE) --no-print-directory lintian

# Issue #41's goal for penkitd as the package ships it (stripped by dh_strip); README.
PENKITD_SIZE_GOAL := 17000000

lintian:
	lintian --fail-on error,warning --info .build-deb/penkit_$$(dpkg-parsechangelog -S Version)_amd64.deb
	@deb=.build-deb/penkit_$$(dpkg-parsechangelog -S Version)_amd64.deb; \
	echo "deb: $$deb, $$(stat -c %s $$deb) bytes ($$(du -h $$deb | cut -f1)); installed size $$(dpkg-deb -f $$deb Installed-Size) KiB"; \
	penkitd=$$(dpkg-deb --fsys-tarfile $$deb | tar -tvf - ./usr/bin/penkitd | awk '{print $$3}'); \
	echo "deb: penkitd in it, stripped: $$penkitd bytes (goal: at most $(PENKITD_SIZE_GOAL), README)"; \
	[ "$$penkitd" -le $(PENKITD_SIZE_GOAL) ] || { echo "deb: FAIL: penkitd is over its size goal by $$((penkitd - $(PENKITD_SIZE_GOAL))) bytes" >&2; exit 1; }
