/*
 * cmd_import.c — `perfcast import FORMAT FILE... --archive DIR --campaign NAME`:
 * read every file with the format's reader, and only when all of them read
 * cleanly merge the runs into the campaign (gen/import/import.h says how:
 * validated with the archive reader's own checks before anything is
 * written, so a campaign an import wrote always loads).
 */
#include "gen/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/column_rules.h"
#include "gen/base/suggest.h"
#include "gen/base/units.h"
#include "gen/cli/cli.h"
#include "gen/fit/scaling_option.h"
#include "gen/import/import.h"
#include "gen/import/import_lines.h"

static const char import_usage[] =
    "usage: perfcast import FORMAT FILE... --campaign NAME [--archive DIR]\n"
    "                       [--cluster NAME] [--map FROM=TO]... [--response COLUMN]\n"
    "                       [--scaling strong|weak]\n"
    "\n"
    "Turns benchmark results into an archive campaign (runs.csv, experiments.csv,\n"
    "README.md), creating it or adding to it. Rows already there are never changed\n"
    "and a row already there is not added again. FORMAT is one of:\n"
    "  extrap    Extra-P text input (PARAMETER, POINTS, REGION, METRIC, DATA lines),\n"
    "            Extra-P JSON or JSON Lines; a parameter not named like a process\n"
    "            count (p, np, procs, ranks, tasks, ...) needs --map NAME=np; a time\n"
    "            metric is in seconds unless its name ('METRIC time [ms]') or\n"
    "            --time-unit says otherwise\n"
    "  reframe   ReFrame performance log: ReFrame 4's default '|'-separated filelog\n"
    "            with its header line, ReFrame 3's, or a JSON run report\n"
    "  sacct     Slurm `sacct --parsable2` (or -p) output with Elapsed and NTasks:\n"
    "            one run per completed srun step\n"
    "  jube      a JUBE result table (`jube result`, csv or pretty style)\n"
    "  csv       any CSV file with a header; --map says which column is which\n"
    "\n"
    "  --campaign NAME     the campaign folder (created when absent)\n"
    "  --archive DIR       the archive folder (default: archive)\n"
    "  --cluster NAME      cluster of runs whose source names none (default: imported);\n"
    "                      a cluster clusters.csv lacks is added to it\n"
    "  --map FROM=TO       source column/parameter FROM becomes runs.csv column TO\n"
    "                      (e.g. --map procs=np,runtime=time_s; repeatable); a FROM\n"
    "                      the files lack is refused (sacct: only NAME=np)\n"
    "  --response COLUMN   the column the default experiment predicts: a result\n"
    "                      (time_* or metric_*) of the imported runs\n"
    "  --delimiter C       csv/jube: the field separator (default: detected, ',' or ';')\n"
    "  --decimal-comma     csv/jube: numbers are written 1,5 (default: detected with ';')\n"
    "  --time-unit U       times the source gives without a unit (an Extra-P time\n"
    "                      metric, a CSV or JUBE column named like a time) are in U:\n"
    "                      ns, us, ms, s, min or h (default: s); converted to seconds\n"
    "                      (an option a format does not read is refused, not ignored)\n"
    "  --scaling strong|weak\n"
    "                      what a larger process count does to the problem: fixed\n"
    "                      (strong) or grown with it (weak: no \"stopped gaining\"\n"
    "                      word for a flat time); written into the options of the\n"
    "                      default experiments the import adds (default: none, strong)\n"
    "  --allow-truncated   accept a file whose last line has no line end (refused by\n"
    "                      default: a file cut while written looks just like that)\n"
    "  --help              this text\n"
    "Exit status: 0 ok, 1 input problems (nothing written), 2 usage.\n";

typedef struct {
    import_request req;
    import_map maps[32];
    const char *files[256];
    size_t nfiles;
} import_args;

/* A FROM mapped before to another column (procs=np, procs=time_s): a
 * contradiction; the same pair again is harmless. The earlier TO, or NULL. */
static const char *map_conflict(const import_args *a, const char *from, const char *to)
{
    for (size_t i = 0; i < a->req.nmaps; i++)
        if (strcmp(a->maps[i].from, from) == 0 && strcmp(a->maps[i].to, to) != 0)
            return a->maps[i].to;
    return NULL;
}

/* "a=b,c=d" into maps (the text is split in place). -1 when parsed, else
 * the usage error's exit status (printed): a pair without '=', or one
 * contradicting an earlier pair. */
static int parse_maps(char *text, import_args *a)
{
    const char *given = text;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", given);
    for (char *pair = strtok(text, ","); pair; pair = strtok(NULL, ",")) {
        char *eq = strchr(pair, '=');
        if (!eq || eq == pair || !eq[1] || a->req.nmaps == sizeof a->maps / sizeof a->maps[0])
            return cli_usage_error("import", "--map wants FROM=TO pairs, got", copy);
        *eq = '\0';
        const char *before = map_conflict(a, pair, eq + 1);
        if (before) {
            fprintf(stderr, "perfcast: --map %s=%s contradicts --map %s=%s; see perfcast "
                            "import --help\n", pair, eq + 1, pair, before);
            return 2;
        }
        a->maps[a->req.nmaps].from = pair;
        a->maps[a->req.nmaps].to = eq + 1;
        a->req.nmaps++;
    }
    return -1;
}

/* An option the format's reader never reads is refused, not ignored: a
 * user who writes --time-unit ms for a ReFrame log believes its times are
 * converted. -1 when every option given applies (an unknown format is
 * reported later, as such). */
static int refuse_unread_options(const import_args *a)
{
    const char *f = a->req.format;
    bool reframe_or_sacct = strcmp(f, "reframe") == 0 || strcmp(f, "sacct") == 0;
    if (a->req.time_unit && reframe_or_sacct)
        return cli_usage_error("import",
                               "--time-unit applies to extrap, csv and jube (a ReFrame log "
                               "gives every time's unit, sacct its own clock), not to",
                               f);
    for (size_t m = 0; strcmp(f, "sacct") == 0 && m < a->req.nmaps; m++)
        if (strcmp(a->maps[m].to, "np") != 0) /* the sacct reader reads no other map */
            return cli_usage_error("import", "sacct takes only --map NAME=np (the process "
                                   "count's column), not --map", a->maps[m].from);
    if ((a->req.delimiter || a->req.decimal_comma) && (reframe_or_sacct || !strcmp(f, "extrap")))
        return cli_usage_error("import",
                               "--delimiter and --decimal-comma apply to csv and jube, not to", f);
    return -1;
}

/* Returns -1 when parsed, else the exit status to return. */
static int parse_args(int argc, char **argv, import_args *a)
{
    memset(a, 0, sizeof *a);
    a->req.maps = a->maps;
    const char *format = NULL;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        const char **slot = strcmp(arg, "--archive") == 0    ? &a->req.archive
                          : strcmp(arg, "--campaign") == 0   ? &a->req.campaign
                          : strcmp(arg, "--cluster") == 0    ? &a->req.cluster
                          : strcmp(arg, "--response") == 0   ? &a->req.response
                          : strcmp(arg, "--time-unit") == 0  ? &a->req.time_unit
                          : strcmp(arg, "--scaling") == 0    ? &a->req.scaling
                          : NULL;
        bool is_map = strcmp(arg, "--map") == 0;
        bool is_delim = strcmp(arg, "--delimiter") == 0;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(import_usage, stdout);
            return 0;
        } else if (strcmp(arg, "--decimal-comma") == 0) {
            a->req.decimal_comma = true;
        } else if (strcmp(arg, "--allow-truncated") == 0) {
            a->req.allow_truncated = true;
        } else if ((slot || is_map || is_delim) && i + 1 >= argc) {
            return cli_usage_error("import", "missing value after", arg);
        } else if (slot && *slot) {
            /* the last of two would win silently: which did the user mean? */
            return cli_usage_error("import", "given twice:", arg);
        } else if (slot) {
            *slot = argv[++i];
        } else if (is_delim) {
            const char *d = argv[++i];
            if (strcmp(d, "\\t") == 0 || strcmp(d, "tab") == 0)
                d = "\t";
            if (strlen(d) != 1 || d[0] == '"' || d[0] == '\n' || d[0] == '\r')
                return cli_usage_error("import", "--delimiter wants one character (or tab), got",
                                       argv[i]);
            a->req.delimiter = d[0];
        } else if (is_map) {
            int status = parse_maps(argv[++i], a);
            if (status >= 0)
                return status;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_usage_error("import", "unknown option", arg);
        } else if (!format) {
            format = arg;
        } else if (a->nfiles < sizeof a->files / sizeof a->files[0]) {
            a->files[a->nfiles++] = arg;
        } else {
            return cli_usage_error("import", "too many files at", arg);
        }
    }
    if (!a->req.archive)
        a->req.archive = "archive";
    a->req.format = format;
    if (!format)
        return cli_usage_error("import", "expected FORMAT and FILE...", NULL);
    if (!a->nfiles)
        return cli_usage_error("import", "expected at least one FILE after", format);
    if (!a->req.campaign)
        return cli_usage_error("import", "--campaign NAME is required", NULL);
    if (a->req.time_unit && !units_time_factor(a->req.time_unit, &a->req.time_unit_seconds))
        return cli_usage_error("import", "--time-unit wants ns, us, ms, s, min or h, got",
                               a->req.time_unit);
    bool weak;
    if (a->req.scaling && !scaling_option_value(a->req.scaling, strlen(a->req.scaling), &weak))
        return cli_usage_error("import", "--scaling wants strong or weak, got", a->req.scaling);
    return refuse_unread_options(a);
}

typedef bool (*import_reader)(const import_request *, const char *, import_rows *, diag_list *);

static import_reader reader_for(const char *format)
{
    static const struct {
        const char *name;
        import_reader read;
    } readers[] = {
        {"extrap", import_read_extrap}, {"reframe", import_read_reframe},
        {"sacct", import_read_sacct},   {"jube", import_read_jube},
        {"csv", import_read_csv},
    };
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (strcmp(readers[i].name, format) == 0)
            return readers[i].read;
    return NULL;
}

/* --response names a column the rows have and that is a result (a time,
 * a metric_*: gen/base/column_rules.h): a configuration column made the
 * response would leave the configurations and merge runs that differ in
 * it, and a name that is not there would be ignored. False (printed, with
 * the nearest result column) otherwise. */
static bool response_is_result(const char *response, const import_rows *rows)
{
    const char *results[256];
    size_t n = 0;
    for (size_t c = 0; c < rows->ncols && n < sizeof results / sizeof results[0]; c++)
        if (column_is_measured(rows->names[c]))
            results[n++] = rows->names[c];
    long col = import_rows_column(rows, response);
    if (col >= 0 && column_is_measured(response))
        return true;
    if (col >= 0)
        fprintf(stderr, "perfcast: --response %s: '%s' is a configuration column of the "
                        "imported runs, not a result (a time_* or metric_* column)\n",
                response, response);
    else
        cli_print_unknown("result column", response, results, n,
                          "the imported runs (--response)");
    return false;
}

/* Every file read cleanly into rows; problems printed otherwise. */
static bool read_all(const import_args *a, import_reader read, import_rows *rows, char *source,
                     size_t source_len)
{
    diag_list diags;
    diag_init(&diags);
    bool ok = true;
    source[0] = '\0';
    for (size_t i = 0; i < a->nfiles; i++) {
        ok = import_file_complete(a->files[i], a->files[i], a->req.allow_truncated, &diags) &&
             read(&a->req, a->files[i], rows, &diags) && ok;
        size_t used = strlen(source);
        const char *base = strrchr(a->files[i], '/');
        snprintf(source + used, source_len - used, "%s`%s`", i ? ", " : "",
                 base ? base + 1 : a->files[i]);
    }
    diag_print(&diags, stderr);
    diag_free(&diags);
    return ok;
}

/* A --map FROM=TO whose FROM the files do not have would be ignored:
 * a usage error (2, printed with the nearest name the readers recorded),
 * else 0. */
static int check_maps(const import_request *req, const import_rows *rows)
{
    const import_map *unknown = import_unknown_map(req, rows);
    if (!unknown)
        return 0;
    char near[300];
    suggest_aside(unknown->from, (const char *const *)rows->sources, rows->nsources, near,
                  sizeof near);
    fprintf(stderr, "perfcast: --map %s=%s: no column, parameter or variable '%s' that the %s "
                    "reader maps in the files%s; see perfcast import --help\n",
            unknown->from, unknown->to, unknown->from, req->format, near);
    return 2;
}

/* --response made the first response: it is the experiment people look
 * at. 0, 1 when out of memory, 2 when it names no result column (a usage
 * error: the files are fine, the option is not). */
static int choose_response(const char *response, import_rows *rows)
{
    if (!response)
        return 0;
    if (!response_is_result(response, rows))
        return 2;
    if (!import_rows_add_response(rows, response))
        return 1;
    for (size_t i = rows->nresponses - 1; i > 0; i--)
        if (strcmp(rows->responses[i], response) == 0) {
            char *chosen = rows->responses[i];
            memmove(rows->responses + 1, rows->responses, i * sizeof *rows->responses);
            rows->responses[0] = chosen;
        }
    return 0;
}

int cmd_import(int argc, char **argv)
{
    import_args a;
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    import_reader read = reader_for(a.req.format);
    if (!read)
        return cli_usage_error("import", "unknown format", a.req.format);
    import_rows rows;
    import_rows_init(&rows);
    char source[2048];
    status = read_all(&a, read, &rows, source, sizeof source) ? 0 : 1;
    /* A file refused for a mapped column it lacks (sacct's --map NTask=np)
     * is a typo in the option: usage. */
    if (status == 0 || rows.nsources > 0)
        status = check_maps(&a.req, &rows) ? 2 : status;
    if (status == 0)
        status = choose_response(a.req.response, &rows);
    if (status == 0) {
        diag_list diags;
        diag_init(&diags);
        size_t nread = rows.nrows; /* the writer releases the rows */
        long added = import_write_campaign(&a.req, &rows, source, &diags);
        diag_print(&diags, stderr);
        diag_free(&diags);
        if (added < 0) {
            status = 1;
        } else {
            /* The writer loaded the campaign as written before it wrote
             * it: it loads, there is nothing more to check. */
            printf("imported %ld new run%s of %zu into %s/%s\n", added, added == 1 ? "" : "s",
                   nread, a.req.archive, a.req.campaign);
        }
    }
    import_rows_free(&rows);
    return status;
}
