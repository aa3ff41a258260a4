/*
 * site_verify.c — a small XML reader and a link checker for built sites
 * (see site_verify.h). The reader knows exactly what perfcast writes:
 * elements, attributes in quotes, the five XML entities and numeric
 * references, comments, a declaration and a doctype.
 */
#include "gen/site/site_verify.h"
#include "gen/base/hash.h"

#include <cmark-gfm.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/fileio.h"
#include "gen/site/site_manifest.h"
#include "gen/site/site_out.h"
#include "render/buf.h"
#include "render/png.h"

typedef struct {
    char **items;
    size_t n, cap;
} string_list;

static bool list_add(string_list *l, char *s)
{
    if (!s)
        return false;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            free(s);
            return false;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = s;
    return true;
}

static void list_free(string_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool list_has(const string_list *l, const char *s)
{
    return l->n && bsearch(&s, l->items, l->n, sizeof *l->items, compare_strings) != NULL;
}

/* A link from a page, checked once every page has been read. */
typedef struct {
    char *from;     /* the page (site-relative) */
    char *target;   /* the resolved site-relative file */
    char *fragment; /* after '#', or NULL */
} link_ref;

typedef struct {
    const char *root;
    string_list files;    /* every file, site-relative, sorted */
    string_list ids;      /* "page.html#id" for every id of every page, sorted */
    link_ref *links;
    size_t nlinks, cap_links;
    string_list problems;
    site_report *report;
} verifier;

static void problem(verifier *v, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem(verifier *v, const char *path, const char *fmt, ...)
{
    rbuf b;
    rbuf_init(&b);
    rbuf_printf(&b, "%s: ", path);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rbuf_puts(&b, msg);
    list_add(&v->problems, rbuf_take(&b));
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ------------------------------------------------------------------ */
/* Paths and URLs                                                      */

/* Percent-decode s[0..n) into out. */
static void url_decode(const char *s, size_t n, rbuf *out)
{
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && sscanf(s + i + 1, "%1x%1x", &hi, &lo) == 2) {
            rbuf_putc(out, (char)(hi * 16 + lo));
            i += 2;
        } else {
            rbuf_putc(out, s[i]);
        }
    }
}

/* Resolve url against the folder of page; false when it leaves the site. */
static bool resolve(const char *page, const char *url, size_t n, rbuf *out)
{
    rbuf joined;
    rbuf_init(&joined);
    const char *slash = strrchr(page, '/');
    if (slash)
        rbuf_put(&joined, page, (size_t)(slash - page + 1));
    url_decode(url, n, &joined);
    /* Normalise "a/./b" and "a/x/../b" part by part. */
    const char *s = rbuf_str(&joined);
    size_t *starts = malloc((joined.len + 1) * sizeof *starts);
    size_t depth = 0;
    bool ok = starts != NULL;
    rbuf_clear(out);
    while (ok && *s) {
        size_t len = strcspn(s, "/");
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            if (depth == 0)
                ok = false;
            else
                out->len = starts[--depth], out->data[out->len] = '\0';
        } else if (len > 0 && !(len == 1 && s[0] == '.')) {
            starts[depth++] = out->len;
            if (out->len)
                rbuf_putc(out, '/');
            rbuf_put(out, s, len);
        }
        s += len + (s[len] == '/');
    }
    free(starts);
    rbuf_free(&joined);
    return ok && out->len > 0;
}

static bool has_scheme(const char *url)
{
    for (const char *s = url; *s && !strchr("/?#", *s); s++)
        if (*s == ':')
            return true;
    return url[0] == '/' && url[1] == '/';
}

/* Record a link or image URL found on page. */
static void check_url(verifier *v, const char *page, const char *url, bool is_src)
{
    if (is_src)
        v->report->images++;
    else
        v->report->links++;
    if (has_scheme(url) || url[0] == '/') {
        if (strncmp(url, "javascript:", 11) == 0 || is_src || url[0] == '/')
            problem(v, page, "%s %s is not a relative link inside the site",
                    is_src ? "source" : "link", url);
        return;
    }
    size_t path_len = strcspn(url, "?#");
    const char *hash = strchr(url, '#');
    rbuf target;
    rbuf_init(&target);
    if (path_len == 0) {
        rbuf_puts(&target, page); /* "#id": this page */
    } else if (!resolve(page, url, path_len, &target)) {
        problem(v, page, "link %s leaves the site", url);
        rbuf_free(&target);
        return;
    }
    if (v->nlinks == v->cap_links) {
        size_t cap = v->cap_links ? 2 * v->cap_links : 256;
        link_ref *more = realloc(v->links, cap * sizeof *more);
        if (!more) {
            rbuf_free(&target);
            return;
        }
        v->links = more;
        v->cap_links = cap;
    }
    v->links[v->nlinks++] = (link_ref){strdup(page), rbuf_take(&target),
                                       hash && hash[1] ? strdup(hash + 1) : NULL};
}

/* ------------------------------------------------------------------ */
/* XML                                                                 */

typedef struct {
    verifier *v;
    const char *path;
    const char *s, *end;
    int elements;        /* elements seen */
    int drawing;         /* path, rect, text, line, circle, use elements */
    const char *root;    /* the first element's name */
    size_t root_len;
    bool html;
} xml_reader;

static bool name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static bool name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static size_t name_len(const char *s, const char *end)
{
    if (s >= end || !name_start(*s))
        return 0;
    size_t n = 1;
    while (s + n < end && name_char(s[n]))
        n++;
    return n;
}

static const char *skip_space(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
    return s;
}

/* Check the entity reference at s ('&'); returns its length or 0. */
static size_t entity_len(const char *s, const char *end)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++)
        if ((size_t)(end - s) >= strlen(named[i]) && !strncmp(s, named[i], strlen(named[i])))
            return strlen(named[i]);
    const char *p = s + 1;
    if (p < end && *p == '#') {
        p++;
        bool hex = p < end && *p == 'x';
        p += hex;
        const char *digits = p;
        while (p < end && (hex ? strchr("0123456789abcdefABCDEF", *p) && *p : (*p >= '0' && *p <= '9')))
            p++;
        if (p > digits && p < end && *p == ';')
            return (size_t)(p + 1 - s);
    }
    return 0;
}

/* Text between markup: no '<', entities valid. */
static bool check_text(xml_reader *r, const char *s, const char *e)
{
    for (; s < e; s++)
        if (*s == '&' && entity_len(s, e) == 0) {
            problem(r->v, r->path, "bad entity reference near '%.20s'", s);
            return false;
        }
    return true;
}

static bool attr_is(const char *name, size_t n, const char *want)
{
    return strlen(want) == n && strncmp(name, want, n) == 0;
}

static void attribute(xml_reader *r, const char *name, size_t n, const char *value, size_t vlen)
{
    rbuf val;
    rbuf_init(&val);
    rbuf_put(&val, value, vlen);
    const char *v = rbuf_str(&val);
    if (n > 2 && (name[0] == 'o' || name[0] == 'O') && (name[1] == 'n' || name[1] == 'N'))
        problem(r->v, r->path, "event handler attribute %.*s", (int)n, name);
    if (r->html && (attr_is(name, n, "href") || attr_is(name, n, "src"))) {
        /* Attribute values hold entities: &amp; in a URL stands for '&'. */
        rbuf url;
        rbuf_init(&url);
        for (const char *p = v; *p; p++) {
            size_t k = *p == '&' ? entity_len(p, v + vlen) : 0;
            if (k == 5 && !strncmp(p, "&amp;", 5))
                rbuf_putc(&url, '&'), p += 4;
            else
                rbuf_putc(&url, *p);
        }
        check_url(r->v, r->path, rbuf_str(&url), attr_is(name, n, "src"));
        rbuf_free(&url);
    }
    if (r->html && attr_is(name, n, "id")) {
        rbuf key;
        rbuf_init(&key);
        rbuf_printf(&key, "%s#%s", r->path, v);
        list_add(&r->v->ids, rbuf_take(&key));
    }
    rbuf_free(&val);
}

/* Read a start tag at r->s ('<' seen); pushes its name on the stack. */
static bool start_tag(xml_reader *r, const char **stack, size_t *stack_len, size_t *depth)
{
    const char *s = r->s + 1;
    size_t n = name_len(s, r->end);
    if (n == 0) {
        problem(r->v, r->path, "bad element name near '%.20s'", r->s);
        return false;
    }
    const char *name = s;
    if (r->elements++ == 0)
        r->root = name, r->root_len = n;
    if (attr_is(name, n, "script"))
        problem(r->v, r->path, "a <script> element");
    static const char *const drawing[] = {"path", "rect", "text", "line", "circle", "use", "polyline"};
    for (size_t i = 0; i < sizeof drawing / sizeof drawing[0]; i++)
        r->drawing += attr_is(name, n, drawing[i]);
    s += n;
    for (;;) {
        const char *after = skip_space(s, r->end);
        if (after < r->end && (*after == '>' || (*after == '/' && after + 1 < r->end && after[1] == '>'))) {
            bool empty = *after == '/';
            r->s = after + (empty ? 2 : 1);
            if (!empty) {
                stack[*depth] = name;
                stack_len[(*depth)++] = n;
            }
            return true;
        }
        size_t an = after > s ? name_len(after, r->end) : 0;
        const char *eq = an ? skip_space(after + an, r->end) : NULL;
        const char *q = eq && eq < r->end && *eq == '=' ? skip_space(eq + 1, r->end) : NULL;
        if (!q || q >= r->end || (*q != '"' && *q != '\'')) {
            problem(r->v, r->path, "malformed attribute in <%.*s>", (int)n, name);
            return false;
        }
        const char *close = memchr(q + 1, *q, (size_t)(r->end - q - 1));
        if (!close || memchr(q + 1, '<', (size_t)(close - q - 1)) || !check_text(r, q + 1, close)) {
            problem(r->v, r->path, "bad attribute value in <%.*s>", (int)n, name);
            return false;
        }
        attribute(r, after, an, q + 1, (size_t)(close - q - 1));
        s = close + 1;
    }
}

enum { MAX_DEPTH = 256 };

static bool skip_special(xml_reader *r)
{
    static const struct { const char *open, *close; } kinds[] = {
        {"<!--", "-->"}, {"<?", "?>"}, {"<![CDATA[", "]]>"}, {"<!DOCTYPE", ">"}};
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(kinds[i].open);
        if ((size_t)(r->end - r->s) >= n && strncmp(r->s, kinds[i].open, n) == 0) {
            const char *close = strstr(r->s + n, kinds[i].close);
            if (!close || close >= r->end) {
                problem(r->v, r->path, "unclosed %s", kinds[i].open);
                return false;
            }
            r->s = close + strlen(kinds[i].close);
            return true;
        }
    }
    return false;
}

static bool xml_check(verifier *v, const char *path, const char *text, size_t len, bool html,
                      xml_reader *out)
{
    xml_reader r = {v, path, text, text + len, 0, 0, NULL, 0, html};
    const char *stack[MAX_DEPTH];
    size_t stack_len[MAX_DEPTH], depth = 0;
    bool ok = true;
    while (ok && r.s < r.end) {
        const char *lt = memchr(r.s, '<', (size_t)(r.end - r.s));
        const char *stop = lt ? lt : r.end;
        ok = check_text(&r, r.s, stop);
        if (ok && depth == 0 && r.elements > 0 && skip_space(r.s, stop) != stop) {
            problem(v, path, "text after the root element");
            ok = false;
        }
        r.s = stop;
        if (!ok || !lt)
            break;
        if (r.s[1] == '!' || r.s[1] == '?') {
            ok = skip_special(&r) || (problem(v, path, "unknown markup '%.12s'", r.s), false);
        } else if (r.s[1] == '/') {
            size_t n = name_len(r.s + 2, r.end);
            const char *gt = skip_space(r.s + 2 + n, r.end);
            ok = depth > 0 && n == stack_len[depth - 1] && !strncmp(r.s + 2, stack[depth - 1], n) &&
                 gt < r.end && *gt == '>';
            if (!ok)
                problem(v, path, "mismatched end tag near '%.20s'", r.s);
            depth--;
            r.s = gt + 1;
        } else if (depth > 0 && r.elements > 0 && depth >= MAX_DEPTH - 1) {
            problem(v, path, "elements nested too deep");
            ok = false;
        } else if (depth == 0 && r.elements > 0) {
            problem(v, path, "a second root element");
            ok = false;
        } else {
            ok = start_tag(&r, stack, stack_len, &depth);
        }
    }
    if (ok && depth != 0) {
        problem(v, path, "unclosed <%.*s>", (int)stack_len[depth - 1], stack[depth - 1]);
        ok = false;
    }
    if (ok && r.elements == 0) {
        problem(v, path, "no element");
        ok = false;
    }
    *out = r;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

static void check_markdown_links(verifier *v, const char *path, const char *text, size_t len)
{
    cmark_node *doc = cmark_parse_document(text, len, CMARK_OPT_DEFAULT);
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (ev == CMARK_EVENT_ENTER && (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)) {
            const char *url = cmark_node_get_url(n);
            if (url && !has_scheme(url))
                check_url(v, path, url, t == CMARK_NODE_IMAGE);
        }
    }
    cmark_iter_free(it);
    cmark_node_free(doc);
}

/* Whether "%%EOF" lies in the last 32 bytes of a file. */
static bool ends_with_eof(const char *text, size_t len)
{
    for (size_t i = len >= 32 ? len - 32 : 0; i + 5 <= len; i++)
        if (memcmp(text + i, "%%EOF", 5) == 0)
            return true;
    return false;
}

static void check_file(verifier *v, const char *path)
{
    rbuf full;
    rbuf_init(&full);
    rbuf_printf(&full, "%s/%s", v->root, path);
    size_t len = 0;
    char *text = fileio_read_file(rbuf_str(&full), &len);
    rbuf_free(&full);
    if (!text) {
        problem(v, path, "cannot read");
        return;
    }
    xml_reader r;
    if (has_suffix(path, ".html")) {
        v->report->pages++;
        if (xml_check(v, path, text, len, true, &r) && !attr_is(r.root, r.root_len, "html"))
            problem(v, path, "the root element is not <html>");
    } else if (has_suffix(path, ".svg")) {
        v->report->charts++;
        if (xml_check(v, path, text, len, false, &r) &&
            (!attr_is(r.root, r.root_len, "svg") || r.drawing < 5))
            problem(v, path, "not an SVG with a drawing (%d drawing elements)", r.drawing);
    } else if (has_suffix(path, ".xml")) {
        xml_check(v, path, text, len, false, &r);
    } else if (has_suffix(path, ".md")) {
        check_markdown_links(v, path, text, len);
    } else if (has_suffix(path, ".pdf")) {
        /* Its header and its end-of-file marker: a truncated PDF lacks the
         * latter (pdfinfo in the tests reads it whole). */
        if (len < 16 || memcmp(text, "%PDF-", 5) != 0 || !ends_with_eof(text, len))
            problem(v, path, "not a whole PDF (no %%PDF- header, or no %%%%EOF at its end)");
    } else if (has_suffix(path, ".png")) {
        png_info info;
        if (!png_inspect(text, len, &info))
            problem(v, path, "not a PNG that can be decoded");
        else if (info.width < 100 || info.height < 100 || info.colors < 3)
            problem(v, path, "a trivial image (%dx%d, %zu colours)", info.width, info.height,
                    info.colors);
    }
    free(text);
}

/* Add every regular file under root/rel ("" = the root) to files. */
static bool collect(const char *root, const char *rel, string_list *files, int depth)
{
    rbuf dir;
    rbuf_init(&dir);
    rbuf_printf(&dir, "%s%s%s", root, rel[0] ? "/" : "", rel);
    DIR *d = depth < 32 ? opendir(rbuf_str(&dir)) : NULL;
    bool ok = d != NULL;
    struct dirent *de;
    while (ok && (de = readdir(d)) != NULL) {
        /* Hidden entries (.git, .ssh) are the user's, not the site's;
         * the manifest is checked by check_manifest. */
        if (de->d_name[0] == '.' && (rel[0] || strcmp(de->d_name, site_manifest_name) != 0))
            continue;
        rbuf path, full;
        rbuf_init(&path), rbuf_init(&full);
        rbuf_printf(&path, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
        rbuf_printf(&full, "%s/%s", root, rbuf_str(&path));
        struct stat st;
        bool known = lstat(rbuf_str(&full), &st) == 0;
        if (known && S_ISDIR(st.st_mode))
            ok = collect(root, rbuf_str(&path), files, depth + 1);
        else if (known && S_ISREG(st.st_mode))
            ok = list_add(files, rbuf_take(&path));
        rbuf_free(&path), rbuf_free(&full);
    }
    if (d)
        closedir(d);
    rbuf_free(&dir);
    return ok;
}

static void check_links(verifier *v)
{
    for (size_t i = 0; i < v->nlinks; i++) {
        const link_ref *l = &v->links[i];
        if (!list_has(&v->files, l->target)) {
            problem(v, l->from, "link to %s, which does not exist", l->target);
            continue;
        }
        if (l->fragment && has_suffix(l->target, ".html") && has_suffix(l->from, ".html")) {
            rbuf key;
            rbuf_init(&key);
            rbuf_printf(&key, "%s#%s", l->target, l->fragment);
            if (!list_has(&v->ids, rbuf_str(&key)))
                problem(v, l->from, "link to %s#%s: no such id", l->target, l->fragment);
            rbuf_free(&key);
        }
    }
}

/* Every file the manifest lists is there with the bytes it records: a
 * page changed in place, even at the same size, is a problem. */
static void check_manifest(verifier *v)
{
    site_manifest m = {0};
    if (!site_manifest_load(v->root, &m) || m.n == 0)
        problem(v, site_manifest_name, "missing or empty (the list of files perfcast wrote)");
    for (size_t i = 0; i < m.n; i++) {
        const site_manifest_entry *e = &m.items[i];
        char *full = fileio_join(v->root, e->path);
        size_t len = 0;
        char *bytes = full ? fileio_read_file(full, &len) : NULL;
        if (!bytes)
            problem(v, e->path, "listed in %s but cannot be read", site_manifest_name);
        else if (len != e->size || hash_bytes(bytes, len, 0) != e->hash)
            problem(v, e->path, "changed since perfcast wrote it (%zu bytes, %s records %zu and "
                    "another hash)", len, site_manifest_name, e->size);
        free(bytes);
        free(full);
    }
    site_manifest_free(&m);
}

bool site_verify(const char *dir, site_report *report)
{
    memset(report, 0, sizeof *report);
    verifier v = {.root = dir, .report = report};
    if (!collect(dir, "", &v.files, 0))
        problem(&v, dir, "cannot list the site");
    if (v.files.n)
        qsort(v.files.items, v.files.n, sizeof *v.files.items, compare_strings);
    report->files = v.files.n;
    for (size_t i = 0; i < v.files.n; i++)
        check_file(&v, v.files.items[i]);
    if (v.ids.n)
        qsort(v.ids.items, v.ids.n, sizeof *v.ids.items, compare_strings);
    check_links(&v);
    check_manifest(&v);
    for (size_t i = 0; i < v.nlinks; i++)
        free(v.links[i].from), free(v.links[i].target), free(v.links[i].fragment);
    free(v.links);
    list_free(&v.files);
    list_free(&v.ids);
    report->problems = v.problems.items;
    report->nproblems = v.problems.n;
    return report->nproblems == 0;
}

void site_report_free(site_report *report)
{
    for (size_t i = 0; i < report->nproblems; i++)
        free(report->problems[i]);
    free(report->problems);
    memset(report, 0, sizeof *report);
}
