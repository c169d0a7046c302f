/* SEXP glue of rbm.c: exact log Z of an RBM by enumeration, from R. */
#include "logz.h"

/* layer: the enumerated layer, a logz_rbm_layer. */
SEXP rbm_exact_log_z_call(SEXP W, SEXP a, SEXP b, SEXP layer, SEXP threads)
{
    if (TYPEOF(W) != REALSXP || TYPEOF(a) != REALSXP || TYPEOF(b) != REALSXP)
        logz_internal_error("rbm parameters must be double");
    int nv = LENGTH(a), nh = LENGTH(b);
    if ((R_xlen_t) nv * nh != XLENGTH(W)) logz_internal_error("W has the wrong size");
    int lay = asInteger(layer), nthreads = logz_threads(asInteger(threads));
    logz_arg_code(lay, "layer", LOGZ_LAYER_HIDDEN, LOGZ_LAYER_VISIBLE);
    int hidden = lay == LOGZ_LAYER_HIDDEN;
    int ne = hidden ? nh : nv, no = hidden ? nv : nh;
    if (ne > 40) logz_internal_error("too many states to enumerate");
    const double *Wt;
    if (hidden) {
        Wt = REAL(W);                 /* nv x nh: columns are hidden units */
    } else {
        double *T = (double *) R_alloc((size_t) nv * nh, sizeof(double));
        for (int i = 0; i < nv; i++)
            for (int j = 0; j < nh; j++) T[j + (size_t) nh * i] = REAL(W)[i + (size_t) nv * j];
        Wt = T;                       /* nh x nv: columns are visible units */
    }
    double lz = rbm_exact_log_z(ne, no, Wt, hidden ? REAL(b) : REAL(a), hidden ? REAL(a) : REAL(b),
                                nthreads);
    return ScalarReal(lz);
}
