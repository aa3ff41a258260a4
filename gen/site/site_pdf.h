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
 * Deterministic: the PDF's date is the archive's newest run date (else
 * SOURCE_DATE_EPOCH's), so the same archive gives the same bytes.
 */
#ifndef PERFCAST_SITE_PDF_H
#define PERFCAST_SITE_PDF_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/site/site_data.h"
#include "render/buf.h"

/* Append the report's PDF bytes to out. cluster NULL: every cluster; else
 * only that cluster's section and, in the advice, only the options that
 * run on it alone. *pages (may be NULL) receives the page count. False
 * with a reason in err for an unknown cluster (err names the known ones)
 * or when drawing fails (out of memory, Cairo). */
bool site_pdf_report(const site_data *d, const char *cluster, rbuf *out, size_t *pages,
                     char *err, size_t errlen);

#endif
