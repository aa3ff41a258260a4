/*
 * hypre_poisson.c — the reference problem of `make bench` solved by hypre,
 * for comparison with mgbench: -Lap u = 1 on the unit square, u = 0 on the
 * boundary, 5-point finite differences on (n-1) x (n-1) interior points
 * (n = --na intervals), x0 = 0, stop when ||b - Ax||_2 / ||b||_2 <= --tol.
 * The same scaled equations as mgbench: A = 4 on the diagonal and -1 per
 * neighbour, b = h^2.
 *
 *   mpirun -n NP hypre_poisson --na 4096 --solver pcg|pfmg [--tol 1e-8]
 *
 * pcg: hypre's PCG preconditioned by one PFMG V-cycle; pfmg: PFMG as the
 * solver. Both with hypre's default parameters otherwise. The processes own
 * strips of consecutive rows (the box split along the first index).
 * Built only by `make bench` (needs libhypre-dev).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <HYPRE_struct_ls.h>

typedef struct {
    long n;          /* intervals per side */
    int pcg;         /* 1: PCG + PFMG, 0: PFMG */
    double tol;
} options;

static int parse(int argc, char **argv, options *o)
{
    o->n = 4096;
    o->pcg = 1;
    o->tol = 1e-8;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--na"))
            o->n = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--solver") && !strcmp(argv[i + 1], "pcg"))
            o->pcg = 1;
        else if (!strcmp(argv[i], "--solver") && !strcmp(argv[i + 1], "pfmg"))
            o->pcg = 0;
        else if (!strcmp(argv[i], "--tol"))
            o->tol = atof(argv[i + 1]);
        else
            return -1;
    }
    return (argc % 2 == 1 && o->n >= 4 && o->tol > 0) ? 0 : -1;
}

/* This process's box of interior points: rows lo[0]..hi[0], all columns. */
static void my_box(long n, int rank, int size, int lo[2], int hi[2])
{
    long rows = n - 1, per = rows / size, extra = rows % size;
    long first = 1 + rank * per + (rank < extra ? rank : extra);
    long count = per + (rank < extra ? 1 : 0);
    lo[0] = (int)first;
    hi[0] = (int)(first + count - 1);
    lo[1] = 1;
    hi[1] = (int)(n - 1);
}

static HYPRE_StructMatrix build_matrix(MPI_Comm comm, HYPRE_StructGrid grid,
                                       HYPRE_StructStencil stencil, long n, int lo[2], int hi[2])
{
    HYPRE_StructMatrix A;
    HYPRE_StructMatrixCreate(comm, grid, stencil, &A);
    HYPRE_StructMatrixInitialize(A);
    long cells = (long)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
    double *v = malloc((size_t)cells * 5 * sizeof *v);
    int entries[5] = {0, 1, 2, 3, 4};
    long k = 0;
    for (int j = lo[1]; j <= hi[1]; j++) /* hypre boxes run the first index fastest */
        for (int i = lo[0]; i <= hi[0]; i++) {
            v[k++] = 4.0;
            v[k++] = i > 1 ? -1.0 : 0.0;      /* (i-1, j) */
            v[k++] = i < n - 1 ? -1.0 : 0.0;  /* (i+1, j) */
            v[k++] = j > 1 ? -1.0 : 0.0;      /* (i, j-1) */
            v[k++] = j < n - 1 ? -1.0 : 0.0;  /* (i, j+1) */
        }
    HYPRE_StructMatrixSetBoxValues(A, lo, hi, 5, entries, v);
    HYPRE_StructMatrixAssemble(A);
    free(v);
    return A;
}

static HYPRE_StructVector build_vector(MPI_Comm comm, HYPRE_StructGrid grid, int lo[2],
                                       int hi[2], double value)
{
    HYPRE_StructVector x;
    HYPRE_StructVectorCreate(comm, grid, &x);
    HYPRE_StructVectorInitialize(x);
    long cells = (long)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
    double *v = malloc((size_t)cells * sizeof *v);
    for (long k = 0; k < cells; k++)
        v[k] = value;
    HYPRE_StructVectorSetBoxValues(x, lo, hi, v);
    HYPRE_StructVectorAssemble(x);
    free(v);
    return x;
}

static double max_value(MPI_Comm comm, HYPRE_StructVector x, int lo[2], int hi[2])
{
    long cells = (long)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
    double *v = malloc((size_t)cells * sizeof *v), mine = -INFINITY, all;
    HYPRE_StructVectorGetBoxValues(x, lo, hi, v);
    for (long k = 0; k < cells; k++)
        mine = fmax(mine, v[k]);
    free(v);
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, comm);
    return all;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    options o;
    if (parse(argc, argv, &o) != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: hypre_poisson --na N --solver pcg|pfmg [--tol T]\n");
        MPI_Finalize();
        return 2;
    }
    double h = 1.0 / (double)o.n;
    int lo[2], hi[2];
    my_box(o.n, rank, size, lo, hi);

    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    HYPRE_StructGrid grid;
    HYPRE_StructGridCreate(comm, 2, &grid);
    HYPRE_StructGridSetExtents(grid, lo, hi);
    HYPRE_StructGridAssemble(grid);
    HYPRE_StructStencil stencil;
    int offsets[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    HYPRE_StructStencilCreate(2, 5, &stencil);
    for (int e = 0; e < 5; e++)
        HYPRE_StructStencilSetElement(stencil, e, offsets[e]);
    HYPRE_StructMatrix A = build_matrix(comm, grid, stencil, o.n, lo, hi);
    HYPRE_StructVector b = build_vector(comm, grid, lo, hi, h * h);
    HYPRE_StructVector x = build_vector(comm, grid, lo, hi, 0.0);

    HYPRE_StructSolver solver, precond;
    int iterations;
    double rel;
    if (o.pcg) {
        HYPRE_StructPCGCreate(comm, &solver);
        HYPRE_StructPCGSetTol(solver, o.tol);
        HYPRE_StructPCGSetTwoNorm(solver, 1);
        HYPRE_StructPCGSetMaxIter(solver, 1000);
        HYPRE_StructPFMGCreate(comm, &precond);
        HYPRE_StructPFMGSetMaxIter(precond, 1);
        HYPRE_StructPFMGSetTol(precond, 0.0);
        HYPRE_StructPFMGSetZeroGuess(precond);
        HYPRE_StructPCGSetPrecond(solver, HYPRE_StructPFMGSolve, HYPRE_StructPFMGSetup, precond);
        HYPRE_StructPCGSetup(solver, A, b, x);
    } else {
        HYPRE_StructPFMGCreate(comm, &solver);
        HYPRE_StructPFMGSetTol(solver, o.tol);
        HYPRE_StructPFMGSetMaxIter(solver, 1000);
        HYPRE_StructPFMGSetLogging(solver, 1); /* keeps the residual norm; no effect on the solve */
        HYPRE_StructPFMGSetup(solver, A, b, x);
    }
    MPI_Barrier(comm);
    double t1 = MPI_Wtime();
    if (o.pcg) {
        HYPRE_StructPCGSolve(solver, A, b, x);
        HYPRE_StructPCGGetNumIterations(solver, &iterations);
        HYPRE_StructPCGGetFinalRelativeResidualNorm(solver, &rel);
    } else {
        HYPRE_StructPFMGSolve(solver, A, b, x);
        HYPRE_StructPFMGGetNumIterations(solver, &iterations);
        HYPRE_StructPFMGGetFinalRelativeResidualNorm(solver, &rel);
    }
    MPI_Barrier(comm);
    double t2 = MPI_Wtime();
    double umax = max_value(comm, x, lo, hi);
    if (rank == 0)
        printf("hypre: solver=%s np=%d n=%ld iterations=%d rel_residual=%.3e "
               "time_setup_s=%.4f time_solve_s=%.4f time_s=%.4f max_u=%.6f\n",
               o.pcg ? "pcg-pfmg" : "pfmg", size, o.n - 1, iterations, rel, t1 - t0, t2 - t1,
               t2 - t0, umax);
    if (o.pcg) {
        HYPRE_StructPCGDestroy(solver);
        HYPRE_StructPFMGDestroy(precond);
    } else {
        HYPRE_StructPFMGDestroy(solver);
    }
    HYPRE_StructVectorDestroy(x);
    HYPRE_StructVectorDestroy(b);
    HYPRE_StructMatrixDestroy(A);
    HYPRE_StructStencilDestroy(stencil);
    HYPRE_StructGridDestroy(grid);
    MPI_Finalize();
    return 0;
}
