/*
 * topology.c — see topology.h.
 */
#include "models/topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse "a,b,c" (whole numbers >= 1) into dims; the count, or 0 when the
 * text is not such a list. */
static size_t number_list(const char *text, double *dims, size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (p && *p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || n == max || (*end && *end != ','))
            return 0;
        dims[n++] = (double)v;
        p = *end ? end + 1 : end;
    }
    return n;
}

/* "LEVELS;DOWN;UP;PARALLEL": the DOWN list, one count per level. */
static bool fat_tree_down(const char *params, topology *out)
{
    char levels[16], down[200];
    const char *semi = strchr(params, ';');
    const char *semi2 = semi ? strchr(semi + 1, ';') : NULL;
    if (!semi || !semi2 || (size_t)(semi - params) >= sizeof levels ||
        (size_t)(semi2 - semi - 1) >= sizeof down)
        return false;
    memcpy(levels, params, (size_t)(semi - params));
    levels[semi - params] = '\0';
    memcpy(down, semi + 1, (size_t)(semi2 - semi - 1));
    down[semi2 - semi - 1] = '\0';
    char *end;
    long l = strtol(levels, &end, 10);
    out->ndims = number_list(down, out->dims, TOPOLOGY_MAX_DIMS);
    return *end == '\0' && l >= 1 && out->ndims == (size_t)l;
}

bool topology_parse(const char *kind, const char *params, topology *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!kind || !*kind || strcasecmp(kind, "FLAT") == 0)
        return true;
    bool ok = false;
    if (strcasecmp(kind, "TORUS") == 0) {
        out->kind = TOPOLOGY_TORUS;
        out->ndims = number_list(params, out->dims, TOPOLOGY_MAX_DIMS);
        ok = out->ndims > 0;
    } else if (strcasecmp(kind, "FAT_TREE") == 0) {
        out->kind = TOPOLOGY_FAT_TREE;
        ok = params && fat_tree_down(params, out);
    }
    if (!ok) {
        snprintf(err, errlen, "sim_topology %s with sim_topo_parameters '%s': expected FLAT, "
                 "TORUS with X,Y,Z or FAT_TREE with LEVELS;DOWN;UP;PARALLEL", kind,
                 params ? params : "");
        memset(out, 0, sizeof *out);
    }
    return ok;
}

const char *topology_kind_problem(const char *kind)
{
    static const char *const kinds[] = {"", "FLAT", "TORUS", "FAT_TREE"};
    for (size_t i = 0; kind && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcasecmp(kind, kinds[i]) == 0)
            return NULL;
    return "expected FLAT, TORUS or FAT_TREE";
}

const char *topology_params_problem(const char *params)
{
    topology t;
    char err[200];
    if (topology_parse("TORUS", params, &t, err, sizeof err) ||
        topology_parse("FAT_TREE", params, &t, err, sizeof err))
        return NULL;
    return "expected a torus's X,Y,Z or a fat tree's LEVELS;DOWN;UP;PARALLEL (whole numbers, "
           "one DOWN count per level)";
}

bool topology_described(const topology *t)
{
    return t->kind != TOPOLOGY_FLAT;
}

double topology_level(const topology *t, double nodes)
{
    if (!(nodes > 0) || !isfinite(nodes))
        return NAN;
    nodes = ceil(nodes - 1e-9); /* np / ppn off by rounding is still whole */
    if (nodes <= 1)
        return 0;
    double level = 0, filled = 1;
    switch (t->kind) {
    case TOPOLOGY_FLAT: return 1;
    case TOPOLOGY_TORUS:
        /* dimension j is entered once the lower ones are full */
        for (size_t j = 0; j < t->ndims; j++) {
            if (t->dims[j] > 1 && nodes > filled)
                level++;
            filled *= t->dims[j];
        }
        return level;
    case TOPOLOGY_FAT_TREE:
        for (size_t j = 0; j < t->ndims && nodes > filled; j++) {
            filled *= t->dims[j];
            level++;
        }
        return level;
    }
    return NAN;
}

double topology_nodes_for_level(const topology *t, double level)
{
    if (level == 0)
        return 1;
    double filled = 1, reached = 0;
    switch (t->kind) {
    case TOPOLOGY_FLAT: return level == 1 ? 2 : NAN;
    case TOPOLOGY_TORUS:
        for (size_t j = 0; j < t->ndims; j++) {
            if (t->dims[j] > 1 && ++reached == level)
                return filled + 1;
            filled *= t->dims[j];
        }
        return NAN;
    case TOPOLOGY_FAT_TREE:
        for (size_t j = 0; j < t->ndims; j++) {
            if (++reached == level)
                return filled + 1;
            filled *= t->dims[j];
        }
        return NAN;
    }
    return NAN;
}

void topology_level_text(const topology *t, double level, char *buf, size_t len)
{
    static const char *const ordinal[] = {"first", "second", "third", "fourth",
                                          "fifth", "sixth", "seventh", "eighth"};
    if (!(level >= 1) || !isfinite(level))
        snprintf(buf, len, "one node");
    else if (t->kind == TOPOLOGY_TORUS && level <= TOPOLOGY_MAX_DIMS)
        snprintf(buf, len, "the %s torus dimension", ordinal[(size_t)level - 1]);
    else if (t->kind == TOPOLOGY_FAT_TREE)
        snprintf(buf, len, "fat-tree level %g", level);
    else
        snprintf(buf, len, "more than one node");
}

/* Hops between nodes a and b of a torus: per dimension (the first varying
 * fastest) the shorter way round its ring. */
static double torus_hops(const topology *t, double a, double b)
{
    double hops = 0;
    for (size_t j = 0; j < t->ndims; j++) {
        double d = t->dims[j], x = fmod(a, d), y = fmod(b, d), k = fabs(x - y);
        hops += fmin(k, d - k);
        a = floor(a / d);
        b = floor(b / d);
    }
    return hops;
}

/* The level of the lowest fat-tree switch that nodes a and b both hang
 * under (0 when a = b). */
static double fat_tree_common_level(const topology *t, double a, double b)
{
    double level = 0;
    for (size_t j = 0; j < t->ndims && a != b; j++) {
        a = floor(a / t->dims[j]);
        b = floor(b / t->dims[j]);
        level++;
    }
    return level;
}

double topology_route_latency(const topology *t, const topology_latency *lat, double from,
                              double to)
{
    if (!(from >= 0) || !(to >= 0) || !isfinite(from) || !isfinite(to))
        return NAN;
    switch (t->kind) {
    case TOPOLOGY_FLAT: return 2 * lat->link_s + lat->backbone_s;
    case TOPOLOGY_TORUS: return from == to ? lat->link_s : torus_hops(t, from, to) * lat->link_s;
    case TOPOLOGY_FAT_TREE: return 2 * fat_tree_common_level(t, from, to) * lat->link_s;
    }
    return NAN;
}

/* The slowest route of one direction's neighbours (along_a: npb ranks on;
 * else the next rank of a row); 0 when the grid has no such neighbour. */
static double direction_latency(const topology *t, const topology_latency *lat, double npa,
                                double npb, double ppn, bool along_a)
{
    double np = npa * npb, slowest = 0;
    for (double r = 0; r < np; r++) {
        bool has = along_a ? r + npb < np : fmod(r, npb) != npb - 1;
        double peer = along_a ? r + npb : r + 1;
        if (has)
            slowest = fmax(slowest, topology_route_latency(t, lat, floor(r / ppn),
                                                           floor(peer / ppn)));
    }
    return slowest;
}

static bool grid_valid(double npa, double npb, double ppn)
{
    return ppn > 0 && npa >= 1 && npb >= 1 && isfinite(ppn) && npa == floor(npa) &&
           npb == floor(npb) && npa * npb <= TOPOLOGY_MAX_GRID;
}

double topology_grid_latency(const topology *t, const topology_latency *lat, double npa,
                             double npb, double ppn)
{
    if (!grid_valid(npa, npb, ppn))
        return NAN;
    return fmax(direction_latency(t, lat, npa, npb, ppn, true),
                direction_latency(t, lat, npa, npb, ppn, false));
}

bool topology_grid_directions(const topology *t, const topology_latency *lat, double npa,
                              double npb, double ppn, double *along_a, double *along_b)
{
    if (!grid_valid(npa, npb, ppn))
        return false;
    *along_a = direction_latency(t, lat, npa, npb, ppn, true);
    *along_b = direction_latency(t, lat, npa, npb, ppn, false);
    return true;
}

/* SimGrid 3.32's default smpi/lat-factor: message size thresholds in bytes
 * and the factor from each threshold on (src/smpi, printed by
 * `smpirun --help-cfg`). */
double topology_smpi_latency_factor(double bytes)
{
    static const double at[][2] = {{65472, 11.6436}, {15424, 3.48845}, {9376, 2.59299},
                                   {5776, 2.18796},  {3484, 1.88101},  {1426, 1.61075},
                                   {732, 1.9503},    {257, 1.95341},   {0, 2.01467}};
    if (!(bytes >= 0))
        return NAN;
    size_t i = 0;
    while (bytes < at[i][0])
        i++;
    return at[i][1];
}
