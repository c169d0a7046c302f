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

/* n draws; location (and bound) recycled; lengths checked in R. */
SEXP gumbel_rand_call(SEXP n_, SEXP location, SEXP bound)
{
    int n = asInteger(n_);
    if (n == NA_INTEGER || n < 0 || TYPEOF(location) != REALSXP || LENGTH(location) < 1 ||
        (!isNull(bound) && (TYPEOF(bound) != REALSXP || LENGTH(bound) < 1)))
        logz_internal_error("bad arguments to gumbel_rand");
    int nl = LENGTH(location), nb = isNull(bound) ? 0 : LENGTH(bound);
    const double *loc = REAL(location), *b = nb ? REAL(bound) : NULL;
    SEXP out = PROTECT(allocVector(REALSXP, n));
    double *g = REAL(out);
    GetRNGstate();
    for (int i = 0; i < n; i++)
        g[i] = b ? logz_rtruncgumbel1(loc[i % nl], b[i % nb]) : logz_rgumbel1(loc[i % nl]);
    PutRNGstate();
    UNPROTECT(1);
    return out;
}
