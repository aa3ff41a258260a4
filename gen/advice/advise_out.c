/*
 * advise_out.c — see advise_out.h.
 */
#include "gen/advice/advise_out.h"

#include <math.h>
#include <string.h>

#include "gen/base/textout.h"

size_t advise_rank_of(const size_t *order, size_t n, size_t i)
{
    for (size_t k = 0; k < n; k++)
        if (order[k] == i)
            return k + 1;
    return 0;
}

/* Each side's value with fmt, joined by sep ("a / b", or one value);
 * missing for an unknown one. */
static void per_side(FILE *out, const advise_option *o, const double *v, const char *fmt,
                     const char *sep, const char *missing)
{
    for (int i = 0; i < o->nsides; i++) {
        if (i)
            fputs(sep, out);
        if (isfinite(v[i]))
            fprintf(out, fmt, v[i]);
        else
            fputs(missing, out);
    }
}

static void text_option(FILE *out, const advise_list *l, size_t i, size_t rank, double cheapest)
{
    const advise_option *o = &l->items[i];
    if (rank)
        fprintf(out, "  %zu. ", rank);
    else
        fputs("  ", out);
    fprintf(out, "%s: %.15gx%.15g", o->name, o->na, o->nb);
    if (isfinite(o->time_s))
        fprintf(out, ", %.5g s", o->time_s);
    else
        fputs(", time unknown", out);
    if (isfinite(o->time_low))
        fprintf(out, " (95%% interval %.4g-%.4g s)", o->time_low, o->time_high);
    if (isfinite(o->cost.core_hours))
        fprintf(out, ", %.4g core-hours", o->cost.core_hours);
    if (isfinite(o->cost.cost)) {
        fprintf(out, ", cost %.4g %s", o->cost.cost, o->cost.currency);
        if (cheapest > 0 && o->cost.cost > cheapest * (1 + 1e-12))
            fprintf(out, " (%.3gx the cheapest)", o->cost.cost / cheapest);
    }
    fputs("; rows per process ", out);
    per_side(out, o, o->rows, "%.15g", " / ", "?");
    fputs(", memory per process ", out);
    per_side(out, o, o->mem_mb, "%.0f MB", " / ", "?");
    char source[sizeof o->source + sizeof o->no_model + 16];
    advise_source_text(o, source, sizeof source);
    fprintf(out, "\n      %s\n", source);
    if (o->interval[0])
        fprintf(out, "      %s\n", o->interval);
    char left_out[sizeof o->source];
    advise_excluded_text(o, "\n      ", left_out, sizeof left_out);
    if (left_out[0] && o->feasible)
        fprintf(out, "      %s\n", left_out);
    if (o->cost.fit == COSTING_MEMORY_UNKNOWN)
        fprintf(out, "      feasibility unknown: %s\n", o->cost.reason);
}

void advise_print_text(FILE *out, const advise_ctx *ctx, const advise_list *l, bool maximize,
                       const size_t *fast, size_t nfast, const size_t *cheap, size_t ncheap)
{
    double cheapest = INFINITY;
    for (size_t k = 0; k < ncheap; k++)
        cheapest = fmin(cheapest, l->items[cheap[k]].cost.cost);
    if (maximize)
        fputs("Scenario 2: the largest power-of-two N x N mesh each option's memory holds\n", out);
    else
        fprintf(out, "Scenario 1: a %.15gx%.15g mesh (%.15g rows of %.15g points)\n",
                l->items[0].na, l->items[0].nb, l->items[0].na, l->items[0].nb);
    fprintf(out, "code %s; memory per mesh point ", ctx->code ? ctx->code : "(none)");
    if (isfinite(ctx->mb_per_point))
        fprintf(out, "%.4g bytes (%s)\n", ctx->mb_per_point * 1048576, ctx->mb_source);
    else /* mb_source says "unknown: why" */
        fprintf(out, "%s\n", ctx->mb_source);
    fputs(maximize ? "\nLargest mesh first, then fastest:\n" : "\nFastest first:\n", out);
    for (size_t k = 0; k < nfast; k++)
        text_option(out, l, fast[k], k + 1, cheapest);
    if (nfast == 0)
        fputs("  (no feasible option has a predicted time)\n", out);
    fputs(maximize ? "\nLargest mesh first, then cheapest:\n" : "\nCheapest first:\n", out);
    for (size_t k = 0; k < ncheap; k++)
        text_option(out, l, cheap[k], k + 1, cheapest);
    if (ncheap == 0)
        fputs("  (no feasible option has a known cost)\n", out);
    bool header = false;
    for (size_t i = 0; i < l->n; i++)
        if (!l->items[i].feasible) {
            fputs(header ? "" : "\nNot feasible:\n", out);
            header = true;
            fprintf(out, "  %s: %s\n", l->items[i].name, l->items[i].reason);
        }
    header = false;
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].feasible && !isfinite(l->items[i].time_s)) {
            fputs(header ? "" : "\nNo prediction:\n", out);
            header = true;
            text_option(out, l, i, 0, cheapest);
        }
}

/* "a;b" of the sides' values into a CSV cell. */
static void csv_sides(FILE *out, const advise_option *o, const double *v)
{
    per_side(out, o, v, "%.10g", ";", "");
}

void advise_print_csv(FILE *out, const advise_list *l, const size_t *fast, size_t nfast,
                      const size_t *cheap, size_t ncheap)
{
    fputs("option,clusters,np,rows_per_process,mem_mb_per_process,na,nb,time_s,core_hours,cost,"
          "currency,feasible,reason,source,rank_fastest,rank_cheapest,time_low_s,time_high_s,"
          "interval\n", out);
    for (size_t i = 0; i < l->n; i++) {
        const advise_option *o = &l->items[i];
        char clusters[300] = "";
        for (int s = 0; s < o->nsides; s++)
            snprintf(clusters + strlen(clusters), sizeof clusters - strlen(clusters), "%s%s",
                     s ? ";" : "", o->cluster[s]->name);
        textout_csv_text(out, o->name);
        fputc(',', out);
        textout_csv_text(out, clusters);
        fputc(',', out);
        csv_sides(out, o, o->np);
        fputc(',', out);
        csv_sides(out, o, o->rows);
        fputc(',', out);
        csv_sides(out, o, o->mem_mb);
        fprintf(out, ",%.10g,%.10g,", o->na, o->nb);
        textout_csv_number(out, o->time_s);
        fputc(',', out);
        textout_csv_number(out, o->cost.core_hours);
        fputc(',', out);
        textout_csv_number(out, o->cost.cost);
        fputc(',', out);
        textout_csv_text(out, o->cost.currency);
        fprintf(out, ",%s,", o->feasible ? "yes" : "no");
        textout_csv_text(out, o->reason[0] ? o->reason : NULL);
        fputc(',', out);
        char source[sizeof o->source + sizeof o->no_model + 16];
        advise_source_text(o, source, sizeof source);
        textout_csv_text(out, source);
        size_t rf = advise_rank_of(fast, nfast, i), rc = advise_rank_of(cheap, ncheap, i);
        fputc(',', out);
        if (rf)
            fprintf(out, "%zu", rf);
        fputc(',', out);
        if (rc)
            fprintf(out, "%zu", rc);
        fputc(',', out);
        textout_csv_number(out, o->time_low);
        fputc(',', out);
        textout_csv_number(out, o->time_high);
        fputc(',', out);
        textout_csv_text(out, o->interval[0] ? o->interval : NULL);
        fputc('\n', out);
    }
}

static void json_option(FILE *out, const advise_list *l, size_t i, size_t rf, size_t rc)
{
    const advise_option *o = &l->items[i];
    textout_json_text_member(out, "    {", "name", o->name);
    fputs(", \"sides\": [", out);
    for (int s = 0; s < o->nsides; s++) {
        textout_json_text_member(out, s ? ", {" : "{", "cluster", o->cluster[s]->name);
        textout_json_number_member(out, ", ", "np", o->np[s]);
        textout_json_number_member(out, ", ", "rows_per_process", o->rows[s]);
        textout_json_number_member(out, ", ", "mem_mb_per_process", o->mem_mb[s]);
        fputc('}', out);
    }
    textout_json_number_member(out, "], ", "na", o->na);
    textout_json_number_member(out, ", ", "nb", o->nb);
    textout_json_number_member(out, ", ", "time_s", o->time_s);
    textout_json_number_member(out, ", ", "time_low_s", o->time_low);
    textout_json_number_member(out, ", ", "time_high_s", o->time_high);
    textout_json_text_member(out, ", ", "interval", o->interval[0] ? o->interval : NULL);
    char source[sizeof o->source + sizeof o->no_model + 16];
    advise_source_text(o, source, sizeof source);
    textout_json_text_member(out, ", ", "source", source);
    textout_json_number_member(out, ", ", "core_hours", o->cost.core_hours);
    textout_json_number_member(out, ", ", "cost", o->cost.cost);
    textout_json_text_member(out, ", ", "currency", o->cost.currency);
    fprintf(out, ", \"feasible\": %s", o->feasible ? "true" : "false");
    textout_json_text_member(out, ", ", "reason", o->reason[0] ? o->reason : NULL);
    textout_json_number_member(out, ", ", "rank_fastest", rf ? (double)rf : NAN);
    textout_json_number_member(out, ", ", "rank_cheapest", rc ? (double)rc : NAN);
    fprintf(out, "}%s\n", i + 1 < l->n ? "," : "");
}

/* A JSON array of the names of the options in order. */
static void json_names(FILE *out, const advise_list *l, const size_t *order, size_t n)
{
    fputc('[', out);
    for (size_t k = 0; k < n; k++) {
        fputs(k ? ", " : "", out);
        textout_json_text(out, l->items[order[k]].name);
    }
    fputc(']', out);
}

void advise_print_json(FILE *out, const advise_ctx *ctx, const advise_list *l, bool maximize,
                       const size_t *fast, size_t nfast, const size_t *cheap, size_t ncheap)
{
    fprintf(out, "{\n  \"scenario\": \"%s\"", maximize ? "largest" : "fastest");
    textout_json_text_member(out, ",\n  ", "code", ctx->code);
    textout_json_number_member(out, ",\n  ", "mb_per_point", ctx->mb_per_point);
    textout_json_text_member(out, ",\n  ", "mb_per_point_source", ctx->mb_source);
    fputs(",\n  \"options\": [\n", out);
    for (size_t i = 0; i < l->n; i++)
        json_option(out, l, i, advise_rank_of(fast, nfast, i), advise_rank_of(cheap, ncheap, i));
    fputs("  ],\n  \"fastest\": ", out);
    json_names(out, l, fast, nfast);
    fputs(",\n  \"cheapest\": ", out);
    json_names(out, l, cheap, ncheap);
    fputs("\n}\n", out);
}
