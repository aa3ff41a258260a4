/*
 * verify_site_test.c — the independent verifier (tests/verify_site.h):
 * the embedded site passes it, and small hand-written sites that break one
 * rule each, and the embedded site with a table cell's link edited back to
 * a .md file, fail it with that rule's problem.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/testutil.h"
#include "tests/verify_site.h"

/* ------------------------------------------------------------------ */
/* A small site written by hand                                        */

static const char good_index[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\" /><title>t</title>"
    "<link rel=\"stylesheet\" href=\"style.css\" /></head><body>\n"
    "<a class=\"skip\" href=\"#main\">Skip</a>\n"
    "<nav><a href=\"sub/a.html\">A</a></nav>\n"
    "<main id=\"main\"><h1>Index</h1>\n"
    "<div class=\"table\"><table><caption>Pages</caption>\n"
    "<thead><tr><th scope=\"col\">page</th><th scope=\"col\">value</th></tr></thead>\n"
    "<tbody><tr><th scope=\"row\"><a href=\"sub/a.html#part-2\">a</a></th><td>2.5 s</td></tr>"
    "</tbody></table></div>\n"
    "<p><img src=\"c.svg\" alt=\"A chart of time against processes\" /></p>\n"
    "</main><footer><a href=\"index.md\" rel=\"alternate\" type=\"text/markdown\">This page as "
    "Markdown</a> <a href=\"https://example.org/x.md\">elsewhere</a></footer></body></html>\n";

static const char good_a[] =
    "<!DOCTYPE html>\n<html><head><title>a</title></head><body>\n"
    "<a href=\"#main\">Skip</a><main id=\"main\"><h1>A</h1><h2 id=\"part-2\">Part 2</h2>\n"
    "<p><a href=\"../index.html\">back</a> <a href=\"data%20file.csv\">data</a></p></main>\n"
    "<footer><a href=\"a.md\" rel=\"alternate\" type=\"text/markdown\">as Markdown</a></footer>"
    "</body></html>\n";

static char site_dir[4096];

static void write_site(const char *index_html, const char *a_html)
{
    char path[4200];
    static const char *const other[] = {"style.css", "index.md", "c.svg", "sub/a.md",
                                        "sub/data file.csv"};
    testutil_remove_dir(site_dir);
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", site_dir, other[i]);
        CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "x\n"));
    }
    snprintf(path, sizeof path, "%s/index.html", site_dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, index_html));
    snprintf(path, sizeof path, "%s/sub/a.html", site_dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, a_html));
}

/* The problems the verifier reports for the site (malloc'ed). */
static char *problems_of(const char *dir, size_t *n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    *n = verify_site(dir, f, NULL);
    fclose(f);
    return text;
}

/* s with the first `from` replaced by `to` (malloc'ed). */
static char *edited(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
    return out;
}

/* The site of these two pages has nwant problems, one of them with the
 * text want (when not NULL). */
static void expect_page(const char *index_html, const char *a_html, const char *want,
                        size_t nwant)
{
    write_site(index_html, a_html);
    size_t n;
    char *text = problems_of(site_dir, &n);
    bool found = !want || (text && strstr(text, want));
    if (!found || n != nwant)
        fprintf(stderr, "\nwant %zu problem(s) \"%s\", got %zu:\n%s", nwant, want ? want : "",
                n, text ? text : "");
    CU_ASSERT_TRUE(found);
    CU_ASSERT_EQUAL(n, nwant);
    free(text);
}

/* index.html (or sub/a.html when in_a) edited as given fails with a problem
 * that contains want, and with no other. */
static void expect(bool in_a, const char *from, const char *to, const char *want)
{
    char *page = edited(in_a ? good_a : good_index, from, to);
    expect_page(in_a ? good_index : page, in_a ? page : good_a, want, 1);
    free(page);
}

static void test_good_site_passes(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(site_dir, sizeof site_dir));
    expect_page(good_index, good_a, NULL, 0);
}

static void test_markdown_links_fail(void)
{
    /* A table cell that links the other page's Markdown (the bug it guards). */
    expect(false, "sub/a.html#part-2", "sub/a.md", "links the Markdown file \"sub/a.md\"");
    /* Its own Markdown, but not through the marked "as Markdown" link. */
    expect(false, " rel=\"alternate\" type=\"text/markdown\"", "", "links the Markdown file");
    /* Marked, but another page's. */
    expect(true, "href=\"a.md\"", "href=\"../index.md\"", "(not this page's own)");
}

static void test_dead_links_fail(void)
{
    expect(false, "sub/a.html#part-2", "sub/a.html#part-3", "no id \"part-3\"");
    expect(false, "c.svg", "d.svg", "\"d.svg\" leads nowhere");
    expect(true, "data%20file.csv", "data%20files.csv", "leads nowhere");
    expect(true, "../index.html", "../../index.html", "leaves the site");
    expect(false, "style.css", "sub", "\"sub\" leads nowhere"); /* a folder is not a page */
}

static void test_unreachable_page_fails(void)
{
    char *once = edited(good_index, "<a href=\"sub/a.html#part-2\">a</a>", "a");
    expect_page(once, good_a, NULL, 0); /* still reachable from the nav */
    char *twice = edited(once, "<a href=\"sub/a.html\">A</a>", "A");
    expect_page(twice, good_a, "sub/a.html: not reachable from index.html", 1);
    free(once);
    free(twice);
}

static void test_accessibility_fails(void)
{
    expect(false, "<th scope=\"col\">value</th>", "<th>value</th>", "without scope");
    expect(false, "<caption>Pages</caption>", "", "a table without a caption");
    expect(false, "<caption>Pages</caption>", "<caption> </caption>", "without a caption");
    expect(true, "<h2 id=\"part-2\">", "<h1 id=\"part-2\">", "2 <h1> elements");
    expect(false, "<h1>Index</h1>", "<h2>Index</h2>", "0 <h1> elements");
    expect(false, "href=\"#main\">Skip", "href=\"sub/a.html\">Skip", "no skip link");
    expect(false, "alt=\"A chart of time against processes\"", "alt=\"\"", "without alt text");
    char long_alt[220];
    snprintf(long_alt, sizeof long_alt, "alt=\"%0150d\"", 0);
    expect(false, "alt=\"A chart of time against processes\"", long_alt, "150 characters");
}

static void test_e_notation_fails(void)
{
    expect(false, "2.5 s", "2.312e-04 s", "e-notation (\"2.312e-04 s");
    expect(false, "2.5 s", "1E6 runs", "e-notation");
    expect(false, "alt=\"A chart", "alt=\"1e3 chart", "e-notation (\"1e3 chart");
    /* Not numbers in e-notation: words, identifiers, hashes, quoted text. */
    char *fine = edited(good_index, "2.5 s", "see file2e3, 3rd, x1e5, 12 e-mails, 4.5 ex "
                                             "<blockquote><p>slope 2.56e-7</p></blockquote>");
    expect_page(fine, good_a, NULL, 0);
    free(fine);
}

/* ------------------------------------------------------------------ */
/* The embedded site                                                   */

/* A headline given in seconds ("...PI A s – B s; measured C s"): whether
 * C lies in [A, B], read back with sscanf; false when not in seconds. */
static bool headline_in_seconds(const char *line, bool *inside)
{
    const char *pi = strstr(line, "95% PI ");
    double a, b, c;
    char dash[8];
    if (!pi || sscanf(pi, "95%% PI %lf s %7s %lf s; measured %lf s", &a, dash, &b, &c) != 4)
        return false;
    *inside = c >= a && c <= b;
    return true;
}

/* Every campaign of the embedded site whose headline prediction missed
 * its interval says so, and no other does: the interval and the
 * measurement are read back from the line itself, in seconds. */
static void check_headline_misses(const char *dir)
{
    static const char *const camps[] = {"mgbench-strip", "mgbench-block", "mgbench16-block",
                                        "scopred-ep", "smpi-heldout", "smpi-strip",
                                        "smpi-block"};
    size_t misses = 0, hits = 0;
    for (size_t i = 0; i < sizeof camps / sizeof camps[0]; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/campaigns/%s/index.md", dir, camps[i]);
        char *md = testutil_read_file(path);
        const char *line = md ? strstr(md, "- **Headline prediction:** ") : NULL;
        bool inside = false;
        if (line && headline_in_seconds(line, &inside)) {
            const char *end = strchr(line, '\n');
            const char *flag = strstr(line, "**a miss, outside its interval.**");
            CU_ASSERT_EQUAL(flag != NULL && flag < end, !inside);
            misses += !inside, hits += inside;
        }
        free(md);
    }
    CU_ASSERT_TRUE(misses > 0 && hits > 0); /* both kinds were checked */
}

static void test_embedded_site(void)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "build --archive archive --out %s/embedded --quiet",
                                   site_dir);
    if (rc != 0)
        fprintf(stderr, "\n%s", out ? out : "");
    free(out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/embedded", site_dir);
    size_t n;
    verify_counts c;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    n = verify_site(dir, f, &c);
    fclose(f);
    if (n)
        fprintf(stderr, "\nthe embedded site:\n%s", text);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_TRUE(c.pages >= 20); /* index, 9 campaigns, 11 clusters, advice, alerts */
    CU_ASSERT_TRUE(c.links > 1000);
    free(text);

    /* A page with several experiments opens with a table of contents
     * (the verifier has checked that its links resolve). */
    char page[4300];
    snprintf(page, sizeof page, "%s/campaigns/mgbench-multicore/index.md", dir);
    char *multicore = testutil_read_file(page);
    CU_ASSERT_PTR_NOT_NULL(multicore);
    CU_ASSERT_PTR_NOT_NULL(multicore ? strstr(multicore, "## Contents\n\n- [Summary](#summary)\n"
                                                      "- [Description](#description)\n")
                                     : NULL);
    free(multicore);
    check_headline_misses(dir);

    /* Edit one table cell of the front page back to the raw .md link. */
    char path[4300];
    snprintf(path, sizeof path, "%s/index.html", dir);
    char *index = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(index);
    char *broken = edited(index, "campaigns/mgbench-block/index.html", "campaigns/mgbench-block/index.md");
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, broken));
    text = problems_of(dir, &n);
    CU_ASSERT_TRUE(n >= 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "index.html: links the Markdown file "
                                        "\"campaigns/mgbench-block/index.md\""));
    free(text);
    free(broken);
    free(index);
    testutil_remove_dir(site_dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"a well-formed hand-written site passes", test_good_site_passes},
        {"links to .md files fail, except the page's own marked one", test_markdown_links_fail},
        {"links and fragments that lead nowhere fail", test_dead_links_fail},
        {"a page not reachable from index.html fails", test_unreachable_page_fails},
        {"scope, caption, one h1, skip link and alt text are required", test_accessibility_fails},
        {"numbers in e-notation fail", test_e_notation_fails},
        {"the embedded site passes; edited back to a .md link it fails", test_embedded_site},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"verify_site", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
