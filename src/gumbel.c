/* Gumbel and truncated Gumbel draws (Maddison, Tarlow & Minka 2014, Section 2
 * and footnote 1). Engines on plain doubles; draws only through R's RNG
 * (exp_rand), the callers bracket with GetRNGstate/PutRNGstate.
 *   Gumbel(m):          g = m - log(E),                        E ~ Exp(1)
 *   TruncGumbel(m, b):  g = -logaddexp(-b, -m + log(E))        (at most b)
 * with E = -log(U), so these are the paper's formulas written with
 * exp_rand() in place of -log(unif_rand()). */
#include <math.h>
#include <Rmath.h>
#include "logz.h"

double logz_rgumbel1(double location)
{
    if (location == R_NegInf) return R_NegInf;
    return location - log(exp_rand());
}

double logz_rtruncgumbel1(double location, double bound)
{
    if (location == R_NegInf || bound == R_NegInf) return R_NegInf;
    if (bound == R_PosInf) return logz_rgumbel1(location);
    return -logz_log_add_exp(-bound, log(exp_rand()) - location);
}
