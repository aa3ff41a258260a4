/* drawlock.c — see drawlock.h for why Cairo is called one thread at a time. */
#include "render/drawlock.h"

#include <pthread.h>

static pthread_mutex_t cairo_calls = PTHREAD_MUTEX_INITIALIZER;

void drawlock_enter(void)
{
    pthread_mutex_lock(&cairo_calls);
}

void drawlock_leave(void)
{
    pthread_mutex_unlock(&cairo_calls);
}
