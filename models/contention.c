/*
 * contention.c — see contention.h.
 */
#include "models/contention.h"

#include <math.h>
#include <stdio.h>

static bool known(double v)
{
    return isfinite(v) && v > 0;
}

contention_law contention_roofline(double core_gbs, double node_gbs)
{
    if (!known(core_gbs) || !known(node_gbs))
        return contention_none();
    return (contention_law){true, core_gbs, node_gbs};
}

contention_law contention_none(void)
{
    return (contention_law){false, NAN, NAN};
}

double contention_factor(const contention_law *law, double ppn)
{
    if (!law->on || !known(ppn))
        return 1;
    return fmax(1, ppn * law->core_gbs / law->node_gbs);
}

double contention_tcomp(const contention_law *law, double tcomp_one, double ppn)
{
    return tcomp_one * contention_factor(law, ppn);
}

double contention_saturation(const contention_law *law)
{
    return law->on ? law->node_gbs / law->core_gbs : NAN;
}

void contention_config_ppn(const mesh_configs *cs, const double *run_ppn, double *out)
{
    for (size_t k = 0; k < cs->nconfigs; k++)
        out[k] = NAN;
    for (size_t i = 0; run_ppn && i < cs->nruns; i++) {
        double *c = &out[cs->config_of[i]];
        if (known(run_ppn[i]))
            *c = isnan(*c) ? run_ppn[i] : fmax(*c, run_ppn[i]);
    }
}

int contention_text(char *buf, size_t len, const contention_law *law, double ppn)
{
    if (!law->on)
        return snprintf(buf, len, "no contention law: Tcomp as measured on one process");
    if (!known(ppn))
        return snprintf(buf, len, "processes per node unknown: Tcomp as measured on one process");
    double f = contention_factor(law, ppn);
    const char *who = ppn == 1 ? "process alone on" : "processes share";
    if (f == 1)
        return snprintf(buf, len, "%g %s one node: Tcomp unchanged (%g x %g GB/s per core is "
                        "within the node's %g GB/s)", ppn, who, ppn, law->core_gbs,
                        law->node_gbs);
    return snprintf(buf, len, "%g processes share one node: Tcomp x %.2f from the node's "
                    "bandwidth (%g x %g GB/s per core over %g GB/s)", ppn, f, ppn,
                    law->core_gbs, law->node_gbs);
}
