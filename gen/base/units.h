/*
 * units.h — time units written in column names and unit fields, the one
 * place that knows them. Importers convert every time to seconds and
 * name the column time_<part>_s (gen/base/column_rules.h); a time whose
 * unit is not known is refused, never guessed.
 *
 * Known units, in any case, with the spellings tools write:
 *   ns (nsec, nanoseconds, ...), us (µs with U+00B5 or U+03BC, usec,
 *   micros, microseconds, ...), ms (msec, millis, milliseconds, ...),
 *   s (sec, secs, seconds), min (mins, minutes), h (hr, hrs, hours).
 * A lone capital letter ("S", "H": siemens, henry) is a time unit only
 * in a header whose name says duration ("time [S]"), never in a unit
 * field, where no name says so.
 * A unit stands in a header as "name (U)", "name(U)", "name [U]",
 * "name[U]", as a last word after '_', '-', '.' or ' ' ("time_ms",
 * "time-ms", "time.ms", "elapsed us"), or as the word right after a
 * duration word ("time_ms_avg", "time_ms_total": a unit, then a
 * statistic).
 *
 * Pure: no I/O, no allocation.
 */
#ifndef PERFCAST_UNITS_H
#define PERFCAST_UNITS_H

#include <stdbool.h>
#include <stddef.h>

/* The units, as a message lists them for someone who wrote another. */
#define UNITS_KNOWN                                                                  \
    "ns, us, \xc2\xb5s, ms, s, min, h, and their spellings (nsec, usec, msec, millis, "  \
    "sec, seconds, minutes, hours, ...)"

/* The factor that turns a value in unit into seconds (1e-3 for "ms");
 * false when unit is not a known time unit. */
bool units_time_factor(const char *unit, double *to_seconds);

/* value, given in a unit of to_seconds seconds, in seconds: divided by a
 * whole number below a second, so 9 ms is 0.009 as written (9 * 1e-3 is
 * one unit in the last place above). */
double units_in_seconds(double value, double to_seconds);

typedef enum {
    UNITS_NONE,     /* no unit written in the header */
    UNITS_TIME,     /* a known time unit: *to_seconds is set */
    UNITS_UNKNOWN,  /* a bracketed unit that is not a time unit ("[MB/s]", "(furlongs)") */
} units_found;

/* The unit written in a header, and the header without it (trimmed of
 * blanks and separators; "time_ms_avg" has the stem "time_avg") into stem
 * (always terminated, cut to stem_len). A unit word counts only when it
 * is a known time unit ("time_s" is a time, "block_size" has no unit); a
 * bracketed unit is always reported, known or not (*unit points at its
 * text inside header, unit_len bytes). */
units_found units_in_header(const char *header, char *stem, size_t stem_len, double *to_seconds,
                            const char **unit, size_t *unit_len);

/* Whether a word of header after its first ("time_fortnight_ps": "ps")
 * reads as a unit of time that no rule here converts: a picosecond, a
 * tick, a day, a "...sec" word. *word and *len say which. A caller
 * refuses such a word on a name that says duration, never publishing
 * its value as seconds. */
bool units_unknown_word(const char *header, const char **word, size_t *len);

/* Whether header ends in a bracketed part, "(U)" or "[U]" (blanks after
 * it aside): a unit there is meant as one ("latency [us]"), where a last
 * "_U" word may only look like one. */
bool units_bracketed(const char *header);

/* What is a time, the rule every importer follows (gen/import/: tables,
 * Extra-P, ReFrame). Names are read word by word (gen/base/words.h: a
 * word is a run of letters and digits; "solve_time_avg", "solve time":
 * "time" is a word of both; "timestep" is no duration).
 *
 * A duration word: time, runtime, walltime, elapsed, duration, t (any
 * case). An instant word marks a point in time or a setting, not a
 * duration: start, end, begin, stop, stamp, timestamp, date, epoch,
 * limit ("start_time", "time_limit"). */
bool units_is_duration_word(const char *word, size_t len);

/* Whether some word of name is a duration word. */
bool units_name_is_duration(const char *name);

/* Whether some word of name is an instant word. */
bool units_name_is_instant(const char *name);

/* Whether the time unit units_in_header found in header (stem: the header
 * without it; to_seconds: its factor) makes the header a time: no word of
 * the name marks an instant ("start_time_ms", "time_limit [min]": a point
 * in time, a setting), and the unit is bracketed ("latency [us]"), below a
 * second (a last "_ms" word means milliseconds on any name: "kernel_ns"),
 * or follows a name that says duration ("walltime_min"; "n_min" is a
 * parameter, "timestep_min" a minimum). A header without a unit is a time
 * when its name says duration and no word marks an instant (a table also
 * asks that every cell be a number); its values are seconds, or
 * --time-unit's unit. */
bool units_unit_makes_time(const char *header, const char *stem, double to_seconds);

#endif
