# perfcast — build, test and publish.
#
#   make site     build perfcast and publish the embedded archive into site/
#   make check    build and run every test (CUnit suites, end-to-end checks)
#   make bench    speed benchmarks (never part of check)
#   make fuzz     fuzz archive ingest and expressions (AFL++; tests/module.mk)
#   make deps     install missing Debian packages (site and check run it)
#   make install  PREFIX=/usr/local DESTDIR=
#   make SAN=1 …  the same with AddressSanitizer + UndefinedBehaviorSanitizer
#
# Every module is picked up by wildcard: a new models/foo.c needs no edit here.

CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
SAN      ?= 0

PKGS     := gsl cairo libcmark-gfm zlib json-c
CPPFLAGS += -I. -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -Wall -Wextra -Werror
# The site builder draws pages on threads (gen/site/site.c, gen/site/site_out.c).
CFLAGS   += -pthread
LDFLAGS  += -pthread
ifeq ($(SAN),1)
  CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS += -fsanitize=address,undefined
  B       := build/san
else
  B       := build/plain
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) cunit 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -lm
CUNIT_LIBS = $(shell pkg-config --libs cunit 2>/dev/null)

MODELS_SRC := $(sort $(wildcard models/*.c))
RENDER_SRC := $(sort $(wildcard render/*.c))
GEN_SRC    := $(sort $(filter-out gen/main.c,$(wildcard gen/*.c gen/*/*.c)))
TEST_SRC   := $(sort $(wildcard tests/test_*.c))
TESTLIB_SRC:= $(sort $(wildcard tests/testutil*.c))
BENCH_SRC  := $(sort $(wildcard tests/bench_*.c))

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))

LIB_MODELS := $(B)/libpcmodels.a
LIB_RENDER := $(B)/libpcrender.a
LIB_GEN    := $(B)/libpcgen.a
LIBS       := $(LIB_GEN) $(LIB_RENDER) $(LIB_MODELS)
PERFCAST   := $(B)/perfcast
TEST_BINS  := $(patsubst tests/%.c,$(B)/tests/%,$(TEST_SRC))
BENCH_BINS := $(patsubst tests/%.c,$(B)/tests/%,$(BENCH_SRC))

.PHONY: all deps site check unit-check bench install clean nightly
.DEFAULT_GOAL := all
# Keep object files make would otherwise treat as intermediate and delete.
.SECONDARY:

all: $(PERFCAST)

deps:
	@.ci/deps

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $<"; $(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIB_MODELS): $(call obj,$(MODELS_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(LIB_RENDER): $(call obj,$(RENDER_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(LIB_GEN): $(call obj,$(GEN_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(PERFCAST): $(call obj,gen/main.c) $(LIBS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(B)/tests/%: $(call obj,tests/%.c) $(call obj,$(TESTLIB_SRC)) $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(CUNIT_LIBS)

# Modules that need their own toolchain (mgbench uses mpicc) add targets and
# append to CHECK_EXTRA / BENCH_EXTRA / INSTALL_EXTRA in their fragment.
CHECK_EXTRA   :=
EXTRA_TEST_BINS :=
BENCH_EXTRA   :=
INSTALL_EXTRA :=
-include $(sort $(wildcard */module.mk))

site: deps
	@$(MAKE) --no-print-directory all
	$(PERFCAST) build --archive archive --out site

# The nightly regeneration (.ci/nightly; CI examples in the README):
# pull (NIGHTLY_PULL), check, build and publish atomically to PUBLISH.
ARCHIVE ?= archive
PUBLISH ?= public
nightly: deps
	@$(MAKE) --no-print-directory all
	PERFCAST=$(PERFCAST) .ci/nightly --archive $(ARCHIVE) --publish $(PUBLISH) $(if $(NIGHTLY_PULL),--pull "$(NIGHTLY_PULL)")

# `check` installs what is missing, builds, checks that gen/'s rooms keep
# their order with no module cycle (tests/check_rooms, from the objects'
# symbols and the includes), then runs every suite; the summary line at
# the end counts them all.
check: deps
	@$(MAKE) --no-print-directory unit-check

unit-check: $(PERFCAST) $(TEST_BINS) $(CHECK_EXTRA)
	@tests/check_rooms --self-test && tests/check_rooms $(B)/obj
	@PERFCAST=$(PERFCAST) PERFCAST_SAN=$(SAN) tests/run_all $(TEST_BINS) $(EXTRA_TEST_BINS)

bench: deps
	@$(MAKE) --no-print-directory $(PERFCAST) $(BENCH_BINS) $(BENCH_EXTRA)
	@for b in $(BENCH_BINS); do echo "== $$b"; PERFCAST=$(PERFCAST) $$b || exit 1; done

install: $(PERFCAST) $(INSTALL_EXTRA)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/perfcast/templates
	install -m 755 $(PERFCAST) $(DESTDIR)$(PREFIX)/bin/perfcast
	for f in templates/*; do [ ! -f "$$f" ] || install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/perfcast/templates/ || exit 1; done
	install -m 644 gen/fit/prior/error_prior.tsv $(DESTDIR)$(PREFIX)/share/perfcast/error_prior.tsv
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 gen/cli/perfcast.1 $(DESTDIR)$(PREFIX)/share/man/man1/perfcast.1
	install -m 644 gen/cli/perfcast.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/perfcast

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
