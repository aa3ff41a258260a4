/*
 * html.c — cmark plus pipe tables, heading ids and .md -> .html links.
 *
 * cmark builds the tree; this file walks it once, collecting tables and
 * headings, then replaces each by a custom block holding HTML it made from
 * cmark's own output (custom blocks are emitted verbatim, so nothing here
 * ever writes text that did not pass through cmark's escaping). All the
 * cells of a page are rendered by one extra cmark run: each becomes an
 * item of a tight list, whose <li> elements are split apart again.
 */
#include "render/html.h"

#include <cmark.h>
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"

typedef struct {
    cmark_node *para;
    size_t first_cell; /* index of its first cell among all cells of the page */
    size_t ncols;
    size_t nrows;      /* header row included */
    char *align;       /* ncols letters: 'l', 'c', 'r' */
} table_info;

typedef struct {
    const char *md;
    size_t len;
    size_t *line_start;  /* offset of each line (index 0 = line 1), built on demand */
    size_t nlines;
    table_info *tables;
    size_t ntables;
    rbuf cells;          /* "- cell\n" for every cell of every table */
    size_t ncells;
    cmark_node **headings;
    size_t nheadings;
    bool oom;
} page;

/* ------------------------------------------------------------------ */
/* Source lines                                                        */

static bool index_lines(page *p)
{
    if (p->line_start)
        return true;
    size_t n = 1;
    for (size_t i = 0; i < p->len; i++)
        n += p->md[i] == '\n';
    p->line_start = malloc(n * sizeof *p->line_start);
    if (!p->line_start)
        return false;
    p->line_start[0] = 0;
    p->nlines = 1;
    for (size_t i = 0; i < p->len; i++)
        if (p->md[i] == '\n')
            p->line_start[p->nlines++] = i + 1;
    return true;
}

/* Line `line` (1-based) without its newline, with `depth` block quote
 * markers and the indentation before the table removed. */
static const char *source_line(const page *p, int line, int depth, size_t *len)
{
    size_t start = p->line_start[line - 1];
    size_t end = (size_t)line < p->nlines ? p->line_start[line] - 1 : p->len;
    const char *s = p->md + start, *e = p->md + end;
    if (e > s && e[-1] == '\r')
        e--;
    for (int d = 0; d < depth; d++) {
        const char *q = s;
        while (q < e && q - s < 3 && *q == ' ')
            q++;
        if (q >= e || *q != '>')
            break; /* a lazy continuation line */
        s = q + 1;
        if (s < e && *s == ' ')
            s++;
    }
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    *len = (size_t)(e - s);
    return s;
}

/* ------------------------------------------------------------------ */
/* Pipe tables                                                         */

/* Called for each trimmed cell of a row. */
typedef void (*cell_fn)(void *ctx, const char *cell, size_t len);

static bool escaped_at(const char *start, const char *at)
{
    size_t backslashes = 0;
    while (at > start && at[-1] == '\\')
        at--, backslashes++;
    return backslashes % 2 == 1;
}

/* Split a row at unescaped pipes (outer pipes optional) and call fn, when
 * not NULL, for at most `limit` cells. Returns the number of cells. */
static size_t split_row(const char *s, size_t len, size_t limit, cell_fn fn, void *ctx)
{
    const char *e = s + len;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (s < e && *s == '|')
        s++;
    if (e > s && e[-1] == '|' && !escaped_at(s, e - 1))
        e--;
    size_t n = 0;
    const char *cell = s;
    for (const char *q = s; q <= e; q++) {
        if (q < e && (*q != '|' || escaped_at(s, q)))
            continue;
        const char *a = cell, *b = q;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (fn && n < limit)
            fn(ctx, a, (size_t)(b - a));
        n++;
        cell = q + 1;
    }
    return n;
}

/* The delimiter row's cell: optional ':' dashes optional ':'. */
static char delimiter_alignment(const char *c, size_t len)
{
    if (len == 0)
        return 0;
    bool left = c[0] == ':', right = c[len - 1] == ':';
    size_t dashes = 0;
    for (size_t i = left; i < len - right; i++) {
        if (c[i] != '-')
            return 0;
        dashes++;
    }
    if (dashes == 0)
        return 0;
    return right && left ? 'c' : right ? 'r' : 'l';
}

typedef struct {
    char *align;
    size_t n;
    bool ok;
} delimiter_row;

static void collect_alignment(void *ctx, const char *cell, size_t len)
{
    delimiter_row *row = ctx;
    char a = delimiter_alignment(cell, len);
    row->ok = row->ok && a;
    row->align[row->n++] = a ? a : 'l';
}

/* The alignment letters of a delimiter row with ncols cells (malloc'ed),
 * or NULL when the line is not one. */
static char *parse_delimiter_row(page *p, const char *s, size_t len, size_t ncols)
{
    if (split_row(s, len, 0, NULL, NULL) != ncols)
        return NULL;
    delimiter_row row = {malloc(ncols + 1), 0, true};
    if (!row.align) {
        p->oom = true;
        return NULL;
    }
    split_row(s, len, ncols, collect_alignment, &row);
    row.align[ncols] = '\0';
    if (!row.ok) {
        free(row.align);
        return NULL;
    }
    return row.align;
}

static void add_cell(void *ctx, const char *cell, size_t len)
{
    page *p = ctx;
    rbuf_puts(&p->cells, "- ");
    for (size_t i = 0; i < len; i++) {
        if (cell[i] == '\\' && i + 1 < len && cell[i + 1] == '|')
            continue; /* GFM: \| is a literal pipe, even inside code */
        rbuf_putc(&p->cells, cell[i]);
    }
    rbuf_putc(&p->cells, '\n');
    p->ncells++;
}

/* Add the row's cells, exactly ncols of them (GFM pads and truncates). */
static void add_row(page *p, const char *s, size_t len, size_t ncols)
{
    size_t have = split_row(s, len, ncols, add_cell, p);
    for (; have < ncols; have++)
        add_cell(p, "", 0);
}

static int quote_depth(cmark_node *node)
{
    int depth = 0;
    for (cmark_node *n = cmark_node_parent(node); n; n = cmark_node_parent(n)) {
        cmark_node_type t = cmark_node_get_type(n);
        if (t == CMARK_NODE_BLOCK_QUOTE)
            depth++;
        else if (t != CMARK_NODE_DOCUMENT)
            return -1; /* tables only at top level or in quotes */
    }
    return depth;
}

static bool looks_like_table(cmark_node *para)
{
    cmark_node *first = cmark_node_first_child(para);
    const char *lit = first && cmark_node_get_type(first) == CMARK_NODE_TEXT
                          ? cmark_node_get_literal(first) : NULL;
    return lit && lit[0] == '|' &&
           cmark_node_get_end_line(para) > cmark_node_get_start_line(para);
}

/* Read the paragraph as a table; false (and nothing added) when it is not. */
static bool collect_table(page *p, cmark_node *para)
{
    int depth = quote_depth(para);
    if (depth < 0 || !looks_like_table(para))
        return false;
    if (!index_lines(p)) {
        p->oom = true;
        return false;
    }
    int first = cmark_node_get_start_line(para), last = cmark_node_get_end_line(para);
    if (first < 1 || (size_t)last > p->nlines)
        return false;
    size_t hlen, dlen;
    const char *header = source_line(p, first, depth, &hlen);
    const char *delim = source_line(p, first + 1, depth, &dlen);
    for (int l = first; l <= last; l++) {
        size_t n;
        const char *s = source_line(p, l, depth, &n);
        if (n == 0 || s[0] != '|')
            return false;
    }
    size_t ncols = split_row(header, hlen, 0, NULL, NULL);
    char *align = parse_delimiter_row(p, delim, dlen, ncols);
    if (!align)
        return false;
    table_info *tables = realloc(p->tables, (p->ntables + 1) * sizeof *tables);
    if (!tables) {
        free(align);
        p->oom = true;
        return false;
    }
    p->tables = tables;
    table_info *t = &p->tables[p->ntables++];
    *t = (table_info){para, p->ncells, ncols, 0, align};
    add_row(p, header, hlen, ncols);
    t->nrows = 1;
    for (int l = first + 2; l <= last; l++) {
        size_t n;
        const char *s = source_line(p, l, depth, &n);
        add_row(p, s, n, ncols);
        t->nrows++;
    }
    return true;
}

/* Split the rendered tight list into its top-level <li> contents. */
static bool split_items(const char *html, size_t ncells, const char **start, size_t *len)
{
    size_t found = 0;
    int depth = 0;
    const char *item = NULL;
    for (const char *s = html; *s; s++) {
        if (strncmp(s, "<li>", 4) == 0) {
            if (depth++ == 0)
                item = s + 4;
        } else if (strncmp(s, "</li>", 5) == 0 && --depth == 0) {
            if (found == ncells)
                return false;
            start[found] = item;
            len[found++] = (size_t)(s - item);
        }
    }
    return found == ncells;
}

static void put_table(rbuf *out, const table_info *t, const char **cell, const size_t *len)
{
    static const char *const open[2][3] = {{"<th>", "<th class=\"r\">", "<th class=\"c\">"},
                                           {"<td>", "<td class=\"r\">", "<td class=\"c\">"}};
    rbuf_puts(out, "<div class=\"table\"><table>\n<thead>\n");
    for (size_t r = 0; r < t->nrows; r++) {
        if (r == 1)
            rbuf_puts(out, "<tbody>\n");
        rbuf_puts(out, "<tr>\n");
        int body = r > 0;
        for (size_t c = 0; c < t->ncols; c++) {
            size_t i = t->first_cell + r * t->ncols + c;
            char a = t->align[c];
            rbuf_puts(out, open[body][a == 'r' ? 1 : a == 'c' ? 2 : 0]);
            rbuf_put(out, cell[i], len[i]);
            rbuf_puts(out, body ? "</td>\n" : "</th>\n");
        }
        rbuf_puts(out, "</tr>\n");
        if (r == 0)
            rbuf_puts(out, "</thead>\n");
    }
    rbuf_puts(out, t->nrows > 1 ? "</tbody>\n</table></div>" : "</table></div>");
}

static void replace_with_html(cmark_node *node, const char *html)
{
    cmark_node *block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
    cmark_node_set_on_enter(block, html);
    cmark_node_replace(node, block);
    cmark_node_free(node);
}

/* Render every cell at once and swap each table paragraph for its HTML. */
static void emit_tables(page *p)
{
    if (p->ntables == 0)
        return;
    cmark_node *doc = cmark_parse_document(rbuf_str(&p->cells), p->cells.len, CMARK_OPT_DEFAULT);
    char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT);
    cmark_node_free(doc);
    const char **start = malloc(p->ncells * sizeof *start);
    size_t *len = malloc(p->ncells * sizeof *len);
    if (html && start && len && split_items(html, p->ncells, start, len)) {
        rbuf table;
        rbuf_init(&table);
        for (size_t i = 0; i < p->ntables; i++) {
            rbuf_clear(&table);
            put_table(&table, &p->tables[i], start, len);
            if (table.oom)
                p->oom = true;
            else
                replace_with_html(p->tables[i].para, rbuf_str(&table));
        }
        rbuf_free(&table);
    }
    free(start);
    free(len);
    free(html);
}

/* ------------------------------------------------------------------ */
/* Headings and links                                                  */

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
        char *rendered = cmark_render_html(h, CMARK_OPT_DEFAULT); /* "<hN>...</hN>\n" */
        int level = cmark_node_get_heading_level(h);
        size_t open = 4; /* strlen("<hN>") */
        if (!rendered || strlen(rendered) < open) {
            free(rendered);
            continue;
        }
        rbuf_printf(&html, "<h%d id=\"", level);
        esc_html(&html, rbuf_str(&id));
        rbuf_puts(&html, "\">");
        rbuf_puts(&html, rendered + open);
        free(rendered);
        while (html.len && html.data[html.len - 1] == '\n')
            html.data[--html.len] = '\0';
        if (html.oom || ids.oom)
            p->oom = true;
        else
            replace_with_html(h, rbuf_str(&html));
    }
    rbuf_free(&ids), rbuf_free(&text), rbuf_free(&slug), rbuf_free(&id), rbuf_free(&html);
}

/* A URL without a scheme ("x.md", "../a/b.md#c"); not "//host". */
static bool is_relative(const char *url)
{
    if (url[0] == '/' )
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
}

static void walk(page *p, cmark_node *doc)
{
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        if (ev != CMARK_EVENT_ENTER)
            continue;
        cmark_node *n = cmark_iter_get_node(it);
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_PARAGRAPH: collect_table(p, n); break;
        case CMARK_NODE_HEADING: add_heading(p, n); break;
        case CMARK_NODE_LINK: rewrite_md_link(n); break;
        default: break;
        }
    }
    cmark_iter_free(it);
}

bool html_from_markdown(const char *md, size_t len, rbuf *out)
{
    page p = {.md = md, .len = len};
    rbuf_init(&p.cells);
    cmark_node *doc = cmark_parse_document(md, len, CMARK_OPT_DEFAULT);
    walk(&p, doc);
    emit_tables(&p);
    emit_headings(&p);
    char *html = cmark_render_html(doc, CMARK_OPT_DEFAULT);
    cmark_node_free(doc);
    if (html)
        rbuf_puts(out, html);
    free(html);
    for (size_t i = 0; i < p.ntables; i++)
        free(p.tables[i].align);
    free(p.tables);
    free(p.headings);
    free(p.line_start);
    rbuf_free(&p.cells);
    return !p.oom && !out->oom;
}
