/*
 * units.c — see units.h.
 */
#include "gen/base/units.h"
#include "gen/base/words.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *unit;
    double to_seconds;
} known[] = {
    {"ns", 1e-9},   {"us", 1e-6},      {"\xc2\xb5s", 1e-6}, {"\xce\xbcs", 1e-6},
    {"ms", 1e-3},   {"s", 1},          {"sec", 1},          {"secs", 1},
    {"second", 1},  {"seconds", 1},    {"min", 60},         {"mins", 60},
    {"minutes", 60}, {"h", 3600},      {"hr", 3600},        {"hours", 3600},
};

/* unit[0..n) is a known time unit. */
static bool factor_of(const char *unit, size_t n, double *to_seconds)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].unit) == n && strncmp(known[i].unit, unit, n) == 0) {
            *to_seconds = known[i].to_seconds;
            return true;
        }
    return false;
}

double units_in_seconds(double value, double to_seconds)
{
    return to_seconds < 1 ? value / round(1 / to_seconds) : value * to_seconds;
}

bool units_time_factor(const char *unit, double *to_seconds)
{
    size_t n = strlen(unit);
    while (n && isspace((unsigned char)unit[n - 1]))
        n--;
    while (n && isspace((unsigned char)*unit))
        unit++, n--;
    return n > 0 && factor_of(unit, n, to_seconds);
}

/* Copy header[0..n) into stem, trimmed of blanks, '_' and '-' at its end. */
static void put_stem(const char *header, size_t n, char *stem, size_t stem_len)
{
    while (n && (isspace((unsigned char)header[n - 1]) || header[n - 1] == '_' ||
                 header[n - 1] == '-'))
        n--;
    while (n && isspace((unsigned char)*header))
        header++, n--;
    snprintf(stem, stem_len, "%.*s", (int)n, header);
}

/* A bracketed unit at the end: "(U)" or "[U]". */
static bool bracketed(const char *h, size_t n, size_t *open, size_t *len)
{
    while (n && isspace((unsigned char)h[n - 1]))
        n--;
    if (n < 3 || (h[n - 1] != ')' && h[n - 1] != ']'))
        return false;
    char want = h[n - 1] == ')' ? '(' : '[';
    size_t i = n - 1;
    while (i > 0 && h[i - 1] != want)
        i--;
    if (i == 0)
        return false;
    *open = i - 1;
    *len = n - 1 - i;
    return true;
}

bool units_bracketed(const char *header)
{
    size_t open, len;
    return bracketed(header, strlen(header), &open, &len);
}

units_found units_in_header(const char *header, char *stem, size_t stem_len, double *to_seconds,
                            const char **unit, size_t *unit_len)
{
    size_t n = strlen(header), open, len;
    *unit = NULL;
    *unit_len = 0;
    if (bracketed(header, n, &open, &len)) {
        const char *u = header + open + 1;
        while (len && isspace((unsigned char)*u))
            u++, len--;
        while (len && isspace((unsigned char)u[len - 1]))
            len--;
        *unit = u;
        *unit_len = len;
        put_stem(header, open, stem, stem_len);
        return factor_of(u, len, to_seconds) ? UNITS_TIME : UNITS_UNKNOWN;
    }
    /* A last word after '_' or ' ' that is a known unit. */
    size_t i = n;
    while (i > 0 && header[i - 1] != '_' && header[i - 1] != ' ')
        i--;
    if (i > 1 && i < n && factor_of(header + i, n - i, to_seconds)) {
        *unit = header + i;
        *unit_len = n - i;
        put_stem(header, i - 1, stem, stem_len);
        return UNITS_TIME;
    }
    put_stem(header, n, stem, stem_len);
    return UNITS_NONE;
}

static const char *const duration_words[] = {"time",    "runtime",  "walltime",
                                             "elapsed", "duration", "t",
                                             NULL};
static const char *const instant_words[] = {"start",     "end",  "begin", "stop",  "stamp",
                                            "timestamp", "date", "epoch", "limit", NULL};

bool units_is_duration_word(const char *word, size_t len)
{
    return words_is_one_of(word, len, duration_words);
}

bool units_name_is_duration(const char *name)
{
    return words_any_in(name, duration_words);
}

bool units_name_is_instant(const char *name)
{
    return words_any_in(name, instant_words);
}

bool units_unit_makes_time(const char *header, const char *stem, double to_seconds)
{
    if (units_name_is_instant(stem))
        return false; /* "start_time_ms" is a point in time, "time_limit [min]" a setting */
    return units_bracketed(header) || to_seconds < 1 || units_name_is_duration(stem);
}
