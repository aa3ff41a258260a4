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
 * A plan may be fed from a web portal, so no value may change what the
 * script does: a value with a control character (a newline would start a
 * script line of its own), invalid UTF-8 or more than PLAN_BATCH_MAX_TEXT
 * bytes is refused, never cut; every value the shell reads is quoted as one
 * word (--extra and --modules as words split at blanks); numbers stay within
 * the limits below (README "Batch scripts"). The writers check all of it
 * (plan_batch_check) and write nothing when a value is refused.
 *
 * Ownership: nothing is allocated; every pointer in plan_batch is borrowed.
 */
#ifndef PERFCAST_PLAN_BATCH_H
#define PERFCAST_PLAN_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "models/runplan.h"
#include "models/table.h"

/* The limits of a plan, stated in `perfcast plan --help` and the README. */
enum {
    PLAN_BATCH_MAX_TEXT = 4096,        /* bytes of any text value */
    PLAN_BATCH_MAX_REPS = 1000,        /* repetitions of a run */
    PLAN_BATCH_MAX_PPN = 100000,       /* processes per node; cores of a machine */
    PLAN_BATCH_MAX_HOURS = 8760,       /* a time limit: one year */
    PLAN_BATCH_MAX_OUTPUT = 4 << 20,   /* bytes of a script, table or CSV: 4 MiB */
};
#define PLAN_BATCH_MAX_MARGIN 100.0          /* factor of the predicted time */
#define PLAN_BATCH_MAX_BYTES_PER_POINT 1e4   /* memory per mesh point */
#define PLAN_BATCH_MAX_MEM_MB 16777216.0     /* memory per CPU: 16 TiB */

typedef struct {
    const char *model, *target;  /* for the script's opening comment */
    const char *mgbench;         /* the program (default "mgbench") */
    const char *launcher;        /* batch: "srun" (default) or "mpirun" */
    const char *mpi;             /* srun --mpi=VALUE; NULL or "none" = not given */
    long ppn;                    /* processes per node at the target; 0 = unknown */
    long cores;                  /* mpirun: cores of this machine */
    double mem_per_cpu_mb;       /* NAN = not asked for */
    const char *time;            /* HH:MM:SS; NULL = 01:00:00 */
    const char *time_note;       /* how the time limit was chosen (a comment line) */
    const char *partition, *account, *modules, *output, *job_name; /* NULL = default/placeholder */
    int side;                    /* multicluster: 0 or 1; -1 = every run */
    const char *cluster[2];      /* mgbench --cluster of each side; NULL = none */
    const char *campaign, *archive, *extra; /* mgbench --campaign/--archive, more options */
} plan_batch;

/* True when s may stand in a script: valid UTF-8, no control character
 * (a byte below 0x20, or 0x7f), at most PLAN_BATCH_MAX_TEXT bytes. Else
 * false, and err says why, naming the value as `what` ("--job-name") and
 * never quoting it (it may hold a control character). */
bool plan_batch_text_ok(const char *s, const char *what, char *err, size_t len);

/* True when t is a time limit HH:MM:SS (hours of one or more digits,
 * minutes and seconds below 60) of at most PLAN_BATCH_MAX_HOURS hours. */
bool plan_batch_time_ok(const char *t);

/* True when every value of b may be written (plan_batch_text_ok for every
 * text, ppn and cores within 0..PLAN_BATCH_MAX_PPN, a time limit
 * plan_batch_time_ok, memory per CPU NAN or in (0, PLAN_BATCH_MAX_MEM_MB]);
 * else false and err says which value and why. */
bool plan_batch_check(const plan_batch *b, char *err, size_t len);

/* mpirun -n NP mgbench ... one line per run; warnings name each
 * oversubscribed run, and *oversubscribed counts them (may be NULL).
 * The writers below write nothing and return false, with err, when
 * plan_batch_check refuses b. */
bool plan_batch_mpirun(const plan_batch *b, const runplan *p, FILE *out, FILE *warn,
                       size_t *oversubscribed, char *err, size_t len);

/* A Slurm batch script (sbatch). */
bool plan_batch_slurm(const plan_batch *b, const runplan *p, FILE *out, char *err, size_t len);

/* A PBS/Torque batch script (qsub). */
bool plan_batch_pbs(const plan_batch *b, const runplan *p, FILE *out, char *err, size_t len);

/* Memory of one process of the plan's largest run, MB, at bytes_per_point. */
double plan_batch_max_work_mb(const runplan *p, int side, double bytes_per_point);

/* The nodes a batch script of b asks for: those of its largest run,
 * placed b->ppn to a node (all on one node when b->ppn is 0). */
long plan_batch_nodes(const plan_batch *b, const runplan *p);

/* A time limit for the whole plan from measured runs (runs.csv of a
 * campaign): each planned run takes the mean time_s of the measured runs of
 * its configuration (the process count column procs, npa, npb, na, nb),
 * else the time of the measured run nearest in per-process work, scaled by
 * the ratio of per-process points; the sum over runs and repetitions times margin, plus 5 minutes,
 * rounded up to a minute, as HH:MM:SS in out; at most PLAN_BATCH_MAX_HOURS
 * (note says so when the prediction was more). False (out untouched) when
 * runs has no usable measured run or margin is not in (0,
 * PLAN_BATCH_MAX_MARGIN]. note says how it was made. */
bool plan_batch_time_limit(const runplan *p, int side, const table *runs, const char *procs,
                           double margin, char *out, size_t len, char *note,
                           size_t note_len);

#endif
