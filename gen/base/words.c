/*
 * words.c — see words.h.
 */
#include "gen/base/words.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

size_t words_len(const char *p)
{
    size_t n = 0;
    while (isalnum((unsigned char)p[n]))
        n++;
    return n;
}

bool words_is_one_of(const char *word, size_t len, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == len && strncasecmp(word, *list, len) == 0)
            return true;
    return false;
}

bool words_any_in(const char *name, const char *const *list)
{
    for (const char *p = name; *p;) {
        size_t n = words_len(p);
        if (n && words_is_one_of(p, n, list))
            return true;
        p += n ? n : 1;
    }
    return false;
}

bool words_last_in(const char *name, const char *const *list)
{
    const char *last = NULL;
    size_t last_len = 0;
    for (const char *p = name; *p;) {
        size_t n = words_len(p);
        if (n) {
            last = p;
            last_len = n;
        }
        p += n ? n : 1;
    }
    return last && words_is_one_of(last, last_len, list);
}

bool words_text_contains(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = text; p && *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return true;
    return false;
}
