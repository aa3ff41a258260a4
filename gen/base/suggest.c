/*
 * suggest.c — see suggest.h.
 */
#include "gen/base/suggest.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Edit distance (insert, delete, substitute, swap of neighbours), case
 * folded; stops counting at limit + 1. */
static size_t edit_distance(const char *a, const char *b, size_t limit)
{
    size_t n = strlen(a), m = strlen(b);
    if ((n > m ? n - m : m - n) > limit)
        return limit + 1;
    size_t *rows = malloc(3 * (m + 1) * sizeof *rows);
    if (!rows)
        return limit + 1;
    size_t *before = rows, *prev = rows + m + 1, *cur = rows + 2 * (m + 1);
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            bool same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t d = prev[j - 1] + !same;
            d = prev[j] + 1 < d ? prev[j] + 1 : d;
            d = cur[j - 1] + 1 < d ? cur[j - 1] + 1 : d;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                before[j - 2] + 1 < d)
                d = before[j - 2] + 1;
            cur[j] = d;
        }
        size_t *t = before;
        before = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[m];
    free(rows);
    return d;
}

const char *suggest_name(const char *typed, const char *const *names, size_t n)
{
    size_t len = strlen(typed);
    size_t limit = len < 4 ? 1 : len < 9 ? 2 : 3;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(typed, names[i], limit);
        /* A typed prefix of a longer name ("scopred" for "scopred-ep") counts too. */
        if (d > limit && len >= 3 && strncasecmp(names[i], typed, len) == 0)
            d = limit;
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

/* The suggestion between open and close, or "". */
static const char *phrase(const char *typed, const char *const *names, size_t n,
                          const char *open, const char *close, char *buf, size_t len)
{
    const char *near = suggest_name(typed, names, n);
    snprintf(buf, len, "%s%s%s", near ? open : "", near ? near : "", near ? close : "");
    return buf;
}

const char *suggest_clause(const char *typed, const char *const *names, size_t n, char *buf,
                           size_t len)
{
    return phrase(typed, names, n, "; did you mean '", "'?", buf, len);
}

const char *suggest_aside(const char *typed, const char *const *names, size_t n, char *buf,
                          size_t len)
{
    return phrase(typed, names, n, " (did you mean '", "'?)", buf, len);
}
