/*
 * parallel.h — one loop over n independent items on up to `jobs` threads
 * (the calling thread is one of them), items taken in turn; and one task
 * beside the caller's work.
 *
 * The items must be independent: fn(ctx, i) may write only what belongs
 * to item i and read what no item writes; whatever order the items run
 * in, the result is then the same, so a caller that keeps its results in
 * per-item slots stays deterministic. With jobs <= 1, or when no thread
 * can be started, every item runs on the calling thread, in order. No
 * state of its own outlives the call.
 *
 * parallel_task runs one task beside the caller's work, the same way: on
 * a thread when it may, else in place.
 */
#ifndef GEN_BASE_PARALLEL_H
#define GEN_BASE_PARALLEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef void (*parallel_item_fn)(void *ctx, size_t i);

/* fn(ctx, i) for every i in 0..n-1, each exactly once; returns when all
 * have run. */
void parallel_for(size_t n, int jobs, parallel_item_fn fn, void *ctx);

/* The same, fn also told which thread runs item i: worker 0 is the
 * calling thread, the others 1 .. jobs-1, each one thread; so a caller
 * keeps per-thread scratch (buffers, counters) in slot `worker` of an
 * array of max(jobs, 1), read once the call returns. */
typedef void (*parallel_worker_fn)(void *ctx, size_t worker, size_t i);
void parallel_for_workers(size_t n, int jobs, parallel_worker_fn fn, void *ctx);

/* One task beside the caller's own work: fn(arg) on a thread of its own
 * when threaded and a thread can be started, else at once on the calling
 * thread. parallel_task_finish waits for it (nothing to wait for when it
 * ran in place, or was already finished); after it, fn's results may be
 * read. */
typedef struct {
    pthread_t thread;
    bool started;
} parallel_task;

void parallel_task_start(parallel_task *t, bool threaded, void *(*fn)(void *), void *arg);
void parallel_task_finish(parallel_task *t);

#endif
