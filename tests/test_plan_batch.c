/*
 * test_plan_batch.c — `perfcast plan --format slurm|pbs|mpirun`: the batch
 * script's directives (placement, memory from work_mb, exclusive nodes,
 * time from measured runs, output, account and module placeholders), its
 * syntax (bash -n), that it attempts every run when some fail (run with a
 * fake srun), and that mpirun lines oversubscribe exactly the runs with
 * more processes than cores. Expected numbers are derived by hand in the
 * comments.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strip, 4096x4096 on 16 processes: sequential runs at 256x4096 and 64x4096,
 * strips at np0 = 4 and 8 with 256 (level 1) and 64 (level 4) rows each:
 * six runs of 3 repetitions; the largest process holds 256 x 4096 points. */
#define STRIP "plan --model strip --target 4096x4096 --np 16"

static char dir[256];

static char *plan(const char *args)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "%s %s %s 2>/dev/null", testutil_perfcast(), STRIP, args);
    CU_ASSERT_EQUAL(rc, 0);
    return out;
}

static bool has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
            return true;
    return false;
}

static void assert_line(const char *text, const char *line)
{
    if (!text || !has_line(text, line))
        fprintf(stderr, "\nmissing line: %s\n", line);
    CU_ASSERT_TRUE(text && has_line(text, line));
}

static bool bash_syntax_ok(const char *script)
{
    char path[512], *out = NULL;
    snprintf(path, sizeof path, "%s/check.sh", dir);
    testutil_write_file(path, script);
    int rc = testutil_run_commandf(&out, "bash -n %s", path);
    free(out);
    return rc == 0;
}

static void test_slurm_directives(void)
{
    char *s = plan("--format slurm --ppn 4 --time 00:30:00 --partition short");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    assert_line(s, "#!/bin/bash");
    assert_line(s, "#SBATCH --nodes=2");           /* 8 processes at most, 4 per node */
    assert_line(s, "#SBATCH --ntasks-per-node=4");
    assert_line(s, "#SBATCH --exclusive");
    /* 256 x 4096 points x 24 bytes = 24 MiB; x 1.25 + 64 = 94 MB. */
    assert_line(s, "#SBATCH --mem-per-cpu=94M");
    assert_line(s, "#SBATCH --time=00:30:00");
    assert_line(s, "#SBATCH --output=perfcast-plan-%j.out");
    assert_line(s, "#SBATCH --partition=short");
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "##SBATCH --account=PROJECT"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "# module load "));
    CU_ASSERT_PTR_NULL(strstr(s, "set -e"));
    /* The 8-process strips on 2 nodes of 4, the 4-process ones on 1. */
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "run_step srun --mpi=pmix --nodes=2 --ntasks=8 "
                                     "--ntasks-per-node=4 \"$MGBENCH\" --partition strip "
                                     "--na 2048 --nb 4096 --reps 3 --warmup 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "run_step srun --mpi=pmix --nodes=1 --ntasks=4 "
                                     "--ntasks-per-node=4 \"$MGBENCH\""));
    CU_ASSERT_TRUE(bash_syntax_ok(s));
    free(s);
    /* Account and modules filled in; mpirun as the launcher. */
    s = plan("--format slurm --ppn 4 --account proj42 --modules 'gcc openmpi' --launcher mpirun");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    assert_line(s, "#SBATCH --account=proj42");
    assert_line(s, "module load gcc openmpi");
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "run_step mpirun -n 8 --map-by ppr:4:node \"$MGBENCH\""));
    CU_ASSERT_TRUE(bash_syntax_ok(s));
    free(s);
}

/* Placement from clusters.csv (cores_per_node) and the time limit from the
 * campaign's measured runs: every planned configuration measured at 10 s,
 * so 6 runs x 3 repetitions x 10 s = 180 s, x 1.5 = 270 s = 4.5 min -> 5,
 * + 5 = 10 minutes. */
static void test_slurm_from_archive(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/a/clusters.csv", dir);
    testutil_write_file(path, "cluster,cores_per_node\nbig,4\n");
    snprintf(path, sizeof path, "%s/a/c/runs.csv", dir);
    testutil_write_file(path, "cluster,np,npa,npb,na,nb,time_s\n"
                              "big,1,1,1,256,4096,10\nbig,1,1,1,64,4096,10\n"
                              "big,4,4,1,1024,4096,10\nbig,4,4,1,256,4096,10\n"
                              "big,8,8,1,2048,4096,10\nbig,8,8,1,512,4096,10\n");
    snprintf(path, sizeof path, "%s/a/c/experiments.csv", dir);
    testutil_write_file(path, "name,model\n");
    snprintf(path, sizeof path, "%s/a/c/README.md", dir);
    testutil_write_file(path, "test\n");
    char args[512];
    snprintf(args, sizeof args, "--format slurm --archive %s/a --campaign c --cluster big", dir);
    char *s = plan(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    assert_line(s, "#SBATCH --ntasks-per-node=4");
    assert_line(s, "#SBATCH --nodes=2");
    assert_line(s, "#SBATCH --time=00:10:00");
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "# Time limit: 180 s predicted"));
    free(s);
    /* No measured runs: the default, and the script says so. */
    s = plan("--format slurm --ppn 4");
    assert_line(s, "#SBATCH --time=01:00:00");
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "no measured runs to predict it from"));
    free(s);
}

/* With a fake srun that fails the 4-process runs, all six runs are still
 * attempted, two fail, and the script exits 1. */
static void test_slurm_attempts_every_run(void)
{
    char *s = plan("--format slurm --ppn 4");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    char path[512], fake[512];
    snprintf(path, sizeof path, "%s/job.sh", dir);
    testutil_write_file(path, s);
    snprintf(fake, sizeof fake, "%s/bin/srun", dir);
    testutil_write_file(fake, "#!/bin/sh\ncase \"$*\" in *--ntasks=4\\ *) exit 3;; esac\nexit 0\n");
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "chmod +x %s && PATH=%s/bin:$PATH MGBENCH=true bash %s",
                                   fake, dir, path);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "== run 6:"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "run 3 failed (exit 3)"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "perfcast plan: 2 of 6 runs failed"));
    free(out);
    /* All succeed: exit 0. */
    testutil_write_file(fake, "#!/bin/sh\nexit 0\n");
    rc = testutil_run_commandf(&out, "PATH=%s/bin:$PATH MGBENCH=true bash %s", dir, path);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "0 of 6 runs failed"));
    free(out);
    free(s);
}

static void test_pbs(void)
{
    char *s = plan("--format pbs --ppn 4 --time 02:00:00");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    assert_line(s, "#PBS -l nodes=2:ppn=4");
    assert_line(s, "#PBS -l walltime=02:00:00");
    assert_line(s, "#PBS -l pmem=94mb");
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "run_step mpirun -n 8 --map-by ppr:4:node"));
    CU_ASSERT_TRUE(bash_syntax_ok(s));
    free(s);
}

/* --oversubscribe on exactly the runs above the cores, one warning each. */
static void test_mpirun_oversubscribe(void)
{
    char *s = plan("--format mpirun --cores 4");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    size_t over = 0, lines = 0;
    for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "mpirun ", 7) != 0)
            continue;
        lines++;
        bool big = strncmp(line, "mpirun -n 8 ", 12) == 0;
        over += strstr(line, "--oversubscribe") != NULL;
        CU_ASSERT_EQUAL(big, strstr(line, "--oversubscribe") != NULL);
    }
    CU_ASSERT_EQUAL(lines, 6);
    CU_ASSERT_EQUAL(over, 2);
    free(s);
    char *out = NULL;
    testutil_run_commandf(&out, "%s %s --format mpirun --cores 4 2>&1 >/dev/null",
                          testutil_perfcast(), STRIP);
    size_t warnings = 0;
    for (const char *p = out; p && (p = strstr(p, "warning: run ")); p++)
        warnings++;
    CU_ASSERT_EQUAL(warnings, 2);
    free(out);
    testutil_run_commandf(&out, "%s %s --format mpirun --cores 8 2>&1", testutil_perfcast(), STRIP);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "oversubscribe") : NULL);
    free(out);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"slurm: directives and bash -n", test_slurm_directives},
        {"slurm: placement and time from the archive", test_slurm_from_archive},
        {"slurm: every run attempted", test_slurm_attempts_every_run},
        {"pbs", test_pbs},
        {"mpirun: --oversubscribe where needed, with warnings", test_mpirun_oversubscribe},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"plan-batch", tests}, {NULL, NULL}};
    if (!testutil_temp_dir(dir, sizeof dir))
        return 1;
    int status = testutil_run_suites(suites);
    testutil_remove_dir(dir);
    return status;
}
