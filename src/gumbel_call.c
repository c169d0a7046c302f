/* SEXP glue of gumbel.c: Gumbel and truncated Gumbel draws from R. */
#include "logz.h"

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
