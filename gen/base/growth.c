/*
 * growth.c — see growth.h.
 */
#include "gen/base/growth.h"

#include <stdint.h>
#include <stdlib.h>

bool growth_reserve(void *array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2 / (size ? size : 1))
            return false;
        n *= 2;
    }
    void *more = realloc(*(void **)array, n * size);
    if (!more)
        return false;
    *(void **)array = more;
    *cap = n;
    return true;
}
