/*
 * verify_site_main.c — `verify_site DIR`: the independent site check
 * (tests/verify_site.h) as a command. Prints each problem and a count;
 * exits 1 when there is any.
 */
#include <stdio.h>

#include "tests/verify_site.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: verify_site DIR\n");
        return 2;
    }
    verify_counts c;
    size_t n = verify_site(argv[1], stdout, &c);
    printf("verify_site %s: %zu pages, %zu links, %zu problem%s\n", argv[1], c.pages, c.links, n,
           n == 1 ? "" : "s");
    return n ? 1 : 0;
}
