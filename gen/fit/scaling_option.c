/*
 * scaling_option.c — see scaling_option.h.
 */
#include "gen/fit/scaling_option.h"

#include <stdio.h>
#include <string.h>

static const char key_name[] = "scaling";

bool scaling_option_is_key(const char *key, size_t len)
{
    return len == sizeof key_name - 1 && strncmp(key, key_name, len) == 0;
}

bool scaling_option_value(const char *value, size_t len, bool *weak)
{
    bool is_weak = len == 4 && strncmp(value, "weak", 4) == 0;
    bool is_strong = len == 6 && strncmp(value, "strong", 6) == 0;
    if (is_weak || is_strong)
        *weak = is_weak;
    return is_weak || is_strong;
}

/* s[0..*len) without the blanks around it. */
static const char *trimmed(const char *s, size_t *len)
{
    while (*len > 0 && (*s == ' ' || *s == '\t'))
        s++, (*len)--;
    while (*len > 0 && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
        (*len)--;
    return s;
}

bool scaling_option_weak(const char *options, bool *weak, char *err, size_t errlen)
{
    *weak = false;
    bool seen = false;
    for (const char *s = options ? options : ""; *s;) {
        size_t item = strcspn(s, ";");
        const char *eq = memchr(s, '=', item);
        size_t klen = eq ? (size_t)(eq - s) : item;
        const char *key = trimmed(s, &klen);
        if (scaling_option_is_key(key, klen)) {
            size_t vlen = eq ? item - (size_t)(eq + 1 - s) : 0;
            const char *value = eq ? trimmed(eq + 1, &vlen) : "";
            if (seen) {
                snprintf(err, errlen, "options: scaling is given twice");
                return false;
            }
            if (!scaling_option_value(value, vlen, weak)) {
                snprintf(err, errlen, "options: scaling=%.*s: expected strong (a fixed problem) "
                         "or weak (a problem that grows with the process count)", (int)vlen, value);
                return false;
            }
            seen = true;
        }
        s += item;
        s += *s == ';';
    }
    return true;
}
