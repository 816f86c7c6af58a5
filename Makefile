# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# svmram: build, test, demo, install and package.
#
#   make test                     run the whole test suite (installs nothing)
#   make check                    as root: install what the tests need
#                                 (tests/install-deps), then make test
#   make test-vm                  the md backend on a real Linux kernel in
#                                 QEMU (minutes; needs qemu-system-x86, cpio,
#                                 kmod and Debian's apt; tests/vm)
#   make test-vm-backports        Debian 13's short sequence with the kernel
#                                 of trixie-backports (not in test-vm:
#                                 docs/md-backend.md has its run)
#   make demo                     the article's scenario on the SVM emulator
#   make install DESTDIR=/tmp/x   install the Solaris/illumos file layout
#   make install-linux DESTDIR=/tmp/x
#                                 install for Linux md: the command (run by
#                                 /usr/bin/python3, LINUX_PYTHON), the
#                                 package and the boot units svmram@.service
#                                 and svmram-copy@.service
#   make demo-md                  the article on a real Linux kernel in QEMU
#   make deb                      the Debian package dist/svmram_VERSION_all.deb
#                                 (dpkg-buildpackage -us -uc -b in a copy of
#                                 the tree under build/deb; needs debhelper
#                                 and dh-python)
#   make package PYTHON=/usr/bin/python3.9
#                                 install into build/proto and write the IPS
#                                 manifest build/svmram.p5m (and, where the
#                                 IPS tools exist, the archive build/svmram.p5p)
#                                 for the target's interpreter PYTHON
#   make uninstall
#
# Plain assignments and POSIX sh recipes only, so that illumos' own make
# and GNU make (gmake) both work; override on the command line, e.g.
# `make install PREFIX=/opt/svmram DESTDIR=/tmp/proto`.
#
# PYTHON is the interpreter svmram runs with once installed: its versioned
# path (e.g. /usr/bin/python3.9) becomes the #! line of the installed
# command, so the IPS python mediator cannot switch it to another version.
# On Linux (install-linux) the #! line is LINUX_PYTHON instead, the
# python3 that Debian's (and every distribution's) python3 package
# provides, never the build host's own path; PYTHON only byte-compiles.

PYTHON = python3
# What runs the build's own scripts (packaging/p5m), whatever PYTHON is.
BUILD_PYTHON = python3
LINUX_PYTHON = /usr/bin/python3
# The #! line install-common writes; empty: PYTHON's real path.
SHEBANG =
DESTDIR =
PREFIX = /usr
SBINDIR = $(PREFIX)/sbin
PKGLIBDIR = $(PREFIX)/lib/svmram
MANDIR = $(PREFIX)/share/man/man8
DOCDIR = $(PREFIX)/share/doc/svmram
METHODDIR = /lib/svc/method
MANIFESTDIR = /lib/svc/manifest/system
PKGDIR = build
# Linux: where the systemd unit goes (Debian and Fedora use /usr/lib or
# /lib/systemd/system; both work with PREFIX=/usr).
UNITDIR = $(PREFIX)/lib/systemd/system
# Linux: the bash completion (bash-completion's directory for completions
# loaded on demand).
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
# yes: byte-compile the installed modules here; no: leave it to the
# package's installer (the Debian package: dh_python3's py3compile at
# postinst, since a .deb must not ship .pyc files).
COMPILE = yes
# The documents installed beside the man page, where svmram(8) points:
# the status --json schema, the example alert rules and the check_raid
# patch (MONITORING).  The Debian package puts the licence into
# /usr/share/doc/svmram/copyright instead.
MONITORINGDOCS = docs/prometheus-alerts.yml \
	docs/check_raid-mdstat-write-mostly.patch
DOCFILES = docs/status-json.md $(MONITORINGDOCS) LICENSE
# Where `make deb` writes the package, and where it builds it.
DISTDIR = dist
DEBBUILDDIR = build/deb

all:
	@echo "nothing to build; try 'make test', 'make demo' or 'make install'"

# With pytest-xdist (tests/requirements.txt) the suite runs on every core,
# test by test (the fault matrix's workers share its clean runs through
# the temporary root, tests/scenario/test_faults.py); then the VM tests,
# alone (they want both cores).
test: test-suite test-vm

check:
	PYTHON=$(PYTHON) tests/install-deps
	$(MAKE) test PYTHON=$(PYTHON)

# The emulated hosts are thousands of small files written and renamed at
# every emulated command: in memory (/dev/shm) where there is one, unless
# TMPDIR says where.  --dist loadgroup: the tests of one xdist_group (the
# fault matrix's of one clean run, a package's, the three-mirror host's)
# go to one worker, which builds what they share once; the groups go
# first (tests/conftest.py makes the marks take effect under pytest 9).
test-suite:
	@TMPDIR=$${TMPDIR:-$$(test -d /dev/shm -a -w /dev/shm && echo /dev/shm \
	    || echo /tmp)}; export TMPDIR; \
	if $(PYTHON) -c 'import xdist' 2>/dev/null; then \
		echo "TMPDIR=$$TMPDIR $(PYTHON) -m pytest -n auto --dist loadgroup"; \
		$(PYTHON) -m pytest -n auto --dist loadgroup; \
	else \
		echo "TMPDIR=$$TMPDIR $(PYTHON) -m pytest  (no pytest-xdist: one process)"; \
		$(PYTHON) -m pytest; \
	fi

# The md backend on real kernels under QEMU (TCG), issue 28 item 1:
# Debian 13's full sequence under systemd (8 boots) and its power cuts
# (6 boots), Debian 12's and Debian 14's (forky, the canary of the next
# release, issue 37) short sequences (4 boots each)
# (tests/vm/test_vm_debian.py), md-cycle and the busybox chain of power
# cuts after every step (26 boots, test_vm_md.py).  Two pytest runs at
# once, one QEMU each (TCG keeps about one core busy a guest; the
# machine has two): VM_LONG, Debian 13's two sequences (one after the
# other: they share the cached image), and the rest (Debian 12's and
# 14's short sequences, md-faults, md-cycle), about as long each on a
# quiet machine (forky's joined the shorter side; before it):
# in a fresh-clone CI (load 3-7) 24 min 38 s: Debian 13's full sequence
# 1053 s and its cuts 424 s; beside them Debian 12's 542 s, md-faults
# 561 s, md-cycle 156 s.  More than the 20 minutes aimed at, nothing
# cut: each sequence covers what no other does (docs/md-backend.md,
# "make test-vm's time").
# pytest-xdist's loadgroup did not keep xdist_group-marked tests on one
# worker each (pytest 9 no longer reads the node id xdist 3.8 writes the
# group into; tests/conftest.py mends that for test-suite), so this split
# is explicit and needs no private pytest name.  The first run's output follows the second's
# (build/test-vm-long.log).  Without QEMU or the build tools it skips
# and says why.  pytest.ini's -q is quiet enough: a second -q would hide
# the summary line ("N passed").
VM_LONG = tests/vm/test_vm_debian.py::test_setup_reboot_teardown_on_debian_13_under_systemd \
	tests/vm/test_vm_debian.py::test_power_cuts_under_systemd
VM_REST = tests/vm \
	--deselect tests/vm/test_vm_debian.py::test_setup_reboot_teardown_on_debian_13_under_systemd \
	--deselect tests/vm/test_vm_debian.py::test_power_cuts_under_systemd
test-vm:
	@mkdir -p build; SVMRAM_VM_TESTS=1; export SVMRAM_VM_TESTS; \
	echo "SVMRAM_VM_TESTS=1 $(PYTHON) -m pytest $(VM_LONG) > build/test-vm-long.log &"; \
	$(PYTHON) -m pytest -p no:cacheprovider --durations=0 $(VM_LONG) \
	    > build/test-vm-long.log 2>&1 & long=$$!; \
	echo "SVMRAM_VM_TESTS=1 $(PYTHON) -m pytest $(VM_REST)"; \
	$(PYTHON) -m pytest -p no:cacheprovider --durations=0 $(VM_REST); \
	rc=$$?; wait $$long; rc_long=$$?; \
	echo "--- $(PYTHON) -m pytest $(VM_LONG) (exit $$rc_long):"; \
	cat build/test-vm-long.log; [ $$rc = 0 ] && [ $$rc_long = 0 ]

# Debian 13 with linux-image-amd64 from trixie-backports (a 7.x kernel
# beside mdadm 4.4), the short plan: issue 37's run, whose output is in
# docs/md-backend.md; kept out of test-vm for the CI's 45 minutes.
VM_BACKPORTS = tests/vm/test_vm_debian.py::test_setup_reboot_cut_teardown_on_debian_13_backports_kernel
test-vm-backports:
	SVMRAM_VM_TESTS=1 SVMRAM_VM_BACKPORTS=1 $(PYTHON) -m pytest \
	    -p no:cacheprovider --durations=0 $(VM_BACKPORTS)

demo:
	$(PYTHON) demo/article

# The md backend's story (set up, read, reboot, restore, status, teardown)
# on Debian's kernel in QEMU, as a transcript; needs what test-vm needs.
demo-md:
	tests/vm/demo-md.sh

# The modules are byte-compiled here (unchecked-hash .pyc files, which
# stay valid whatever the files' times), and the installed command never
# writes __pycache__ itself, so a root run adds nothing to the package's
# directories.
install: install-common
	mkdir -p $(DESTDIR)$(METHODDIR) $(DESTDIR)$(MANIFESTDIR)
	sed 's,/usr/sbin/svmram,$(SBINDIR)/svmram,' smf/svmram \
		> $(DESTDIR)$(METHODDIR)/svmram
	chmod 0555 $(DESTDIR)$(METHODDIR)/svmram
	sed 's,manpath="/usr/share/man",manpath="$(PREFIX)/share/man",' \
		manifests/svmram.xml > $(DESTDIR)$(MANIFESTDIR)/svmram.xml
	chmod 0444 $(DESTDIR)$(MANIFESTDIR)/svmram.xml

# Linux: the unit runs the md backend with the interpreter and the
# package installed here (systemctl daemon-reload afterwards).
install-linux:
	$(MAKE) install-common SHEBANG=$(LINUX_PYTHON) PYTHON=$(PYTHON) \
		DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) SBINDIR=$(SBINDIR) \
		PKGLIBDIR=$(PKGLIBDIR) MANDIR=$(MANDIR) DOCDIR=$(DOCDIR) \
		COMPILE=$(COMPILE) DOCFILES="$(DOCFILES)"
	mkdir -p $(DESTDIR)$(UNITDIR) $(DESTDIR)$(BASHCOMPDIR)
	sed -e 's,@PKGLIBDIR@,$(PKGLIBDIR),g' -e 's,@SBINDIR@,$(SBINDIR),g' \
		systemd/svmram@.service > $(DESTDIR)$(UNITDIR)/svmram@.service
	sed -e 's,@SBINDIR@,$(SBINDIR),g' systemd/svmram-copy@.service \
		> $(DESTDIR)$(UNITDIR)/svmram-copy@.service
	mkdir -p $(DESTDIR)$(UNITDIR)/mdmonitor.service.d
	cp -f systemd/mdmonitor-svmram.conf \
		$(DESTDIR)$(UNITDIR)/mdmonitor.service.d/svmram.conf
	chmod 0444 $(DESTDIR)$(UNITDIR)/svmram@.service \
		$(DESTDIR)$(UNITDIR)/svmram-copy@.service \
		$(DESTDIR)$(UNITDIR)/mdmonitor.service.d/svmram.conf
	cp -f bash-completion/svmram $(DESTDIR)$(BASHCOMPDIR)/svmram
	chmod 0444 $(DESTDIR)$(BASHCOMPDIR)/svmram

install-common:
	mkdir -p $(DESTDIR)$(SBINDIR) $(DESTDIR)$(PKGLIBDIR) \
		$(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR)
	python="$(SHEBANG)" && { test -n "$$python" || \
		python=`$(PYTHON) -c 'import os, sys; print(os.path.realpath(sys.executable))'`; } \
		&& { echo "#!$$python"; sed 1d sbin/svmram; } \
		> $(DESTDIR)$(SBINDIR)/svmram
	chmod 0555 $(DESTDIR)$(SBINDIR)/svmram
	cd lib && for f in `find svmram -name '*.py' | sort`; do \
		d=$(DESTDIR)$(PKGLIBDIR)/`dirname $$f`; \
		mkdir -p $$d && cp -f $$f $$d/ && chmod 0444 $$d/`basename $$f` \
		|| exit 1; \
	done
	if test "$(COMPILE)" = yes; then \
		$(PYTHON) -m compileall -q --invalidation-mode unchecked-hash \
			-d $(PKGLIBDIR) $(DESTDIR)$(PKGLIBDIR) && \
		find $(DESTDIR)$(PKGLIBDIR) -name '*.pyc' -exec chmod 0444 {} + ; \
	fi
	cp -f docs/svmram.8 $(DESTDIR)$(MANDIR)/svmram.8
	chmod 0444 $(DESTDIR)$(MANDIR)/svmram.8
	for f in $(DOCFILES); do \
		cp -f $$f $(DESTDIR)$(DOCDIR)/ && \
		chmod 0444 $(DESTDIR)$(DOCDIR)/`basename $$f` || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/svmram $(DESTDIR)$(MANDIR)/svmram.8 \
		$(DESTDIR)$(METHODDIR)/svmram $(DESTDIR)$(MANIFESTDIR)/svmram.xml \
		$(DESTDIR)$(UNITDIR)/svmram@.service \
		$(DESTDIR)$(UNITDIR)/svmram-copy@.service \
		$(DESTDIR)$(UNITDIR)/mdmonitor.service.d/svmram.conf \
		$(DESTDIR)$(BASHCOMPDIR)/svmram
	-rmdir $(DESTDIR)$(UNITDIR)/mdmonitor.service.d 2>/dev/null
	rm -rf $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(DOCDIR)

# PKGDIR: where the proto tree and the manifest go (tests point it at a
# directory of their own).  PYTHON is the target's interpreter by its
# versioned path, e.g. /usr/bin/python3.9, which this host need not have:
# the #! line, the .pyc files (only if PYTHON runs here) and the
# runtime/python-3N dependency are its (packaging/interpreter,
# docs/ips-package.md).  BUILD_PYTHON runs the manifest generator.
package:
	mkdir -p $(PKGDIR)
	d=`cd $(PKGDIR) && pwd` && rm -rf $$d/proto $$d/svmram.p5m && \
	target=`sh packaging/interpreter "$(PYTHON)"` && set -- $$target && \
	$(MAKE) -s install DESTDIR=$$d/proto PREFIX=$(PREFIX) PYTHON=$$1 \
		SHEBANG=$$1 COMPILE=$$2 && \
	{ $(BUILD_PYTHON) packaging/p5m $$d/proto $(PREFIX) > $$d/svmram.p5m.new \
		|| { rm -f $$d/svmram.p5m.new; exit 1; }; } && \
	mv $$d/svmram.p5m.new $$d/svmram.p5m && \
	if command -v pkgsend >/dev/null 2>&1; then \
		sh packaging/p5p $$d/svmram.p5m $$d/proto $$d/svmram.p5p; \
	else \
		echo "$$d/svmram.p5m written; no IPS tools (pkgsend) here, so no archive"; \
	fi

# The Debian package (debian/): dpkg-buildpackage writes into the parent
# of the tree it builds, so it builds a copy of this tree (the files git
# knows or would add, or all of them outside git) in build/deb/svmram
# (DEBBUILDDIR), and the .deb,
# .buildinfo and .changes are moved into DISTDIR.  The version is
# debian/changelog's, which tests/packaging/test_deb.py keeps equal to
# lib/svmram/__init__.py's __version__.
deb:
	rm -rf $(DEBBUILDDIR) && mkdir -p $(DEBBUILDDIR)/svmram $(DISTDIR)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -z --cached --others --exclude-standard | \
			xargs -0 sh -c 'for f; do test -e "$$f" && printf "%s\0" "$$f"; done' sh | \
			tar --null -T - -cf - | tar -C $(DEBBUILDDIR)/svmram -xf -; \
	else \
		tar --exclude=./build --exclude=./$(DISTDIR) -cf - . | \
			tar -C $(DEBBUILDDIR)/svmram -xf -; \
	fi
	cd $(DEBBUILDDIR)/svmram && dpkg-buildpackage -us -uc -b
	v=`dpkg-parsechangelog -l debian/changelog -S Version` && \
	mv -f $(DEBBUILDDIR)/svmram_$${v}_all.deb \
		$(DEBBUILDDIR)/svmram_$${v}_*.buildinfo \
		$(DEBBUILDDIR)/svmram_$${v}_*.changes $(DISTDIR)/ && \
	echo "$(DISTDIR)/svmram_$${v}_all.deb"

clean:
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -rf build

.PHONY: test-suite all test check test-vm test-vm-backports demo demo-md install install-linux install-common \
	uninstall package deb clean
