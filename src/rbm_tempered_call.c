/* SEXP glue of rbm_tempered.c: one negative phase of tempered RBM training. */
#include <string.h>
#include "logz.h"

/* model: list(W, a, b, a0); betas (K, increasing, evenly spaced from 0 when
 * control$step > 0); state: list(X = V (nv x M), k (0-based), streams);
 * control as for rts_rbm_call() (thin 0). Returns list(chains = the RTS
 * result list(X, k, streams, acc, store, store_k), wq (M: q(K | v)), W_neg
 * (nv x nh), a_neg (nv), b_neg (nh)). */
SEXP rbm_tempered_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    int nthreads;
    logz_stream *st;
    rts_run r = rts_unpack(betas, state, control, &nthreads, &st);
    if (r.thin != 0) logz_internal_error("tempered training stores no sweeps");
    logz_rbm_path m;
    logz_rbm_path_from_list(model, r.M, &m);
    const char *names[] = {"chains", "wq", "W_neg", "a_neg", "b_neg", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP chains = rts_result_new(state, m.nv, &r);
    logz_set(out, "chains", chains);
    SEXP wq = allocVector(REALSXP, r.M);
    logz_set(out, "wq", wq);
    SEXP Gw = allocMatrix(REALSXP, m.nv, m.nh);
    logz_set(out, "W_neg", Gw);
    SEXP ga = allocVector(REALSXP, m.nv);
    logz_set(out, "a_neg", ga);
    SEXP gb = allocVector(REALSXP, m.nh);
    logz_set(out, "b_neg", gb);
    double *H = (double *) R_alloc((size_t) (m.nh > 0 ? m.nh : 1) * r.M, sizeof(double));
    rbm_tempered_run(&m, &r, REAL(logz_get(chains, "X")), st, nthreads, REAL(wq), H, REAL(Gw),
                     REAL(ga), REAL(gb));
    logz_streams_to_double(r.M, st, REAL(logz_get(chains, "streams")));
    UNPROTECT(1);
    return out;
}
