/*
 * test_plan_safety.c — `perfcast plan` fed from a portal (issue 21 item 8):
 * a control character in any value is refused (exit 2, nothing written)
 * instead of becoming a script line; shell syntax in --extra and --modules
 * stays a word; --reps, --margin, --ppn, --cores, --bytes-per-point,
 * --time, the predicted time, the memory per CPU and the output size keep
 * to the limits of gen/advice/plan_batch.h; a long UTF-8 cluster name is
 * written whole, never cut inside a character; and the writers themselves
 * refuse a plan_batch with an unsafe value.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/advice/plan_batch.h"
#include "models/runplan.h"

#define STRIP "plan --model strip --target 4096x4096 --np 16"

static char dir[256];

/* perfcast STRIP ARGS; *out gets stdout only (stderr discarded) unless
 * with_stderr. Returns the exit status. */
static int plan_run(char **out, const char *args, bool with_stderr)
{
    return testutil_run_commandf(out, "timeout 20 %s %s %s %s", testutil_perfcast(), STRIP, args,
                                 with_stderr ? "2>&1" : "2>/dev/null");
}

/* The status of the run, which must also write nothing on stdout. */
static int refused_quietly(const char *args)
{
    char *out = NULL;
    int rc = plan_run(&out, args, false);
    if (out && *out)
        fprintf(stderr, "\nwrote for '%s':\n%.300s\n", args, out);
    CU_ASSERT_TRUE(!out || !*out);
    free(out);
    return rc;
}

/* A newline, a carriage return, another control byte and DEL, in every
 * value a portal may pass: exit 2, nothing on stdout, the option named. */
static void test_control_characters_refused(void)
{
    static const char *const options[] = {
        "--job-name", "--partition", "--account", "--output", "--time",   "--modules",
        "--extra",    "--mgbench",   "--mpi",     "--cluster", "--campaign", "--code",
        "--launcher", "--archive",
    };
    static const char *const bytes[] = {"\\n", "\\r", "\\001", "\\033", "\\177"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++) {
            char args[256];
            snprintf(args, sizeof args, "--format slurm %s \"$(printf 'a%sb')\"", options[i],
                     bytes[k]);
            CU_ASSERT_EQUAL(refused_quietly(args), 2);
        }
    char *out = NULL;
    CU_ASSERT_EQUAL(plan_run(&out, "--format slurm --job-name \"$(printf 'x\\nrm -rf y')\"", true),
                    2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--job-name: byte 2 is a control character (0x0a)"));
    CU_ASSERT_PTR_NULL(out && strstr(out, "rm -rf"));  /* the value is never echoed */
    CU_ASSERT_PTR_NULL(out && strstr(out, "#SBATCH"));
    free(out);
    /* Table and CSV outputs too, and the model and target. */
    CU_ASSERT_EQUAL(refused_quietly("--format csv --code \"$(printf 'm\\ng')\""), 2);
    CU_ASSERT_EQUAL(refused_quietly("--cluster \"$(printf 'c\\tx')\""), 2);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model \"$(printf 'strip\\n')x\" "
                                                "--target 64x64 --np 4 2>/dev/null"),
                    2);
    free(out);
    /* Invalid UTF-8 and an over-long value are refused, not cut. */
    CU_ASSERT_EQUAL(refused_quietly("--format slurm --account \"$(printf 'a\\377b')\""), 2);
    CU_ASSERT_EQUAL(refused_quietly("--format slurm --account \"$(head -c 4097 /dev/zero | tr "
                                    "'\\0' a)\""),
                    2);
    CU_ASSERT_EQUAL(plan_run(&out, "--format slurm --account \"$(head -c 4096 /dev/zero | tr "
                                   "'\\0' a)\"",
                             false),
                    0);
    free(out);
}

/* Shell syntax in a value stays words of one command: running the script
 * (fake srun and module) creates no file. Quotes in a directive are fine. */
static void test_values_stay_words(void)
{
    char *s = NULL, args[2048];
    snprintf(args, sizeof args,
             "--format slurm --ppn 4 --extra '--levels 6; touch %s/pwned1' "
             "--modules 'gcc $(touch %s/pwned2) `touch %s/pwned3`' --job-name \"it's\" "
             "--mgbench '$(touch %s/pwned4)'",
             dir, dir, dir, dir);
    CU_ASSERT_EQUAL_FATAL(plan_run(&s, args, false), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "--levels '6;' touch "));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "module load gcc '$(touch' "));
    char path[512], fake[512], *out = NULL;
    snprintf(path, sizeof path, "%s/words.sh", dir);
    testutil_write_file(path, s);
    snprintf(fake, sizeof fake, "%s/bin/srun", dir);
    testutil_write_file(fake, "#!/bin/sh\nexit 0\n");
    int rc = testutil_run_commandf(&out, "chmod +x %s && cd %s && PATH=%s/bin:$PATH "
                                         "bash -c 'module() { :; }; export -f module; bash %s' "
                                         ">/dev/null 2>&1; ls %s | grep -c pwned",
                                   fake, dir, dir, path, dir);
    CU_ASSERT_PTR_NOT_NULL(out && strncmp(out, "0", 1) == 0);
    (void)rc;
    free(out);
    free(s);
}

/* Each limit: just inside passes, just outside (and the absurd values of
 * the issue) is a usage error with nothing written. */
static void test_number_limits(void)
{
    static const struct {
        const char *args;
        int rc;
    } cases[] = {
        {"--format slurm --margin 1e308", 2},
        {"--format slurm --margin 101", 2},
        {"--format slurm --margin 100", 0},
        {"--format slurm --margin 0", 2},
        {"--format slurm --bytes-per-point 1e308", 2},
        {"--format slurm --bytes-per-point 10001", 2},
        {"--format slurm --bytes-per-point 10000", 0},
        {"--format slurm --ppn 1e300", 2},
        {"--format slurm --ppn 100001", 2},
        {"--format slurm --ppn 100000", 0},
        {"--format slurm --ppn 2.5", 2},
        {"--format mpirun --cores 1e300", 2},
        {"--format mpirun --cores 100000", 0},
        {"--reps 1e12", 2},
        {"--format csv --reps 1e12", 2},
        {"--reps 1001", 2},
        {"--reps 1000", 0},
        {"--np0 1e300", 2},
        {"--format slurm --time 8760:00:00", 0},
        {"--format slurm --time 8760:00:01", 2},
        {"--format slurm --time 99999999999999999999:00:00", 2},
        {"--format slurm --time 1:2:3", 2},
        {"--format slurm --time 01:60:00", 2},
        {"--format slurm --time -1:00:00", 2},
        {"--format slurm --launcher 'mpirun; id'", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        int rc = plan_run(&out, cases[i].args, false);
        if (rc != cases[i].rc)
            fprintf(stderr, "\n'%s': exit %d, expected %d\n", cases[i].args, rc, cases[i].rc);
        CU_ASSERT_EQUAL(rc, cases[i].rc);
        CU_ASSERT_TRUE(cases[i].rc == 0 ? out && *out : !out || !*out);
        free(out);
    }
    char *out = NULL;
    CU_ASSERT_EQUAL(plan_run(&out, "--format slurm --margin 1e308", true), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--margin takes a number > 0, at most 100"));
    free(out);
    /* The memory per CPU of a huge target at the largest bytes per point:
     * refused as a plan (exit 1), never written as infM. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 1000000000x1000000000 "
                                                "--np 16 --format slurm --bytes-per-point 10000 "
                                                "2>&1"),
                    1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "more than the 16 TiB"));
    CU_ASSERT_PTR_NULL(out && strstr(out, "infM"));
    free(out);
}

/* A campaign whose measured runs predict more than a year: the time limit
 * is capped at 8760:00:00 and says so, never negative or absurd. */
static void test_predicted_time_capped(void)
{
    char path[512], args[1024], *s = NULL;
    snprintf(path, sizeof path, "%s/a/c/runs.csv", dir);
    testutil_write_file(path, "cluster,np,npa,npb,na,nb,time_s\n"
                              "big,1,1,1,256,4096,1e12\nbig,4,4,1,1024,4096,1e12\n");
    snprintf(path, sizeof path, "%s/a/c/experiments.csv", dir);
    testutil_write_file(path, "name,model\n");
    snprintf(path, sizeof path, "%s/a/c/README.md", dir);
    testutil_write_file(path, "test\n");
    snprintf(path, sizeof path, "%s/a/clusters.csv", dir);
    testutil_write_file(path, "cluster,cores_per_node\nbig,4\n");
    snprintf(args, sizeof args, "--format slurm --archive %s/a --campaign c --margin 100", dir);
    CU_ASSERT_EQUAL_FATAL(plan_run(&s, args, false), 0);
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "#SBATCH --time=8760:00:00\n"));
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "capped at one year"));
    free(s);
    snprintf(args, sizeof args, "--format pbs --archive %s/a --campaign c", dir);
    CU_ASSERT_EQUAL_FATAL(plan_run(&s, args, false), 0);
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "#PBS -l walltime=8760:00:00\n"));
    free(s);
}

/* "é" x 100: 200 bytes of UTF-8, written whole wherever a cluster goes. */
static void test_long_utf8_cluster_whole(void)
{
    char name[256] = "";
    for (int i = 0; i < 100; i++)
        strcat(name, "\xc3\xa9");
    char args[1024], *out = NULL;
    static const char *const formats[] = {"csv", "table", "slurm", "mpirun"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        snprintf(args, sizeof args, "--format %s --cluster '%s'", formats[i], name);
        CU_ASSERT_EQUAL(plan_run(&out, args, false), 0);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, name));
        free(out);
    }
    /* Two sides of a multicluster plan, each whole. */
    snprintf(args, sizeof args,
             "%s plan --model multicluster --target 1024x256 --np 4,4 --cluster '%s,x%s' "
             "--format csv",
             testutil_perfcast(), name, name);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "%s", args), 0);
    char side_b[300];
    snprintf(side_b, sizeof side_b, "\nx%s,", name);
    char side_a[300];
    snprintf(side_a, sizeof side_a, "\n%s,", name);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, side_a));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, side_b));
    free(out);
}

/* An output above 4 MiB is refused whole (exit 1), never printed for ever:
 * 4000-byte code names x 1000 repetitions x 6 runs. */
static void test_output_limit(void)
{
    char *out = NULL;
    int rc = plan_run(&out, "--format csv --reps 1000 --code \"$(head -c 4000 /dev/zero | tr "
                            "'\\0' m)\"",
                      false);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_TRUE(!out || !*out);
    free(out);
    rc = plan_run(&out, "--format csv --reps 1000 --code \"$(head -c 4000 /dev/zero | tr "
                        "'\\0' m)\"",
                  true);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "more than 4 MiB"));
    free(out);
    /* Just below: 1000 repetitions of 6 runs with a short code. */
    CU_ASSERT_EQUAL(plan_run(&out, "--format csv --reps 1000", false), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, ",1000,,"));
    free(out);
}

/* The writers check the values themselves: an unsafe plan_batch writes
 * nothing and says why, whoever calls them. */
static void test_writers_refuse(void)
{
    runplan p;
    char err[512];
    runplan_options o = {NULL, 0, NULL, 0, 1, 0, 0, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_strip(256, 256, 4, &o, &p, err, sizeof err));
    plan_batch good = {.model = "strip", .target = "256x256", .launcher = "srun", .ppn = 4,
                       .mem_per_cpu_mb = NAN, .time = "00:10:00", .side = -1};
    static const char *const bad_names[] = {"a\nb", "a\rb", "\x7f", "a\xffz"};
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        plan_batch b = good;
        b.job_name = bad_names[i];
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);
        CU_ASSERT_FALSE(plan_batch_slurm(&b, &p, f, err, sizeof err));
        CU_ASSERT_FALSE(plan_batch_pbs(&b, &p, f, err, sizeof err));
        b.job_name = NULL;
        b.cluster[0] = bad_names[i];
        CU_ASSERT_FALSE(plan_batch_mpirun(&b, &p, f, f, NULL, err, sizeof err));
        fclose(f);
        CU_ASSERT_EQUAL(size, 0);
        free(text);
    }
    plan_batch b = good;
    b.time = "-5:00:00";
    CU_ASSERT_FALSE(plan_batch_check(&b, err, sizeof err));
    b = good;
    b.mem_per_cpu_mb = INFINITY;
    CU_ASSERT_FALSE(plan_batch_check(&b, err, sizeof err));
    b = good;
    b.ppn = PLAN_BATCH_MAX_PPN + 1;
    CU_ASSERT_FALSE(plan_batch_check(&b, err, sizeof err));
    CU_ASSERT_TRUE(plan_batch_check(&good, err, sizeof err));
    runplan_free(&p);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"control characters in any value refused", test_control_characters_refused},
        {"shell syntax in values stays words", test_values_stay_words},
        {"limits of the numbers", test_number_limits},
        {"predicted time capped at one year", test_predicted_time_capped},
        {"a 200-byte UTF-8 cluster name whole", test_long_utf8_cluster_whole},
        {"output above 4 MiB refused whole", test_output_limit},
        {"the writers refuse unsafe values", test_writers_refuse},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"plan-safety", tests}, {NULL, NULL}};
    if (!testutil_temp_dir(dir, sizeof dir))
        return 1;
    int status = testutil_run_suites(suites);
    testutil_remove_dir(dir);
    return status;
}
