/*
 * verify_site.h — an independent check of a built site, as its readers
 * meet it: every HTML page is read by libxml2's HTML parser (not by the
 * XML reader or cmark the writer uses) and judged only by what a browser
 * would follow:
 *
 *   links      every <a href>, <link href>, <img src> and <source srcset>
 *              that is not an absolute URL leads to a file inside the site,
 *              and its #fragment to an element with that id;
 *   Markdown   no page links a .md file, except its own twin (x.html ->
 *              x.md) through the one link marked rel="alternate"
 *              type="text/markdown";
 *   reach      every .html page of the site can be reached from index.html
 *              by following <a href> links between HTML pages;
 *   access     exactly one <h1>; a skip link (the body's first link, to the
 *              id of an element on the page); every <table> has a non-empty
 *              <caption> and every <th> a scope; every <img> an alt text
 *              of 1 to 149 characters;
 *   numbers    no number in e-notation ("2.3e-04") in the text of a page or
 *              an alt text, except in quoted text (a <blockquote>: a
 *              campaign's README, in its author's words).
 *
 * It knows nothing of perfcast but these rules. Problems are written one
 * per line, "page: what is wrong", in sorted page order.
 */
#ifndef PERFCAST_TESTS_VERIFY_SITE_H
#define PERFCAST_TESTS_VERIFY_SITE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    size_t pages;    /* HTML pages read */
    size_t links;    /* links and sources followed */
    size_t problems;
} verify_counts;

/* Check the site in dir, writing each problem as a line to report (NULL:
 * count only). Returns the number of problems; a site without index.html
 * or one that cannot be read is one problem. */
size_t verify_site(const char *dir, FILE *report, verify_counts *counts);

#endif
