/*
 * problem.h — the Poisson problems mgbench solves: -Lap u = f on the
 * rectangle [0, na h] x [0, nb h] with u = 0 on the boundary and square
 * cells, h = 1 / max(na, nb) (the longer side has length 1), so the 5-point
 * operator is isotropic whatever the mesh shape.
 *
 *  - sine: manufactured solution u = sin(pi x / X) sin(pi y / Y) (X, Y the
 *    side lengths), f = pi^2 (1/X^2 + 1/Y^2) u; the error is known.
 *  - one:  f = 1 (the reference benchmark problem; on the unit square the
 *    maximum of u is 0.0736713...).
 */
#ifndef MGBENCH_PROBLEM_H
#define MGBENCH_PROBLEM_H

#include <stdbool.h>

typedef enum { MGB_PROBLEM_SINE, MGB_PROBLEM_ONE } mgb_problem;

/* Mesh width of an na x nb mesh. */
double mgb_problem_h(long na, long nb);

/* Right-hand side f at global node (gi, gj). */
double mgb_problem_f(mgb_problem p, long na, long nb, long gi, long gj);

/* Exact solution at (gi, gj); false when the problem has no closed form. */
bool mgb_problem_exact(mgb_problem p, long na, long nb, long gi, long gj,
                       double *u);

/* "sine" / "one" <-> the enum; parse returns false on an unknown name. */
const char *mgb_problem_name(mgb_problem p);
bool mgb_problem_parse(const char *name, mgb_problem *p);

#endif
