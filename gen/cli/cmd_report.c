/*
 * cmd_report.c — `perfcast report`: the printable PDF report
 * (gen/site/site_pdf.h), written atomically to one file.
 */
#include "gen/cli/commands.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/fileio.h"
#include "gen/cli/cli.h"
#include "gen/site/site_data.h"
#include "gen/site/site_pdf.h"
#include "render/plot.h"

static const char usage[] =
    "usage: perfcast report [--archive DIR] [--out FILE.pdf] [--cluster NAME]\n"
    "\n"
    "Writes a printable PDF report for centre staff to attach to a decision: the\n"
    "archive's summary and clusters, the advice scenarios (advice.csv) with their\n"
    "options ranked, and per cluster the cost table of every predicted job (time,\n"
    "calibrated 95% prediction interval, cost, cost interval, verdict) with its\n"
    "cost-vs-time chart as vector graphics. The same report is report.pdf on the\n"
    "site `perfcast build` publishes.\n"
    "\n"
    "The file is written beside FILE first and renamed over it, so FILE is never\n"
    "half-written; a FILE that is a symbolic link is refused. The PDF's date is the\n"
    "archive's newest run date (else SOURCE_DATE_EPOCH's): the same archive gives\n"
    "the same bytes.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --out FILE      the PDF to write (default: report.pdf)\n"
    "  --cluster NAME  only that cluster's section and, in the advice, only the\n"
    "                  options that run on it alone\n"
    "  --help          this text\n"
    "\n"
    "Exit status: 0 written; 1 no report written (unusable archive, unknown\n"
    "cluster, FILE not writable); 2 usage.\n";

/* Refuse an --out that cannot be the report before the archive is fitted. */
static bool out_usable(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return true;
    if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode)) {
        fprintf(stderr, "perfcast report: %s is a %s; choose a file name for --out\n", path,
                S_ISLNK(st.st_mode) ? "symbolic link, which is not replaced" : "folder");
        return false;
    }
    return true;
}

static bool write_report(const site_data *d, const char *cluster, const char *out)
{
    rbuf pdf;
    rbuf_init(&pdf);
    size_t pages = 0;
    char err[1024] = "";
    bool ok = site_pdf_report(d, cluster, &pdf, &pages, err, sizeof err);
    if (!ok)
        fprintf(stderr, "perfcast report: %s\n", err);
    else if (!fileio_write_atomic(out, pdf.data, pdf.len)) {
        fprintf(stderr, "perfcast report: cannot write %s: %s\n", out, strerror(errno));
        ok = false;
    } else {
        printf("%s: %zu page%s, %zu bytes\n", out, pages, pages == 1 ? "" : "s", pdf.len);
    }
    rbuf_free(&pdf);
    return ok;
}

int cmd_report(int argc, char **argv)
{
    const char *archive_dir = "archive", *out = "report.pdf", *cluster = NULL;
    const cli_option options[] = {{"archive", &archive_dir, NULL},
                                  {"out", &out, NULL},
                                  {"cluster", &cluster, NULL},
                                  {NULL, NULL, NULL}};
    bool help = false;
    const char *why;
    const char *bad = cli_parse_options(argc, argv, options, &help, &why);
    if (bad)
        return cli_usage_error("report", why, bad);
    if (help) {
        fputs(usage, stdout);
        return 0;
    }
    if (!*out)
        return cli_usage_error("report", "--out needs a file name", NULL);
    if (!out_usable(out))
        return 1;
    site_data d;
    char err[1024] = "";
    long long epoch = cli_env_number("report", "SOURCE_DATE_EPOCH", -1);
    bool ok = site_data_load(&d, archive_dir, epoch, NULL, NULL, err, sizeof err);
    diag_print(&d.diags, stderr); /* shown, as build shows them; the report is still made */
    if (!ok)
        fprintf(stderr, "perfcast report: %s\n", err);
    ok = ok && write_report(&d, cluster, out);
    if (ok)
        cli_warn_missing_font("report"), cli_warn_missing_prior("report");
    site_data_free(&d);
    plot_release_fonts(); /* nothing is drawn after this */
    return ok ? 0 : 1;
}
