/*
 * test_import_rowset.c — the set of rows an import has written
 * (gen/import/import_rowset.h), by hand: equal lines found, a line that
 * is a prefix of another (or extends it) not, a quoted cell holding a line
 * end kept whole, and the same answers after the set grows.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>

#include "gen/import/import_rowset.h"
#include "render/buf.h"

/* Append line to buf and the set. */
static void add(import_rowset *s, rbuf *buf, const char *line)
{
    size_t at = buf->len, len = strlen(line);
    CU_ASSERT_TRUE_FATAL(rbuf_put(buf, line, len));
    CU_ASSERT_TRUE_FATAL(import_rowset_add(s, rbuf_str(buf), buf->len, at, len));
}

static bool has(const import_rowset *s, const rbuf *buf, const char *line)
{
    return import_rowset_has(s, rbuf_str(buf), buf->len, line, strlen(line));
}

static void test_lines(void)
{
    import_rowset s;
    rbuf buf;
    import_rowset_init(&s);
    rbuf_init(&buf);
    rbuf_puts(&buf, "cluster,np,time_s\n"); /* the header is never a row */
    add(&s, &buf, "a,4,1.5\n");
    add(&s, &buf, "a,\"x\ny\",2\n");
    add(&s, &buf, "a,4,1.5\n"); /* twice: counted once */
    CU_ASSERT_EQUAL(s.n, 2);
    CU_ASSERT_TRUE(has(&s, &buf, "a,4,1.5\n"));
    CU_ASSERT_TRUE(has(&s, &buf, "a,\"x\ny\",2\n"));
    CU_ASSERT_FALSE(has(&s, &buf, "a,4,1.\n"));
    CU_ASSERT_FALSE(has(&s, &buf, "a,4,1.55\n"));
    CU_ASSERT_FALSE(has(&s, &buf, "a,\"x\n"));
    CU_ASSERT_FALSE(has(&s, &buf, "cluster,np,time_s\n"));
    rbuf_free(&buf);
    import_rowset_free(&s);
}

/* Ten thousand rows: the set grows many times and still finds each. */
static void test_growth(void)
{
    import_rowset s;
    rbuf buf;
    import_rowset_init(&s);
    rbuf_init(&buf);
    char line[64];
    for (int i = 0; i < 10000; i++) {
        snprintf(line, sizeof line, "c,%d,%d.5\n", i % 97, i);
        add(&s, &buf, line);
    }
    CU_ASSERT_EQUAL(s.n, 10000);
    int found = 0;
    for (int i = 0; i < 10000; i++) {
        snprintf(line, sizeof line, "c,%d,%d.5\n", i % 97, i);
        found += has(&s, &buf, line);
    }
    CU_ASSERT_EQUAL(found, 10000);
    snprintf(line, sizeof line, "c,%d,%d.5\n", 1, 10000);
    CU_ASSERT_FALSE(has(&s, &buf, line));
    rbuf_free(&buf);
    import_rowset_free(&s);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"lines by hand", test_lines},
        {"ten thousand rows", test_growth},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"import rowset", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
