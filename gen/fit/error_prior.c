/*
 * error_prior.c — see error_prior.h. A handful of rows, looked up by a
 * linear scan.
 */
#include "gen/fit/error_prior.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "gen/base/fileio.h"
#include "gen/base/growth.h"
#include "gen/base/hash.h"
#include "gen/base/share_path.h"

/* The bin of a "floor" row (after the distance bins and "all"). */
#define FLOOR_BIN (CALIBRATE_POOL_BINS + 1)

typedef struct {
    char *family;
    size_t bin; /* CALIBRATE_POOL_BINS: all; FLOOR_BIN: the unit's floor in scale */
    size_t nscores;
    double scale;
} prior_row;

struct error_prior {
    prior_row *rows;
    size_t n, cap;
    char *where;
    uint64_t digest;
};

void error_prior_free(error_prior *prior)
{
    if (!prior)
        return;
    for (size_t i = 0; i < prior->n; i++)
        free(prior->rows[i].family);
    free(prior->rows);
    free(prior->where);
    free(prior);
}

static const prior_row *find_row(const error_prior *prior, const char *family, size_t bin)
{
    for (size_t i = 0; i < prior->n; i++)
        if (prior->rows[i].bin == bin && strcmp(prior->rows[i].family, family) == 0)
            return &prior->rows[i];
    return NULL;
}

/* BIN: 0, 1, 2, "all" (CALIBRATE_POOL_BINS) or "floor" (FLOOR_BIN). */
static bool parse_bin(const char *s, size_t *bin)
{
    if (strcmp(s, "all") == 0 || strcmp(s, "floor") == 0) {
        *bin = s[0] == 'a' ? CALIBRATE_POOL_BINS : FLOOR_BIN;
        return true;
    }
    *bin = (size_t)(s[0] - '0');
    return s[0] >= '0' && s[1] == '\0' && *bin < CALIBRATE_POOL_BINS;
}

/* Parse one row (a NUL-terminated copy of the line) into prior; the
 * column of the field at fault in *col (1-based) and its complaint in
 * *what when it does not. */
static bool parse_row(error_prior *prior, char *line, size_t *col, const char **what)
{
    char *field[5];
    size_t start[5], nf = 0;
    for (char *p = line; p && nf < 5; nf++) {
        start[nf] = (size_t)(p - line) + 1;
        field[nf] = p;
        if ((p = strchr(p, '\t')) != NULL)
            *p++ = '\0';
    }
    *col = 1;
    *what = "expected four tab-separated fields: FAMILY BIN SCORES SCALE";
    if (nf != 4 || !field[0][0])
        return false;
    prior_row r = {.family = field[0]};
    char *end;
    *col = start[1], *what = "the bin must be 0, 1, 2, all or floor";
    if (!parse_bin(field[1], &r.bin))
        return false;
    *col = start[2], *what = "the number of scores must be a positive integer";
    errno = 0;
    unsigned long long n = strtoull(field[2], &end, 10);
    if (field[2][0] < '1' || field[2][0] > '9' || *end || errno || n > SIZE_MAX)
        return false;
    r.nscores = (size_t)n;
    *col = start[3], *what = "the scale must be a finite positive number";
    r.scale = strtod(field[3], &end);
    if (!field[3][0] || *end || !isfinite(r.scale) || !(r.scale > 0))
        return false;
    *col = 1, *what = "this family and bin have a row already";
    if (find_row(prior, r.family, r.bin))
        return false;
    *what = "out of memory";
    if (!growth_reserve(&prior->rows, &prior->cap, prior->n + 1, sizeof *prior->rows) ||
        !(r.family = strdup(r.family)))
        return false;
    prior->rows[prior->n++] = r;
    return true;
}

error_prior *error_prior_parse(const char *name, const char *text, size_t len, char *err,
                               size_t errlen)
{
    error_prior *prior = calloc(1, sizeof *prior);
    char *line = malloc(len + 1);
    bool ok = prior && line && (prior->where = strdup(name)) != NULL;
    if (!ok)
        snprintf(err, errlen, "out of memory");
    size_t lineno = 0;
    for (size_t pos = 0; ok && pos < len; lineno++) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos += n + 1;
        if (n == 0 || line[0] == '#')
            continue;
        size_t col = strlen(line) + 1;
        const char *what = "a NUL byte";
        if (col != n + 1 || !parse_row(prior, line, &col, &what)) {
            snprintf(err, errlen, "%s:%zu:%zu: %s", name, lineno + 1, col, what);
            ok = false;
        }
    }
    free(line);
    if (!ok) {
        error_prior_free(prior);
        return NULL;
    }
    prior->digest = hash_bytes(text, len, 0x7072696f72ull); /* "prior" */
    prior->digest += !prior->digest;
    return prior;
}

bool error_prior_load(error_prior **out, char *err, size_t errlen)
{
    *out = NULL;
    char dir[PATH_MAX], path[PATH_MAX + 32];
    const char *env = getenv(ERROR_PRIOR_ENV);
    if (env && strcmp(env, "none") == 0)
        return true;
    if (env && *env)
        snprintf(path, sizeof path, "%s", env);
    else if (share_path_find("", "gen/fit/prior", ERROR_PRIOR_FILE, dir, sizeof dir))
        snprintf(path, sizeof path, "%s/%s", dir, ERROR_PRIOR_FILE);
    else
        return true;
    size_t len;
    char *text = fileio_read_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read the error prior: %s", path, strerror(errno));
        return false;
    }
    *out = error_prior_parse(path, text, len, err, errlen);
    free(text);
    return *out != NULL;
}

bool error_prior_missing(void)
{
    const char *env = getenv(ERROR_PRIOR_ENV);
    char dir[PATH_MAX];
    return !(env && *env) && !share_path_find("", "gen/fit/prior", ERROR_PRIOR_FILE, dir, sizeof dir);
}

calibrate_status error_prior_model(const error_prior *prior, const char *family, size_t bin,
                                   double level, calibrate_model *out)
{
    memset(out, 0, sizeof *out);
    const prior_row *r = NULL;
    if (prior && family)
        r = find_row(prior, family, bin);
    if (prior && !r && family)
        r = find_row(prior, family, CALIBRATE_POOL_BINS);
    if (!r)
        return CALIBRATE_NO_SCORES;
    out->nscores = r->nscores;
    out->scale = out->robust_scale = r->scale;
    out->t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, (double)r->nscores);
    return CALIBRATE_OK;
}

double error_prior_floor(const error_prior *prior, const char *family)
{
    const prior_row *r = prior && family ? find_row(prior, family, FLOOR_BIN) : NULL;
    return r ? r->scale : CALIBRATE_SMOOTH_ROUGHNESS;
}

uint64_t error_prior_digest(const error_prior *prior)
{
    return prior ? prior->digest : 0;
}

const char *error_prior_where(const error_prior *prior)
{
    return prior ? prior->where : "";
}
