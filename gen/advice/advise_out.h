/*
 * advise_out.h — how `perfcast advise` prints its options: text for
 * people, CSV (one row per option, two-sided values joined by ';') and
 * JSON (sides as objects, missing numbers null). The rankings are arrays of
 * option indices, best first.
 */
#ifndef PERFCAST_ADVISE_OUT_H
#define PERFCAST_ADVISE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "gen/advice/advise.h"

/* 1-based rank of option i in order (n entries), 0 when absent. */
size_t advise_rank_of(const size_t *order, size_t n, size_t i);

void advise_print_text(FILE *out, const advise_ctx *ctx, const advise_list *l, bool maximize,
                       const size_t *fast, size_t nfast, const size_t *cheap, size_t ncheap);

void advise_print_csv(FILE *out, const advise_list *l, const size_t *fast, size_t nfast,
                      const size_t *cheap, size_t ncheap);

void advise_print_json(FILE *out, const advise_ctx *ctx, const advise_list *l, bool maximize,
                       const size_t *fast, size_t nfast, const size_t *cheap, size_t ncheap);

#endif
