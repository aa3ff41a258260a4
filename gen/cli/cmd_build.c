/*
 * cmd_build.c — `perfcast build`: publish the static site (gen/site/site.h).
 */
#include "gen/cli/commands.h"

#include "gen/cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/base/share_path.h"
#include "gen/site/site.h"
#include "gen/site/site_verify.h"
#include "render/plot.h"

static const char usage[] =
    "usage: perfcast build [--archive DIR] [--out DIR] [--templates DIR] [--verify]\n"
    "                      [--jobs N] [--base-url URL] [--strict] [--quiet]\n"
    "                      [--refresh-pool] [--previous DIR]\n"
    "       perfcast build [--archive DIR] [--out DIR] [--templates DIR] --up-to-date\n"
    "\n"
    "Publishes the archive as a static site: per campaign its README, fitted\n"
    "equations, goodness of fit, predictions with intervals and errors, charts\n"
    "(SVG and PNG) and the CSV behind every table and chart; per cluster the cost\n"
    "of its predicted runs; advice pages; alerts for measured runs outside their\n"
    "prediction interval (alerts.html and the Atom feed alerts.xml).\n"
    "\n"
    "Only files perfcast wrote (listed in DIR/.perfcast-manifest) are ever\n"
    "replaced or removed: everything else in DIR (.git/, .ssh/, docs/, your own\n"
    "notes, hidden files) is kept byte for byte, and a page whose place is taken by\n"
    "such a file stops the build. An existing DIR without a manifest is used only\n"
    "when it holds nothing but hidden entries and README.md. New and changed files\n"
    "are written beside DIR first and moved in only once all are written, so a\n"
    "failed build leaves the previous site as it was; files whose bytes (or, for\n"
    "charts, whose data) did not change are left in place, and when nothing it\n"
    "reads changed (archive, templates, SOURCE_DATE_EPOCH, perfcast itself) and the\n"
    "archive had no problem, nothing is fitted, drawn or written at all (every\n"
    "file is still checked against its manifest hash). Dates come from the runs\n"
    "or from SOURCE_DATE_EPOCH, never from the clock, so the same input gives the\n"
    "same bytes.\n"
    "\n"
    "Fits are cached by their inputs in DIR/.perfcast-fits: an experiment whose\n"
    "campaign files, archive files, pooled error model and perfcast binary did not\n"
    "change is read back, not refitted, so one new run refits one campaign. The\n"
    "pooled error model (every experiment's backtests, which calibrated intervals\n"
    "shrink toward) is reused from the previous build unless the experiments\n"
    "changed, the archive's runs grew or shrank by 10% since it was filled, or\n"
    "--refresh-pool asks.\n"
    "\n"
    "A campaign whose files have problems is listed with them; a campaign with one\n"
    "bad experiment is still published, that experiment showing its error.\n"
    "\n"
    "  --archive DIR    the archive folder (default: archive)\n"
    "  --out DIR        the site folder (default: site)\n"
    "  --templates DIR  page.html and style.css (default: $PERFCAST_TEMPLATES, else\n"
    "                   ./templates, else PREFIX/share/perfcast/templates)\n"
    "  --jobs N         threads drawing pages and charts (default: one per processor;\n"
    "                   the output does not depend on it)\n"
    "  --base-url URL   the address the site is served from (http:// or https://):\n"
    "                   the Atom feed alerts.xml then has absolute links (xml:base,\n"
    "                   rel=self); without it its links are relative to the feed\n"
    "  --verify         check the built site: pages and charts parse, every relative\n"
    "                   link and image resolves, no script, every file has the\n"
    "                   bytes its manifest records; exit 1 on a problem\n"
    "  --strict         exit 1 when the archive has problems or any experiment\n"
    "                   failed (the site is still built and shows why)\n"
    "  --quiet          no summary line\n"
    "  --refresh-pool   fill the pooled error model again from every experiment\n"
    "                   instead of reusing the previous build's (a pool that\n"
    "                   changes refits every experiment); never skipped as up to\n"
    "                   date\n"
    "  --previous DIR   make --out, which must not exist yet, from the previous site\n"
    "                   DIR (a nightly release from the published one): DIR's cache\n"
    "                   of fits is used, its files that would be made again the same\n"
    "                   are hard-linked (copied where links cannot be made) instead\n"
    "                   of made, and DIR is only read, never written (.ci/nightly\n"
    "                   uses it; same pages as a build into a copy of DIR)\n"
    "  --up-to-date     only ask whether DIR is current: exit 0 when it was built\n"
    "                   from the very same inputs and every file is intact (a build\n"
    "                   would do nothing), 1 otherwise; nothing is written\n"
    "                   (.ci/nightly uses it to skip a night with nothing new)\n"
    "  --help           this text\n"
    "\n"
    "Exit status: 0 site built; 1 no site built (unusable archive or templates,\n"
    "output folder not usable or not writable, disk full: the previous site is\n"
    "untouched), --verify found a problem, or --strict and a problem or failed\n"
    "experiment; 2 usage. With --up-to-date: 0 current, 1 not.\n";

/* The templates folder: $PERFCAST_TEMPLATES, ./templates, then the
 * installed share folder next to the executable, the source tree's when
 * the executable is the one built there, then the usual prefixes
 * (gen/base/share_path.h). */
static const char *find_templates(char *buf, size_t len)
{
    const char *env = getenv("PERFCAST_TEMPLATES");
    if (env && *env)
        return env;
    if (share_dir_has("templates", "page.html"))
        return "templates";
    return share_path_find("templates", "templates", "page.html", buf, len) ? buf : "templates";
}

static bool verify_site(const char *dir, bool quiet)
{
    site_report r;
    bool ok = site_verify(dir, &r);
    for (size_t i = 0; i < r.nproblems; i++)
        fprintf(stderr, "%s/%s\n", dir, r.problems[i]);
    if (!quiet || !ok)
        printf("%s: verified %zu files: %zu pages, %zu charts, %zu links, %zu images; "
               "%zu problem%s\n", dir, r.files, r.pages, r.charts, r.links, r.images,
               r.nproblems, r.nproblems == 1 ? "" : "s");
    site_report_free(&r);
    return ok;
}

static int usage_error(const char *what, const char *arg)
{
    return cli_usage_error("build", what, arg); /* one line; the help is one --help away */
}

int cmd_build(int argc, char **argv)
{
    site_options opt = {.archive_dir = "archive", .out_dir = "site", .templates_dir = NULL};
    bool strict = false, quiet = false, verify = false, ask_current = false, help = false;
    const char *jobs = NULL, *why;
    const cli_option options[] = {
        {"archive", &opt.archive_dir, NULL},   {"out", &opt.out_dir, NULL},
        {"templates", &opt.templates_dir, NULL}, {"base-url", &opt.base_url, NULL},
        {"previous", &opt.previous_dir, NULL}, {"jobs", &jobs, NULL},
        {"strict", NULL, &strict},             {"quiet", NULL, &quiet},
        {"verify", NULL, &verify},             {"refresh-pool", NULL, &opt.refresh_pool},
        {"up-to-date", NULL, &ask_current},    {NULL, NULL, NULL},
    };
    const char *bad = cli_parse_options(argc, argv, options, &help, &why);
    if (bad)
        return usage_error(why, bad);
    if (help) {
        fputs(usage, stdout);
        return 0;
    }
    if (jobs) {
        char *end;
        long n = strtol(jobs, &end, 10);
        if (!*jobs || *end || n < 1 || n > 64)
            return usage_error("--jobs needs a number from 1 to 64, not", jobs);
        opt.jobs = (int)n;
    }
    if (opt.base_url && strncmp(opt.base_url, "https://", 8) != 0 &&
        strncmp(opt.base_url, "http://", 7) != 0)
        return usage_error("--base-url needs an absolute http:// or https:// URL, not",
                           opt.base_url);
    char found[PATH_MAX];
    if (!opt.templates_dir)
        opt.templates_dir = find_templates(found, sizeof found);
    opt.source_date_epoch = cli_env_number("build", "SOURCE_DATE_EPOCH", -1);
    /* Fault injection for tests/test_site_cli.c: stop (or, with
     * PERFCAST_FAIL_KILL=1, SIGKILL ourselves) after that many files, to
     * show that an interrupted build leaves the previous site whole. */
    opt.fail_after = (long)cli_env_number("build", "PERFCAST_FAIL_AFTER", -1);
    opt.fail_kill = cli_env_number("build", "PERFCAST_FAIL_KILL", 0) != 0;
    if (ask_current && opt.previous_dir)
        return usage_error("--up-to-date asks about --out alone, not with", "--previous");
    if (ask_current) {
        bool current = site_up_to_date(&opt);
        if (!quiet)
            printf("%s: %s\n", opt.out_dir,
                   current ? "up to date (built from the same inputs, every file intact)"
                           : "not up to date");
        return current ? 0 : 1;
    }

    site_stats st = {0};
    char **diags = NULL;
    size_t ndiags = 0;
    char err[1024] = "";
    bool ok = site_build(&opt, &st, &diags, &ndiags, err, sizeof err);
    for (size_t i = 0; i < ndiags; i++) {
        fprintf(stderr, "%s\n", diags[i]);
        free(diags[i]);
    }
    free(diags);
    if (!ok) {
        plot_release_fonts();
        fprintf(stderr, "perfcast build: %s\n", err);
        return 1; /* input or runtime: 2 is for usage only */
    }
    if (!quiet)
        printf("%s: %zu pages, %zu charts (%zu drawn), %zu files written, %zu kept; "
               "%zu campaigns (%zu left out), %zu experiments (%zu not fitted), %zu alerts; ",
               opt.out_dir, st.pages, st.charts, st.charts_drawn, st.files_written,
               st.files_kept, st.campaigns, st.skipped_campaigns, st.experiments,
               st.failed_experiments, st.alerts);
    if (!quiet && st.up_to_date)
        printf("inputs unchanged: nothing read, fitted or drawn\n");
    else if (!quiet)
        printf("%zu pages rendered\n"
               "fits: %zu experiments fitted, %zu read back from the cache; pooled error "
               "model %s\n",
               st.pages_rendered, st.experiments_fitted, st.experiments_reused,
               st.pool_reused ? "reused" : "filled");
    if (!st.up_to_date && !st.fits_saved)
        fprintf(stderr, "perfcast build: warning: the cache of fits %s/.perfcast-fits could "
                "not be written (the site is built; the next build refits everything)\n",
                opt.out_dir);
    if (st.charts_drawn)
        cli_warn_missing_font("build");
    if (st.experiments_fitted)
        cli_warn_missing_prior("build");
    bool verified = !verify || verify_site(opt.out_dir, quiet);
    plot_release_fonts(); /* nothing is drawn after this */
    if (!verified)
        return 1;
    return strict && (st.problems || st.failed_experiments) ? 1 : 0;
}
