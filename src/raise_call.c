/* SEXP glue of raise.c: RAISE for RBMs, one chunk of (descending) steps from R. */
#include <string.h>
#include "logz.h"

/* model: list(W, a, b, a0); betas: descending chunk; state: list(V, log_w,
 * streams, copies = 1); control: list(threads, sweeps). V holds M / copies
 * columns, each the start of `copies` consecutive chains. Returns
 * list(V, log_w, streams) with V of M columns. */
SEXP raise_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    R_CheckUserInterrupt();   /* between chunks: interrupts and time limits */
    logz_rbm_path m;
    SEXP lw = logz_need(state, "log_w", REALSXP), streams = logz_need(state, "streams", REALSXP),
         V0 = logz_need(state, "V", REALSXP);
    int M = LENGTH(lw);
    logz_rbm_path_from_list(model, M, &m);
    int nv = m.nv;
    SEXP cp = logz_get(state, "copies");
    int copies = isNull(cp) ? 1 : asInteger(cp);
    if (copies < 1 || M % copies != 0) logz_internal_error("bad chain copies");
    if (XLENGTH(streams) != 6 * (R_xlen_t) M) logz_internal_error("bad streams");
    if (XLENGTH(V0) != (R_xlen_t) nv * (M / copies)) logz_internal_error("bad chain state");
    if (TYPEOF(betas) != REALSXP || LENGTH(betas) < 1) logz_internal_error("bad betas");
    int L = LENGTH(betas) - 1;
    for (int j = 0; j < L; j++)
        if (!(REAL(betas)[j] >= REAL(betas)[j + 1])) logz_internal_error("betas must descend");
    int nthreads = logz_threads(asInteger(logz_need(control, "threads", INTSXP)));
    int sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    if (sweeps < 1) logz_internal_error("sweeps < 1");

    logz_stream *st = (logz_stream *) R_alloc((size_t) M, sizeof(logz_stream));
    if (!logz_streams_from_double(M, REAL(streams), st))
        logz_internal_error("stream state out of range");

    const char *names[] = {"V", "log_w", "streams", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP V = allocMatrix(REALSXP, nv, M);
    logz_set(out, "V", V);
    logz_fill_columns(REAL(V), REAL(V0), nv, M, copies);
    SEXP logw = allocVector(REALSXP, M);
    logz_set(out, "log_w", logw);
    memcpy(REAL(logw), REAL(lw), sizeof(double) * M);
    if (L > 0) {
        raise_rbm_run(&m, REAL(betas), L, sweeps, REAL(V), REAL(logw), st, nthreads,
                      nthreads > 1);
    }
    SEXP so = allocMatrix(REALSXP, 6, M);
    logz_set(out, "streams", so);
    logz_streams_to_double(M, st, REAL(so));
    UNPROTECT(1);
    return out;
}
