/*
 * test_drawlock.c — Cairo's fonts touched only under the drawing lock
 * (render/drawlock.h), and charts and PDF documents made on several
 * threads at once.
 *
 * The race the lock prevents (Cairo 1.16 aborts when one thread drops
 * the last reference to a scaled font while another takes it back from
 * the shared cache) is too rare to catch in a test's time through
 * perfcast's functions: a bare C loop of four threads selecting fonts
 * and drawing text aborts in about one run in five of a few seconds on
 * the 2-core machine; a loop of charts with the lock disabled did not
 * abort in about 30 s of runs. So the rule itself is checked: this test
 * is linked with -Wl,--wrap (tests/module.mk) for Cairo's font calls and
 * for the lock, and every font call render/ makes is counted as made with
 * or without the lock held by the calling thread. A text call moved outside
 * text_begin/text_end in plot.c, or a pdfdoc function that forgets the
 * lock, fails it (checked by removing each in turn). The threads'
 * drawings are also compared with a lone thread's, byte for byte.
 */
#include "tests/testutil.h"

#include "render/buf.h"
#include "render/drawlock.h"
#include "render/pdfdoc.h"
#include "render/plot.h"

#include <cairo.h>
#include <pthread.h>
#include <string.h>

enum { THREADS = 4, ROUNDS = 40, MAX_FONT_CONTEXTS = 64 };

/* ------------------------------------------------------------------ */
/* The wrapped calls                                                   */

void __real_drawlock_enter(void);
void __real_drawlock_leave(void);
void __real_cairo_select_font_face(cairo_t *cr, const char *family, cairo_font_slant_t slant,
                                   cairo_font_weight_t weight);
void __real_cairo_set_font_size(cairo_t *cr, double size);
void __real_cairo_set_font_options(cairo_t *cr, const cairo_font_options_t *options);
void __real_cairo_text_extents(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents);
void __real_cairo_show_text(cairo_t *cr, const char *utf8);
void __real_cairo_show_glyphs(cairo_t *cr, const cairo_glyph_t *glyphs, int num_glyphs);
cairo_scaled_font_t *__real_cairo_get_scaled_font(cairo_t *cr);
void __real_cairo_show_page(cairo_t *cr);
void __real_cairo_destroy(cairo_t *cr);
void __real_cairo_surface_finish(cairo_surface_t *surface);
void __real_cairo_surface_destroy(cairo_surface_t *surface);

static _Thread_local int lock_depth;
static size_t locked_calls, unlocked_calls; /* atomics */

/* The contexts that touched a font: destroying one releases fonts. */
static pthread_mutex_t contexts_lock = PTHREAD_MUTEX_INITIALIZER;
static cairo_t *font_contexts[MAX_FONT_CONTEXTS];

static void count_call(void)
{
    __atomic_add_fetch(lock_depth > 0 ? &locked_calls : &unlocked_calls, 1, __ATOMIC_RELAXED);
}

/* Counts a font call on cr and remembers cr; with forget, forgets it
 * and says whether it was there. */
static bool font_context(cairo_t *cr, bool forget)
{
    bool found = false;
    pthread_mutex_lock(&contexts_lock);
    size_t free_slot = MAX_FONT_CONTEXTS;
    for (size_t i = 0; i < MAX_FONT_CONTEXTS && !found; i++) {
        if (font_contexts[i] == cr) {
            found = true;
            if (forget)
                font_contexts[i] = NULL;
        } else if (!font_contexts[i] && free_slot == MAX_FONT_CONTEXTS) {
            free_slot = i;
        }
    }
    if (!found && !forget && free_slot < MAX_FONT_CONTEXTS)
        font_contexts[free_slot] = cr;
    pthread_mutex_unlock(&contexts_lock);
    return found;
}

static void font_call(cairo_t *cr)
{
    count_call();
    font_context(cr, false);
}

void __wrap_drawlock_enter(void)
{
    __real_drawlock_enter();
    lock_depth++;
}

void __wrap_drawlock_leave(void)
{
    lock_depth--;
    __real_drawlock_leave();
}

void __wrap_cairo_select_font_face(cairo_t *cr, const char *family, cairo_font_slant_t slant,
                                   cairo_font_weight_t weight)
{
    font_call(cr);
    __real_cairo_select_font_face(cr, family, slant, weight);
}

void __wrap_cairo_set_font_size(cairo_t *cr, double size)
{
    font_call(cr);
    __real_cairo_set_font_size(cr, size);
}

void __wrap_cairo_set_font_options(cairo_t *cr, const cairo_font_options_t *options)
{
    font_call(cr);
    __real_cairo_set_font_options(cr, options);
}

void __wrap_cairo_text_extents(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents)
{
    font_call(cr);
    __real_cairo_text_extents(cr, utf8, extents);
}

void __wrap_cairo_show_text(cairo_t *cr, const char *utf8)
{
    font_call(cr);
    __real_cairo_show_text(cr, utf8);
}

void __wrap_cairo_show_glyphs(cairo_t *cr, const cairo_glyph_t *glyphs, int num_glyphs)
{
    font_call(cr);
    __real_cairo_show_glyphs(cr, glyphs, num_glyphs);
}

cairo_scaled_font_t *__wrap_cairo_get_scaled_font(cairo_t *cr)
{
    font_call(cr);
    return __real_cairo_get_scaled_font(cr);
}

/* A PDF page replays its text. */
void __wrap_cairo_show_page(cairo_t *cr)
{
    count_call();
    __real_cairo_show_page(cr);
}

void __wrap_cairo_destroy(cairo_t *cr)
{
    if (font_context(cr, true))
        count_call();
    __real_cairo_destroy(cr);
}

/* A PDF surface holds the fonts of its text until it is finished. */
static void pdf_surface_call(cairo_surface_t *surface)
{
    if (cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_PDF)
        count_call();
}

void __wrap_cairo_surface_finish(cairo_surface_t *surface)
{
    pdf_surface_call(surface);
    __real_cairo_surface_finish(surface);
}

void __wrap_cairo_surface_destroy(cairo_surface_t *surface)
{
    pdf_surface_call(surface);
    __real_cairo_surface_destroy(surface);
}

/* ------------------------------------------------------------------ */
/* The drawings                                                        */

static const double xs[] = {1, 2, 4, 8, 16}, ys[] = {10, 5.2, 2.7, 1.5, 0.9};

static bool draw_figure(const void *ctx, cairo_t *cr, double *width, double *height, char *err,
                        size_t errlen)
{
    int h = 0;
    bool ok = cr ? plot_draw(ctx, cr, &h, err, errlen) : plot_measure(ctx, &h, err, errlen);
    *width = PLOT_WIDTH;
    *height = h;
    return ok;
}

typedef struct {
    rbuf svg, png, pdf; /* the last round's bytes */
    size_t failures;
} drawn;

static void drawn_init(drawn *d)
{
    rbuf_init(&d->svg), rbuf_init(&d->png), rbuf_init(&d->pdf);
    d->failures = 0;
}

static void drawn_free(drawn *d)
{
    rbuf_free(&d->svg), rbuf_free(&d->png), rbuf_free(&d->pdf);
}

/* One round: a chart as SVG and PNG (a title, a vertical axis label, a
 * legend), and a PDF of text, a table and the chart as a figure. */
static bool draw_round(drawn *d)
{
    plot_layer layers[2] = {
        {.kind = LAYER_POINTS, .legend = "measured", .color = 0, .x = xs, .y = ys, .n = 5},
        {.kind = LAYER_LINE, .legend = "strip model, fitted on 1-4", .color = 1, .x = xs, .y = ys,
         .n = 5},
    };
    plot_spec spec = {.title = "Strong scaling, N = 4096", .x_label = "processors",
                      .y_label = "time (s)", .x_scale = SCALE_LOG2, .y_scale = SCALE_LOG10,
                      .layers = layers, .nlayers = 2};
    char err[128];
    rbuf_clear(&d->svg), rbuf_clear(&d->png), rbuf_clear(&d->pdf);
    bool ok = plot_render(&spec, PLOT_SVG, &d->svg, err, sizeof err) &&
              plot_render(&spec, PLOT_PNG, &d->png, err, sizeof err);
    pdfdoc *doc = pdfdoc_begin(&d->pdf, "Threads", "2026-11-27", err, sizeof err);
    if (!doc)
        return false;
    pdfdoc_title(doc, "Cluster report");
    pdfdoc_heading(doc, 1, "Options");
    pdfdoc_paragraph(doc, "Each option's time and cost, with its 95% interval.");
    static const char *const head[] = {"job", "time", "cost"};
    static const char *const cells[] = {"N=4096 np=16", "1.5 s", "0.02 EUR"};
    pdfdoc_table(doc, &(pdfdoc_table_spec){3, 1, head, "lrr", cells});
    ok = pdfdoc_figure(doc, draw_figure, &spec, err, sizeof err) && ok;
    pdfdoc_heading(doc, 1, "Second page");
    return pdfdoc_end(doc, NULL, err, sizeof err) && ok;
}

static void *draw_rounds(void *arg)
{
    drawn *d = arg;
    for (int r = 0; r < ROUNDS; r++)
        d->failures += !draw_round(d);
    return NULL;
}

static bool same_bytes(const rbuf *a, const rbuf *b)
{
    return a->len == b->len && a->len > 0 && memcmp(a->data, b->data, a->len) == 0;
}

static void test_fonts_under_the_lock(void)
{
    drawn alone;
    drawn_init(&alone);
    CU_ASSERT_TRUE_FATAL(draw_round(&alone));
    /* The wrapping is in effect, and no font call was made unlocked. */
    CU_ASSERT_TRUE(__atomic_load_n(&locked_calls, __ATOMIC_RELAXED) > 50);
    CU_ASSERT_EQUAL(__atomic_load_n(&unlocked_calls, __ATOMIC_RELAXED), 0);
    drawn_free(&alone);
}

static void test_threads_draw_at_once(void)
{
    drawn alone, each[THREADS];
    drawn_init(&alone);
    CU_ASSERT_TRUE_FATAL(draw_round(&alone));
    pthread_t t[THREADS];
    size_t started = 0;
    for (size_t i = 0; i < THREADS; i++) {
        drawn_init(&each[i]);
        started += pthread_create(&t[i], NULL, draw_rounds, &each[i]) == 0;
    }
    CU_ASSERT_EQUAL(started, THREADS);
    for (size_t i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        CU_ASSERT_EQUAL(each[i].failures, 0);
        CU_ASSERT_TRUE(same_bytes(&each[i].svg, &alone.svg));
        CU_ASSERT_TRUE(same_bytes(&each[i].png, &alone.png));
        CU_ASSERT_TRUE(same_bytes(&each[i].pdf, &alone.pdf));
    }
    CU_ASSERT_EQUAL(__atomic_load_n(&unlocked_calls, __ATOMIC_RELAXED), 0);
    for (size_t i = 0; i < THREADS; i++)
        drawn_free(&each[i]);
    drawn_free(&alone);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"every font call made under the drawing lock", test_fonts_under_the_lock},
        {"charts and PDFs drawn on several threads at once", test_threads_draw_at_once},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"drawlock", tests}, {NULL, NULL}};
    int rc = testutil_run_suites(suites);
    plot_release_fonts();
    return rc;
}
