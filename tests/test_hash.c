/*
 * test_hash.c — the one hash (gen/base/hash.h). Reference values computed
 * independently of the C code (Python integers, from the definition in
 * hash.c: start seed ^ 0x9E3779B97F4A7C15*(len+1), each little-endian
 * 8-byte word mixed by xor, *0xFF51AFD7ED558CCD and h ^= h >> 32, the
 * zero-padded tail by xor, *0xC4CEB9FE1A85EC53 and h ^= h >> 29, all mod
 * 2^64): the values are written into published sites, so they must not
 * drift. And the stream: any split into pieces gives hash_bytes's value.
 */
#include "tests/testutil.h"

#include "gen/base/hash.h"

#include <string.h>

static const char fox[] = "The quick brown fox jumps over the lazy dog";

static void test_reference_values(void)
{
    CU_ASSERT_EQUAL(hash_bytes(NULL, 0, 0), 0x90f8749b0fb13233ull);
    CU_ASSERT_EQUAL(hash_bytes("perfcast", 8, 0), 0xccb6e09e2c637012ull);
    CU_ASSERT_EQUAL(hash_bytes(fox, strlen(fox), 0), 0xc7bad99548e8fc11ull);
    CU_ASSERT_EQUAL(hash_bytes("abc", 3, 7), 0x31e33c456af49c11ull);
}

/* Every split of fox into three pieces (empty ones included). */
static void test_stream_any_split(void)
{
    size_t n = strlen(fox), wrong = 0, tried = 0;
    uint64_t want = hash_bytes(fox, n, 5);
    for (size_t a = 0; a <= n; a++)
        for (size_t b = a; b <= n; b++, tried++) {
            hash_stream s;
            hash_stream_begin(&s, n, 5);
            hash_stream_add(&s, fox, a);
            hash_stream_add(&s, fox + a, b - a);
            hash_stream_add(&s, fox + b, n - b);
            wrong += hash_stream_end(&s) != want;
        }
    CU_ASSERT_EQUAL(tried, (n + 1) * (n + 2) / 2);
    CU_ASSERT_EQUAL(wrong, 0);
    hash_stream s;
    hash_stream_begin(&s, 0, 0);
    hash_stream_add(&s, NULL, 0);
    CU_ASSERT_EQUAL(hash_stream_end(&s), 0x90f8749b0fb13233ull);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"reference values, derived outside the C code", test_reference_values},
        {"a stream split anywhere gives the same value", test_stream_any_split},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"hash", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
