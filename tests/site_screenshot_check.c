/*
 * site_screenshot_check.c — `make screenshots`' judge:
 *
 *   site_screenshot_check [--light|--dark] PNG...
 *
 * Is each PNG a real screenshot (decodes, at least 300 x 300 pixels, and
 * not blank: many colours, where an empty page has one or two)? With
 * --light its mean luminance must be above one half (a light page), with
 * --dark below (the page followed prefers-color-scheme: dark).
 */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/fileio.h"
#include "render/png.h"

/* Mean relative luminance (0 black .. 1 white) of a decoded PNG, or -1. */
static double mean_luminance(const void *data, size_t len)
{
    cairo_surface_t *s = png_decode(data, len);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    cairo_surface_flush(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *px = cairo_image_surface_get_data(s);
    double sum = 0;
    for (int y = 0; px && y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned v = ((const unsigned *)(const void *)(px + (size_t)y * (size_t)stride))[x];
            sum += (0.2126 * ((v >> 16) & 0xff) + 0.7152 * ((v >> 8) & 0xff) +
                    0.0722 * (v & 0xff)) / 255.0;
        }
    cairo_surface_destroy(s);
    return w > 0 && h > 0 ? sum / ((double)w * h) : -1;
}

int main(int argc, char **argv)
{
    int first = 1, scheme = 0; /* 1 light, -1 dark, 0 either */
    if (argc > 1 && strcmp(argv[1], "--light") == 0)
        scheme = 1, first = 2;
    else if (argc > 1 && strcmp(argv[1], "--dark") == 0)
        scheme = -1, first = 2;
    int status = argc > first ? 0 : 2;
    for (int i = first; i < argc; i++) {
        size_t len = 0;
        char *data = fileio_read_file(argv[i], &len);
        png_info info;
        bool ok = data && png_inspect(data, len, &info) && info.width >= 300 &&
                  info.height >= 300 && info.colors >= 8;
        double lum = ok ? mean_luminance(data, len) : -1;
        bool scheme_ok = scheme == 0 || (scheme > 0 ? lum > 0.5 : lum >= 0 && lum < 0.5);
        if (ok && scheme_ok)
            printf("%s: %dx%d, not blank, mean luminance %.2f\n", argv[i], info.width,
                   info.height, lum);
        else
            fprintf(stderr, "%s: %s\n", argv[i],
                    !data ? "missing"
                    : !ok ? "not a non-blank screenshot"
                          : scheme > 0 ? "not a light page" : "not a dark page");
        status |= !(ok && scheme_ok);
        free(data);
    }
    return status;
}
