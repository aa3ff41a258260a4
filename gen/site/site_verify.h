/*
 * site_verify.h — checks of a built site, for `make check` and for CI:
 *   - every .html, .svg and .xml file is well-formed XML (the pages are
 *     XHTML-compatible), with no <script> element, no on* event attribute
 *     and no javascript: URL;
 *   - every relative link and image of every .html and .md page resolves
 *     to a file inside the site, and every #fragment of a link between
 *     HTML pages to an id in the target page; no src points off the site;
 *   - every .png decodes and shows more than two colours, every .svg has
 *     an <svg> root with drawing inside;
 *   - every file .perfcast-manifest lists is there with the size and the
 *     content hash it records (a page changed in place is caught even at
 *     the same size).
 * Hidden entries (.git/, .ssh/) are the user's and are not looked at;
 * other files the user added beside the pages are checked like pages.
 *
 * Ownership: site_verify fills a report that site_report_free releases.
 */
#ifndef PERFCAST_SITE_VERIFY_H
#define PERFCAST_SITE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char **problems;   /* "path: what is wrong", in path order */
    size_t nproblems;
    size_t files, pages, links, images, charts;
} site_report;

/* Check the site in dir. Returns true when there is no problem. */
bool site_verify(const char *dir, site_report *report);

void site_report_free(site_report *report);

#endif
