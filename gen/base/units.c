/*
 * units.c — see units.h.
 */
#include "gen/base/units.h"
#include "gen/base/words.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Every spelling of a time unit seen in tools' headers and unit fields;
 * matched in any case ("TIME_MS", "Runtime_MS", "[msec]"). */
static const struct {
    const char *unit;
    double to_seconds;
} known[] = {
    {"ns", 1e-9},        {"nsec", 1e-9},         {"nsecs", 1e-9},      {"nanos", 1e-9},
    {"nanosec", 1e-9},   {"nanosecs", 1e-9},     {"nanosecond", 1e-9}, {"nanoseconds", 1e-9},
    {"us", 1e-6},        {"\xc2\xb5s", 1e-6},    {"\xce\xbcs", 1e-6},  {"usec", 1e-6},
    {"usecs", 1e-6},     {"\xc2\xb5sec", 1e-6},  {"micros", 1e-6},     {"microsec", 1e-6},
    {"microsecs", 1e-6}, {"microsecond", 1e-6},  {"microseconds", 1e-6},
    {"ms", 1e-3},        {"msec", 1e-3},         {"msecs", 1e-3},      {"millis", 1e-3},
    {"millisec", 1e-3},  {"millisecs", 1e-3},    {"millisecond", 1e-3}, {"milliseconds", 1e-3},
    {"s", 1},            {"sec", 1},             {"secs", 1},          {"second", 1},
    {"seconds", 1},      {"min", 60},            {"mins", 60},         {"minute", 60},
    {"minutes", 60},     {"h", 3600},            {"hr", 3600},         {"hrs", 3600},
    {"hour", 3600},      {"hours", 3600},
};

/* unit[0..n) is a known time unit, in any case. */
static bool factor_of(const char *unit, size_t n, double *to_seconds)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].unit) == n && strncasecmp(known[i].unit, unit, n) == 0) {
            *to_seconds = known[i].to_seconds;
            return true;
        }
    return false;
}

/* A lone capital letter ("S", "H") is a unit of something else (siemens,
 * henry) unless the name beside it says duration ("time [S]"). */
static bool lone_capital(const char *unit, size_t n)
{
    return n == 1 && isupper((unsigned char)unit[0]);
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
    /* a unit field has no name beside it to say duration */
    return n > 0 && !lone_capital(unit, n) && factor_of(unit, n, to_seconds);
}

/* The characters that separate a unit word from the name before it
 * ("time_ms", "time-ms", "time.ms", "elapsed us"). Not words_len's
 * separators: the bytes of "µs" are no ASCII letters but one word here. */
static bool is_separator(char c)
{
    return c == '_' || c == ' ' || c == '-' || c == '.';
}

/* Copy header[0..n) into stem, trimmed of blanks and separators at its
 * end, then rest[0..rest_n) after one '_' when there is any rest. */
static void put_stem(const char *header, size_t n, const char *rest, size_t rest_n, char *stem,
                     size_t stem_len)
{
    while (n && (isspace((unsigned char)header[n - 1]) || is_separator(header[n - 1])))
        n--;
    while (n && isspace((unsigned char)*header))
        header++, n--;
    while (rest_n && (isspace((unsigned char)rest[rest_n - 1]) || is_separator(rest[rest_n - 1])))
        rest_n--;
    snprintf(stem, stem_len, "%.*s%s%.*s", (int)n, header, rest_n ? "_" : "", (int)rest_n, rest);
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

/* The next token of header at or after *at: a run of characters that are
 * not separators. False at the end. */
static bool next_token(const char *header, size_t *at, size_t *start, size_t *len)
{
    size_t i = *at;
    while (header[i] && is_separator(header[i]))
        i++;
    if (!header[i])
        return false;
    *start = i;
    while (header[i] && !is_separator(header[i]))
        i++;
    *len = i - *start;
    *at = i;
    return true;
}

/* Where the unit word of a header without brackets is: its last token
 * ("time_ms"), else a token right after a duration word ("time_ms_avg",
 * "time_ms_total": the unit, then a statistic). Not the first token: a
 * header "ms" is a name. */
static bool unit_token(const char *header, size_t *start, size_t *len, double *to_seconds)
{
    size_t at = 0, s, n, prev_s = 0, prev_n = 0, count = 0;
    bool found = false;
    while (next_token(header, &at, &s, &n)) {
        bool after_duration = count > 0 && units_is_duration_word(header + prev_s, prev_n);
        bool last = header[at] == '\0' || !header[at + strspn(header + at, "_ -.")];
        if (count > 0 && (last || after_duration) && factor_of(header + s, n, to_seconds)) {
            *start = s;
            *len = n;
            found = true; /* the last such token wins */
        }
        prev_s = s, prev_n = n, count++;
    }
    return found;
}

units_found units_in_header(const char *header, char *stem, size_t stem_len, double *to_seconds,
                            const char **unit, size_t *unit_len)
{
    size_t n = strlen(header), open, len, s;
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
        put_stem(header, open, "", 0, stem, stem_len);
        bool known_unit = factor_of(u, len, to_seconds) &&
                          (!lone_capital(u, len) || units_name_is_duration(stem));
        return known_unit ? UNITS_TIME : UNITS_UNKNOWN;
    }
    if (unit_token(header, &s, &len, to_seconds)) {
        char before[256];
        put_stem(header, s, "", 0, before, sizeof before);
        if (!lone_capital(header + s, len) || units_name_is_duration(before)) {
            *unit = header + s;
            *unit_len = len;
            put_stem(header, s, header + s + len + strspn(header + s + len, "_ -."),
                     strlen(header + s + len + strspn(header + s + len, "_ -.")), stem,
                     stem_len);
            return UNITS_TIME;
        }
    }
    put_stem(header, n, "", 0, stem, stem_len);
    return UNITS_NONE;
}

/* Words that read as a unit of time but that no rule here converts: a
 * time's scale cannot be known from them. Any case; spelled-out units
 * end in these ("fortnights" does not: no one writes it). */
static const char *const unit_like_endings[] = {"sec", "secs", "second", "seconds", "minute",
                                                "minutes", "hour", "hours", "hrs", "day",
                                                "days", "week", "weeks", "tick", "ticks",
                                                "jiffies", NULL};
/* SI prefixes before "s" that known[] lacks: ps, fs, ks, Ms, ... */
static const char prefixes_s[] = "pfaykKMGT";

static bool looks_like_unit(const char *w, size_t n)
{
    double f;
    if (factor_of(w, n, &f))
        return false;
    if (n == 2 && strchr(prefixes_s, w[0]) && (w[1] == 's' || w[1] == 'S'))
        return true;
    for (const char *const *e = unit_like_endings; *e; e++) {
        size_t k = strlen(*e);
        if (n >= k && strncasecmp(w + n - k, *e, k) == 0)
            return true;
    }
    return false;
}

bool units_unknown_word(const char *header, const char **word, size_t *len)
{
    size_t at = 0, s, n, count = 0;
    while (next_token(header, &at, &s, &n))
        if (count++ > 0 && looks_like_unit(header + s, n)) {
            *word = header + s;
            *len = n;
            return true;
        }
    return false;
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
