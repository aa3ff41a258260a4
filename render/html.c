/*
 * html.c — cmark-gfm with its table extension, heading ids, accessible
 * tables and .md -> .html links.
 *
 * One page is one cmark-gfm document: tables are real nodes of its tree,
 * so the single walk below sees every link, in table cells too. The walk
 * rewrites links in place and collects headings and tables; each of those
 * is then replaced by a custom block holding HTML made from cmark's own
 * rendering of its inline content (custom blocks are emitted verbatim, so
 * nothing here writes text that did not pass through cmark's escaping).
 */
#include "render/html.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"

/* A table and the text of the heading it stands under (its caption). */
typedef struct {
    cmark_node *node;
    char *caption_html; /* malloc'ed inline HTML, or NULL: "Table N" */
} table_ref;

typedef struct {
    table_ref *tables;
    size_t ntables;
    cmark_node **headings;
    size_t nheadings;
    cmark_node **folds; /* the page's own <details> lines (is_fold) */
    size_t nfolds;
    cmark_node *last_heading; /* the heading the walk passed last, outside tables */
    bool oom;
} page;

/* cmark-gfm keeps its extensions in a process-wide registry that must be
 * filled once before any parser asks for "table"; pages render on threads. */
static pthread_once_t extensions_once = PTHREAD_ONCE_INIT;

static void register_extensions(void)
{
    cmark_gfm_core_extensions_ensure_registered();
}

static bool is_type(cmark_node *n, const char *name)
{
    const char *t = cmark_node_get_type_string(n);
    return t && strcmp(t, name) == 0;
}

/* ------------------------------------------------------------------ */
/* Inline HTML of a node's children                                    */

/* Append the HTML of node's inline children to out, without a wrapping
 * element. The children move into a scratch paragraph (node is replaced
 * afterwards anyway), which cmark renders as "<p>...</p>\n". */
static bool inline_html(cmark_node *node, rbuf *out)
{
    cmark_node *doc = cmark_node_new(CMARK_NODE_DOCUMENT);
    cmark_node *para = cmark_node_new(CMARK_NODE_PARAGRAPH);
    if (!doc || !para || !cmark_node_append_child(doc, para)) {
        cmark_node_free(doc);
        cmark_node_free(para);
        return false;
    }
    for (cmark_node *c; (c = cmark_node_first_child(node)) != NULL;)
        cmark_node_append_child(para, c);
    char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, NULL);
    cmark_node_free(doc);
    if (!html)
        return false;
    size_t n = strlen(html);
    const char *s = html;
    if (n >= 8 && strncmp(s, "<p>", 3) == 0 && strcmp(s + n - 5, "</p>\n") == 0)
        rbuf_put(out, s + 3, n - 8);
    free(html);
    return !out->oom;
}

static void replace_with_html(cmark_node *node, const char *html)
{
    cmark_node *block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
    cmark_node_set_on_enter(block, html);
    cmark_node_replace(node, block);
    cmark_node_free(node);
}

/* ------------------------------------------------------------------ */
/* Headings                                                            */

static void heading_text(cmark_node *heading, rbuf *out)
{
    cmark_iter *it = cmark_iter_new(heading);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE)
            rbuf_puts(out, cmark_node_get_literal(n));
        else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
            rbuf_putc(out, ' ');
    }
    cmark_iter_free(it);
}

void html_heading_id(const char *text, rbuf *out)
{
    for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
        unsigned char c = *s;
        if (c >= 'A' && c <= 'Z')
            rbuf_putc(out, (char)(c - 'A' + 'a'));
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                 c >= 0x80)
            rbuf_putc(out, (char)c);
        else if (c == ' ')
            rbuf_putc(out, '-');
    }
}

/* id for the heading: its slug, with -1, -2, ... when already used. */
static void unique_id(rbuf *ids, const char *slug, rbuf *out)
{
    rbuf candidate;
    rbuf_init(&candidate);
    for (int n = 0;; n++) {
        rbuf_clear(&candidate);
        rbuf_puts(&candidate, slug);
        if (n > 0)
            rbuf_printf(&candidate, "-%d", n);
        /* ids holds "\nid\n" for each id used so far. */
        rbuf key;
        rbuf_init(&key);
        rbuf_printf(&key, "\n%s\n", rbuf_str(&candidate));
        bool used = strstr(rbuf_str(ids), rbuf_str(&key)) != NULL;
        rbuf_free(&key);
        if (!used)
            break;
    }
    rbuf_printf(ids, "\n%s\n", rbuf_str(&candidate));
    rbuf_puts(out, rbuf_str(&candidate));
    rbuf_free(&candidate);
}

static void emit_headings(page *p)
{
    rbuf ids, text, slug, id, html;
    rbuf_init(&ids), rbuf_init(&text), rbuf_init(&slug), rbuf_init(&id), rbuf_init(&html);
    rbuf_putc(&ids, '\n');
    for (size_t i = 0; i < p->nheadings; i++) {
        cmark_node *h = p->headings[i];
        rbuf_clear(&text), rbuf_clear(&slug), rbuf_clear(&id), rbuf_clear(&html);
        heading_text(h, &text);
        html_heading_id(rbuf_str(&text), &slug);
        unique_id(&ids, rbuf_str(&slug), &id);
        int level = cmark_node_get_heading_level(h);
        rbuf_printf(&html, "<h%d id=\"", level);
        esc_html(&html, rbuf_str(&id));
        rbuf_puts(&html, "\">");
        bool ok = inline_html(h, &html);
        rbuf_printf(&html, "</h%d>", level);
        if (!ok || html.oom || ids.oom)
            p->oom = true;
        else
            replace_with_html(h, rbuf_str(&html));
    }
    rbuf_free(&ids), rbuf_free(&text), rbuf_free(&slug), rbuf_free(&id), rbuf_free(&html);
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */

/* The caption: the heading the table stands under, rendered as inline
 * HTML (copied before the heading's own children move). */
static char *caption_of(cmark_node *heading)
{
    if (!heading)
        return NULL;
    char *html = cmark_render_html(heading, CMARK_OPT_DEFAULT, NULL); /* "<hN>...</hN>\n" */
    size_t n = html ? strlen(html) : 0;
    if (n < 10) {
        free(html);
        return NULL;
    }
    memmove(html, html + 4, n - 10); /* drop "<hN>" and "</hN>\n" */
    html[n - 10] = '\0';
    return html;
}

static void add_table(page *p, cmark_node *table)
{
    table_ref *ts = realloc(p->tables, (p->ntables + 1) * sizeof *ts);
    if (!ts) {
        p->oom = true;
        return;
    }
    p->tables = ts;
    p->tables[p->ntables++] = (table_ref){table, caption_of(p->last_heading)};
}

/* One cell: <th scope="col"> in the header row, <th scope="row"> for the
 * first cell of a body row (the key column), <td> for the others; the
 * column's alignment as a class. A body cell carries its column's header
 * text as data-label (label, plain text, escaped here): on a narrow screen
 * the stylesheet stacks each row and shows the label before the cell, as
 * the header row is then hidden. */
static bool put_cell(rbuf *out, cmark_node *cell, bool header, size_t col, uint8_t align,
                     const char *label)
{
    const char *cls = align == 'r' ? " class=\"r\"" : align == 'c' ? " class=\"c\"" : "";
    const char *tag = header || col == 0 ? "th" : "td";
    rbuf_printf(out, "<%s", tag);
    if (header)
        rbuf_puts(out, " scope=\"col\"");
    else if (col == 0)
        rbuf_puts(out, " scope=\"row\"");
    if (!header && label && label[0]) {
        rbuf_puts(out, " data-label=\"");
        esc_html(out, label);
        rbuf_putc(out, '"');
    }
    rbuf_printf(out, "%s>", cls);
    bool ok = inline_html(cell, out);
    rbuf_printf(out, "</%s>\n", tag);
    return ok;
}

/* The plain text of each header cell (the column labels), NUL-separated
 * in labels, one after another in column order; read before put_cell
 * moves the header cells' children away. */
static void header_labels(cmark_node *table, uint16_t ncols, rbuf *labels)
{
    cmark_node *row = cmark_node_first_child(table);
    bool header = row && cmark_gfm_extensions_get_table_row_is_header(row);
    cmark_node *cell = header ? cmark_node_first_child(row) : NULL;
    for (size_t col = 0; col < ncols; col++) {
        rbuf text;
        rbuf_init(&text);
        if (cell) {
            heading_text(cell, &text); /* text and code of any inline node */
            cell = cmark_node_next(cell);
        }
        rbuf_put(labels, rbuf_str(&text), text.len + 1); /* with its NUL */
        rbuf_free(&text);
    }
}

static bool put_table(rbuf *out, const table_ref *t, size_t number)
{
    cmark_node *table = t->node;
    uint16_t ncols = cmark_gfm_extensions_get_table_columns(table);
    uint8_t *align = cmark_gfm_extensions_get_table_alignments(table);
    rbuf labels;
    rbuf_init(&labels);
    header_labels(table, ncols, &labels);
    rbuf_puts(out, "<div class=\"table\"><table>\n<caption>");
    if (t->caption_html)
        rbuf_puts(out, t->caption_html);
    else
        rbuf_printf(out, "Table %zu", number);
    rbuf_puts(out, "</caption>\n");
    bool ok = true, in_body = false;
    for (cmark_node *row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
        bool header = cmark_gfm_extensions_get_table_row_is_header(row);
        if (header)
            rbuf_puts(out, "<thead>\n");
        else if (!in_body)
            rbuf_puts(out, "<tbody>\n"), in_body = true;
        rbuf_puts(out, "<tr>\n");
        size_t col = 0; /* cmark-gfm pads short rows to ncols cells */
        const char *label = labels.oom ? NULL : rbuf_str(&labels);
        for (cmark_node *cell = cmark_node_first_child(row); cell && col < ncols;
             cell = cmark_node_next(cell), col++) {
            ok = put_cell(out, cell, header, col, align ? align[col] : 0, label) && ok;
            if (label)
                label += strlen(label) + 1;
        }
        rbuf_puts(out, "</tr>\n");
        if (header)
            rbuf_puts(out, "</thead>\n");
    }
    rbuf_puts(out, in_body ? "</tbody>\n</table></div>" : "</table></div>");
    ok = ok && !labels.oom;
    rbuf_free(&labels);
    return ok && !out->oom;
}

static void emit_tables(page *p)
{
    rbuf html;
    rbuf_init(&html);
    for (size_t i = 0; i < p->ntables; i++) {
        rbuf_clear(&html);
        if (put_table(&html, &p->tables[i], i + 1))
            replace_with_html(p->tables[i].node, rbuf_str(&html));
        else
            p->oom = true;
    }
    rbuf_free(&html);
}

/* ------------------------------------------------------------------ */
/* Folded sections                                                     */

/* Whether the HTML block n is one that render/markdown.c's md_fold_begin
 * or md_fold_end wrote: at the top level of the page (a README is quoted,
 * so its blocks never are), and exactly "<details>\n<summary>TEXT</summary>"
 * where TEXT holds no markup (md_fold_begin escaped it), or "</details>".
 * Any other raw HTML stays omitted, as cmark's safe mode makes it. */
static bool is_fold(cmark_node *n, cmark_node *doc)
{
    static const char open[] = "<details>\n<summary>", close[] = "</summary>\n";
    const char *s = cmark_node_get_literal(n);
    if (!s || cmark_node_parent(n) != doc)
        return false;
    if (strcmp(s, "</details>\n") == 0)
        return true;
    size_t len = strlen(s), head = sizeof open - 1, tail = sizeof close - 1;
    if (len < head + tail || strncmp(s, open, head) != 0 || strcmp(s + len - tail, close) != 0)
        return false;
    for (size_t i = head; i < len - tail; i++)
        if (strchr("<>\n", s[i]))
            return false;
    return true;
}

static void add_fold(page *p, cmark_node *n)
{
    cmark_node **fs = realloc(p->folds, (p->nfolds + 1) * sizeof *fs);
    if (!fs) {
        p->oom = true;
        return;
    }
    p->folds = fs;
    p->folds[p->nfolds++] = n;
}

/* The folds as themselves: custom blocks are written verbatim. */
static void emit_folds(page *p)
{
    for (size_t i = 0; i < p->nfolds; i++) {
        char *html = strdup(cmark_node_get_literal(p->folds[i]));
        if (!html) {
            p->oom = true;
            continue;
        }
        replace_with_html(p->folds[i], html);
        free(html);
    }
}

/* ------------------------------------------------------------------ */
/* Links and the walk                                                  */

/* A URL without a scheme ("x.md", "../a/b.md#c"); not "//host". */
static bool is_relative(const char *url)
{
    if (url[0] == '/')
        return false;
    for (const char *s = url; *s && !strchr("/?#", *s); s++)
        if (*s == ':')
            return false;
    return true;
}

static void rewrite_md_link(cmark_node *link)
{
    const char *url = cmark_node_get_url(link);
    if (!url || !is_relative(url))
        return;
    size_t path = strcspn(url, "?#");
    if (path < 3 || strncmp(url + path - 3, ".md", 3) != 0)
        return;
    rbuf b;
    rbuf_init(&b);
    rbuf_put(&b, url, path - 3);
    rbuf_puts(&b, ".html");
    rbuf_puts(&b, url + path);
    if (!b.oom)
        cmark_node_set_url(link, rbuf_str(&b));
    rbuf_free(&b);
}

static void add_heading(page *p, cmark_node *h)
{
    cmark_node **hs = realloc(p->headings, (p->nheadings + 1) * sizeof *hs);
    if (!hs) {
        p->oom = true;
        return;
    }
    p->headings = hs;
    p->headings[p->nheadings++] = h;
    p->last_heading = h;
}

/* One pass over the whole tree, table cells included. */
static void walk(page *p, cmark_node *doc)
{
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        if (ev != CMARK_EVENT_ENTER)
            continue;
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (t == CMARK_NODE_HEADING)
            add_heading(p, n);
        else if (t == CMARK_NODE_LINK)
            rewrite_md_link(n);
        else if (is_type(n, "table"))
            add_table(p, n);
        else if (t == CMARK_NODE_HTML_BLOCK && is_fold(n, doc))
            add_fold(p, n);
    }
    cmark_iter_free(it);
}

static cmark_node *parse(const char *md, size_t len)
{
    pthread_once(&extensions_once, register_extensions);
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (!parser || !table) {
        if (parser)
            cmark_parser_free(parser);
        return NULL;
    }
    cmark_parser_attach_syntax_extension(parser, table);
    cmark_parser_feed(parser, md, len);
    cmark_node *doc = cmark_parser_finish(parser);
    cmark_parser_free(parser);
    return doc;
}

bool html_from_markdown(const char *md, size_t len, rbuf *out)
{
    page p = {0};
    cmark_node *doc = parse(md, len);
    if (!doc)
        return false;
    walk(&p, doc);
    /* Tables first: their captions were copied from headings that
     * emit_headings empties. */
    emit_tables(&p);
    emit_headings(&p);
    emit_folds(&p);
    char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT, NULL);
    cmark_node_free(doc);
    if (html)
        rbuf_puts(out, html);
    free(html);
    for (size_t i = 0; i < p.ntables; i++)
        free(p.tables[i].caption_html);
    free(p.tables);
    free(p.headings);
    free(p.folds);
    return html && !p.oom && !out->oom;
}
