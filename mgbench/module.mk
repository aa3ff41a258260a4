# mgbench — the MPI multigrid benchmark (included by the top-level Makefile).
#
#   $(B)/mgbench                 the benchmark (built with mpicc)
#   $(B)/tests/mgbench_<x>       its CUnit programs (make check runs them)
#   make bench                   runs mgbench/bench/run: reference problem,
#                                STREAM triad, hypre comparison
#
#   make mgbench-smpi            the same mgbench built with SimGrid's smpicc
#                                (SMPI) into build/smpi/mgbench, to run under
#                                smpirun on simulated clusters (installs
#                                libsimgrid-dev through make deps when missing)
#
# mgbench's kernels want -O3 (auto-vectorisation); override MGB_CFLAGS to
# change that, MGB_CC to use another MPI compiler wrapper.

MGB_CC      ?= mpicc
MGB_CFLAGS  ?= -O3
MGB_OBJDIR  := $(B)/mgbench-obj
MGB_SRC     := $(sort $(wildcard mgbench/*.c))
MGB_LIBSRC  := $(filter-out mgbench/main.c,$(MGB_SRC))
MGB_TESTLIB := tests/mgbench_testlib.c
MGB_TESTSRC := $(filter-out $(MGB_TESTLIB),$(sort $(wildcard tests/mgbench_*.c)))
mgb_obj      = $(patsubst %.c,$(MGB_OBJDIR)/%.o,$(1))

MGBENCH       := $(B)/mgbench
MGB_LIB       := $(B)/libmgbench.a
MGB_TEST_BINS := $(patsubst tests/%.c,$(B)/tests/%,$(MGB_TESTSRC))

.PHONY: mgbench mgbench-bench mgbench-install mgbench-smpi mgbench-smpi-build

mgbench: $(MGBENCH)

$(MGB_OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(MGB_CC) $(CPPFLAGS) $(CFLAGS) $(MGB_CFLAGS) -MMD -MP -c $< -o $@

$(MGB_LIB): $(call mgb_obj,$(MGB_LIBSRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(MGBENCH): $(call mgb_obj,mgbench/main.c) $(MGB_LIB)
	$(MGB_CC) $(LDFLAGS) -o $@ $^ -lm

# Static pattern: these explicit rules win over the generic tests/% rule.
$(MGB_TEST_BINS): $(B)/tests/mgbench_%: $(MGB_OBJDIR)/tests/mgbench_%.o \
                 $(call mgb_obj,$(MGB_TESTLIB)) $(MGB_LIB)
	@mkdir -p $(dir $@)
	$(MGB_CC) $(LDFLAGS) -o $@ $^ $(CUNIT_LIBS) -lm

# mgbench_runnable checks perfcast's rules on runnable splits
# (gen/advice/runnable.c) against mgbench's own refusals: it links perfcast's
# libraries too.
$(B)/tests/mgbench_runnable: $(B)/libpcgen.a $(B)/libpcmodels.a
$(B)/tests/mgbench_runnable: CUNIT_LIBS += -lgsl -lgslcblas

# The SMPI build never takes the sanitizers (SAN=0): SimGrid runs every rank
# in one process on its own stacks, which ASan does not follow.
MGB_SMPI_B := build/smpi
mgbench-smpi: deps
	@$(MAKE) --no-print-directory mgbench-smpi-build
mgbench-smpi-build:
	@$(MAKE) --no-print-directory SAN=0 B=$(MGB_SMPI_B) MGB_CC=smpicc $(MGB_SMPI_B)/mgbench

mgbench-bench: $(MGBENCH)
	@B=$(B) MGB_CC="$(MGB_CC)" mgbench/bench/run

mgbench-install: $(MGBENCH)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(MGBENCH) $(DESTDIR)$(PREFIX)/bin/mgbench
	install -m 755 mgbench/campaign $(DESTDIR)$(PREFIX)/bin/mgbench-campaign

EXTRA_TEST_BINS += $(MGB_TEST_BINS)
CHECK_EXTRA     += $(MGBENCH) $(MGB_TEST_BINS) mgbench-smpi-build
# tests/mgbench_smpi.c runs the SMPI build under smpirun.
export MGBENCH_SMPI := $(MGB_SMPI_B)/mgbench
BENCH_EXTRA     += mgbench-bench
INSTALL_EXTRA   += mgbench-install

# tests/test_campaign_stubs runs mgbench/campaign for real: mgbench must be
# built before it (order only: the test does not link it).
$(B)/tests/test_campaign_stubs: | $(MGBENCH)
