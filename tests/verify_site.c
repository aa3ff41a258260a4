/*
 * verify_site.c — see verify_site.h. Uses libxml2 only (and POSIX for the
 * files), nothing of perfcast's own code.
 */
#include "tests/verify_site.h"

#include <ctype.h>
#include <dirent.h>
#include <libxml/HTMLparser.h>
#include <libxml/hash.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ALT 150

typedef struct {
    char *path;        /* relative to the site, "campaigns/x/index.html" */
    htmlDocPtr doc;
    xmlHashTablePtr ids;
    size_t *links;     /* pages this one links to by <a href> */
    size_t nlinks, cap;
} page;

typedef struct {
    const char *dir;
    page *pages;
    size_t npages, cap;
    FILE *report;
    verify_counts counts;
    const page *current;
} site;

static void problem(site *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void problem(site *s, const char *fmt, ...)
{
    s->counts.problems++;
    if (!s->report)
        return;
    fprintf(s->report, "%s: ", s->current ? s->current->path : s->dir);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->report, fmt, ap);
    va_end(ap);
    fputc('\n', s->report);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, *a && *b ? "/" : "", b);
    return s;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool add_page(site *s, const char *rel)
{
    if (s->npages == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        page *p = realloc(s->pages, cap * sizeof *p);
        if (!p)
            return false;
        s->pages = p;
        s->cap = cap;
    }
    page *p = &s->pages[s->npages];
    memset(p, 0, sizeof *p);
    p->path = strdup(rel);
    s->npages += p->path != NULL;
    return p->path != NULL;
}

/* Every .html file under rel, in sorted order (scandir + alphasort). */
static bool scan(site *s, const char *rel)
{
    char *full = join(s->dir, rel);
    struct dirent **names;
    int n = full ? scandir(full, &names, NULL, alphasort) : -1;
    free(full);
    if (n < 0)
        return false;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        char *child = name[0] == '.' ? NULL : join(rel, name);
        char *child_full = child ? join(s->dir, child) : NULL;
        struct stat st;
        if (child_full && stat(child_full, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                ok = scan(s, child) && ok;
            else if (ends_with(name, ".html"))
                ok = add_page(s, child) && ok;
        }
        free(child);
        free(child_full);
        free(names[i]);
    }
    free(names);
    return ok;
}

static int page_index(const site *s, const char *path)
{
    for (size_t i = 0; i < s->npages; i++)
        if (strcmp(s->pages[i].path, path) == 0)
            return (int)i;
    return -1;
}

static bool is_file(const site *s, const char *rel)
{
    char *full = join(s->dir, rel);
    struct stat st;
    bool ok = full && stat(full, &st) == 0 && S_ISREG(st.st_mode);
    free(full);
    return ok;
}

/* ------------------------------------------------------------------ */
/* URLs                                                                */

/* "http:", "mailto:", "//host": not a file of the site. */
static bool is_absolute(const char *url)
{
    if (url[0] == '/' && url[1] == '/')
        return true;
    for (const char *c = url; *c && !strchr("/?#", *c); c++)
        if (*c == ':')
            return true;
    return false;
}

static int hex(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* The site-relative file a relative URL names from the page at base, with
 * %XX decoded and "." and ".." resolved; NULL when it leaves the site.
 * *fragment points into url after '#' (or is NULL). */
static char *resolve(const char *base, const char *url, const char **fragment)
{
    const char *hash = strchr(url, '#');
    *fragment = hash ? hash + 1 : NULL;
    size_t len = strcspn(url, "?#");
    size_t blen = strlen(base);
    char *buf = malloc(blen + len + 2);
    if (!buf)
        return NULL;
    const char *slash = strrchr(base, '/');
    size_t dir = len == 0 ? blen : slash ? (size_t)(slash - base) + 1 : 0;
    memcpy(buf, base, dir);
    size_t n = dir;
    for (size_t i = 0; i < len; i++) {
        if (url[i] == '%' && i + 2 < len && hex(url[i + 1]) >= 0 && hex(url[i + 2]) >= 0) {
            buf[n++] = (char)(hex(url[i + 1]) * 16 + hex(url[i + 2]));
            i += 2;
        } else {
            buf[n++] = url[i];
        }
    }
    buf[n] = '\0';
    /* Normalise the segments in place. */
    char *out = malloc(n + 1);
    if (!out) {
        free(buf);
        return NULL;
    }
    size_t o = 0;
    bool escaped = false;
    for (char *seg = buf; seg && !escaped;) {
        char *next = strchr(seg, '/');
        if (next)
            *next++ = '\0';
        if (strcmp(seg, "..") == 0) {
            if (o == 0)
                escaped = true;
            while (o > 0 && out[--o] != '/')
                ;
        } else if (*seg && strcmp(seg, ".") != 0) {
            if (o > 0)
                out[o++] = '/';
            memcpy(out + o, seg, strlen(seg));
            o += strlen(seg);
        } else if (!next && o > 0) {
            out[o++] = '/'; /* "dir/" names a directory */
        }
        seg = next;
    }
    out[o] = '\0';
    free(buf);
    if (escaped) {
        free(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------------ */
/* Walking a page                                                      */

static bool named(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && xmlStrcasecmp(n->name, BAD_CAST name) == 0;
}

/* An attribute's value (xmlFree it), or NULL. */
static char *attr(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetProp(n, BAD_CAST name);
}

static void collect_ids(xmlNodePtr n, xmlHashTablePtr ids)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        char *id = attr(n, "id");
        if (id)
            xmlHashAddEntry(ids, BAD_CAST id, ids);
        xmlFree(id);
        collect_ids(n->children, ids);
    }
}

static bool has_token(const char *list, const char *token)
{
    size_t k = strlen(token);
    for (const char *s = list; s && *s;) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        if (n == k && strncasecmp(s, token, k) == 0)
            return true;
        s += n;
    }
    return false;
}

/* The page's own Markdown twin: x.html -> x.md. */
static bool is_own_markdown(const page *p, const char *target)
{
    size_t n = strlen(p->path) - strlen(".html");
    return strlen(target) == n + 3 && strncmp(target, p->path, n) == 0 &&
           strcmp(target + n, ".md") == 0;
}

static void add_link(page *p, size_t to)
{
    if (p->nlinks == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        size_t *l = realloc(p->links, cap * sizeof *l);
        if (!l)
            return;
        p->links = l;
        p->cap = cap;
    }
    p->links[p->nlinks++] = to;
}

/* Follow one URL of element el on page p. */
static void check_url(site *s, page *p, xmlNodePtr el, const char *url)
{
    s->counts.links++;
    while (*url == ' ')
        url++;
    if (!*url) {
        problem(s, "an empty %s link", (const char *)el->name);
        return;
    }
    if (is_absolute(url))
        return;
    const char *fragment;
    char *target = resolve(p->path, url, &fragment);
    if (!target) {
        problem(s, "link \"%s\" leaves the site", url);
        return;
    }
    bool anchor = named(el, "a") || named(el, "link");
    if (anchor && ends_with(target, ".md")) {
        char *rel = attr(el, "rel"), *type = attr(el, "type");
        bool declared = has_token(rel, "alternate") && type && strcmp(type, "text/markdown") == 0;
        if (!declared || !is_own_markdown(p, target))
            problem(s, "links the Markdown file \"%s\"%s", url,
                    declared ? " (not this page's own)" : " (not its \"as Markdown\" link)");
        xmlFree(rel);
        xmlFree(type);
    }
    if (!is_file(s, target)) {
        problem(s, "link \"%s\" leads nowhere (%s is not a file of the site)", url,
                *target ? target : "the site's root");
    } else if (ends_with(target, ".html")) {
        int to = page_index(s, target);
        if (to >= 0 && named(el, "a"))
            add_link(p, (size_t)to);
        if (to >= 0 && fragment && *fragment &&
            !xmlHashLookup(s->pages[to].ids, BAD_CAST fragment))
            problem(s, "link \"%s\" names no element: no id \"%s\" on that page", url, fragment);
    }
    free(target);
}

/* <source srcset="a.png 1x, b.png 2x">: each candidate's URL. */
static void check_srcset(site *s, page *p, xmlNodePtr el, const char *set)
{
    char *copy = strdup(set);
    for (char *c = copy, *next; c; c = next) {
        next = strchr(c, ',');
        if (next)
            *next++ = '\0';
        while (*c == ' ')
            c++;
        c[strcspn(c, " ")] = '\0';
        check_url(s, p, el, c);
    }
    free(copy);
}

/* "2.3e-04", "1E6": a number in e-notation, not inside a word. */
static const char *e_notation(const char *t)
{
    for (const char *c = t; *c; c++) {
        if (!isdigit((unsigned char)*c) || (c > t && (isalnum((unsigned char)c[-1]) ||
                                                      c[-1] == '_' || c[-1] == '.')))
            continue;
        const char *d = c;
        while (isdigit((unsigned char)*d))
            d++;
        if (*d == '.')
            for (d++; isdigit((unsigned char)*d); d++)
                ;
        if (*d != 'e' && *d != 'E')
            continue;
        d++;
        if (*d == '+' || *d == '-')
            d++;
        if (!isdigit((unsigned char)*d))
            continue;
        while (isdigit((unsigned char)*d))
            d++;
        if (!isalpha((unsigned char)*d) && *d != '_')
            return c;
    }
    return NULL;
}

static void check_text(site *s, const char *text, const char *where)
{
    const char *e = text ? e_notation(text) : NULL;
    if (e) {
        char excerpt[40];
        snprintf(excerpt, sizeof excerpt, "%.30s", e);
        problem(s, "a number in e-notation (\"%s\") in %s", excerpt, where);
    }
}

static size_t element_text_len(xmlNodePtr n)
{
    xmlChar *t = xmlNodeGetContent(n);
    size_t len = 0;
    for (const xmlChar *c = t; c && *c; c++)
        len += !isspace(*c);
    xmlFree(t);
    return len;
}

static xmlNodePtr first_element(xmlNodePtr n)
{
    while (n && n->type != XML_ELEMENT_NODE)
        n = n->next;
    return n;
}

typedef struct {
    size_t h1;
    bool seen_link;     /* the first <a href> of the body has been judged */
    int quotes;         /* <blockquote> elements around the node */
} page_state;

static void check_element(site *s, page *p, xmlNodePtr n, page_state *st)
{
    static const struct { const char *element, *attribute; } urls[] = {
        {"a", "href"}, {"link", "href"}, {"img", "src"}, {"script", "src"}};
    for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        char *url = named(n, urls[i].element) ? attr(n, urls[i].attribute) : NULL;
        if (url && named(n, "a") && !st->seen_link) {
            st->seen_link = true;
            if (url[0] != '#' || !xmlHashLookup(p->ids, BAD_CAST(url + 1)))
                problem(s, "no skip link: the first link \"%s\" is not to an element of the "
                           "page", url);
        }
        if (url)
            check_url(s, p, n, url);
        xmlFree(url);
    }
    char *set = named(n, "source") ? attr(n, "srcset") : NULL;
    if (set)
        check_srcset(s, p, n, set);
    xmlFree(set);
    if (named(n, "h1"))
        st->h1++;
    if (named(n, "th")) {
        char *scope = attr(n, "scope");
        if (!scope || !*scope)
            problem(s, "a table header cell without scope");
        xmlFree(scope);
    }
    if (named(n, "table")) {
        xmlNodePtr first = first_element(n->children);
        if (!first || !named(first, "caption") || element_text_len(first) == 0)
            problem(s, "a table without a caption");
    }
    if (named(n, "img")) {
        char *alt = attr(n, "alt");
        size_t len = alt ? (size_t)xmlUTF8Strlen(BAD_CAST alt) : 0;
        if (len == 0 || len >= MAX_ALT) {
            char excerpt[60];
            snprintf(excerpt, sizeof excerpt, "%.50s", alt ? alt : "");
            if (len)
                problem(s, "an alt text of %zu characters, over %d (\"%s...\")", len,
                        MAX_ALT - 1, excerpt);
            else
                problem(s, "an image without alt text");
        }
        check_text(s, alt, "an alt text");
        xmlFree(alt);
    }
}

static void walk(site *s, page *p, xmlNodePtr n, page_state *st)
{
    for (; n; n = n->next) {
        if (n->type == XML_TEXT_NODE && st->quotes == 0)
            check_text(s, (const char *)n->content, "the text");
        if (n->type != XML_ELEMENT_NODE)
            continue;
        check_element(s, p, n, st);
        bool quote = named(n, "blockquote");
        st->quotes += quote;
        walk(s, p, n->children, st);
        st->quotes -= quote;
    }
}

static void check_page(site *s, page *p)
{
    s->current = p;
    page_state st = {0, false, 0};
    xmlNodePtr root = xmlDocGetRootElement(p->doc);
    walk(s, p, root, &st);
    if (st.h1 != 1) {
        problem(s, "%zu <h1> elements, not one", st.h1);
    }
    if (!st.seen_link)
        problem(s, "no skip link: the page has no link");
    s->current = NULL;
}

/* ------------------------------------------------------------------ */
/* The site                                                            */

static void check_reach(site *s)
{
    int start = page_index(s, "index.html");
    if (start < 0) {
        problem(s, "no index.html");
        return;
    }
    bool *reached = calloc(s->npages, sizeof *reached);
    size_t *queue = malloc(s->npages * sizeof *queue);
    if (!reached || !queue) {
        free(reached);
        free(queue);
        problem(s, "out of memory");
        return;
    }
    size_t head = 0, tail = 0;
    reached[start] = true;
    queue[tail++] = (size_t)start;
    while (head < tail) {
        const page *p = &s->pages[queue[head++]];
        for (size_t i = 0; i < p->nlinks; i++)
            if (!reached[p->links[i]]) {
                reached[p->links[i]] = true;
                queue[tail++] = p->links[i];
            }
    }
    for (size_t i = 0; i < s->npages; i++)
        if (!reached[i]) {
            s->current = &s->pages[i];
            problem(s, "not reachable from index.html by HTML links");
        }
    s->current = NULL;
    free(reached);
    free(queue);
}

size_t verify_site(const char *dir, FILE *report, verify_counts *counts)
{
    site s = {.dir = dir, .report = report};
    if (!scan(&s, ""))
        problem(&s, "cannot read the site's files");
    for (size_t i = 0; i < s.npages; i++) {
        page *p = &s.pages[i];
        char *full = join(dir, p->path);
        p->doc = full ? htmlReadFile(full, "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                                        HTML_PARSE_NONET)
                      : NULL;
        free(full);
        p->ids = xmlHashCreate(64);
        if (p->doc && p->ids)
            collect_ids(xmlDocGetRootElement(p->doc), p->ids);
    }
    for (size_t i = 0; i < s.npages; i++) {
        if (s.pages[i].doc) {
            check_page(&s, &s.pages[i]);
        } else {
            s.current = &s.pages[i];
            problem(&s, "not an HTML document libxml2 can read");
            s.current = NULL;
        }
    }
    check_reach(&s);
    for (size_t i = 0; i < s.npages; i++) {
        xmlFreeDoc(s.pages[i].doc);
        xmlHashFree(s.pages[i].ids, NULL);
        free(s.pages[i].links);
        free(s.pages[i].path);
    }
    free(s.pages);
    s.counts.pages = s.npages;
    if (counts)
        *counts = s.counts;
    return s.counts.problems;
}
