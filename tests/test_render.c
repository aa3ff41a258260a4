/*
 * test_render.c — the renderers: escaping (checked against cmark, which
 * is the independent reader of what we write), the Markdown writer, HTML
 * with tables, ids and safe links, templates, ticks, the PNG writer
 * (decoded by libpng through Cairo) and the charts.
 */
#include "render/chart.h"
#include "render/escape.h"
#include "render/html.h"
#include "render/markdown.h"
#include "render/numtext.h"
#include "render/plot.h"
#include "render/png.h"
#include "render/template.h"
#include "render/ticks.h"
#include "tests/testutil.h"

#include <cairo.h>
#include <cmark-gfm.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(bool (*fn)(rbuf *, const char *), const char *s)
{
    rbuf b;
    rbuf_init(&b);
    fn(&b, s);
    return rbuf_take(&b);
}

static bool md_trimmed(rbuf *b, const char *s)
{
    return esc_markdown(b, s, true);
}

#define EXPECT_STR(got, want)                                                             \
    do {                                                                                  \
        char *g_ = (got);                                                                 \
        const char *w_ = (want);                                                          \
        if (!g_ || strcmp(g_, w_) != 0)                                                   \
            fprintf(stderr, "\n%s:%d: got [%s] want [%s]\n", __FILE__, __LINE__,           \
                    g_ ? g_ : "(null)", w_);                                              \
        CU_ASSERT_TRUE(g_ && strcmp(g_, w_) == 0);                                        \
        free(g_);                                                                         \
    } while (0)

/* ------------------------------------------------------------------ */
/* Escaping                                                            */

static void test_html_escape(void)
{
    EXPECT_STR(render(esc_html, "<script>alert('x') & \"y\"</script>"),
               "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
    EXPECT_STR(render(esc_html, "tab\there\nline"), "tab\there\nline");
    /* Invalid UTF-8 (a stray byte, an overlong '/' whose lead byte is never
     * valid, an encoded surrogate) and control characters become U+FFFD,
     * which XML accepts. */
    EXPECT_STR(render(esc_html, "a\xff" "b\xc0\xaf" "c\xed\xa0\x80" "d\x01" "e\x7f"),
               "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD" "c\xEF\xBF\xBD"
               "d\xEF\xBF\xBD" "e\xEF\xBF\xBD");
    EXPECT_STR(render(esc_html, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
               "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    EXPECT_STR(render(esc_text, "two\nlines\tand\x02"), "two lines and\xEF\xBF\xBD");
}

static void test_csv_escape(void)
{
    EXPECT_STR(render(esc_csv, "plain"), "plain");
    EXPECT_STR(render(esc_csv, "a,b"), "\"a,b\"");
    EXPECT_STR(render(esc_csv, "say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_STR(render(esc_csv, "=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    EXPECT_STR(render(esc_csv, "@sum"), "'@sum");
    EXPECT_STR(render(esc_csv, "two\nlines"), "\"two lines\"");
    EXPECT_STR(render(esc_csv, " padded "), "\" padded \"");
}

static void test_markdown_escape_readable(void)
{
    EXPECT_STR(render(md_trimmed, "wrg3-myrinet"), "wrg3-myrinet");
    EXPECT_STR(render(md_trimmed, "table13_n8000"), "table13_n8000");
    EXPECT_STR(render(md_trimmed, "-1455"), "-1455");
    EXPECT_STR(render(md_trimmed, "0.2906"), "0.2906");
    EXPECT_STR(render(md_trimmed, "A & B"), "A & B");
    EXPECT_STR(render(md_trimmed, "<script>alert(1)</script>"), "\\<script>alert(1)\\</script>");
    EXPECT_STR(render(md_trimmed, "_emph_"), "\\_emph\\_");
    EXPECT_STR(render(md_trimmed, "# not a heading"), "\\# not a heading");
    EXPECT_STR(render(md_trimmed, "1. not a list"), "1\\. not a list");
    EXPECT_STR(render(md_trimmed, "- not a list"), "\\- not a list");
    EXPECT_STR(render(md_trimmed, "a | b"), "a \\| b");
    EXPECT_STR(render(md_trimmed, "&amp;"), "\\&amp;");
    EXPECT_STR(render(md_trimmed, "  spaced \n\n out  "), "spaced out");
}

/* cmark's HTML for plain text: & < > " escaped. */
static void cmark_text_html(rbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': rbuf_puts(b, "&amp;"); break;
        case '<': rbuf_puts(b, "&lt;"); break;
        case '>': rbuf_puts(b, "&gt;"); break;
        case '"': rbuf_puts(b, "&quot;"); break;
        default: rbuf_putc(b, *s);
        }
    }
}

/* Whatever the text, CommonMark reads the escaped Markdown back as exactly
 * that text: one paragraph, no markup. cmark is the independent judge. */
static void test_markdown_escape_round_trip(void)
{
    static const char *const nasty[] = {
        "*a*", "**b**", "_c_", "`code`", "``", "[x](y)", "![i](j.png)", "<b>bold</b>",
        "<script>alert(1)</script>", "&copy; &#169; &#xA9;", "back\\slash\\", "1) x", "2. y",
        "+ x", "- y", "* z", "> quote", "# h", "###### h", "~~s~~", "a_b_c", "_lead", "trail_",
        "http://example.com/", "<http://x.y>", "***", "---", "===", "a\\*b", "[ref]: /url",
        "|pipe|", "x <!-- c --> y", "<?php ?>", "\\#", "1\\. z", "caf\xc3\xa9", "9)", "10.",
        "a * b", "[", "]", "!", "![", "a_*b*_c", "__init__", "&", "&;", "&#;",
    };
    for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
        rbuf md, want;
        rbuf_init(&md), rbuf_init(&want);
        esc_markdown(&md, nasty[i], true);
        char *html = cmark_markdown_to_html(rbuf_str(&md), md.len, CMARK_OPT_DEFAULT);
        rbuf_puts(&want, "<p>");
        cmark_text_html(&want, nasty[i]);
        rbuf_puts(&want, "</p>\n");
        bool same = html && strcmp(html, rbuf_str(&want)) == 0;
        if (!same)
            fprintf(stderr, "\n[%s] -> md [%s] -> html [%s], want [%s]\n", nasty[i],
                    rbuf_str(&md), html ? html : "(null)", rbuf_str(&want));
        CU_ASSERT_TRUE(same);
        free(html);
        rbuf_free(&md), rbuf_free(&want);
    }
}

/* ------------------------------------------------------------------ */
/* Markdown writer and HTML                                            */

static char *to_html(const char *md)
{
    rbuf out;
    rbuf_init(&out);
    CU_ASSERT_TRUE(html_from_markdown(md, strlen(md), &out));
    return rbuf_take(&out);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *s = hay; (s = strstr(s, needle)) != NULL; s += strlen(needle))
        n++;
    return n;
}

static void test_code_span(void)
{
    static const char *const codes[] = {"a`b", "``x``", "`lead", "trail`", "np <= 8 || x", " a "};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        rbuf md, want;
        rbuf_init(&md), rbuf_init(&want);
        md_code(&md, codes[i], false);
        char *html = cmark_markdown_to_html(rbuf_str(&md), md.len, CMARK_OPT_DEFAULT);
        rbuf_puts(&want, "<p><code>");
        cmark_text_html(&want, codes[i]);
        rbuf_puts(&want, "</code></p>\n");
        if (!html || strcmp(html, rbuf_str(&want)) != 0)
            fprintf(stderr, "\ncode [%s] -> [%s] -> [%s]\n", codes[i], rbuf_str(&md),
                    html ? html : "(null)");
        CU_ASSERT_TRUE(html && strcmp(html, rbuf_str(&want)) == 0);
        free(html);
        rbuf_free(&md), rbuf_free(&want);
    }
}

/* Numbers for pages: fixed notation from 0.0001 to a million, "× 10ⁿ"
 * outside; e-notation in model texts rewritten, words left alone. */
static void test_numtext(void)
{
    static const struct { double v; int sig; const char *want; } cases[] = {
        {4.855e-4, 4, "0.0004855"},
        {2.312e-04, 4, "0.0002312"},
        {3.076e-05, 4, "3.076 \xC3\x97 10\xE2\x81\xBB\xE2\x81\xB5"},
        {-1.5e-12, 2, "-1.5 \xC3\x97 10\xE2\x81\xBB\xC2\xB9\xC2\xB2"},
        {1234567, 4, "1.235 \xC3\x97 10\xE2\x81\xB6"},
        {999999.6, 4, "1 \xC3\x97 10\xE2\x81\xB6"}, /* rounds up into the next decade */
        {123456, 4, "123456"},
        {984.3, 4, "984.3"},
        {12.5, 4, "12.5"},
        {3.0, 4, "3"},
        {0, 4, "0"},
        {0.00099996, 4, "0.001"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rbuf b;
        rbuf_init(&b);
        numtext_value(&b, cases[i].v, cases[i].sig);
        if (strcmp(rbuf_str(&b), cases[i].want) != 0)
            fprintf(stderr, "\nnumtext_value(%g, %d) = [%s], want [%s]\n", cases[i].v,
                    cases[i].sig, rbuf_str(&b), cases[i].want);
        CU_ASSERT_STRING_EQUAL(rbuf_str(&b), cases[i].want);
        rbuf_free(&b);
    }
    rbuf b;
    rbuf_init(&b);
    numtext_humanize(&b, "F = 2.563e+01 on 1 and 3 df, p = 4.1e-05; x1e5 file2e3 12 e-mails 1E3.");
    CU_ASSERT_STRING_EQUAL(rbuf_str(&b), "F = 25.63 on 1 and 3 df, p = 4.1 \xC3\x97 10\xE2\x81\xBB"
                                         "\xE2\x81\xB5; x1e5 file2e3 12 e-mails 1000.");
    rbuf_free(&b);
}

static void test_table(void)
{
    rbuf md;
    rbuf_init(&md);
    md_text(&md, "Before.");
    md_end_paragraph(&md);
    static const char *const head[] = {"name", "time (s)", "filter"};
    md_table t;
    md_table_begin(&t, &md, 3, head, "lrl");
    md_table_text(&t, "a|b <i>");
    md_table_text(&t, "12.5");
    rbuf code;
    rbuf_init(&code);
    md_code(&code, "np <= 8 || big", true);
    md_table_markdown(&t, rbuf_str(&code));
    md_table_text(&t, "- x");
    md_table_end(&t); /* a partial row is completed with empty cells */
    md_text(&md, "After.");
    md_end_paragraph(&md);
    char *html = to_html(rbuf_str(&md));
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_EQUAL(count(html, "<table>"), 1);
    /* Header cells are column headers, each body row's first cell its row
     * header (the key column); the others are data cells. */
    CU_ASSERT_EQUAL(count(html, "<th scope=\"col\""), 3);
    CU_ASSERT_EQUAL(count(html, "<th scope=\"row\""), 2);
    CU_ASSERT_EQUAL(count(html, "</td>"), 4);
    CU_ASSERT_EQUAL(count(html, "<th scope=\"col\" class=\"r\">time (s)</th>"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<th scope=\"row\" data-label=\"name\">a|b &lt;i&gt;</th>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<td data-label=\"time (s)\" class=\"r\">12.5</td>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<td data-label=\"filter\"><code>np &lt;= 8 || big</code></td>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<th scope=\"row\" data-label=\"name\">- x</th>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<p>Before.</p>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<p>After.</p>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<caption>Table 1</caption>")); /* no heading above */
    free(html);
    rbuf_free(&md), rbuf_free(&code);

    /* Tables in a quoted README, with GFM alignment and ragged rows; the
     * caption is the heading the table stands under. */
    html = to_html("## Costs *per run*\n\n> | a | b | c |\n> |:-|:-:|--:|\n> | 1 | 2 |\n"
                   "> | 3 | 4 | 5 | 6 |\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<blockquote>\n<div class=\"table\"><table>\n"
                                        "<caption>Costs <em>per run</em></caption>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<th scope=\"col\" class=\"c\">b</th>"));
    CU_ASSERT_EQUAL(count(html, "</td>"), 4);
    CU_ASSERT_EQUAL(count(html, ">6<"), 0); /* the extra cell is dropped, as GFM does */
    free(html);
    /* Not a table: no delimiter row. */
    html = to_html("| a | b |\n| c | d |\n");
    CU_ASSERT_EQUAL(count(html, "<table>"), 0);
    free(html);
}

static void test_html_safety(void)
{
    char *html = to_html("<script>alert(1)</script>\n\ntext <img src=x onerror=alert(1)> "
                         "[js](javascript:alert(1)) [vb](VBSCRIPT:x) ![d](data:text/html,x)\n");
    CU_ASSERT_EQUAL(count(html, "<script"), 0);
    CU_ASSERT_EQUAL(count(html, "onerror"), 0);
    CU_ASSERT_EQUAL(count(html, "javascript:"), 0);
    CU_ASSERT_EQUAL(count(html, "VBSCRIPT:"), 0);
    CU_ASSERT_EQUAL(count(html, "data:text/html"), 0);
    CU_ASSERT_TRUE(count(html, "raw HTML omitted") >= 2);
    free(html);
}

/* Each body cell carries its column's header text, escaped, for the
 * stacked rows of a narrow screen; header cells carry none. */
static void test_table_labels(void)
{
    char *html = to_html("| key `k` | a \\| \"b\" & \\<c> | |\n| --- | --: | --- |\n"
                         "| x | 1 | 2 |\n| y |\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<th scope=\"row\" data-label=\"key k\">x</th>"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(html, "<td data-label=\"a | &quot;b&quot; &amp; &lt;c&gt;\" class=\"r\">1</td>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<td>2</td>")); /* an empty header: no label */
    /* The short row is padded; its cells are labelled all the same. */
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<th scope=\"row\" data-label=\"key k\">y</th>"));
    CU_ASSERT_EQUAL(count(html, "data-label="), 4);
    CU_ASSERT_EQUAL(count(html, "<th scope=\"col\" data-label"), 0);
    free(html);
}

/* md_fold_begin/md_fold_end make a <details> section, its summary
 * escaped; hand-written <details> (a README's, or any other raw HTML) stays
 * omitted, at the top level or quoted. */
static void test_folds(void)
{
    rbuf md;
    rbuf_init(&md);
    md_fold_begin(&md, "Notes <b>&\nmore");
    md_text(&md, "inside *text*");
    md_end_paragraph(&md);
    md_fold_end(&md);
    rbuf_puts(&md, "<details>\n<summary>x</summary><script>alert(1)</script>\n\n"
                   "<details open>\n<summary>y</summary>\n\n"
                   "> <details>\n> <summary>q</summary>\n\n");
    char *html = to_html(rbuf_str(&md));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(html, "<details>\n<summary>Notes &lt;b&gt;&amp; more</summary>\n<p>inside "
                     "*text*</p>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "</details>"));
    CU_ASSERT_EQUAL(count(html, "<details"), 1);
    CU_ASSERT_EQUAL(count(html, "</details>"), 1);
    CU_ASSERT_EQUAL(count(html, "<summary"), 1);
    CU_ASSERT_EQUAL(count(html, "<script"), 0);
    CU_ASSERT_TRUE(count(html, "raw HTML omitted") >= 3);
    free(html);
    rbuf_free(&md);
}

static void test_links_and_ids(void)
{
    char *html = to_html("# Fit of run 2\n\n## Fit of run 2\n\n## `code` & <b>x</b>\n\n"
                         "[a](../x/index.md) [b](page.md#fit-of-run-2) [c](http://h/a.md) "
                         "[d](notes.mdx) [e](#fit-of-run-2-1)\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h1 id=\"fit-of-run-2\">Fit of run 2</h1>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2 id=\"fit-of-run-2-1\">Fit of run 2</h2>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2 id=\"code--x\">"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"../x/index.html\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"page.html#fit-of-run-2\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"http://h/a.md\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"notes.mdx\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"#fit-of-run-2-1\""));
    free(html);
    /* Links inside table cells are rewritten too (they were not when cells
     * were rendered as a second document), images keep their source. */
    html = to_html("| campaign | chart |\n| --- | --- |\n| [x](campaigns/x/index.md) | "
                   "[y](../y.md#a) ![c](c.svg) [z](z.csv) |\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<a href=\"campaigns/x/index.html\">x</a>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<a href=\"../y.html#a\">y</a>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "src=\"c.svg\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"z.csv\""));
    CU_ASSERT_EQUAL(count(html, ".md\""), 0);
    free(html);
}

/* A README that leaves a fence, an HTML block or a comment open cannot
 * swallow the rest of the page: the block quote closes it. */
static void test_quote_isolates_readme(void)
{
    static const char *const readmes[] = {"```\nunclosed fence", "<script>\nalert(1)",
                                          "<!-- open comment", "<pre>\nx", "    indented"};
    for (size_t i = 0; i < sizeof readmes / sizeof readmes[0]; i++) {
        rbuf md;
        rbuf_init(&md);
        md_quote_markdown(&md, readmes[i]);
        md_heading(&md, 2, "After the README");
        char *html = to_html(rbuf_str(&md));
        CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2 id=\"after-the-readme\">After the README</h2>"));
        CU_ASSERT_EQUAL(count(html, "<script"), 0);
        free(html);
        rbuf_free(&md);
    }
    /* Its headings stay below the page's one <h1>. */
    rbuf md;
    rbuf_init(&md);
    md_quote_markdown(&md, "# Title\n\n## Part\n\n###### Deep\n");
    char *html = to_html(rbuf_str(&md));
    CU_ASSERT_EQUAL(count(html, "<h1"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h3 id=\"title\">Title</h3>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h4 id=\"part\">Part</h4>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h6 id=\"deep\">Deep</h6>"));
    free(html);
    rbuf_free(&md);
}

/* A README is safe in any viewer: raw HTML shows as text even when the
 * viewer would render raw HTML (cmark with CMARK_OPT_UNSAFE plays one). */
static void test_sanitize_readme(void)
{
    rbuf md;
    rbuf_init(&md);
    md_sanitize(&md, "# Title\n\n<script>alert(1)</script>\n\nText <b onclick=\"x()\">bold</b> "
                     "[js](javascript:alert(1)) [ok](runs.csv) ![img](data:image/png;base64,AA) "
                     "![bad](data:text/html,x)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    char *html = cmark_markdown_to_html(rbuf_str(&md), md.len, CMARK_OPT_UNSAFE);
    CU_ASSERT_EQUAL(count(html, "<script"), 0);
    CU_ASSERT_EQUAL(count(html, "<b "), 0);
    CU_ASSERT_EQUAL(count(html, "javascript:"), 0);
    CU_ASSERT_EQUAL(count(html, "data:text/html"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "&lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"runs.csv\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "src=\"data:image/png;base64,AA\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h1>Title</h1>"));
    free(html);
    /* The table survives for GFM viewers and for html_from_markdown. */
    html = to_html(rbuf_str(&md));
    CU_ASSERT_EQUAL(count(html, "<table>"), 1);
    free(html);
    rbuf_free(&md);
}

static void test_md_links(void)
{
    rbuf md;
    rbuf_init(&md);
    md_link(&md, "a [b]", "dir/file name (1).csv");
    md_image(&md, "alt <x>", "c|d.svg");
    CU_ASSERT_STRING_EQUAL(rbuf_str(&md),
                           "[a \\[b\\]](dir/file%20name%20%281%29.csv)![alt \\<x>](c%7Cd.svg)");
    rbuf_free(&md);
}

/* ------------------------------------------------------------------ */
/* Templates                                                           */

static void test_template(void)
{
    char err[200];
    template *t = template_parse("<title>{{title}}</title>\n{{{content}}}|{{title}}", err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_TRUE(template_uses(t, "content"));
    CU_ASSERT_FALSE(template_uses(t, "root"));
    template_var vars[] = {{"title", "a <b> & 'c'"}, {"content", "<p>raw</p>"}};
    rbuf out;
    rbuf_init(&out);
    CU_ASSERT_TRUE(template_render(t, vars, 2, &out, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(rbuf_str(&out), "<title>a &lt;b&gt; &amp; &#39;c&#39;</title>\n"
                                           "<p>raw</p>|a &lt;b&gt; &amp; &#39;c&#39;");
    rbuf_clear(&out);
    CU_ASSERT_FALSE(template_render(t, vars, 1, &out, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "content"));
    rbuf_free(&out);
    template_free(t);
    CU_ASSERT_PTR_NULL(template_parse("ok\n{{ title }}", err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "line 2"));
    CU_ASSERT_PTR_NULL(template_parse("{{{raw}}", err, sizeof err));
}

/* ------------------------------------------------------------------ */
/* Ticks                                                               */

static void expect_ticks(axis_scale s, double lo, double hi, const char *want)
{
    axis_ticks t;
    CU_ASSERT_TRUE_FATAL(ticks_compute(s, lo, hi, &t));
    rbuf got;
    rbuf_init(&got);
    for (size_t i = 0; i < t.n; i++)
        rbuf_printf(&got, "%s%s", i ? " " : "", t.label[i]);
    if (strcmp(rbuf_str(&got), want) != 0)
        fprintf(stderr, "\nticks(%d, %g, %g) = [%s], want [%s]\n", s, lo, hi, rbuf_str(&got), want);
    CU_ASSERT_STRING_EQUAL(rbuf_str(&got), want);
    CU_ASSERT_TRUE(t.lo <= lo && t.hi >= hi);
    rbuf_free(&got);
}

static void test_ticks(void)
{
    expect_ticks(SCALE_LINEAR, 0, 97, "0 20 40 60 80 100");
    expect_ticks(SCALE_LINEAR, -12.3, 8.1, "-15 -10 -5 0 5 10");
    expect_ticks(SCALE_LINEAR, 0.0012, 0.0047, "0.001 0.002 0.003 0.004 0.005");
    expect_ticks(SCALE_LOG2, 2, 64, "2 4 8 16 32 64");
    expect_ticks(SCALE_LOG2, 3, 48, "2 4 8 16 32 64");
    expect_ticks(SCALE_LOG2, 1, 65536, "1 4 16 64 256 1024 4096 16384 65536");
    expect_ticks(SCALE_LOG10, 40, 500, "20 50 100 200 500");
    expect_ticks(SCALE_LOG10, 0.5, 3000, "0.1 1 10 100 1000 10000");
    expect_ticks(SCALE_LOG10, 31, 39, "30 32 34 36 38 40");
    axis_ticks t;
    CU_ASSERT_FALSE(ticks_compute(SCALE_LOG10, 0, 10, &t));
    CU_ASSERT_FALSE(ticks_compute(SCALE_LINEAR, NAN, 10, &t));
    CU_ASSERT_FALSE(ticks_compute(SCALE_LINEAR, 5, 1, &t));
}

/* ------------------------------------------------------------------ */
/* PNG                                                                 */

/* Encode w x h pixels made by fn, decode with libpng (via Cairo), compare. */
static void png_round_trip(int w, int h, uint32_t (*fn)(int x, int y))
{
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    unsigned char *px = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t v = fn(x, y);
            memcpy(px + (size_t)y * (size_t)stride + 4 * (size_t)x, &v, 4);
        }
    cairo_surface_mark_dirty(img);
    rbuf png;
    rbuf_init(&png);
    CU_ASSERT_TRUE_FATAL(png_encode_rgb24(px, w, h, stride, &png));
    cairo_surface_t *back = png_decode(png.data, png.len);
    CU_ASSERT_EQUAL_FATAL(cairo_surface_status(back), CAIRO_STATUS_SUCCESS);
    CU_ASSERT_EQUAL(cairo_image_surface_get_width(back), w);
    CU_ASSERT_EQUAL(cairo_image_surface_get_height(back), h);
    const unsigned char *q = cairo_image_surface_get_data(back);
    int s2 = cairo_image_surface_get_stride(back);
    size_t wrong = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t a, b;
            memcpy(&a, px + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
            memcpy(&b, q + (size_t)y * (size_t)s2 + 4 * (size_t)x, 4);
            wrong += (a & 0xFFFFFF) != (b & 0xFFFFFF);
        }
    CU_ASSERT_EQUAL(wrong, 0);
    cairo_surface_destroy(back);
    cairo_surface_destroy(img);
    rbuf_free(&png);
}

static uint32_t white(int x, int y) { (void)x, (void)y; return 0xFFFFFF; }
static uint32_t stripes(int x, int y) { return (x / 7 + y / 3) % 2 ? 0x0072B2 : 0xFFFFFF; }
static uint32_t noise(int x, int y)
{
    uint32_t h = (uint32_t)x * 2654435761u ^ (uint32_t)y * 40503u;
    h ^= h >> 13;
    return (h * 2246822519u) & 0xFFFFFF;
}
static uint32_t gradient(int x, int y) { return (uint32_t)((x & 255) << 16 | (y & 255) << 8 | ((x + y) & 255)); }
/* A noise tile 53 x 7 repeated: matches at many distances, some beyond
 * deflate's 32 KiB reach (7 rows of a wide image). */
static uint32_t tiles(int x, int y) { return noise(x % 53, y % 7); }
/* Mostly white with sparse marks, like a chart: long runs and short
 * literal stretches in every row. */
static uint32_t marks(int x, int y) { return (x * 7 + y * 13) % 97 == 0 ? noise(x, y) : 0xFFFFFF; }

static void test_png(void)
{
    png_round_trip(1, 1, noise);
    png_round_trip(3, 2, noise);
    png_round_trip(720, 450, white);   /* runs far longer than 258 bytes */
    png_round_trip(301, 77, stripes);
    png_round_trip(257, 64, noise);    /* no runs at all */
    png_round_trip(640, 40, gradient);
    /* Several blocks (over 16,384 tokens), the window slid many times. */
    png_round_trip(2000, 300, tiles);
    png_round_trip(1500, 400, marks);
    /* The widest rows (49,153 bytes, more than the 32 KiB window). */
    png_round_trip(16384, 3, noise);
    png_round_trip(16384, 4, tiles);
    rbuf b;
    rbuf_init(&b);
    unsigned char px[4] = {0};
    CU_ASSERT_FALSE(png_encode_rgb24(px, 0, 1, 4, &b));
    png_info info;
    CU_ASSERT_FALSE(png_inspect("not a png", 9, &info));
    rbuf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Charts                                                              */

static const chart_pvm_point pvm[] = {
    {"wrg3-myrinet", 10, 10.5}, {"wrg3-myrinet", 20, 19}, {"<script>alert(1)</script>", 100, 112},
    {"wrg2-ethernet", 300, 280}, {"wrg2-ethernet", -1, 5}, {"wrg2-ethernet", NAN, 5}};

static void test_chart_deterministic_and_escaped(void)
{
    chart_files a, b;
    chart_files_init(&a), chart_files_init(&b);
    char err[200];
    CU_ASSERT_TRUE_FATAL(chart_pred_vs_measured("P vs M & <b>", "time (s)", pvm, 6, &a, err, sizeof err));
    CU_ASSERT_TRUE_FATAL(chart_pred_vs_measured("P vs M & <b>", "time (s)", pvm, 6, &b, err, sizeof err));
    /* Same bytes on a second drawing in the same process (Cairo's surface
     * ids are process-wide and renumbered). */
    CU_ASSERT_TRUE(a.svg.len == b.svg.len && memcmp(a.svg.data, b.svg.data, a.svg.len) == 0);
    CU_ASSERT_TRUE(a.png.len == b.png.len && memcmp(a.png.data, b.png.data, a.png.len) == 0);
    const char *svg = rbuf_str(&a.svg);
    CU_ASSERT_EQUAL(count(svg, "<script"), 0);
    CU_ASSERT_EQUAL(count(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"), 1);
    CU_ASSERT_EQUAL(count(svg, "P vs M &amp; &lt;b&gt;"), 1);
    CU_ASSERT_EQUAL(count(svg, "nan"), 0);
    CU_ASSERT_EQUAL(count(svg, "2 points not shown"), 1); /* -1 and NaN on a log axis */
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<svg"));
    png_info info;
    CU_ASSERT_TRUE(png_inspect(a.png.data, a.png.len, &info));
    CU_ASSERT_EQUAL(info.width, PLOT_WIDTH);
    /* The PNG is as tall as the SVG says it is. */
    const char *h = strstr(svg, "height=\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(info.height, strtol(h + 8, NULL, 10));
    CU_ASSERT_TRUE(info.height > 200);
    CU_ASSERT_TRUE(info.colors >= 5);
    chart_files_free(&a), chart_files_free(&b);
}

static cairo_status_t count_bytes(void *closure, const unsigned char *data, unsigned int n)
{
    (void)data;
    *(size_t *)closure += n;
    return CAIRO_STATUS_SUCCESS;
}

/* A chart's PNG is no larger than what Cairo's own writer (libpng at
 * zlib's default level 6 with its adaptive filters, what gnuplot's
 * pngcairo writes) makes of the same pixels: 16,373 bytes against 17,659
 * when written; the run-length encoder this replaced wrote 1.4 times, the
 * fixed-code one before it 1.84 times. And it decodes to exactly those
 * pixels. */
static void test_chart_png_size(void)
{
    chart_files a;
    chart_files_init(&a);
    char err[200];
    CU_ASSERT_TRUE_FATAL(chart_pred_vs_measured("P vs M", "time (s)", pvm, 4, &a, err, sizeof err));
    cairo_surface_t *back = png_decode(a.png.data, a.png.len);
    CU_ASSERT_EQUAL_FATAL(cairo_surface_status(back), CAIRO_STATUS_SUCCESS);
    size_t libpng = 0;
    CU_ASSERT_EQUAL(cairo_surface_write_to_png_stream(back, count_bytes, &libpng),
                    CAIRO_STATUS_SUCCESS);
    if (a.png.len > libpng)
        fprintf(stderr, "chart PNG %zu bytes, libpng %zu\n", a.png.len, libpng);
    CU_ASSERT_TRUE(a.png.len <= libpng);
    /* Re-encoding the decoded pixels gives the same bytes: nothing lost. */
    rbuf again;
    rbuf_init(&again);
    cairo_surface_flush(back);
    CU_ASSERT_TRUE(png_encode_rgb24(cairo_image_surface_get_data(back),
                                    cairo_image_surface_get_width(back),
                                    cairo_image_surface_get_height(back),
                                    cairo_image_surface_get_stride(back), &again));
    CU_ASSERT_TRUE(again.len == a.png.len && memcmp(again.data, a.png.data, a.png.len) == 0);
    rbuf_free(&again);
    cairo_surface_destroy(back);
    chart_files_free(&a);
}

static void test_all_charts_draw(void)
{
    char err[200];
    chart_files f;
    chart_run runs[] = {{"N=1024", 1, 100, 98, 103, false}, {"N=1024", 2, 52, 50, 55, false},
                        {"N=1024", 32, 5.1, 5, 5.3, true}, {"N=512", 4, 10, 9, 11, false}};
    chart_prediction preds[] = {{"N=1024", 16, 8.2, 7, 9.5, 6, 11},
                                {"N=1024", 32, 4.8, NAN, NAN, 3, 7},
                                {"N=512", 64, 1, -1, 3, NAN, NAN}};
    chart_scaling_data sd = {"Time", "processes (np)", "time (s)", SCALE_LOG2, runs, 4, preds, 3,
                             false, 0, 0, 0, 0};
    chart_files_init(&f);
    CU_ASSERT_TRUE(chart_scaling(&sd, &f, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(rbuf_str(&f.svg), "held-out runs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rbuf_str(&f.svg), "95% prediction interval"));
    chart_files_free(&f);
    chart_residual res[] = {{"A", 16, 5}, {"B", 32, -8}, {"A", 64, 14}};
    chart_files_init(&f);
    CU_ASSERT_TRUE(chart_residuals("Errors", "processes", SCALE_LOG2, res, 3, &f, err, sizeof err));
    chart_files_free(&f);
    chart_cost_point cost[] = {{"job 1", 100, 0.5}, {"job 1", 60, 0.7}, {"job 2", 500, 3}};
    chart_files_init(&f);
    CU_ASSERT_TRUE(chart_cost_time("Cost", "cost (units)", cost, 3, &f, err, sizeof err));
    chart_files_free(&f);
    /* Nothing to show still gives a chart, not a crash or NaN. */
    chart_files_init(&f);
    CU_ASSERT_TRUE(chart_cost_time("Empty", "cost", NULL, 0, &f, err, sizeof err));
    CU_ASSERT_EQUAL(count(rbuf_str(&f.svg), "nan"), 0);
    chart_files_free(&f);
}

int main(void)
{
    static const testutil_test escape_tests[] = {
        {"HTML escaping and UTF-8 cleaning", test_html_escape},
        {"CSV fields and formula injection", test_csv_escape},
        {"Markdown escaping stays readable", test_markdown_escape_readable},
        {"Markdown escaping reads back as the text (cmark)", test_markdown_escape_round_trip},
        {NULL, NULL}};
    static const testutil_test markdown_tests[] = {
        {"code spans with backticks and pipes", test_code_span},
        {"pipe tables to HTML", test_table},
        {"numbers for pages: no e-notation", test_numtext},
        {"raw HTML and dangerous URLs are inert", test_html_safety},
        {"table cells labelled with their column", test_table_labels},
        {"folded sections, and only the page's own", test_folds},
        {"heading ids and .md links", test_links_and_ids},
        {"a README cannot swallow the page", test_quote_isolates_readme},
        {"a README is inert in any Markdown viewer", test_sanitize_readme},
        {"link and image URLs", test_md_links},
        {"templates", test_template},
        {NULL, NULL}};
    static const testutil_test chart_tests[] = {
        {"ticks", test_ticks},
        {"PNG writer against libpng", test_png},
        {"chart PNG within 1.5x libpng's size, same pixels", test_chart_png_size},
        {"charts are deterministic and escaped", test_chart_deterministic_and_escaped},
        {"every chart kind draws", test_all_charts_draw},
        {NULL, NULL}};
    static const testutil_suite suites[] = {
        {"escape", escape_tests}, {"markdown", markdown_tests}, {"charts", chart_tests}, {NULL, NULL}};
    int rc = testutil_run_suites(suites);
    plot_release_fonts();
    return rc;
}
