/*
 * test_parallel.c — the one parallel loop (gen/base/parallel.h): every
 * item runs exactly once whatever the number of threads, on several
 * threads when asked and items are many, and in order on the calling
 * thread with one job; the workers' numbers (0 the calling thread, one
 * thread per number); and the task beside the caller.
 */
#include "tests/testutil.h"

#include "gen/base/parallel.h"

#include <pthread.h>
#include <stdlib.h>

/* Which worker and thread ran each item (parallel_for_workers). */
typedef struct {
    size_t *worker;
    pthread_t *thread;
    int *runs;
} worker_record;

static void note_worker(void *ctx, size_t worker, size_t i)
{
    worker_record *r = ctx;
    r->worker[i] = worker;
    r->thread[i] = pthread_self();
    __atomic_add_fetch(&r->runs[i], 1, __ATOMIC_RELAXED);
    volatile double x = 0; /* a little work, so that helpers get items too */
    for (int k = 0; k < 20000; k++)
        x += (double)k;
}

/* Every item once; worker numbers below jobs, 0 being the calling thread,
 * and one thread per number (per-worker scratch is never shared). */
static void check_workers(size_t n, int jobs)
{
    worker_record r = {calloc(n, sizeof *r.worker), calloc(n, sizeof *r.thread),
                       calloc(n, sizeof *r.runs)};
    CU_ASSERT_TRUE_FATAL(r.worker && r.thread && r.runs);
    parallel_for_workers(n, jobs, note_worker, &r);
    size_t once = 0, in_range = 0, consistent = 0, others = 0;
    size_t limit = jobs > 1 ? (size_t)jobs : 1;
    for (size_t i = 0; i < n; i++) {
        once += r.runs[i] == 1;
        in_range += r.worker[i] < limit;
        bool here = pthread_equal(r.thread[i], pthread_self());
        others += !here;
        bool same = (r.worker[i] == 0) == here;
        for (size_t j = 0; j < i && same; j++)
            if (r.worker[j] == r.worker[i])
                same = pthread_equal(r.thread[j], r.thread[i]);
        consistent += same;
    }
    CU_ASSERT_EQUAL(once, n);
    CU_ASSERT_EQUAL(in_range, n);
    CU_ASSERT_EQUAL(consistent, n);
    if (jobs <= 1)
        CU_ASSERT_EQUAL(others, 0);
    free(r.worker);
    free(r.thread);
    free(r.runs);
}

static void test_workers(void)
{
    check_workers(500, 1);
    check_workers(500, 2);
    check_workers(500, 4);
    check_workers(3, 8); /* fewer items than jobs */
}

typedef struct {
    int *runs;          /* how many times each item ran */
    pthread_t *thread;  /* which thread ran it */
    size_t *order;      /* the items in the order they ran (one job only) */
    size_t done;
} record;

static void count_item(void *ctx, size_t i)
{
    record *r = ctx;
    __atomic_add_fetch(&r->runs[i], 1, __ATOMIC_RELAXED);
    r->thread[i] = pthread_self();
    /* A little work, so that a helper thread gets items too. */
    volatile double x = 0;
    for (int k = 0; k < 20000; k++)
        x += (double)k;
}

static void order_item(void *ctx, size_t i)
{
    record *r = ctx;
    r->order[r->done++] = i;
}

/* elsewhere: 1 some items ran on other threads, 0 none did, -1 either. */
static void check_each_once(size_t n, int jobs, int elsewhere_wanted)
{
    record r = {calloc(n ? n : 1, sizeof *r.runs), calloc(n ? n : 1, sizeof *r.thread), NULL, 0};
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.runs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.thread);
    parallel_for(n, jobs, count_item, &r);
    size_t once = 0, elsewhere = 0;
    for (size_t i = 0; i < n; i++) {
        once += r.runs[i] == 1;
        elsewhere += !pthread_equal(r.thread[i], pthread_self());
    }
    CU_ASSERT_EQUAL(once, n);
    if (elsewhere_wanted >= 0)
        CU_ASSERT_EQUAL(elsewhere > 0, elsewhere_wanted == 1);
    free(r.runs);
    free(r.thread);
}

static void test_each_item_once(void)
{
    check_each_once(0, 4, 0);
    check_each_once(1, 4, 0); /* one item: no thread is started for nothing */
    check_each_once(1000, 1, 0);
    check_each_once(1000, 0, 0);
    check_each_once(1000, 2, 1);
    check_each_once(1000, 8, 1);
    check_each_once(3, 1000, -1); /* more jobs than items: as many threads as items */
}

static void test_one_job_in_order(void)
{
    size_t order[50];
    record r = {NULL, NULL, order, 0};
    parallel_for(50, 1, order_item, &r);
    CU_ASSERT_EQUAL(r.done, 50);
    size_t in_place = 0;
    for (size_t i = 0; i < r.done; i++)
        in_place += order[i] == i;
    CU_ASSERT_EQUAL(in_place, 50);
}

typedef struct {
    pthread_t ran_on;
    int runs;
} task_record;

static void *note_thread(void *arg)
{
    task_record *r = arg;
    r->ran_on = pthread_self();
    r->runs++;
    return NULL;
}

/* A task beside the caller: on another thread when asked, done once
 * finished; in place, at once, when not. Finishing twice waits once. */
static void test_task(void)
{
    task_record r = {0};
    parallel_task t;
    parallel_task_start(&t, true, note_thread, &r);
    parallel_task_finish(&t);
    parallel_task_finish(&t);
    CU_ASSERT_EQUAL(r.runs, 1);
    CU_ASSERT_FALSE(pthread_equal(r.ran_on, pthread_self()));
    task_record here = {0};
    parallel_task_start(&t, false, note_thread, &here);
    CU_ASSERT_EQUAL(here.runs, 1); /* already done before the finish */
    CU_ASSERT_TRUE(pthread_equal(here.ran_on, pthread_self()));
    parallel_task_finish(&t);
    CU_ASSERT_EQUAL(here.runs, 1);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"every item exactly once, on several threads", test_each_item_once},
        {"one job: in order, on the calling thread", test_one_job_in_order},
        {"a task beside the caller, threaded or in place", test_task},
        {"workers numbered from the calling thread, one thread each", test_workers},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"parallel", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
