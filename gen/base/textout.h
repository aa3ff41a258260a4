/*
 * textout.h — writing values for machines: CSV cells (RFC 4180 quoting),
 * JSON strings and numbers. A missing number (NAN) is an empty CSV cell and
 * a JSON null, never "nan".
 */
#ifndef PERFCAST_TEXTOUT_H
#define PERFCAST_TEXTOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether a CSV cell must be quoted: it holds a comma, quote, CR or LF.
 * The one rule for every CSV writer of gen/ (this file and the import's
 * in-memory rows). */
bool textout_csv_needs_quotes(const char *s);

/* A CSV cell: quoted only when textout_csv_needs_quotes. NULL = empty. */
void textout_csv_text(FILE *out, const char *s);

/* A CSV number with 10 significant digits; empty when not finite. */
void textout_csv_number(FILE *out, double v);

/* A JSON string literal with escapes; NULL gives null. */
void textout_json_text(FILE *out, const char *s);

/* A JSON number with the fewest digits that read back as the same double
 * (5.62, not 5.6200000000000001); null when not finite. */
void textout_json_number(FILE *out, double v);

/* That shortest round-trip text of a finite v into buf (32 bytes suffice). */
void textout_shortest_number(char *buf, size_t len, double v);

/* One member of a JSON object: sep (", " or ",\n  " after another member,
 * "" first), the key as a JSON string, ": " and the value as above. */
void textout_json_number_member(FILE *out, const char *sep, const char *key, double v);
void textout_json_text_member(FILE *out, const char *sep, const char *key, const char *s);

/* A number for people: 6 significant digits, never in e-notation
 * (render/numtext.h: "3.076 × 10⁻⁵"), "—" when not finite. */
void textout_human_number(FILE *out, double v);

/* A double's IEEE-754 bits as 16 hex digits (and a NUL) into buf: exact
 * for every value, NAN and infinities included, and never "nan" text; for
 * files perfcast writes to read back itself (gen/fit/fit_record.h). */
void textout_double_bits(char buf[17], double v);

/* The double of exactly 16 hex digits (textout_double_bits'); false when
 * s is anything else. */
bool textout_parse_double_bits(const char *s, double *v);

#endif
