/* SEXP glue of gpc.c: AIS for GP probit classification, one chunk of steps. */
#include <string.h>
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
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP F = logz_set(out, "F", allocMatrix(REALSXP, n, M));
    SEXP logw = logz_set(out, "log_w", allocVector(REALSXP, M));
    memcpy(REAL(logw), ck.log_w, sizeof(double) * M);
    SEXP trace = logz_set(out, "trace", allocMatrix(REALSXP, L, 2));
    int first = isNull(ck.x0);
    if (!first) memcpy(REAL(F), REAL(ck.x0), sizeof(double) * (size_t) n * M);
    int ns = 0;
    double evals = 0.0;
    gpc_ais_run(&o, first, REAL(F), REAL(logw), ck.st, REAL(trace), &ns, &evals);
    logz_set(out, "sweeps", ScalarInteger(ns));
    logz_set(out, "evals", ScalarReal(evals));
    SEXP so = logz_set(out, "streams", allocMatrix(REALSXP, 6, M));
    logz_streams_to_double(M, ck.st, REAL(so));
    UNPROTECT(1);
    return out;
}
