/*
 * plan_batch.h — a run plan (models/runplan.h) as commands to run: mpirun
 * lines for this machine, or a Slurm or PBS/Torque batch script for a
 * cluster.
 *
 * Batch scripts place every run as the target will be placed (the strip
 * model's alpha and gamma depend on how many processes share a node):
 * PPN processes per node on full nodes, a run of np processes on
 * ceil(np/PPN) nodes. They ask for whole nodes (--exclusive), memory per
 * CPU from the largest run's work_mb, a time limit, an output file, and
 * leave placeholders for the account and the modules. Every run is
 * attempted even when one fails (no `set -e`); the script counts the
 * failures and exits 1 when there was one.
 *
 * mpirun lines add --oversubscribe to exactly the runs with more processes
 * than cores, and warn about each on the warning stream.
 *
 * Ownership: nothing is allocated; every pointer in plan_batch is borrowed.
 */
#ifndef PERFCAST_PLAN_BATCH_H
#define PERFCAST_PLAN_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "models/runplan.h"
#include "models/table.h"

typedef struct {
    const char *model, *target;  /* for the script's opening comment */
    const char *mgbench;         /* the program (default "mgbench") */
    const char *launcher;        /* batch: "srun" (default) or "mpirun" */
    const char *mpi;             /* srun --mpi=VALUE; NULL or "none" = not given */
    long ppn;                    /* processes per node at the target; 0 = unknown */
    long cores;                  /* mpirun: cores of this machine */
    double mem_per_cpu_mb;       /* NAN = not asked for */
    const char *time;            /* HH:MM:SS */
    const char *time_note;       /* how the time limit was chosen (a comment line) */
    const char *partition, *account, *modules, *output, *job_name; /* NULL = default/placeholder */
    int side;                    /* multicluster: 0 or 1; -1 = every run */
    const char *cluster[2];      /* mgbench --cluster of each side; NULL = none */
    const char *campaign, *archive, *extra; /* mgbench --campaign/--archive, more options */
} plan_batch;

/* mpirun -n NP mgbench ... one line per run; warnings name each
 * oversubscribed run. Returns how many runs are oversubscribed. */
size_t plan_batch_mpirun(const plan_batch *b, const runplan *p, FILE *out, FILE *warn);

/* A Slurm batch script (sbatch). */
void plan_batch_slurm(const plan_batch *b, const runplan *p, FILE *out);

/* A PBS/Torque batch script (qsub). */
void plan_batch_pbs(const plan_batch *b, const runplan *p, FILE *out);

/* Memory of one process of the plan's largest run, MB, at bytes_per_point. */
double plan_batch_max_work_mb(const runplan *p, int side, double bytes_per_point);

/* A time limit for the whole plan from measured runs (runs.csv of a
 * campaign): each planned run takes the mean time_s of the measured runs of
 * its configuration (the process count column procs, npa, npb, na, nb),
 * else the time of the measured run nearest in per-process work, scaled by
 * the ratio of per-process points; the sum over runs and repetitions times margin, plus 5 minutes,
 * rounded up to a minute, as HH:MM:SS in out. False (out untouched) when
 * runs has no usable measured run. note says how it was made. */
bool plan_batch_time_limit(const runplan *p, int side, const table *runs, const char *procs,
                           double margin, char *out, size_t len, char *note,
                           size_t note_len);

#endif
