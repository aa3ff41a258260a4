/*
 * config_groups.c — rows grouped into configurations by hashing (see
 * config_groups.h).
 */
#include "gen/config_groups.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/experiment.h"

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull; /* FNV-1a */
    return h;
}

/* A hash of the identifying cells of row: equal configurations hash alike. */
static uint64_t row_hash(const table *t, size_t row)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t c = 0; c < t->ncols; c++) {
        const table_column *col = &t->cols[c];
        if (!experiment_column_identifies(col))
            continue;
        if (col->kind == COL_NUMBER) {
            double v = col->num[row];
            v = isnan(v) ? NAN : v == 0 ? 0 : v; /* one NaN, one zero */
            h = mix(h, &v, sizeof v);
        } else if (col->text[row]) {
            h = mix(h, col->text[row], strlen(col->text[row]) + 1);
        } else {
            h = mix(h, "\xff", 1);
        }
    }
    return h;
}

typedef struct {
    uint64_t hash;
    size_t index; /* into rows */
} keyed;

static int by_hash_then_index(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

bool config_groups(const table *runs, const size_t *rows, size_t n, size_t **group_of,
                   size_t *ngroups)
{
    *ngroups = 0;
    *group_of = malloc((n ? n : 1) * sizeof **group_of);
    keyed *k = malloc((n ? n : 1) * sizeof *k);
    size_t *head = malloc((n ? n : 1) * sizeof *head); /* first index of each group */
    if (!*group_of || !k || !head) {
        free(k), free(head);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed){row_hash(runs, rows[i]), i};
    qsort(k, n, sizeof *k, by_hash_then_index);
    /* Provisional group ids by first index; renumbered by appearance below. */
    size_t nheads = 0;
    for (size_t i = 0, run = 0; i < n; i++) {
        if (i > 0 && k[i].hash != k[i - 1].hash)
            run = i;
        size_t g = SIZE_MAX;
        for (size_t j = run; j < i && g == SIZE_MAX; j++)
            if ((*group_of)[k[j].index] == k[j].index &&
                experiment_same_configuration(runs, rows[k[j].index], rows[k[i].index]))
                g = k[j].index;
        (*group_of)[k[i].index] = g == SIZE_MAX ? k[i].index : g;
    }
    /* Number the groups in order of first appearance. */
    for (size_t i = 0; i < n; i++) {
        if ((*group_of)[i] == i)
            head[i] = nheads++;
        (*group_of)[i] = head[(*group_of)[i]];
    }
    *ngroups = nheads;
    free(k), free(head);
    return true;
}
