/*
 * config_index.c — configurations found by a hash of their identifying
 * cells (see config_index.h).
 */
#include "gen/base/config_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/column_rules.h"



bool config_is_identifying(const char *column)
{
    return !column_is_measured(column);
}

bool config_column_identifies(const table_column *col)
{
    return !col->result && config_is_identifying(col->name);
}

bool config_same_line(const table *runs, size_t a, size_t b, size_t skip)
{
    for (size_t c = 0; c < runs->ncols; c++)
        if (c != skip && config_column_identifies(&runs->cols[c]) &&
            !table_same_cells(&runs->cols[c], a, b))
            return false;
    return true;
}

int config_line_point_compare(const void *a, const void *b)
{
    const config_line_point *p = a, *q = b;
    if (p->line != q->line)
        return p->line < q->line ? -1 : 1;
    bool p_nan = isnan(p->x), q_nan = isnan(q->x);
    if (p_nan != q_nan) /* a missing level last */
        return p_nan ? 1 : -1;
    if (!p_nan && p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->item > q->item) - (p->item < q->item);
}

bool config_same_configuration(const table *runs, size_t a, size_t b)
{
    return config_same_line(runs, a, b, CONFIG_NONE);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

/* A hash that agrees with table_same_cells: -0 and 0 hash alike, every
 * missing value alike, text by content. */
static uint64_t cell_hash(const table_column *col, size_t row)
{
    if (col->kind == COL_NUMBER) {
        double v = col->num[row];
        uint64_t bits = 0;
        if (isnan(v))
            bits = 0x7ff8000000000001ULL;
        else if (v != 0)
            memcpy(&bits, &v, sizeof bits);
        return bits;
    }
    const char *s = col->text[row];
    if (!s)
        return 0x51ed270b27ULL;
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* The slots are chosen by the low bits, and a product only carries low
 * bits upward: whole numbers (np 1, 2, 4, ...) have all-zero low bits and
 * would pile up in one run of slots. MurmurHash3's finaliser mixes every
 * bit into every other. */
static uint64_t finish_hash(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static uint64_t row_hash(const config_index *ix, size_t row)
{
    uint64_t h = 0;
    for (size_t k = 0; k < ix->ncols; k++)
        h = mix(h, cell_hash(&ix->runs->cols[ix->cols[k]], row));
    return finish_hash(h);
}

uint64_t config_line_hash(const table *runs, size_t row, size_t skip)
{
    uint64_t h = 0;
    for (size_t c = 0; c < runs->ncols; c++)
        if (c != skip && config_column_identifies(&runs->cols[c]))
            h = mix(h, cell_hash(&runs->cols[c], row));
    return finish_hash(h);
}

static bool rows_same(const config_index *ix, size_t a, size_t b)
{
    for (size_t k = 0; k < ix->ncols; k++)
        if (!table_same_cells(&ix->runs->cols[ix->cols[k]], a, b))
            return false;
    return true;
}

/* The slot of row's configuration (hash h): holding its number + 1, or
 * empty (0) where it would go. The table is never more than half full. */
static size_t slot_of(const config_index *ix, size_t row, uint64_t h)
{
    for (size_t i = (size_t)h & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
        size_t c = ix->slot[i];
        if (c == 0 || (ix->hash[c - 1] == h && rows_same(ix, ix->first_row[c - 1], row)))
            return i;
    }
}

bool config_index_init(config_index *ix, const table *runs, size_t expected)
{
    memset(ix, 0, sizeof *ix);
    ix->runs = runs;
    ix->cols = malloc((runs->ncols + 1) * sizeof *ix->cols);
    for (size_t c = 0; ix->cols && c < runs->ncols; c++)
        if (config_column_identifies(&runs->cols[c]))
            ix->cols[ix->ncols++] = c;
    ix->cap = 16;
    while (ix->cap < 2 * expected)
        ix->cap *= 2;
    ix->slot = calloc(ix->cap, sizeof *ix->slot);
    return ix->cols && ix->slot;
}

/* Double the slots (every configuration placed again); false when out of
 * memory, the index then unchanged. */
static bool grow_slots(config_index *ix)
{
    size_t cap = 2 * ix->cap, *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return false;
    free(ix->slot);
    ix->slot = slot;
    ix->cap = cap;
    for (size_t c = 0; c < ix->count; c++) {
        size_t i = (size_t)ix->hash[c] & (cap - 1);
        while (ix->slot[i])
            i = (i + 1) & (cap - 1);
        ix->slot[i] = c + 1;
    }
    return true;
}

/* Room for one more configuration; false when out of memory. */
static bool reserve(config_index *ix)
{
    if (2 * (ix->count + 1) > ix->cap && !grow_slots(ix))
        return false;
    if (ix->count < ix->room)
        return true;
    size_t room = ix->room ? 2 * ix->room : 16;
    size_t *first = realloc(ix->first_row, room * sizeof *first);
    if (first)
        ix->first_row = first;
    uint64_t *hash = realloc(ix->hash, room * sizeof *hash);
    if (hash)
        ix->hash = hash;
    if (!first || !hash)
        return false;
    ix->room = room;
    return true;
}

size_t config_index_add(config_index *ix, size_t row, bool *added)
{
    uint64_t h = row_hash(ix, row);
    size_t i = slot_of(ix, row, h);
    if (added)
        *added = ix->slot[i] == 0;
    if (ix->slot[i])
        return ix->slot[i] - 1;
    size_t cap = ix->cap;
    if (!reserve(ix))
        return CONFIG_NONE;
    if (ix->cap != cap) /* the slots were placed again */
        i = slot_of(ix, row, h);
    ix->first_row[ix->count] = row;
    ix->hash[ix->count] = h;
    ix->slot[i] = ++ix->count;
    return ix->count - 1;
}

size_t config_index_find(const config_index *ix, size_t row)
{
    if (ix->count == 0)
        return CONFIG_NONE;
    size_t c = ix->slot[slot_of(ix, row, row_hash(ix, row))];
    return c ? c - 1 : CONFIG_NONE;
}

void config_index_free(config_index *ix)
{
    free(ix->cols);
    free(ix->slot);
    free(ix->first_row);
    free(ix->hash);
    memset(ix, 0, sizeof *ix);
}

bool config_groups(const table *runs, const size_t *rows, size_t n, size_t **group_of,
                   size_t *ngroups)
{
    config_index ix;
    *ngroups = 0;
    *group_of = malloc((n ? n : 1) * sizeof **group_of);
    bool ok = config_index_init(&ix, runs, n / 2) && *group_of;
    for (size_t i = 0; ok && i < n; i++)
        ok = ((*group_of)[i] = config_index_add(&ix, rows[i], NULL)) != CONFIG_NONE;
    *ngroups = ok ? ix.count : 0;
    config_index_free(&ix);
    if (!ok) {
        free(*group_of);
        *group_of = NULL;
    }
    return ok;
}
