/*
 * experiment_names.c — see experiment_names.h.
 */
#include "gen/ingest/experiment_names.h"

#include <stdlib.h>
#include <string.h>

#include "gen/base/slug.h"
#include "render/html.h"

const char *experiment_name_problem(const char *name)
{
    if (!name || strspn(name, " \t") == strlen(name))
        return "is empty (expected a name)";
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        if (*s < 0x20 || *s == 0x7f)
            return "holds a control character (expected printable text)";
    return NULL;
}

void experiment_name_slug(const char *name, rbuf *out)
{
    slug_append(name, out);
}

void experiment_name_anchor(const char *name, rbuf *out)
{
    rbuf heading;
    rbuf_init(&heading);
    rbuf_printf(&heading, "Experiment %s", name);
    html_heading_id(rbuf_str(&heading), out);
    rbuf_free(&heading);
}

typedef struct {
    char *key;
    size_t index;
} named_key;

static int by_key_then_index(const void *x, const void *y)
{
    const named_key *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Report every name whose key (what: "file name", "anchor") equals the key
 * of an earlier, different name. Sorting makes it n log n: a campaign may
 * hold thousands of experiments. */
static void check_key(const experiment_info *exps, size_t n, void (*key)(const char *, rbuf *),
                      const char *what, const char *file, diag_list *d)
{
    named_key *all = calloc(n ? n : 1, sizeof *all);
    size_t m = 0;
    for (size_t i = 0; all && i < n; i++) {
        if (!exps[i].name)
            continue;
        rbuf b;
        rbuf_init(&b);
        key(exps[i].name, &b);
        if ((all[m].key = rbuf_take(&b)) != NULL)
            all[m++].index = i;
    }
    if (m)
        qsort(all, m, sizeof *all, by_key_then_index);
    /* Within a run of one key, the first (earliest) entry is the one the
     * others clash with. */
    for (size_t k = 1, first = 0; k < m; k++) {
        if (strcmp(all[k].key, all[first].key) != 0) {
            first = k;
            continue;
        }
        const experiment_info *a = &exps[all[first].index], *e = &exps[all[k].index];
        if (strcmp(a->name, e->name) != 0)
            diag_add(d, file, e->line, experiment_cell_column(e, "name", 0),
                     "experiment name '%s' gives the same %s '%s' as '%s' (line %ld): rename "
                     "one of them", e->name, what, all[k].key, a->name, a->line);
    }
    for (size_t k = 0; k < m; k++)
        free(all[k].key);
    free(all);
}

void experiment_names_check_clashes(const experiment_info *exps, size_t n, const char *file,
                                    diag_list *d)
{
    check_key(exps, n, experiment_name_slug, "file name", file, d);
    check_key(exps, n, experiment_name_anchor, "anchor", file, d);
}
