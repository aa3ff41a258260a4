/*
 * dates.h — what a day is, in one place: the archive's `date` cells
 * (YYYY-MM-DD, gen/ingest/schema.c) and the days importers take from tools'
 * timestamps (ReFrame, Slurm) follow the same calendar, so an import never
 * writes a day the archive reader would refuse, nor refuses one it takes.
 *
 * Pure: no I/O, no allocation.
 */
#ifndef PERFCAST_DATES_H
#define PERFCAST_DATES_H

#include <stdbool.h>

/* The number the n decimal digits at s write, or -1 when one of them is
 * not a digit (no sign, no blank: sscanf would take both). */
int dates_digits(const char *s, int n);

/* The days of month m (1-12) of year y; 0 for no such month. */
int dates_days_in_month(long y, int m);

/* Whether day d of month m of year y exists in the Gregorian calendar
 * (February 29 only in leap years; years from 1). */
bool dates_day_exists(long y, int m, int d);

/* Whether s is exactly "YYYY-MM-DD" naming a day that exists. */
bool dates_text_valid(const char *s);

/* The days from 1970-01-01 to the day s names (negative before it), so
 * two dates' difference is the days between them; false when s is not
 * dates_text_valid. */
bool dates_day_number(const char *s, long *days);

#endif
