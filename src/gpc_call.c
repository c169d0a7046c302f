/* SEXP glue of gpc.c: AIS for GP probit classification, one chunk of steps. */
#include "logz.h"

/* model: list(A = n x n matrix with A A' = K, y = labels in {-1, +1});
 * state: list(F = n x M or NULL, log_w, streams); control: list(threads,
 * sweeps, final, log_z0). Returns list(F, log_w, streams, trace, sweeps,
 * evals). */
SEXP gpc_ais_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    SEXP A = logz_need(model, "A", REALSXP), yy = logz_need(model, "y", REALSXP);
    int n = LENGTH(yy);
    if (XLENGTH(A) != (R_xlen_t) n * n || n < 1) logz_internal_error("bad GPC model");
    logz_chunk ck;
    logz_chunk_unpack(state, betas, control, "F", n, &ck);
    int M = ck.M, L = ck.L;
    gpc_ais_opts o = {.n = n, .M = M, .L = L, .sweeps = ck.sweeps, .final = ck.final,
                      .nthreads = ck.nthreads, .log_z0 = ck.log_z0, .A = REAL(A), .y = REAL(yy),
                      .betas = REAL(betas)};

    const char *names[] = {"F", "log_w", "streams", "trace", "sweeps", "evals", ""};
    SEXP out = PROTECT(logz_chunk_result(&ck, names, n));
    SEXP F = logz_get(out, "F"), logw = logz_get(out, "log_w"), trace = logz_get(out, "trace");
    int first = isNull(ck.x0);
    int ns = 0;
    double evals = 0.0;
    gpc_ais_run(&o, first, REAL(F), REAL(logw), ck.st, REAL(trace), &ns, &evals);
    logz_set(out, "sweeps", ScalarInteger(ns));
    logz_set(out, "evals", ScalarReal(evals));
    logz_chunk_streams(out, &ck);
    UNPROTECT(1);
    return out;
}
