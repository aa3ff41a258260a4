/*
 * dates.c — see dates.h.
 */
#include "gen/base/dates.h"

#include <string.h>

int dates_digits(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int dates_days_in_month(long y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m >= 1 && m <= 12 ? days[m - 1] + (m == 2 && leap) : 0;
}

bool dates_day_exists(long y, int m, int d)
{
    return y >= 1 && d >= 1 && d <= dates_days_in_month(y, m);
}

bool dates_text_valid(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    int y = dates_digits(s, 4), m = dates_digits(s + 5, 2), d = dates_digits(s + 8, 2);
    return y >= 0 && m >= 0 && d >= 0 && dates_day_exists(y, m, d);
}

bool dates_day_number(const char *s, long *days)
{
    if (!dates_text_valid(s))
        return false;
    long y = dates_digits(s, 4);
    int m = dates_digits(s + 5, 2), d = dates_digits(s + 8, 2);
    /* Days before this year since year 1, then before this month. */
    long before = (y - 1) * 365 + (y - 1) / 4 - (y - 1) / 100 + (y - 1) / 400;
    for (int k = 1; k < m; k++)
        before += dates_days_in_month(y, k);
    /* 719162 days from 0001-01-01 to 1970-01-01. */
    *days = before + (d - 1) - 719162;
    return true;
}
