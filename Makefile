# svmram: build, test, demo and install.
#
#   make test                     run the whole test suite (installs nothing)
#   make demo                     the article's scenario on the SVM emulator
#   make install DESTDIR=/tmp/x   install the illumos file layout
#   make uninstall

PYTHON     ?= python3
DESTDIR    ?=
PREFIX     ?= /usr
SBINDIR     = $(PREFIX)/sbin
PKGLIBDIR   = $(PREFIX)/lib/svmram
MANDIR      = $(PREFIX)/share/man/man8
METHODDIR   = /lib/svc/method
MANIFESTDIR = /lib/svc/manifest/system

PYSOURCES = $(shell find lib/svmram -name '*.py' | sort)

.PHONY: all test demo install uninstall clean

all:
	@echo "nothing to build; try 'make test', 'make demo' or 'make install'"

test:
	$(PYTHON) -m pytest

demo:
	$(PYTHON) demo/article

install:
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(MANDIR) \
		$(DESTDIR)$(METHODDIR) $(DESTDIR)$(MANIFESTDIR)
	install -m 0555 sbin/svmram $(DESTDIR)$(SBINDIR)/svmram
	for f in $(PYSOURCES); do \
		d=$(DESTDIR)$(PKGLIBDIR)/$$(dirname $${f#lib/}); \
		install -d $$d && install -m 0444 $$f $$d/; \
	done
	install -m 0555 smf/svmram $(DESTDIR)$(METHODDIR)/svmram
	install -m 0444 manifests/svmram.xml $(DESTDIR)$(MANIFESTDIR)/svmram.xml
	install -m 0444 docs/svmram.8 $(DESTDIR)$(MANDIR)/svmram.8

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/svmram $(DESTDIR)$(MANDIR)/svmram.8 \
		$(DESTDIR)$(METHODDIR)/svmram $(DESTDIR)$(MANIFESTDIR)/svmram.xml
	rm -rf $(DESTDIR)$(PKGLIBDIR)

clean:
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
