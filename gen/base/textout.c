/*
 * textout.c — see textout.h.
 */
#include "gen/base/textout.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "render/numtext.h"

bool textout_csv_needs_quotes(const char *s)
{
    return strpbrk(s, ",\"\r\n") != NULL;
}

void textout_csv_text(FILE *out, const char *s)
{
    if (!s)
        return;
    if (!textout_csv_needs_quotes(s)) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void textout_csv_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.10g", v);
}

void textout_json_text(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void textout_shortest_number(char *buf, size_t len, double v)
{
    /* The fewest significant digits that read back as the same double:
     * 5.62, not 5.6200000000000001. */
    int digits = 1;
    for (; digits < 17; digits++) {
        snprintf(buf, len, "%.*e", digits - 1, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* Plain notation unless the number is very large or small (as
     * JavaScript prints numbers): 50, not 5e+01; 0.00012; 1e+25. */
    snprintf(buf, len, "%.*e", digits - 1, v);
    int exponent = atoi(strchr(buf, 'e') + 1);
    if (exponent >= -6 && exponent < 21)
        snprintf(buf, len, "%.*f", digits - 1 - exponent > 0 ? digits - 1 - exponent : 0, v);
}

void textout_json_number(FILE *out, double v)
{
    char text[32];
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    textout_shortest_number(text, sizeof text, v);
    fputs(text, out);
}

/* sep "key": */
static void json_key(FILE *out, const char *sep, const char *key)
{
    fputs(sep, out);
    textout_json_text(out, key);
    fputs(": ", out);
}

void textout_json_number_member(FILE *out, const char *sep, const char *key, double v)
{
    json_key(out, sep, key);
    textout_json_number(out, v);
}

void textout_json_text_member(FILE *out, const char *sep, const char *key, const char *s)
{
    json_key(out, sep, key);
    textout_json_text(out, s);
}

void textout_human_number(FILE *out, double v)
{
    rbuf b;
    rbuf_init(&b);
    if (isfinite(v) && numtext_value(&b, v, 6) && !b.oom)
        fputs(rbuf_str(&b), out);
    else
        fputs(isfinite(v) ? "?" : "—", out);
    rbuf_free(&b);
}

void textout_double_bits(char buf[17], double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    snprintf(buf, 17, "%016" PRIx64, bits);
}

bool textout_parse_double_bits(const char *s, double *v)
{
    size_t n = strspn(s, "0123456789abcdef");
    if (n != 16 || s[n])
        return false;
    uint64_t bits = strtoull(s, NULL, 16);
    memcpy(v, &bits, sizeof *v);
    return true;
}
