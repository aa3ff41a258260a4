/*
 * parallel.h — one loop over n independent items on up to `jobs` threads
 * (the calling thread is one of them), items taken in turn.
 *
 * The items must be independent: fn(ctx, i) may write only what belongs
 * to item i and read what no item writes; whatever order the items run
 * in, the result is then the same, so a caller that keeps its results in
 * per-item slots stays deterministic. With jobs <= 1, or when no thread
 * can be started, every item runs on the calling thread, in order. No
 * state of its own outlives the call.
 */
#ifndef GEN_BASE_PARALLEL_H
#define GEN_BASE_PARALLEL_H

#include <stddef.h>

typedef void (*parallel_item_fn)(void *ctx, size_t i);

/* fn(ctx, i) for every i in 0..n-1, each exactly once; returns when all
 * have run. */
void parallel_for(size_t n, int jobs, parallel_item_fn fn, void *ctx);

#endif
