# tests/module.mk — fuzzing (included by the top-level Makefile).
#
#   $(B)/fuzz/fuzz_<x>   the harness tests/fuzz/fuzz_<x>.c (a libFuzzer-style
#                        LLVMFuzzerTestOneInput) linked with the plain-loop
#                        driver tests/fuzz/driver.c. make check builds them and
#                        tests/test_fuzz_replay.c replays the seed corpus and
#                        every regression input with them (under SAN=1: with
#                        ASan+UBSan).
#   make fuzz            builds the harnesses with afl-cc (AFL++, Debian
#                        package afl++; optional) into build/afl and fuzzes
#                        each for FUZZ_SECONDS (default 600) from its corpus;
#                        findings go to build/afl/findings/<x>/. Without
#                        afl++ it only replays the corpus. The long run is
#                        manual: make fuzz FUZZ_SECONDS=3600.
#   fuzz smoke           when afl++ is installed (and SAN=0), make check also
#                        fuzzes each harness for FUZZ_SMOKE_SECONDS (15) and
#                        fails on any crash found.

FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 15
AFL_CC             ?= afl-cc
AFL_B              := build/afl

FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS  := $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_NAMES))
AFL_BINS   := $(patsubst %,$(AFL_B)/fuzz/fuzz_%,$(FUZZ_NAMES))
HAVE_AFL   := $(shell command -v $(AFL_CC) >/dev/null 2>&1 && \
                      command -v afl-fuzz >/dev/null 2>&1 && echo 1)

$(B)/fuzz/fuzz_%: $(call obj,tests/fuzz/fuzz_%.c tests/fuzz/driver.c) $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)


# The AFL++ build: the whole project again, instrumented, in its own folder
# (clang under afl-cc: no -Werror, its warnings are not gcc's).
.PHONY: fuzz fuzz-afl-build
fuzz-afl-build:
	@$(MAKE) -s --no-print-directory CC=$(AFL_CC) B=$(AFL_B) SAN=0 \
	    CFLAGS="-O2 -g -std=c11 -pthread" $(AFL_BINS)

ifeq ($(HAVE_AFL),1)
fuzz: fuzz-afl-build
	@tests/fuzz/run_afl $(AFL_B) $(FUZZ_SECONDS) $(FUZZ_NAMES)
else
fuzz: $(FUZZ_BINS)
	@echo "afl++ is not installed (apt-get install afl++): replaying the corpus only"
	@for x in $(FUZZ_NAMES); do $(B)/fuzz/fuzz_$$x tests/fuzz/corpus/$$x || exit 1; done
endif

export PERFCAST_FUZZ_DIR      := $(B)/fuzz
CHECK_EXTRA += $(FUZZ_BINS)
ifeq ($(HAVE_AFL)$(SAN),10)
export PERFCAST_AFL_DIR       := $(AFL_B)
export PERFCAST_FUZZ_SMOKE    := $(FUZZ_SMOKE_SECONDS)
CHECK_EXTRA += fuzz-afl-build
endif

# test_schema_forgiving reads the site it builds with the independent
# verifier (tests/verify_site.h, render/module.mk), so it links it and
# libxml2.
$(B)/tests/test_schema_forgiving: $(VERIFY_OBJ)
$(B)/tests/test_schema_forgiving: PKG_LIBS += $(XML_LIBS)

# tests/test_drawlock.c counts render/'s calls of Cairo's font functions
# made with and without the drawing lock: those calls, and the lock's,
# reach the test's __wrap_ functions.
DRAWLOCK_WRAPPED := drawlock_enter drawlock_leave cairo_select_font_face cairo_set_font_size \
    cairo_set_font_options cairo_text_extents cairo_show_text cairo_show_glyphs \
    cairo_get_scaled_font cairo_show_page cairo_destroy cairo_surface_finish cairo_surface_destroy
$(B)/tests/test_drawlock: PKG_LIBS += $(foreach f,$(DRAWLOCK_WRAPPED),-Wl,--wrap=$(f))
