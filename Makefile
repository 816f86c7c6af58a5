# svmram: build, test, demo and install.
#
#   make test                     run the whole test suite (installs nothing)
#   make demo                     the article's scenario on the SVM emulator
#   make install DESTDIR=/tmp/x   install the illumos file layout
#   make uninstall
#
# Plain assignments and POSIX sh recipes only, so that illumos' own make
# and GNU make (gmake) both work; override on the command line, e.g.
# `make install PREFIX=/opt/svmram DESTDIR=/tmp/proto`.

PYTHON = python3
DESTDIR =
PREFIX = /usr
SBINDIR = $(PREFIX)/sbin
PKGLIBDIR = $(PREFIX)/lib/svmram
MANDIR = $(PREFIX)/share/man/man8
METHODDIR = /lib/svc/method
MANIFESTDIR = /lib/svc/manifest/system

all:
	@echo "nothing to build; try 'make test', 'make demo' or 'make install'"

# With pytest-xdist (tests/requirements.txt) the suite runs on every core,
# each test file in one worker (the fault matrix shares its clean runs).
test:
	@if $(PYTHON) -c 'import xdist' 2>/dev/null; then \
		echo "$(PYTHON) -m pytest -n auto --dist loadfile"; \
		$(PYTHON) -m pytest -n auto --dist loadfile; \
	else \
		echo "$(PYTHON) -m pytest  (no pytest-xdist: one process)"; \
		$(PYTHON) -m pytest; \
	fi

demo:
	$(PYTHON) demo/article

install:
	mkdir -p $(DESTDIR)$(SBINDIR) $(DESTDIR)$(PKGLIBDIR) \
		$(DESTDIR)$(MANDIR) $(DESTDIR)$(METHODDIR) $(DESTDIR)$(MANIFESTDIR)
	cp -f sbin/svmram $(DESTDIR)$(SBINDIR)/svmram
	chmod 0555 $(DESTDIR)$(SBINDIR)/svmram
	cd lib && for f in `find svmram -name '*.py' | sort`; do \
		d=$(DESTDIR)$(PKGLIBDIR)/`dirname $$f`; \
		mkdir -p $$d && cp -f $$f $$d/ && chmod 0444 $$d/`basename $$f` \
		|| exit 1; \
	done
	cp -f smf/svmram $(DESTDIR)$(METHODDIR)/svmram
	chmod 0555 $(DESTDIR)$(METHODDIR)/svmram
	cp -f manifests/svmram.xml $(DESTDIR)$(MANIFESTDIR)/svmram.xml
	chmod 0444 $(DESTDIR)$(MANIFESTDIR)/svmram.xml
	cp -f docs/svmram.8 $(DESTDIR)$(MANDIR)/svmram.8
	chmod 0444 $(DESTDIR)$(MANDIR)/svmram.8

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/svmram $(DESTDIR)$(MANDIR)/svmram.8 \
		$(DESTDIR)$(METHODDIR)/svmram $(DESTDIR)$(MANIFESTDIR)/svmram.xml
	rm -rf $(DESTDIR)$(PKGLIBDIR)

clean:
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

.PHONY: all test demo install uninstall clean
