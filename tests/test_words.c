/*
 * test_words.c — the word splitter every name rule reads through
 * (gen/base/words.h), on hand-written names: separators of every kind,
 * case, empty names, the last word, and words that only contain a listed
 * word (which must not count).
 */
#include "tests/testutil.h"

#include <string.h>

#include "gen/base/words.h"

static const char *const colours[] = {"red", "green", "t", NULL};

static void test_word_length(void)
{
    CU_ASSERT_EQUAL(words_len("elapsed-time"), 7);
    CU_ASSERT_EQUAL(words_len("time_main_s"), 4);
    CU_ASSERT_EQUAL(words_len("_time"), 0);
    CU_ASSERT_EQUAL(words_len(""), 0);
    CU_ASSERT_EQUAL(words_len("abc9"), 4);
}

static void test_one_of(void)
{
    CU_ASSERT_TRUE(words_is_one_of("RED", 3, colours));
    CU_ASSERT_TRUE(words_is_one_of("reddish", 3, colours)); /* only len characters */
    CU_ASSERT_FALSE(words_is_one_of("reddish", 7, colours));
    CU_ASSERT_FALSE(words_is_one_of("re", 2, colours));
    CU_ASSERT_FALSE(words_is_one_of("", 0, colours));
}

static void test_any_word(void)
{
    CU_ASSERT_TRUE(words_any_in("dark red", colours));
    CU_ASSERT_TRUE(words_any_in("dark_Red_paint", colours));
    CU_ASSERT_TRUE(words_any_in("t [ms]", colours));
    CU_ASSERT_TRUE(words_any_in("--green--", colours));
    CU_ASSERT_FALSE(words_any_in("reddish", colours)); /* a word containing one is not one */
    CU_ASSERT_FALSE(words_any_in("start", colours));   /* nor is a word containing "t" */
    CU_ASSERT_FALSE(words_any_in("", colours));
    CU_ASSERT_FALSE(words_any_in("__ --", colours));
}

static void test_last_word(void)
{
    CU_ASSERT_TRUE(words_last_in("paint_red", colours));
    CU_ASSERT_TRUE(words_last_in("paint red [", colours)); /* separators after it do not count */
    CU_ASSERT_FALSE(words_last_in("red_paint", colours));
    CU_ASSERT_FALSE(words_last_in("", colours));
    CU_ASSERT_FALSE(words_last_in("_", colours));
}

static void test_free_text(void)
{
    CU_ASSERT_TRUE(words_text_contains("10GbE", "gbe")); /* a substring counts here */
    CU_ASSERT_TRUE(words_text_contains("Oversubscribed: 4 on 2", "oversubscribed"));
    CU_ASSERT_TRUE(words_text_contains("x", ""));
    CU_ASSERT_FALSE(words_text_contains("ether", "ethernet"));
    CU_ASSERT_FALSE(words_text_contains(NULL, "gige"));
    CU_ASSERT_FALSE(words_text_contains("", "gige"));
}

int main(void)
{
    static const testutil_test tests[] = {
        {"the length of a word", test_word_length},
        {"a word among a list", test_one_of},
        {"some word of a name", test_any_word},
        {"the last word of a name", test_last_word},
        {"a needle in free text", test_free_text},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"words", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
