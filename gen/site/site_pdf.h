/*
 * site_pdf.h — the printable report: one PDF (render/pdfdoc.h) for centre
 * staff to attach to a decision, from the data the site shows
 * (gen/site/site_data.h), nothing fitted or computed again.
 *
 * Contents: a title page with the archive's summary and a table of the
 * clusters; the advice scenarios (advice.csv) with their options ranked
 * fastest first; then one section per cluster with its cost table — each
 * predicted job in words, its time, calibrated 95% prediction interval,
 * cost, cost interval and the verdict of the experiment behind it, formatted
 * as the "my job" page formats them — and its cost-vs-time chart drawn as
 * vectors by the site's chart code (render/chart.h).
 *
 * On the site the report is split so that a night's rebuild draws only
 * what changed: report.pdf is its front (the title page, the advice and
 * where each cluster's report is), made every build (it is small), and
 * each cluster has its own report, clusters/<slug>/report.pdf: its row,
 * the advice options that run on it alone (ranked among themselves) and
 * its section — nothing of the archive as a whole, so a new run that
 * changes nothing it shows changes none of its bytes. The site keeps it
 * by a key hashed from exactly what it shows (every heading, paragraph
 * and cell text, the chart's points, the title and the date), computed
 * without drawing anything.
 *
 * Deterministic: a report's date is the archive's newest run date (a
 * cluster's own report: the newest run of the campaigns that predict on
 * it), else SOURCE_DATE_EPOCH's, so the same archive gives the same bytes.
 */
#ifndef PERFCAST_SITE_PDF_H
#define PERFCAST_SITE_PDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gen/site/site_data.h"
#include "render/buf.h"

/* Append the report's PDF bytes to out. cluster NULL: every cluster; else
 * only that cluster's section and, in the advice, only the options that
 * run on it alone. *pages (may be NULL) receives the page count. False
 * with a reason in err for an unknown cluster (err names the known ones)
 * or when drawing fails (out of memory, Cairo). */
bool site_pdf_report(const site_data *d, const char *cluster, rbuf *out, size_t *pages,
                     char *err, size_t errlen);

/* The site's report.pdf: the title page with the archive's summary and the
 * table of clusters, where each cluster's report is, and the advice (all
 * options); no cluster's section. Errors as site_pdf_report's. */
bool site_pdf_front(const site_data *d, rbuf *out, size_t *pages, char *err, size_t errlen);

/* Cluster k's own report (k < d->nclusters). key (may be NULL) receives
 * the hash of everything it shows (0 when out of memory), found without
 * drawing; out (may be NULL: only the key) receives its PDF bytes. False
 * with a reason in err when drawing fails. */
bool site_pdf_cluster(const site_data *d, size_t k, uint64_t *key, rbuf *out, char *err,
                      size_t errlen);

#endif
