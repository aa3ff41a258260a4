/*
 * parallel.c — see parallel.h. A shared counter under a mutex hands out
 * the items: they differ in cost (one campaign is refitted, the others
 * read back), so a fixed split would leave a thread idle.
 */
#include "gen/base/parallel.h"

#include <pthread.h>
#include <stdlib.h>

#define PARALLEL_MAX_THREADS 64

typedef struct {
    parallel_worker_fn fn;
    void *ctx;
    size_t n, next;
    pthread_mutex_t lock;
} item_queue;

typedef struct {
    item_queue *queue;
    size_t worker;
} worker_arg;

static void *run_items(void *arg)
{
    const worker_arg *w = arg;
    item_queue *q = w->queue;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        size_t i = q->next++;
        pthread_mutex_unlock(&q->lock);
        if (i >= q->n)
            return NULL;
        q->fn(q->ctx, w->worker, i);
    }
}

void parallel_for_workers(size_t n, int jobs, parallel_worker_fn fn, void *ctx)
{
    size_t helpers = jobs > 1 ? (size_t)jobs - 1 : 0;
    if (helpers > PARALLEL_MAX_THREADS)
        helpers = PARALLEL_MAX_THREADS;
    if (helpers >= n)
        helpers = n ? n - 1 : 0; /* no thread without an item to take */
    if (helpers == 0) {
        for (size_t i = 0; i < n; i++)
            fn(ctx, 0, i);
        return;
    }
    item_queue q = {.fn = fn, .ctx = ctx, .n = n};
    pthread_mutex_init(&q.lock, NULL);
    pthread_t threads[PARALLEL_MAX_THREADS];
    worker_arg args[PARALLEL_MAX_THREADS + 1];
    for (size_t w = 0; w <= helpers; w++)
        args[w] = (worker_arg){&q, w};
    size_t started = 0;
    while (started < helpers &&
           pthread_create(&threads[started], NULL, run_items, &args[started + 1]) == 0)
        started++;
    run_items(&args[0]);
    for (size_t t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    pthread_mutex_destroy(&q.lock);
}

/* parallel_for's item function, called as a worker function. */
typedef struct {
    parallel_item_fn fn;
    void *ctx;
} item_only;

static void run_item(void *ctx, size_t worker, size_t i)
{
    (void)worker;
    const item_only *it = ctx;
    it->fn(it->ctx, i);
}

void parallel_for(size_t n, int jobs, parallel_item_fn fn, void *ctx)
{
    item_only it = {fn, ctx};
    parallel_for_workers(n, jobs, run_item, &it);
}

void parallel_task_start(parallel_task *t, bool threaded, void *(*fn)(void *), void *arg)
{
    t->started = threaded && pthread_create(&t->thread, NULL, fn, arg) == 0;
    if (!t->started)
        fn(arg);
}

void parallel_task_finish(parallel_task *t)
{
    if (t->started)
        pthread_join(t->thread, NULL);
    t->started = false;
}
