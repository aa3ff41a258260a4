# history_runs.awk — the runs of configurations measured on two or more
# dates, read without perfcast's code (tests/test_site_history.c):
#
#   awk -v source=runs -f history_runs.awk archive/<campaign>/runs.csv
#   awk -v source=history -f history_runs.awk site/campaigns/<slug>/history.csv
#
# Both print one line per such run, "DATE TIME" (time as %.6g), and a last
# line "configurations N". From runs.csv a configuration is every column
# but the results and measurement columns (archive/README.md: time_*,
# published_*, metric_*, rep, date, note, cycles, iterations, rel_residual,
# error_max), rows without a time or a date left out; from history.csv it
# is the `configuration` column. gawk's FPAT reads quoted cells.
BEGIN { FPAT = "([^,]*)|(\"([^\"]|\"\")*\")" }

function measurement(name) {
    return name ~ /^(time_|published_|metric_)/ ||
           name ~ /^(rep|date|note|cycles|iterations|rel_residual|error_max)$/
}

NR == 1 {
    for (i = 1; i <= NF; i++) {
        col[$i] = i
        ident[i] = !measurement($i)
    }
    nf = NF
    next
}

{
    if (source == "history") {
        key = $col["configuration"]
    } else {
        if ($col["time_s"] == "" || $col["date"] == "")
            next
        key = ""
        for (i = 1; i <= nf; i++)
            if (ident[i])
                key = key SUBSEP $i
    }
    n++
    run_key[n] = key
    run_date[n] = $col["date"]
    run_time[n] = $col["time_s"]
    if (!((key, $col["date"]) in seen)) {
        seen[key, $col["date"]] = 1
        dates[key]++
    }
}

END {
    configs = 0
    for (k in dates)
        configs += dates[k] >= 2
    for (i = 1; i <= n; i++)
        if (dates[run_key[i]] >= 2)
            printf "%s %.6g\n", run_date[i], run_time[i]
    print "configurations", configs
}
