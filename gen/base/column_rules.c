/*
 * column_rules.c — see column_rules.h.
 */
#include "gen/base/column_rules.h"

#include <string.h>

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The column [s, end) is time_s or time_<part>_s. */
static bool span_is_time(const char *s, const char *end)
{
    size_t n = (size_t)(end - s);
    if (n == 6 && strncmp(s, "time_s", 6) == 0)
        return true;
    return n > 7 && strncmp(s, "time_", 5) == 0 && strncmp(end - 2, "_s", 2) == 0;
}

bool column_is_time(const char *name)
{
    return span_is_time(name, name + strlen(name));
}

bool column_sum_is_time(const char *sum)
{
    for (;;) {
        const char *plus = strchr(sum, '+');
        const char *end = plus ? plus : sum + strlen(sum);
        if (!span_is_time(sum, end))
            return false;
        if (!plus)
            return true;
        sum = plus + 1;
    }
}

bool column_is_published(const char *name)
{
    return has_prefix(name, "published_");
}

/* Columns that record what a run measured or when, not what was run. */
static const char *const measurement_columns[] = {
    "rep", "date", "note", "cycles", "iterations", "rel_residual", "error_max", NULL,
};

bool column_is_measured(const char *name)
{
    if (has_prefix(name, "time_") || has_prefix(name, "metric_") || column_is_published(name))
        return true;
    for (const char *const *m = measurement_columns; *m; m++)
        if (strcmp(name, *m) == 0)
            return true;
    return false;
}
