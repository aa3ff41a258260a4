/*
 * site_screenshot_check.c — `make screenshots`' judge: is each PNG given
 * a real screenshot (decodes, at least 300 x 300 pixels, and not blank:
 * many colours, where an empty page has one or two)?
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen/fileio.h"
#include "render/png.h"

int main(int argc, char **argv)
{
    int status = argc > 1 ? 0 : 2;
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        char *data = fileio_read_file(argv[i], &len);
        png_info info;
        bool ok = data && png_inspect(data, len, &info) && info.width >= 300 &&
                  info.height >= 300 && info.colors >= 8;
        if (data && ok)
            printf("%s: %dx%d, not blank\n", argv[i], info.width, info.height);
        else
            fprintf(stderr, "%s: %s\n", argv[i], !data ? "missing" : "not a non-blank screenshot");
        status |= !ok;
        free(data);
    }
    return status;
}
