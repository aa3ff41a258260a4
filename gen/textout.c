/*
 * textout.c — see textout.h.
 */
#include "gen/textout.h"

#include <math.h>
#include <string.h>

void textout_csv_text(FILE *out, const char *s)
{
    if (!s)
        return;
    if (strpbrk(s, ",\"\r\n") == NULL) {
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

void textout_json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("null", out);
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
    if (isfinite(v))
        fprintf(out, "%.6g", v);
    else
        fputs("—", out);
}
