/*
 * numtext.c — see numtext.h.
 */
#include "render/numtext.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Drop the zeros after a decimal point, and the point itself. */
static void trim_zeros(char *s)
{
    if (!strchr(s, '.'))
        return;
    size_t n = strlen(s);
    while (s[n - 1] == '0')
        s[--n] = '\0';
    if (s[n - 1] == '.')
        s[--n] = '\0';
}

static void put_superscript(rbuf *out, int e)
{
    static const char *const digit[] = {"\xE2\x81\xB0", "\xC2\xB9", "\xC2\xB2", "\xC2\xB3",
                                        "\xE2\x81\xB4", "\xE2\x81\xB5", "\xE2\x81\xB6",
                                        "\xE2\x81\xB7", "\xE2\x81\xB8", "\xE2\x81\xB9"};
    char s[16];
    snprintf(s, sizeof s, "%d", abs(e));
    if (e < 0)
        rbuf_puts(out, "\xE2\x81\xBB"); /* superscript minus */
    for (const char *c = s; *c; c++)
        rbuf_puts(out, digit[*c - '0']);
}

bool numtext_value(rbuf *out, double v, int sig)
{
    char s[64];
    sig = sig < 1 ? 1 : sig > 12 ? 12 : sig;
    double a = fabs(v);
    if (a == 0) {
        rbuf_putc(out, '0');
        return !out->oom;
    }
    /* The exponent after rounding to sig digits (9.9996 -> 10.00). */
    snprintf(s, sizeof s, "%.*e", sig - 1, v);
    int e = atoi(strchr(s, 'e') + 1);
    if (e >= -4 && e < 6) {
        int decimals = sig - 1 - e;
        snprintf(s, sizeof s, "%.*f", decimals < 0 ? 0 : decimals, v);
        trim_zeros(s);
        rbuf_puts(out, s);
    } else {
        *strchr(s, 'e') = '\0';
        trim_zeros(s);
        rbuf_puts(out, s);
        rbuf_puts(out, " \xC3\x97 10"); /* " × 10" */
        put_superscript(out, e);
    }
    return !out->oom;
}

/* Length of the e-notation number at t (t[0] a digit not inside a word),
 * 0 when there is none; *sig gets its mantissa's digit count. */
static size_t e_number(const char *t, int *sig)
{
    const char *d = t;
    int digits = 0;
    while (isdigit((unsigned char)*d))
        d++, digits++;
    if (*d == '.')
        for (d++; isdigit((unsigned char)*d); d++)
            digits++;
    if (*d != 'e' && *d != 'E')
        return 0;
    d++;
    if (*d == '+' || *d == '-')
        d++;
    if (!isdigit((unsigned char)*d))
        return 0;
    while (isdigit((unsigned char)*d))
        d++;
    if (isalpha((unsigned char)*d) || *d == '_')
        return 0;
    *sig = digits;
    return (size_t)(d - t);
}

bool numtext_humanize(rbuf *out, const char *text)
{
    for (const char *c = text; *c;) {
        bool starts = isdigit((unsigned char)*c) &&
                      (c == text || !(isalnum((unsigned char)c[-1]) || c[-1] == '_' ||
                                      c[-1] == '.'));
        int sig = 0;
        size_t n = starts ? e_number(c, &sig) : 0;
        if (n) {
            numtext_value(out, strtod(c, NULL), sig);
            c += n;
        } else {
            rbuf_putc(out, *c++);
        }
    }
    return !out->oom;
}
