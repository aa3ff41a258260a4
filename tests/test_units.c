/*
 * test_units.c — time units in headers (gen/base/units.h), case by case:
 * the header forms the tools write (pandas "time (ms)", JUBE "time[ms]",
 * "solve_time_avg[ms]", "Runtime(ms)"), a last "_unit" word, unknown
 * bracketed units, and names that merely end like a unit.
 */
#include "tests/testutil.h"

#include <math.h>
#include <string.h>

#include "gen/base/units.h"

static void test_headers(void)
{
    static const struct {
        const char *header;
        units_found found;
        const char *stem;
        double factor;
    } cases[] = {
        {"time (ms)", UNITS_TIME, "time", 1e-3},
        {"time[ms]", UNITS_TIME, "time", 1e-3},
        {"Runtime(ms)", UNITS_TIME, "Runtime", 1e-3},
        {"solve_time_avg[ms]", UNITS_TIME, "solve_time_avg", 1e-3},
        {"time_ms", UNITS_TIME, "time", 1e-3},
        {"elapsed us", UNITS_TIME, "elapsed", 1e-6},
        {"t [\xc2\xb5s]", UNITS_TIME, "t", 1e-6},
        {"kernel_ns", UNITS_TIME, "kernel", 1e-9},
        {"walltime (min)", UNITS_TIME, "walltime", 60},
        {"duration [h]", UNITS_TIME, "duration", 3600},
        {"time_s", UNITS_TIME, "time", 1},
        {"bandwidth [MB/s]", UNITS_UNKNOWN, "bandwidth", NAN},
        {"time (furlongs)", UNITS_UNKNOWN, "time", NAN},
        {"block_size", UNITS_NONE, "block_size", NAN},
        {"runtime", UNITS_NONE, "runtime", NAN},
        {"ms", UNITS_NONE, "ms", NAN},
        {"nodes", UNITS_NONE, "nodes", NAN},
        /* The spellings tools write, in any case, after '_', '-', '.' or
         * ' ', bracketed, or right after the duration word before a
         * statistic: each was once published as seconds unconverted. */
        {"time_usec", UNITS_TIME, "time", 1e-6},
        {"time_nsec", UNITS_TIME, "time", 1e-9},
        {"time_millis", UNITS_TIME, "time", 1e-3},
        {"TIME_MS", UNITS_TIME, "TIME", 1e-3},
        {"Runtime_MS", UNITS_TIME, "Runtime", 1e-3},
        {"time-ms", UNITS_TIME, "time", 1e-3},
        {"time.ms", UNITS_TIME, "time", 1e-3},
        {"time_ms_avg", UNITS_TIME, "time_avg", 1e-3},
        {"time_ms_total", UNITS_TIME, "time_total", 1e-3},
        {"time [msec]", UNITS_TIME, "time", 1e-3},
        {"time [S]", UNITS_TIME, "time", 1},
        {"elapsed_microseconds", UNITS_TIME, "elapsed", 1e-6},
        {"walltime_Hours", UNITS_TIME, "walltime", 3600},
        {"time_\xc2\xb5s", UNITS_TIME, "time", 1e-6},
        {"conductance [S]", UNITS_UNKNOWN, "conductance", NAN}, /* siemens */
        {"size_avg", UNITS_NONE, "size_avg", NAN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char stem[64];
        double f = NAN;
        const char *unit;
        size_t len;
        units_found got = units_in_header(cases[i].header, stem, sizeof stem, &f, &unit, &len);
        CU_ASSERT_EQUAL(got, cases[i].found);
        CU_ASSERT_STRING_EQUAL(stem, cases[i].stem);
        if (cases[i].found == UNITS_TIME)
            CU_ASSERT_DOUBLE_EQUAL(f, cases[i].factor, cases[i].factor * 1e-12);
        if (got != cases[i].found || strcmp(stem, cases[i].stem) != 0)
            printf("\n  %s: got %d '%s'\n", cases[i].header, (int)got, stem);
    }
}

static void test_unit_fields(void)
{
    double f;
    CU_ASSERT_TRUE(units_time_factor("ms", &f) && f == 1e-3);
    CU_ASSERT_TRUE(units_time_factor(" s ", &f) && f == 1);
    CU_ASSERT_TRUE(units_time_factor("min", &f) && f == 60);
    CU_ASSERT_FALSE(units_time_factor("MB/s", &f));
    CU_ASSERT_FALSE(units_time_factor("", &f));
    CU_ASSERT_FALSE(units_time_factor("S", &f)); /* siemens: no name here says duration */
    CU_ASSERT_TRUE(units_time_factor("MS", &f) && f == 1e-3);
    CU_ASSERT_TRUE(units_time_factor("msec", &f) && f == 1e-3);
    CU_ASSERT_TRUE(units_time_factor("Seconds", &f) && f == 1);
}

/* Words that read as a unit of time no rule converts: a time named with
 * one is refused by its importer, never published as seconds. */
static void test_unknown_words(void)
{
    const char *w;
    size_t n;
    CU_ASSERT_TRUE(units_unknown_word("time_ps", &w, &n) && n == 2 && strncmp(w, "ps", 2) == 0);
    CU_ASSERT_TRUE(units_unknown_word("time_days", &w, &n) && strncmp(w, "days", n) == 0);
    CU_ASSERT_TRUE(units_unknown_word("time-kilosec", &w, &n));
    CU_ASSERT_TRUE(units_unknown_word("time ticks", &w, &n));
    CU_ASSERT_FALSE(units_unknown_word("time_ms", &w, &n));
    CU_ASSERT_FALSE(units_unknown_word("time_total", &w, &n));
    CU_ASSERT_FALSE(units_unknown_word("comm_time", &w, &n));
    CU_ASSERT_FALSE(units_unknown_word("days", &w, &n)); /* a name, not a unit */
}

/* Converted by a whole divisor below a second: 9 ms is the double
 * nearest 0.009, which 9 * 1e-3 is not (one unit in the last place
 * above: "0.0090000000000000011" in a runs.csv). */
static void test_in_seconds(void)
{
    volatile double nine = 9, milli = 1e-3; /* computed at run time */
    CU_ASSERT_TRUE(nine * milli != 0.009); /* why the divisor */
    CU_ASSERT_TRUE(units_in_seconds(9, 1e-3) == 0.009);
    CU_ASSERT_TRUE(units_in_seconds(1600, 1e-3) == 1.6);
    CU_ASSERT_TRUE(units_in_seconds(2500000, 1e-6) == 2.5);
    CU_ASSERT_TRUE(units_in_seconds(2, 60) == 120);
    CU_ASSERT_TRUE(units_in_seconds(0.25, 1) == 0.25);
}

/* A bracketed unit at the end, blanks after it aside; a last "_U" word,
 * a lone or unclosed bracket is none. */
static void test_bracketed(void)
{
    CU_ASSERT_TRUE(units_bracketed("latency [us]"));
    CU_ASSERT_TRUE(units_bracketed("time (ms)  "));
    CU_ASSERT_FALSE(units_bracketed("time_ms"));
    CU_ASSERT_FALSE(units_bracketed("time ms)"));
    CU_ASSERT_FALSE(units_bracketed(")"));
}

static void test_duration_names(void)
{
    CU_ASSERT_TRUE(units_name_is_duration("time"));
    CU_ASSERT_TRUE(units_name_is_duration("Runtime"));
    CU_ASSERT_TRUE(units_name_is_duration("solve_time_avg"));
    CU_ASSERT_TRUE(units_name_is_duration("Elapsed"));
    CU_ASSERT_TRUE(units_name_is_duration("t"));
    CU_ASSERT_TRUE(units_name_is_duration("solve time"));
    CU_ASSERT_TRUE(units_name_is_duration("comm_time"));
    CU_ASSERT_FALSE(units_name_is_duration("bandwidth"));
    CU_ASSERT_FALSE(units_name_is_duration("np"));
    /* word by word: a longer word that contains one is not a duration */
    CU_ASSERT_FALSE(units_name_is_duration("timestep"));
    CU_ASSERT_FALSE(units_name_is_duration("lifetimes"));
    CU_ASSERT_TRUE(units_is_duration_word("Walltime", 8));
    CU_ASSERT_FALSE(units_is_duration_word("times", 5));
    CU_ASSERT_TRUE(units_name_is_instant("start_time"));
    CU_ASSERT_TRUE(units_name_is_instant("time limit"));
    CU_ASSERT_FALSE(units_name_is_instant("solve_time"));
}

/* The one rule of when a time unit in a header makes it a time. */
static void test_unit_makes_time(void)
{
    CU_ASSERT_TRUE(units_unit_makes_time("latency [us]", "latency", 1e-6)); /* bracketed */
    CU_ASSERT_TRUE(units_unit_makes_time("bytes [s]", "bytes", 1));         /* bracketed */
    CU_ASSERT_TRUE(units_unit_makes_time("kernel_ns", "kernel", 1e-9));     /* below a second */
    CU_ASSERT_TRUE(units_unit_makes_time("walltime_min", "walltime", 60));  /* a duration's */
    CU_ASSERT_TRUE(units_unit_makes_time("time_s", "time", 1));
    CU_ASSERT_FALSE(units_unit_makes_time("n_min", "n", 60));
    CU_ASSERT_FALSE(units_unit_makes_time("timestep_min", "timestep", 60));
    CU_ASSERT_FALSE(units_unit_makes_time("bytes_s", "bytes", 1));
    CU_ASSERT_FALSE(units_unit_makes_time("start_time_ms", "start_time", 1e-3));
    CU_ASSERT_FALSE(units_unit_makes_time("time_limit [min]", "time_limit", 60));
}

int main(void)
{
    static const testutil_test tests[] = {
        {"units in headers", test_headers},
        {"unit fields", test_unit_fields},
        {"unit words no rule converts", test_unknown_words},
        {"values in seconds", test_in_seconds},
        {"bracketed units", test_bracketed},
        {"names that say duration", test_duration_names},
        {"when a unit makes a header a time", test_unit_makes_time},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"units", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
