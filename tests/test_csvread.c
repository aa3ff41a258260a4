/*
 * test_csvread.c — CSV reading: RFC 4180 quoting, line ends, BOM, blank
 * lines, positions (plain lines split without libcsv), numbers (strtod's,
 * bit for bit), and the problems that make a file unusable.
 */
#include "gen/base/csvread.h"
#include "tests/testutil.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool parse(const char *text, size_t len, csv_doc *doc, diag_list *d)
{
    diag_init(d);
    return csv_parse_buffer(text, len, "t.csv", doc, d);
}

/* Parse text, which must give nrows rows and no problem. */
static void parse_clean(const char *text, size_t len, size_t nrows, csv_doc *doc)
{
    diag_list d;
    CU_ASSERT_TRUE_FATAL(parse(text, len, doc, &d));
    CU_ASSERT_EQUAL(d.count, 0);
    CU_ASSERT_EQUAL_FATAL(doc->nrows, nrows);
    diag_free(&d);
}

static void test_quoting_and_line_ends(void)
{
    const char text[] = "\xEF\xBB\xBF" "a,b,c\r\n"
                        "\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n"
                        "\r\n"
                        "\n"
                        "1,,3\n";
    csv_doc doc;
    parse_clean(text, sizeof text - 1, 3, &doc); /* blank lines are skipped */
    CU_ASSERT_STRING_EQUAL(doc.rows[0].fields[0].text, "a"); /* BOM gone */
    CU_ASSERT_STRING_EQUAL(doc.rows[1].fields[0].text, "x, y");
    CU_ASSERT_STRING_EQUAL(doc.rows[1].fields[1].text, "say \"hi\"");
    CU_ASSERT_STRING_EQUAL(doc.rows[1].fields[2].text, "two\nlines");
    CU_ASSERT_TRUE(doc.rows[1].fields[1].quoted);
    /* Positions: the third row starts on line 6 (the quoted newline and
     * the two blank lines count). Its empty middle field is at column 3. */
    CU_ASSERT_EQUAL(doc.rows[2].line, 6);
    CU_ASSERT_STRING_EQUAL(doc.rows[2].fields[1].text, "");
    CU_ASSERT_EQUAL(doc.rows[2].fields[1].column, 3);
    CU_ASSERT_EQUAL(doc.rows[2].fields[2].column, 4);
    CU_ASSERT_EQUAL(doc.rows[1].fields[2].line, 2);
    CU_ASSERT_EQUAL(doc.rows[1].fields[2].column, 21);
    csv_doc_free(&doc);
}

/* A line of only blanks is skipped like an empty one, and the row after it
 * is where it is: its first field on the next line, column 1 (libcsv
 * leaves no row behind such a line, so nothing else resets the start of
 * the field the blanks began). Also after a '\r' and at the end of a row
 * fed through libcsv (a quoted field). */
static void test_blank_line_of_spaces(void)
{
    const char text[] = "a,b\n"
                        "   \n"
                        "1,2\n"
                        " \t \r\n"
                        "\"3\",4\n";
    csv_doc doc;
    parse_clean(text, sizeof text - 1, 3, &doc);
    CU_ASSERT_EQUAL(doc.rows[1].line, 3);
    CU_ASSERT_EQUAL(doc.rows[1].fields[0].line, 3);
    CU_ASSERT_EQUAL(doc.rows[1].fields[0].column, 1);
    CU_ASSERT_STRING_EQUAL(doc.rows[1].fields[0].text, "1");
    CU_ASSERT_EQUAL(doc.rows[2].line, 5);
    CU_ASSERT_EQUAL(doc.rows[2].fields[0].line, 5);
    CU_ASSERT_EQUAL(doc.rows[2].fields[0].column, 1);
    CU_ASSERT_EQUAL(doc.rows[2].fields[1].column, 5);
    csv_doc_free(&doc);

    /* Blanks before a quote: the field is quoted (libcsv skips the
     * blanks), so the line end inside it is text, not a blank line. */
    const char quoted[] = "a,b\n"
                          "  \"p\n"
                          "q\",2\n"
                          "3,4\n";
    parse_clean(quoted, sizeof quoted - 1, 3, &doc);
    CU_ASSERT_STRING_EQUAL(doc.rows[1].fields[0].text, "p\nq");
    CU_ASSERT_TRUE(doc.rows[1].fields[0].quoted);
    CU_ASSERT_EQUAL(doc.rows[1].fields[0].column, 3); /* the quote, after 2 blanks */
    CU_ASSERT_EQUAL(doc.rows[1].line, 2);
    CU_ASSERT_STRING_EQUAL(doc.rows[2].fields[0].text, "3");
    CU_ASSERT_EQUAL(doc.rows[2].line, 4);
    csv_doc_free(&doc);
}

static void test_no_final_newline_and_utf8_columns(void)
{
    const char text[] = "name,x\ncafé,ß\nlast,1";
    csv_doc doc;
    diag_list d;
    CU_ASSERT_TRUE_FATAL(parse(text, sizeof text - 1, &doc, &d));
    CU_ASSERT_EQUAL_FATAL(doc.nrows, 3);
    CU_ASSERT_STRING_EQUAL(doc.rows[2].fields[1].text, "1");
    /* Columns count characters: "café," is five characters. */
    CU_ASSERT_EQUAL(doc.rows[1].fields[1].column, 6);
    csv_doc_free(&doc);
    diag_free(&d);
}

/* head, n times 'x', tail (NUL-terminated, malloc'ed); its length in *len. */
static char *padded(const char *head, size_t n, const char *tail, size_t *len)
{
    size_t h = strlen(head), t = strlen(tail);
    char *text = malloc(h + n + t + 1);
    if (text) {
        memcpy(text, head, h);
        memset(text + h, 'x', n);
        memcpy(text + h + n, tail, t + 1);
    }
    *len = h + n + t;
    return text;
}

static void test_big_field(void)
{
    size_t n = 1 << 20, len;
    char *text = padded("a\n\"", n, "\"\n", &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    csv_doc doc;
    diag_list d;
    CU_ASSERT_TRUE(parse(text, len, &doc, &d));
    CU_ASSERT_EQUAL_FATAL(doc.nrows, 2);
    CU_ASSERT_EQUAL(strlen(doc.rows[1].fields[0].text), n);
    csv_doc_free(&doc);
    diag_free(&d);
    free(text);
}

static void expect_problem(const char *text, size_t len, long line, long column, const char *msg)
{
    csv_doc doc;
    diag_list d;
    CU_ASSERT_FALSE(parse(text, len, &doc, &d));
    CU_ASSERT_EQUAL_FATAL(d.count, 1);
    CU_ASSERT_EQUAL(d.items[0].line, line);
    CU_ASSERT_EQUAL(d.items[0].column, column);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.items[0].message, msg));
    csv_doc_free(&doc);
    diag_free(&d);
}

static void test_problems(void)
{
    expect_problem("", 0, 0, 0, "the file is empty");
    expect_problem("\xEF\xBB\xBF\r\n\n", 5, 0, 0, "the file is empty");
    expect_problem("a,b\n1,\"open\n2,3\n", 16, 2, 3, "unterminated quoted field");
    expect_problem("a,b\n1,\"x\"y\n", 11, 2, 6, "after a closing quote");
    expect_problem("a,b\n1,x\"y\n", 10, 2, 4, "inside an unquoted field");
    expect_problem("a,b\n1,\xC3\x28\n", 9, 2, 3, "invalid UTF-8 (byte 0xc3)");
    /* Overlong encoding of '/' and a UTF-16 surrogate are invalid too. */
    expect_problem("a\n\xC0\xAF\n", 5, 2, 1, "invalid UTF-8");
    expect_problem("a\n\xED\xA0\x80\n", 6, 2, 1, "invalid UTF-8");
}

static void test_nul_byte(void)
{
    /* `hx<NUL>evil` used to be read as `hx`. */
    expect_problem("name,code\nx,hx\0evil\n", 19, 2, 5, "NUL byte");
    expect_problem("a\0", 2, 1, 2, "NUL byte");
    /* The first problem wins: invalid UTF-8 before a NUL is reported. */
    expect_problem("a\n\xC3\x28,\0\n", 7, 2, 1, "invalid UTF-8");
}

static void test_line_limit(void)
{
    size_t n = CSV_MAX_LINE_BYTES, len;
    char *text = padded("a\n", n, "\n", &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    csv_doc doc;
    diag_list d;
    /* Exactly the limit is accepted... */
    CU_ASSERT_TRUE(parse(text, len, &doc, &d));
    csv_doc_free(&doc);
    diag_free(&d);
    free(text);
    /* ...one more byte is reported where the line passes the limit. */
    text = padded("a\n", n + 1, "y\n", &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    expect_problem(text, len, 2, (long)n + 1, "line longer than 16777216 bytes");
    free(text);
}

/* Rows seen by a csv_row_fn, for comparing streamed and in-memory reads. */
typedef struct {
    size_t rows, fields, lines_told;
    unsigned long sum; /* of every field's line, column and text bytes */
} row_tally;

static bool tally_row(void *ctx, const csv_row *row)
{
    row_tally *t = ctx;
    t->rows++;
    for (size_t i = 0; i < row->nfields; i++) {
        const csv_field *f = &row->fields[i];
        t->fields++;
        t->sum = t->sum * 31 + (unsigned long)f->line * 7 + (unsigned long)f->column + f->quoted;
        for (const char *p = f->text; *p; p++)
            t->sum = t->sum * 131 + (unsigned char)*p;
    }
    return true;
}

static void tally_lines(void *ctx, size_t lines)
{
    ((row_tally *)ctx)->lines_told = lines;
}

static void test_streamed_read_matches_memory(void)
{
    /* About 3 MiB, so the 1 MiB chunks cut through multi-byte characters,
     * quoted fields with line breaks and doubled quotes. */
    size_t cap = 3400000, len = 0;
    char *text = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    len += (size_t)snprintf(text, cap, "\xEF\xBB\xBFname,note,x\r\n");
    for (int i = 0; len + 200 < cap; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                i % 3 ? "r%d,caf\xC3\xA9 \xE2\x82\xAC%d,%d\n"
                                      : "r%d,\"two\nlines, \"\"q\"\" %d\",%d\r\n", i, i, i);
    char path[] = "/tmp/perfcast-test-csvXXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL_FATAL(write(fd, text, len), (ssize_t)len);
    close(fd);
    row_tally streamed = {0}, in_memory = {0};
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE(csv_read_rows(NULL, path, "s.csv", tally_lines, tally_row, &streamed, &d));
    CU_ASSERT_TRUE(csv_parse_rows(text, len, "s.csv", tally_row, &in_memory, &d));
    CU_ASSERT_EQUAL(d.count, 0);
    CU_ASSERT_TRUE(streamed.rows > 40000);
    CU_ASSERT_EQUAL(streamed.rows, in_memory.rows);
    CU_ASSERT_EQUAL(streamed.fields, 3 * streamed.rows);
    CU_ASSERT_EQUAL(streamed.sum, in_memory.sum);
    CU_ASSERT_TRUE(streamed.lines_told >= streamed.rows);
    /* A NUL byte in the last chunk: no row at all is handed over. */
    fd = open(path, O_WRONLY | O_APPEND);
    CU_ASSERT_EQUAL(write(fd, "a,\0,b\n", 6), 6);
    close(fd);
    row_tally refused = {0};
    CU_ASSERT_FALSE(csv_read_rows(NULL, path, "s.csv", NULL, tally_row, &refused, &d));
    CU_ASSERT_EQUAL(refused.rows, 0);
    CU_ASSERT_EQUAL_FATAL(d.count, 1);
    CU_ASSERT_EQUAL(d.items[0].column, 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.items[0].message, "NUL byte"));
    unlink(path);
    diag_free(&d);
    free(text);
}

static void test_numbers(void)
{
    const char *why;
    double v;
    CU_ASSERT_TRUE(csv_parse_number("1e-3", &v, &why));
    CU_ASSERT_DOUBLE_EQUAL(v, 1e-3, 0);
    CU_ASSERT_TRUE(csv_parse_number("65536", &v, &why));
    CU_ASSERT_DOUBLE_EQUAL(v, 65536, 0);
    CU_ASSERT_TRUE(csv_parse_number(" 12.5 ", &v, &why));
    CU_ASSERT_DOUBLE_EQUAL(v, 12.5, 0);
    CU_ASSERT_TRUE(csv_parse_number("-.5E+2", &v, &why));
    CU_ASSERT_DOUBLE_EQUAL(v, -50, 0);
    const char *bad[] = {"", "abc", "1.2.3", "0x10", "1,5", "12 s", "1e400", "nan", "-inf", "Infinity"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_FALSE(csv_parse_number(bad[i], &v, &why));
    csv_parse_number("1e400", &v, &why);
    CU_ASSERT_STRING_EQUAL(why, "not a finite number");
    csv_parse_number("NaN", &v, &why);
    CU_ASSERT_STRING_EQUAL(why, "not a finite number");
}

/* Plain lines (no quote) are split without libcsv: the same texts and
 * positions as libcsv gives them (checked against it on random input while
 * this was written; here by hand): blanks around a field left out, a
 * field at the column after the previous comma, the row's end at its
 * terminator ('\r' of "\r\n"), columns in characters, and a quoted line
 * among plain ones. */
static void test_plain_lines(void)
{
    const char text[] = "a, b ,\tc\t\r\n"
                        "\n"
                        "na\xC3\xAFve,,\xC3\xA9\n"
                        "\"q\",x\n"
                        " 1 ,2";
    csv_doc doc;
    parse_clean(text, sizeof text - 1, 4, &doc);
    const struct {
        size_t row, field;
        const char *text;
        long line, column;
    } want[] = {
        {0, 0, "a", 1, 1},          {0, 1, "b", 1, 3},   {0, 2, "c", 1, 7},
        {1, 0, "na\xC3\xAFve", 3, 1}, {1, 1, "", 3, 7},    {1, 2, "\xC3\xA9", 3, 8},
        {2, 0, "q", 4, 1},          {2, 1, "x", 4, 5},   {3, 0, "1", 5, 1},
        {3, 1, "2", 5, 5},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const csv_field *f = &doc.rows[want[i].row].fields[want[i].field];
        CU_ASSERT_STRING_EQUAL(f->text, want[i].text);
        CU_ASSERT_EQUAL(f->line, want[i].line);
        CU_ASSERT_EQUAL(f->column, want[i].column);
        CU_ASSERT_FALSE(f->quoted && want[i].row != 2);
    }
    CU_ASSERT_EQUAL(doc.rows[0].end_column, 10); /* the '\r' */
    CU_ASSERT_EQUAL(doc.rows[1].line, 3);
    CU_ASSERT_EQUAL(doc.rows[1].end_column, 9);  /* the '\n' after "é" */
    CU_ASSERT_EQUAL(doc.rows[3].end_column, 6);  /* no final newline: past the end */
    csv_doc_free(&doc);
}

/* csv_parse_number gives strtod's double, bit for bit, on decimals of every
 * shape (its exact fast path and strtod's general one). */
static void test_numbers_match_strtod(void)
{
    unsigned long long x = 88172645463325252ULL;
    char text[64];
    long wrong = 0, tried = 0;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v = (double)(x >> 11) / (double)(1ULL << 53) * pow(10, (int)(x % 40) - 20);
        int digits = 1 + (int)(x >> 3) % 18;
        switch (i % 5) {
        case 0: snprintf(text, sizeof text, "%.*g", digits, v); break;
        case 1: snprintf(text, sizeof text, "%.*f", digits % 12, v); break;
        case 2: snprintf(text, sizeof text, "%.*e", digits, -v); break;
        case 3: snprintf(text, sizeof text, "%llu", (x >> (x % 64))); break;
        default: snprintf(text, sizeof text, "00%.*f ", digits % 6, v * 1e6); break;
        }
        double got, want = strtod(text, NULL);
        const char *why;
        tried++;
        wrong += !csv_parse_number(text, &got, &why) || memcmp(&got, &want, sizeof got) != 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(tried, 200000);
    const char *edge[] = {"-0", "0.", "1.", ".5", "1e22", "9007199254740993", "1e-22",
                          "123456789012345678901234567890", "4.9e-324", "1.7976931348623157e308"};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        double got, want = strtod(edge[i], NULL);
        const char *why;
        CU_ASSERT_TRUE(csv_parse_number(edge[i], &got, &why));
        CU_ASSERT_EQUAL(memcmp(&got, &want, sizeof got), 0);
    }
}

int main(void)
{
    static const testutil_test tests[] = {
        {"quoting and line ends", test_quoting_and_line_ends},
        {"a line of only blanks", test_blank_line_of_spaces},
        {"no final newline, UTF-8 columns", test_no_final_newline_and_utf8_columns},
        {"1 MB field", test_big_field},
        {"problems", test_problems},
        {"NUL byte, positioned", test_nul_byte},
        {"line length limit", test_line_limit},
        {"streamed read = in-memory read", test_streamed_read_matches_memory},
        {"numbers", test_numbers},
        {"plain lines split without libcsv: same texts and positions", test_plain_lines},
        {"numbers: strtod's value, bit for bit", test_numbers_match_strtod},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"csvread", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
