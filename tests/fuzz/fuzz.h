/*
 * fuzz.h — the libFuzzer-style entry point every harness in tests/fuzz/
 * defines. driver.c calls it: for each file named on the command line
 * (a plain loop, how make check replays the corpus and the regression
 * inputs), or in AFL++'s persistent mode when built with afl-cc and run
 * without arguments. A harness returns 0; it calls abort() when an
 * invariant breaks, so that every fuzzer counts a crash.
 */
#ifndef PERFCAST_FUZZ_H
#define PERFCAST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
