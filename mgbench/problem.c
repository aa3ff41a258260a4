/*
 * problem.c — right-hand sides and exact solutions (see problem.h).
 */
#include "mgbench/problem.h"

#include <math.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

double mgb_problem_h(long na, long nb)
{
    return 1.0 / (double)(na > nb ? na : nb);
}

static double sine_u(long na, long nb, long gi, long gj)
{
    return sin(PI * (double)gi / (double)na) * sin(PI * (double)gj / (double)nb);
}

double mgb_problem_f(mgb_problem p, long na, long nb, long gi, long gj)
{
    if (p == MGB_PROBLEM_ONE)
        return 1.0;
    double h = mgb_problem_h(na, nb);
    double x = (double)na * h, y = (double)nb * h;
    return PI * PI * (1.0 / (x * x) + 1.0 / (y * y)) * sine_u(na, nb, gi, gj);
}

bool mgb_problem_exact(mgb_problem p, long na, long nb, long gi, long gj,
                       double *u)
{
    if (p == MGB_PROBLEM_ONE)
        return false;
    *u = sine_u(na, nb, gi, gj);
    return true;
}

const char *mgb_problem_name(mgb_problem p)
{
    return p == MGB_PROBLEM_ONE ? "one" : "sine";
}

bool mgb_problem_parse(const char *name, mgb_problem *p)
{
    if (strcmp(name, "sine") == 0)
        *p = MGB_PROBLEM_SINE;
    else if (strcmp(name, "one") == 0)
        *p = MGB_PROBLEM_ONE;
    else
        return false;
    return true;
}
