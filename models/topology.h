/*
 * topology.h — how many levels of a cluster's network a job occupies, for
 * the topology-step overhead law (models/overhead.h) and the calibration's
 * range check (issue 23).
 *
 * A cluster's network is described by clusters.csv's `sim_topology` and
 * `sim_topo_parameters` (archive/README.md; mgbench/smpi_platform builds
 * SimGrid platforms from them). A job of n nodes is taken to hold the
 * cluster's first n hosts, as the MPI launcher fills them in order. Its
 * level, the count of network levels its messages may cross:
 *
 *   FLAT (one switch, or nothing described): 0 for one node, 1 beyond.
 *   TORUS X,Y,Z (SimGrid numbers hosts with X varying fastest): the count
 *     of dimensions the job's hosts extend over, i.e. of the dimensions j
 *     with extent_j > 1 and n > extent_0 * ... * extent_(j-1). A job of one
 *     node is 0; 2..X nodes are 1; X+1..X*Y nodes are 2 (when Y > 1); etc.
 *     Each new dimension adds hops, hence latency, to the farthest
 *     neighbour exchange: that is the step the law fits.
 *   FAT_TREE LEVELS;D1,...,DL;U...;P... : the highest switch level a
 *     message between two of the job's hosts must climb: the smallest l
 *     with n <= D1 * ... * Dl (0 for one node).
 *
 * The level of every topology is 0 for one node and 1 for a job spanning
 * two neighbours, so on a flat cluster the topology law is the node law.
 *
 * Routes (the block model's network term, models/block.h): the latency
 * SimGrid charges a message between two nodes of the platform
 * mgbench/smpi_platform writes, the sum of the latencies of the links on
 * its route:
 *   FLAT (a <cluster> with a backbone, no loopback): every route, a node
 *     to itself included, climbs the sender's link, crosses the backbone
 *     and descends the receiver's link: 2 link + backbone.
 *   TORUS: a node to itself, its loopback (smpi_platform gives it the
 *     node link's latency); else one node link per hop, the hops summed
 *     over the dimensions, each the shorter way round its ring.
 *   FAT_TREE: a node to itself, an empty route (0); else up to the lowest
 *     switch both nodes hang under and down again: 2 l links, l that
 *     switch's level.
 * A grid's neighbours are placed as mgbench runs them: MPI_Cart_create
 * without reordering gives process (i, j) of an npa x npb grid rank
 * i npb + j (mgbench/comm.c), and the launcher fills each node with ppn
 * consecutive ranks (the hostfile lists every host once per core, in
 * order), so rank r sits on node floor(r / ppn): the a-neighbours are npb
 * ranks apart, the b-neighbours 1. MPI's software overheads and links
 * shared by several messages are left out; SMPI's own latency factor
 * (every message's route latency times a factor of its size, about 2 for
 * the small halo messages; topology_smpi_latency_factor) is the caller's
 * to apply.
 *
 * Ownership: nothing is allocated. No I/O.
 */
#ifndef PERFCAST_TOPOLOGY_H
#define PERFCAST_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

enum { TOPOLOGY_MAX_DIMS = 8, TOPOLOGY_MAX_GRID = 1 << 20 };

typedef enum { TOPOLOGY_FLAT = 0, TOPOLOGY_TORUS, TOPOLOGY_FAT_TREE } topology_kind;

typedef struct {
    topology_kind kind;
    double dims[TOPOLOGY_MAX_DIMS]; /* torus extents, or the fat tree's DOWN counts from the leaves */
    size_t ndims;
} topology;

/* Parse a cluster's topology: kind "TORUS", "FAT_TREE", "FLAT" (any case)
 * or empty/NULL (flat); params "X,Y,Z" or "LEVELS;DOWN;UP;PARALLEL" as
 * SimGrid writes them. False with err (naming what was expected) when the
 * kind is unknown or the parameters do not parse; *out is flat then. */
bool topology_parse(const char *kind, const char *params, topology *out, char *err,
                    size_t errlen);

/* Each cell alone, for the archive's check: NULL when kind names a
 * topology (FLAT, TORUS, FAT_TREE, any case; empty is flat) / when params
 * parse as a torus's X,Y,Z or a fat tree's LEVELS;DOWN;UP;PARALLEL; else
 * what was expected (a static string). */
const char *topology_kind_problem(const char *kind);
const char *topology_params_problem(const char *params);

/* Whether the topology has levels beyond a flat switch. */
bool topology_described(const topology *t);

/* The level of a job spanning `nodes` nodes (see above). A fraction of a
 * node is a whole one (10 processes at 4 per node hold 3 nodes; fewer
 * processes than a node's share hold one). NAN when nodes is not a
 * positive number. */
double topology_level(const topology *t, double nodes);

/* The fewest nodes a job needs to reach `level` (1 for level 0), or NAN
 * when the topology has no such level: for `perfcast plan`. */
double topology_nodes_for_level(const topology *t, double level);

/* Link latencies in seconds: a node's link (a torus hop, a fat-tree link)
 * and a flat cluster's backbone. */
typedef struct {
    double link_s, backbone_s;
} topology_latency;

/* The latency of the route from node `from` to node `to` (numbered from 0
 * as the platform's hosts; see above). NAN for a negative or non-finite
 * node. */
double topology_route_latency(const topology *t, const topology_latency *lat, double from,
                              double to);

/* The slowest route between neighbours of an npa x npb process grid at ppn
 * processes per node (see above); 0 for a single process. NAN when ppn is
 * not a positive number, a side not a whole number >= 1, or the grid has
 * more than TOPOLOGY_MAX_GRID processes. */
double topology_grid_latency(const topology *t, const topology_latency *lat, double npa,
                             double npb, double ppn);

/* The slowest route of each direction's neighbours separately (*along_a:
 * the a-neighbours, npb ranks apart; *along_b: the next rank of a row; 0
 * for a direction without neighbours). False, both untouched, where
 * topology_grid_latency is NAN. */
bool topology_grid_directions(const topology *t, const topology_latency *lat, double npa,
                              double npb, double ppn, double *along_a, double *along_b);

/* SimGrid 3.32's default SMPI latency factor (smpi/lat-factor) for a
 * message of `bytes`: SMPI charges a message its route's latency times it
 * (2.01 below 257 bytes, 1.95 to 1426, 1.61 to 3484, 1.88 to 5776, ...;
 * 11.6 from 65472). NAN for a negative or NAN size. */
double topology_smpi_latency_factor(double bytes);

/* Words for a level: "one node", "the first torus dimension",
 * "fat-tree level 2". */
void topology_level_text(const topology *t, double level, char *buf, size_t len);

#endif
