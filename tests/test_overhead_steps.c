/*
 * test_overhead_steps.c — the overhead laws beyond log2 np (issue 23): the
 * network level of a job (models/topology.h), the node and topology steps
 * and auto's leave-one-level-out choice (models/overhead.h), worked by
 * hand; and a planted node step recovered by `perfcast predict` on a small
 * archive written here, its estimates read back with awk.
 */
#include "models/overhead.h"
#include "models/topology.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void parse_ok(const char *kind, const char *params, topology *t)
{
    char err[200];
    CU_ASSERT_TRUE_FATAL(topology_parse(kind, params, t, err, sizeof err));
}

/* Levels by hand. Torus 4,4,4 filled X first: 1 node 0; 2..4 nodes one
 * dimension; 5..16 two; 17..64 three. Torus 1,4,4: X has extent 1, so 2..4
 * nodes fill Y (one dimension), 5.. Z. Fat tree 2;4,4: 2..4 nodes climb to
 * level 1, 5..16 to level 2. Flat: 0, then 1. */
static void test_levels(void)
{
    topology t;
    parse_ok("TORUS", "4,4,4", &t);
    CU_ASSERT_TRUE(topology_described(&t));
    const double nodes[] = {1, 2, 4, 5, 16, 17, 64}, torus[] = {0, 1, 1, 2, 2, 3, 3};
    for (size_t i = 0; i < 7; i++)
        CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, nodes[i]), torus[i], 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_nodes_for_level(&t, 1), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_nodes_for_level(&t, 2), 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_nodes_for_level(&t, 3), 17, 0);
    CU_ASSERT_TRUE(isnan(topology_nodes_for_level(&t, 4)));
    parse_ok("torus", "1,4,4", &t);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 3), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 5), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_nodes_for_level(&t, 2), 5, 0);
    parse_ok("FAT_TREE", "2;4,4;1,2;1,2", &t);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 1), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 4), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 5), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 16), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_nodes_for_level(&t, 2), 5, 0);
    char words[80];
    topology_level_text(&t, 2, words, sizeof words);
    CU_ASSERT_STRING_EQUAL(words, "fat-tree level 2");
    parse_ok(NULL, NULL, &t);
    CU_ASSERT_FALSE(topology_described(&t));
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 1), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 9), 1, 0);
    CU_ASSERT_TRUE(isnan(topology_level(&t, NAN)));
    CU_ASSERT_TRUE(isnan(topology_level(&t, 0)));
    /* Fractions of a node are whole nodes: 0.5 is one node, 4.5 on the
     * 4,4,4 torus is five (the second dimension). */
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 0.5), 0, 0);
    parse_ok("TORUS", "4,4,4", &t);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 4.5), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_level(&t, 4.0000000001), 1, 0);
    char err[200];
    CU_ASSERT_FALSE(topology_parse("TORUS", "4,x,4", &t, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected FLAT, TORUS with X,Y,Z"));
    CU_ASSERT_FALSE(topology_parse("FAT_TREE", "3;4,4;1,2;1,2", &t, err, sizeof err));
    CU_ASSERT_FALSE(topology_parse("RING", "4", &t, err, sizeof err));
}

/* Points of alpha(np) + 1*work at works 1 and 3, for the given np. */
static size_t points(const double *nps, const double *alpha, size_t n, overhead_point *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = (overhead_point){nps[i], 1, alpha[i] + 1};
        out[2 * i + 1] = (overhead_point){nps[i], 3, alpha[i] + 3};
    }
    return 2 * n;
}

/* Fit kind to the points of alpha at nps (n of them); true when it fits. */
static bool fit_law(const double *nps, const double *alpha, size_t n, overhead_law_kind kind,
                    const overhead_place *places, size_t nplaces, overhead_law *law)
{
    overhead_point pts[16];
    size_t npts = points(nps, alpha, n, pts);
    return overhead_fit_steps(pts, npts, 1, kind, places, nplaces, law) == OVERHEAD_OK;
}

/* Node step planted: 4 processes per node, alpha = 1 + 0.5 L + 2 [np > 4]:
 * np 2, 4, 8, 16 -> 1.5, 2, 4.5, 5. The node law recovers c = 1, d = 0.5,
 * s = 2 exactly and predicts alpha(64) = 1 + 3 + 2 = 6. */
static const double NPS[] = {2, 4, 8, 16};
static const double ALPHA[] = {1.5, 2, 4.5, 5};
static const overhead_place PLACES[] = {{2, 1, 0}, {16, 4, 1}, {4, 1, 0}, {8, 2, 1}, {64, 16, 1}};

static void test_node_law(void)
{
    overhead_law law;
    CU_ASSERT_TRUE_FATAL(fit_law(NPS, ALPHA, 4, OVERHEAD_LAW_NODE, PLACES, 5, &law));
    CU_ASSERT_EQUAL(law.kind, OVERHEAD_LAW_NODE);
    CU_ASSERT_EQUAL(law.step_state, OVERHEAD_STEP_FITTED);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[0], 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[1], 0.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.step, 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.step_np, 8, 0);
    CU_ASSERT_DOUBLE_EQUAL(overhead_alpha(&law, 64), 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(overhead_alpha(&law, 4), 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(overhead_eval(&law, 64, 2), 8, 1e-9); /* gamma 1 */
    CU_ASSERT_FALSE(overhead_step_beyond(&law, 64)); /* the lines cross the step */
    char words[400];
    overhead_law_words(&law, words, sizeof words);
    CU_ASSERT_STRING_EQUAL(words, "the overhead changes at 8 processes: the job leaves one node, "
                                  "+2 s");
    overhead_law_free(&law);
    /* The paper's law on the same points: a line through the four alphas,
     * slope 1.3 and intercept 3.25 - 1.3*2.5 = 0 (by hand), no step. */
    CU_ASSERT_TRUE_FATAL(fit_law(NPS, ALPHA, 4, OVERHEAD_LAW_LOG2, PLACES, 5, &law));
    CU_ASSERT_DOUBLE_EQUAL(law.coef[1], 1.3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[0], 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.step, 0, 0);
    overhead_law_free(&law);
}

/* Lines all on one node (np 2, 4 of 4 per node), target on four: the step
 * cannot be estimated, the law says so and the target is beyond it; lines
 * all past the step: nothing is beyond. */
static void test_step_not_crossed(void)
{
    overhead_law law;
    CU_ASSERT_TRUE_FATAL(fit_law(NPS, ALPHA, 2, OVERHEAD_LAW_NODE, PLACES, 5, &law));
    CU_ASSERT_EQUAL(law.kind, OVERHEAD_LAW_LOG2);
    CU_ASSERT_EQUAL(law.step_state, OVERHEAD_STEP_NOT_CROSSED);
    CU_ASSERT_TRUE(overhead_step_beyond(&law, 16));
    CU_ASSERT_FALSE(overhead_step_beyond(&law, 4));
    CU_ASSERT_DOUBLE_EQUAL(overhead_alpha(&law, 8), 2.5, 1e-9); /* line 1 + 0.5 L */
    char words[400];
    overhead_law_words(&law, words, sizeof words);
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "node law asked, but no training line crosses a step"));
    overhead_law_free(&law);
    CU_ASSERT_TRUE_FATAL(fit_law(NPS + 2, ALPHA + 2, 2, OVERHEAD_LAW_NODE, PLACES, 5, &law));
    CU_ASSERT_EQUAL(law.step_state, OVERHEAD_STEP_NOT_CROSSED);
    CU_ASSERT_FALSE(overhead_step_beyond(&law, 64));
    overhead_law_free(&law);
    /* The paper's law knows no step: never beyond by it. */
    CU_ASSERT_TRUE_FATAL(fit_law(NPS + 2, ALPHA + 2, 2, OVERHEAD_LAW_LOG2, NULL, 0, &law));
    CU_ASSERT_FALSE(overhead_step_beyond(&law, 64));
    overhead_law_free(&law);
}

/* auto on the node-step points. Leave-one-level-out by hand for log2
 * (a line through the other three (L, alpha)): without np 2 the line
 * -2/3 + 1.5 L predicts 0.8333 (error -2/3); without 4: 3/7 + 17/14 L
 * gives 20/7 (error +6/7); without 8: 0 + 17/14 L gives 51/14 (-6/7);
 * without 16: -1/3 + 1.5 L gives 17/3 (+2/3). RMS = sqrt((2*(4/9) +
 * 2*(36/49))/4) = 0.767834. The node law fits every fold exactly (RMS 0),
 * so auto takes it; topology on a flat cluster is the node law, and ties
 * go to the simpler. */
static void test_auto_choice(void)
{
    overhead_law law;
    CU_ASSERT_TRUE_FATAL(fit_law(NPS, ALPHA, 4, OVERHEAD_LAW_AUTO, PLACES, 5, &law));
    CU_ASSERT_DOUBLE_EQUAL(law.loo_rms[0], sqrt((2 * 4.0 / 9 + 2 * 36.0 / 49) / 4), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.loo_rms[1], 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.loo_rms[2], 0, 1e-9);
    CU_ASSERT_EQUAL(law.kind, OVERHEAD_LAW_NODE);
    CU_ASSERT_EQUAL(law.asked, OVERHEAD_LAW_AUTO);
    char words[400];
    overhead_law_words(&law, words, sizeof words);
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "auto chose the node law by leave-one-level-out error"));
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "log2 0.768 s"));
    overhead_law_free(&law);
    /* A straight line in log2 np (alpha = L) with the same places: every
     * law predicts each fold exactly or worse; log2 stays. */
    const double line[] = {1, 2, 3, 4};
    CU_ASSERT_TRUE_FATAL(fit_law(NPS, line, 4, OVERHEAD_LAW_AUTO, PLACES, 5, &law));
    CU_ASSERT_EQUAL(law.kind, OVERHEAD_LAW_LOG2);
    CU_ASSERT_DOUBLE_EQUAL(law.loo_rms[0], 0, 1e-9);
    overhead_law_free(&law);
    /* Two lines: no fold would keep two; auto keeps log2 and says so. */
    CU_ASSERT_TRUE_FATAL(fit_law(NPS, ALPHA, 2, OVERHEAD_LAW_AUTO, PLACES, 5, &law));
    CU_ASSERT_EQUAL(law.kind, OVERHEAD_LAW_LOG2);
    CU_ASSERT_TRUE(isnan(law.loo_rms[0]));
    overhead_law_words(&law, words, sizeof words);
    CU_ASSERT_PTR_NOT_NULL(strstr(words, "auto kept the log2 law (fewer than three"));
    overhead_law_free(&law);
}

/* Topology step planted on a 4,4,4 torus, 2 processes per node: np 2, 4,
 * 8, 16, 32 span 1, 2, 4, 8, 16 nodes, levels 0, 1, 1, 2, 2 (test_levels);
 * alpha = 0.5 + 0.25 L + 1.5 level -> 0.75, 2.5, 2.75, 4.5, 4.75. The
 * topology law recovers it; np 64 (32 nodes, level 3) is beyond the
 * trained levels, predicted with the same step: 0.5 + 1.5 + 4.5 = 6.5.
 * The node law cannot fit the second level, so auto takes topology. */
static void test_topology_law(void)
{
    topology t;
    parse_ok("TORUS", "4,4,4", &t);
    const double nps[] = {2, 4, 8, 16, 32};
    double alpha[5];
    overhead_place places[6];
    for (size_t i = 0; i < 6; i++) {
        double np = i < 5 ? nps[i] : 64, nodes = np / 2;
        places[i] = (overhead_place){np, nodes, topology_level(&t, nodes)};
        if (i < 5)
            alpha[i] = 0.5 + 0.25 * log2(np) + 1.5 * places[i].level;
    }
    CU_ASSERT_DOUBLE_EQUAL(alpha[3], 4.5, 1e-12);
    overhead_law law;
    CU_ASSERT_TRUE_FATAL(fit_law(nps, alpha, 5, OVERHEAD_LAW_AUTO, places, 6, &law));
    CU_ASSERT_EQUAL(law.kind, OVERHEAD_LAW_TOPOLOGY);
    CU_ASSERT(law.loo_rms[1] > 0.1);
    CU_ASSERT_DOUBLE_EQUAL(law.loo_rms[2], 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.step, 1.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.step_trained, 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(overhead_alpha(&law, 64), 6.5, 1e-9);
    CU_ASSERT_TRUE(overhead_step_beyond(&law, 64));
    CU_ASSERT_FALSE(overhead_step_beyond(&law, 32));
    overhead_law_free(&law);
}

/* End to end: a strip campaign whose overhead steps when the job leaves
 * its node (4 cores per node): T = 0.1 work + 0.2 + 0.1 log2 np +
 * 0.5 [np > 4] + 0.01 work, works 10 and 30 MB. Trained on np <= 16,
 * targets np 32 and 64: by hand T(32, 10) = 1 + 1.2 + 0.1 = 2.3, T(32, 30) =
 * 3 + 1.2 + 0.3 = 4.5, T(64, 10) = 2.4, T(64, 30) = 4.6. overhead=node and
 * auto (also the default, no option) recover them; the paper's law (overhead=log2)
 * misses. */
static char dir[256];

/* The planted overhead of write_step_archive: 0.2 + 0.1 log2 np + 0.5
 * [np > 4] + 0.01 work. */
static double node_step_overhead(double np, double work)
{
    return 0.2 + 0.1 * log2(np) + 0.5 * (np > 4) + 0.01 * work;
}

/* Campaign c of cluster syn (clusters: its clusters.csv) with runs at np
 * 1..64 and works 10 and 30, ppn processes per node at most, Tcomp 0.1
 * work plus overhead(np, work) for np > 1. */
static void write_runs_archive(const char *clusters, double ppn, const char *experiments,
                               double (*overhead)(double np, double work))
{
    char runs[4096];
    size_t used = (size_t)snprintf(runs, sizeof runs, "cluster,code,np,na,nb,ppn,work_mb,time_s\n");
    const double nps[] = {1, 2, 4, 8, 16, 32, 64};
    for (int pa = 100; pa <= 300; pa += 200)
        for (size_t i = 0; i < 7; i++) {
            double np = nps[i], w = pa * 1000 * 1e-4;
            double t = 0.1 * w + (np > 1 ? overhead(np, w) : 0);
            used += (size_t)snprintf(runs + used, sizeof runs - used, "syn,mg,%g,%g,1000,%g,%g,%.12g\n",
                                     np, np * pa, fmin(np, ppn), w, t);
        }
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, clusters, "c", experiments, runs));
}

static void write_step_archive(const char *clusters, double ppn, const char *experiments)
{
    write_runs_archive(clusters, ppn, experiments, node_step_overhead);
}

static void write_node_step_archive(void)
{
    write_step_archive("cluster,nodes,cores_per_node\nsyn,16,4\n", 4,
                       "name,model,train,target,options\nlog2,strip,np <= 16,np >= 32,"
                       "overhead=log2\n"
                       "default,strip,np <= 16,np >= 32,\n"
                       "node,strip,np <= 16,np >= 32,overhead=node\n"
                       "auto,strip,np <= 16,np >= 32,overhead=auto\n");
}

/* The estimate of np, work (column 8 of predict's CSV) read by awk. */
static double estimate(const char *experiment, double np, double work)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "%s predict --archive %s --format csv c %s | "
                                   "awk -F, '$3 == %g && $7 == %g { print $8 }'",
                                   testutil_perfcast(), dir, experiment, np, work);
    double v = rc == 0 && out && *out ? strtod(out, NULL) : NAN;
    free(out);
    return v;
}

/* `perfcast VERB --archive dir ARGS` exits want_rc and says both texts. */
static void expect_says(const char *verb, const char *args, int want_rc, const char *first,
                        const char *second)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "%s --archive %s %s", verb, dir, args), want_rc);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, first));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, second));
    free(out);
}

static void test_planted_node_step(void)
{
    write_node_step_archive();
    const double expect[4][3] = {{32, 10, 2.3}, {32, 30, 4.5}, {64, 10, 2.4}, {64, 30, 4.6}};
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_DOUBLE_EQUAL(estimate("node", expect[i][0], expect[i][1]), expect[i][2], 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(estimate("auto", expect[i][0], expect[i][1]), expect[i][2], 1e-9);
        /* No option is auto. */
        CU_ASSERT_DOUBLE_EQUAL(estimate("default", expect[i][0], expect[i][1]), expect[i][2], 1e-9);
        CU_ASSERT(fabs(estimate("log2", expect[i][0], expect[i][1]) - expect[i][2]) > 0.1);
    }
    expect_says("fit", "--format json c node", 0, "0.5*[nodes > 1]",
                "overhead=node: the overhead changes at 8 processes: the job leaves one node, "
                "+0.5 s");
    /* The campaign page says it too: its HTML read back by xmllint. */
    char *count = NULL, site[256];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(site, sizeof site));
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --archive %s --out %s/site --quiet", dir,
                                          site), 0);
    CU_ASSERT_EQUAL(testutil_run_commandf(&count, "xmllint --html --xpath \"count(//li[contains(., "
                                          "'overhead=node: the overhead changes at 8 processes: "
                                          "the job leaves one node, +0.5 s')])\" "
                                          "%s/site/campaigns/c/index.html 2>/dev/null", site), 0);
    CU_ASSERT_DOUBLE_EQUAL(count ? strtod(count, NULL) : 0, 1, 0);
    free(count);
    testutil_remove_dir(site);
    testutil_remove_dir(dir);
}

/* A cluster whose network does not parse is refused by `perfcast check`
 * at its cell (clusters.csv line, column), not read as a flat switch. */
static void test_bad_topology(void)
{
    write_step_archive("cluster,nodes,cores_per_node,sim_topology,sim_topo_parameters\n"
                       "syn,64,2,TORUS,\"4,x,4\"\nother,8,2,RING,2\n", 2,
                       "name,model,train,target,options\n");
    expect_says("check", "", 1,
                "clusters.csv:2:17: expected a torus's X,Y,Z or a fat tree's "
                "LEVELS;DOWN;UP;PARALLEL",
                "clusters.csv:3:11: expected FLAT, TORUS or FAT_TREE in column 'sim_topology', "
                "found \"RING\"");
    testutil_remove_dir(dir);
}

/* The calibration's range (issue 23, item 3): on a 4,4,4 torus with 2
 * processes per node, training np <= 8 spans at most 4 nodes, network
 * level 1; a target of np 16 (8 nodes) fills the second torus dimension,
 * np 64 (32 nodes) the third. Each is reported beyond range in words. */
static void test_calibration_level(void)
{
    write_step_archive("cluster,nodes,cores_per_node,sim_topology,sim_topo_parameters\n"
                       "syn,64,2,TORUS,\"4,4,4\"\n", 2,
                       "name,model,train,target,options\n"
                       "topo,strip,np <= 8,np >= 16,overhead=topology\n");
    expect_says("predict", "--format csv c topo", 0,
                "network level 2 (the second torus dimension) > max trained 1",
                "network level 3 (the third torus dimension) > max trained 1");
    expect_says("fit", "--format json c topo", 0, "overhead=topology: the overhead changes by",
                "*level(nodes)");
    testutil_remove_dir(dir);
}

/* `doublings_beyond_range` and `beyond_range` of experiment's target np,
 * read from predict's CSV by gawk (by header name, quoted fields kept). */
static char *beyond_of(const char *experiment, double np)
{
    char *out = NULL;
    testutil_run_commandf(&out, "%s predict --archive %s --format csv c %s | gawk -v "
                          "'FPAT=([^,]*)|(\"([^\"]|\"\")*\")' 'NR == 1 { for (i = 1; i <= NF; "
                          "i++) col[$i] = i; next } $col[\"np\"] == %g && $col[\"work_mb\"] == "
                          "10 { print $col[\"doublings_beyond_range\"] \"|\" "
                          "$col[\"beyond_range\"] }'",
                          testutil_perfcast(), dir, experiment, np);
    return out;
}

static void expect_beyond(const char *experiment, double np, const char *want)
{
    char *got = beyond_of(experiment, np);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, want);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\n%s np %g: got \"%s\", want \"%s\"\n", experiment, np, got, want);
    free(got);
}

/* The calibration's range within a level (issue 23, item 4): on a 4,4,4
 * torus at 2 processes per node, np 2, 4, 8, 16, 32 hold 1, 2, 4, 8, 16
 * nodes, levels 0, 1, 1, 2, 2 (5..16 nodes fill the second dimension).
 * Trained on np <= 4 and 32, a target of np 8 (4 nodes) lies between the
 * training np and below their most nodes and level, yet no training run of
 * level 1 had more than 2 nodes: log2(4/2) = 1 doubling. np 16 (8 nodes)
 * is inside level 2's trained 16 nodes: 0. np 64 (32 nodes, level 3) is
 * one doubling beyond by np, nodes and level alike: 1 (its na, 6400, is
 * inside the 9600 of np 32 at pa 300). Trained on np <= 2
 * and 32, level 1 has no training run: np 4 and 8 count one doubling, as a
 * level beyond them all would. */
static void test_calibration_within_level(void)
{
    write_step_archive("cluster,nodes,cores_per_node,sim_topology,sim_topo_parameters\n"
                       "syn,64,2,TORUS,\"4,4,4\"\n", 2,
                       "name,model,train,target,options\n"
                       "top,strip,np <= 4 || np == 32,np == 8 || np == 16 || np == 64,"
                       "overhead=log2\n"
                       "none,strip,np <= 2 || np == 32,np == 4 || np == 8,overhead=log2\n");
    expect_beyond("top", 8, "1|nodes 4 = 2x max trained 2 in the first torus dimension\n");
    expect_beyond("top", 16, "0|\n");
    expect_beyond("top", 64, "1|np 64 = 2x max trained 32; "
                  "nodes 32 = 2x max trained 16; network level 3 (the third torus dimension) > "
                  "max trained 2\n");
    expect_beyond("none", 4, "1|network level 1 (the first torus dimension): no training run "
                  "there\n");
    expect_beyond("none", 8, "1|network level 1 (the first torus dimension): no training run "
                  "there\n");
    testutil_remove_dir(dir);
}

/* gamma doubling with each level of a 4,4,4 torus at 2 processes per
 * node: overhead 0.2 + 0.1 log2 np + 0.01 * 2^level * work (levels of np
 * 2, 4, 8, 16, 32, 64: 0, 1, 1, 2, 2, 3). */
static double level_gamma_overhead(double np, double work)
{
    double level = np <= 2 ? 0 : np <= 8 ? 1 : np <= 32 ? 2 : 3;
    return 0.2 + 0.1 * log2(np) + 0.01 * pow(2, level) * work;
}

/* gamma of the target's own level (overhead.h, overhead_gamma_of): trained
 * on np 2, 4, 32 (levels 0, 1, 2), the lines' alphas lie on 0.2 + 0.1
 * log2 np, and by hand T(8, 10) = 0.1*10 + 0.2 + 0.3 + 0.02*10 = 1.7 (np
 * 4's gamma, level 1), T(16, 10) = 1 + 0.2 + 0.4 + 0.04*10 = 2.0 (np 32's,
 * level 2) and T(64, 10) = 1 + 0.2 + 0.6 + 0.4 = 2.2 (level 3 has no line:
 * the largest np's, as in the paper). The paper's law keeps np 32's gamma
 * everywhere: T(8, 10) = 1.9. */
static void test_gamma_of_level(void)
{
    write_runs_archive("cluster,nodes,cores_per_node,sim_topology,sim_topo_parameters\n"
                       "syn,64,2,TORUS,\"4,4,4\"\n", 2,
                       "name,model,train,target,options\n"
                       "topo,strip,np <= 4 || np == 32,np == 8 || np == 16 || np == 64,"
                       "overhead=topology\n"
                       "auto,strip,np <= 4 || np == 32,np == 8 || np == 16 || np == 64,\n"
                       "log2,strip,np <= 4 || np == 32,np == 8 || np == 16 || np == 64,"
                       "overhead=log2\n", level_gamma_overhead);
    const double expect[3][2] = {{8, 1.7}, {16, 2.0}, {64, 2.2}};
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_DOUBLE_EQUAL(estimate("topo", expect[i][0], 10), expect[i][1], 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(estimate("auto", expect[i][0], 10), expect[i][1], 1e-9);
    }
    CU_ASSERT_DOUBLE_EQUAL(estimate("log2", 8, 10), 1.9, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(estimate("log2", 16, 10), 2.0, 1e-9);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"network levels of a job", test_levels},
        {"node law by hand", test_node_law},
        {"step not crossed", test_step_not_crossed},
        {"auto by leave-one-level-out", test_auto_choice},
        {"topology law by hand", test_topology_law},
        {"planted node step, end to end", test_planted_node_step},
        {"calibration: a network level beyond training", test_calibration_level},
        {"calibration: beyond the training runs of the target's own level",
         test_calibration_within_level},
        {"gamma of the target's own network level", test_gamma_of_level},
        {"a network that does not parse", test_bad_topology},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"overhead steps", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
