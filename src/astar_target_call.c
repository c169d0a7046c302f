/* SEXP glue of astar_target.c: o and M of a target at points and over boxes,
 * from R. */
#include "astar.h"

/* ---- o and M at many points / boxes, for tests, plots and checks --------- */

SEXP astar_log_lik_call(SEXP target, SEXP x_)
{
    astar_target tg;
    target_from_list(target, &tg);
    int d = tg.d;
    if (TYPEOF(x_) != REALSXP || XLENGTH(x_) % d) logz_internal_error("bad points");
    int k = (int) (XLENGTH(x_) / d);
    double *x = (double *) R_alloc(d, sizeof(double));
    SEXP out = PROTECT(allocVector(REALSXP, k));
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < d; j++) x[j] = REAL(x_)[i + (size_t) k * j];
        REAL(out)[i] = target_log_lik(&tg, x);
    }
    UNPROTECT(1);
    return out;
}

SEXP astar_bound_call(SEXP target, SEXP lower, SEXP upper)
{
    astar_target tg;
    target_from_list(target, &tg);
    int d = tg.d;
    if (TYPEOF(lower) != REALSXP || TYPEOF(upper) != REALSXP ||
        XLENGTH(lower) != XLENGTH(upper) || XLENGTH(lower) % d)
        logz_internal_error("bad boxes");
    int k = (int) (XLENGTH(lower) / d);
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    SEXP out = PROTECT(allocVector(REALSXP, k));
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < d; j++) {
            lo[j] = REAL(lower)[i + (size_t) k * j];
            hi[j] = REAL(upper)[i + (size_t) k * j];
        }
        REAL(out)[i] = target_bound(&tg, lo, hi);
    }
    UNPROTECT(1);
    return out;
}
