# pi_scores.awk — the scores of one experiment's calibrated 95% PI, read
# from the site's <experiment>-predictions.csv without perfcast's code
# (tests/test_compare_pool.c):
#
#   gawk -f tests/pi_scores.awk site/campaigns/<slug>/<exp>-predictions.csv
#
# prints "targets N with W inside I width W% ratio R score S": the targets
# with a measurement and an estimate, those with a calibrated interval
# (cal_pi_low, cal_pi_high) and those inside it, the mean of
# 100 (high - low) / estimate, the median of high / low and the mean
# interval score on log times (Gneiting & Raftery, alpha = 0.05:
# log(h/l) + 40 max(0, log(l/y)) + 40 max(0, log(y/h))), the last two over
# the intervals with low > 0; "nan" where there is none. Columns are found
# by name; gawk's FPAT reads quoted cells.
BEGIN { FPAT = "([^,]*)|(\"([^\"]|\"\")*\")" }

NR == 1 {
    for (i = 1; i <= NF; i++)
        col[$i] = i
    next
}

{
    est = $col["estimate"]; y = $col["measured"]
    if (est == "" || y == "" || y + 0 <= 0)
        next
    n++
    lo = $col["cal_pi_low"]; hi = $col["cal_pi_high"]
    if (lo == "" || hi == "")
        next
    with++
    inside += (y + 0 >= lo + 0 && y + 0 <= hi + 0)
    width += 100 * (hi - lo) / est
    if (lo + 0 <= 0)
        next
    ratio[++nr] = hi / lo
    s = log(hi / lo)
    if (y + 0 < lo + 0)
        s += 40 * log(lo / y)
    if (y + 0 > hi + 0)
        s += 40 * log(y / hi)
    score += s
}

END {
    med = "nan"
    if (nr) {
        asort(ratio)
        med = nr % 2 ? ratio[(nr + 1) / 2] : (ratio[nr / 2] + ratio[nr / 2 + 1]) / 2
    }
    printf "targets %d with %d inside %d width %s ratio %s score %s\n", n, with, inside,
           with ? sprintf("%.10g", width / with) : "nan", nr ? sprintf("%.10g", med) : "nan",
           nr ? sprintf("%.10g", score / nr) : "nan"
}
