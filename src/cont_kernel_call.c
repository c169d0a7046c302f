/* SEXP glue of cont_kernel.c: chains moved at their own betas by kernel sweeps
 * (the x-move of tempered sampling and SMC on R log densities). */
#include "logz.h"

/* fn: the R wrapper; base: a logz_proposal list; state: list(X (M x d), lf, lb
 * (M), gf, gb (M x d; for MALA/HMC, computed here when gf is NULL), streams
 * (6 x M)); control: list(kernel,
 * n_leapfrog, sweeps, beta (M), step (M), scale (d, or M x d: one row per
 * chain)). Returns the state after
 * `sweeps` sweeps with accept (M: mean acceptance per chain), evaluations
 * and gradient_evaluations. */
SEXP cont_sweep_call(SEXP fn, SEXP base, SEXP state, SEXP control)
{
    int nprot = 0;
    logz_proposal p;
    proposal_from_list(base, &p);
    int d = p.d;
    SEXP X_in = logz_need(state, "X", REALSXP);
    if (!isMatrix(X_in) || ncols(X_in) != d) logz_internal_error("bad X");
    int M = nrows(X_in);
    int kind = asInteger(logz_need(control, "kernel", INTSXP));
    int n_leap = asInteger(logz_need(control, "n_leapfrog", INTSXP));
    int sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    if (kind < LOGZ_KERNEL_RWM || kind > LOGZ_KERNEL_HMC || n_leap < 1 || sweeps < 1 || M < 1 ||
        !isFunction(fn))
        logz_internal_error("bad arguments to cont_sweep");
    int gradient = kind != LOGZ_KERNEL_RWM;
    size_t Md = (size_t) M * d;
    const double *beta = REAL(logz_need_len(control, "beta", REALSXP, M));
    const double *step = REAL(logz_need_len(control, "step", REALSXP, M));
    SEXP sc_in = logz_need(control, "scale", REALSXP);
    if (XLENGTH(sc_in) != d && XLENGTH(sc_in) != (R_xlen_t) Md)
        logz_internal_error("bad scale");
    const double *scale = REAL(sc_in);
    int per_chain = XLENGTH(sc_in) != d;
    SEXP st_in = logz_need_len(state, "streams", REALSXP, 6 * (R_xlen_t) M);

    const char *names[] = {"X", "lf", "lb", "gf", "gb", "streams", "accept", "evaluations",
                           "gradient_evaluations", ""};
    SEXP res = PROTECT(mkNamed(VECSXP, names)); nprot++;
    SEXP X = allocMatrix(REALSXP, M, d);            logz_set(res, "X", X);
    SEXP lf = allocVector(REALSXP, M);               logz_set(res, "lf", lf);
    SEXP lb = allocVector(REALSXP, M);               logz_set(res, "lb", lb);
    SEXP gf = gradient ? allocMatrix(REALSXP, M, d) : R_NilValue;  logz_set(res, "gf", gf);
    SEXP gb = gradient ? allocMatrix(REALSXP, M, d) : R_NilValue;  logz_set(res, "gb", gb);
    SEXP st_out = allocMatrix(REALSXP, 6, M);        logz_set(res, "streams", st_out);
    SEXP acc = allocVector(REALSXP, M);              logz_set(res, "accept", acc);
    SEXP ev = allocVector(REALSXP, 1);               logz_set(res, "evaluations", ev);
    SEXP gev = allocVector(REALSXP, 1);              logz_set(res, "gradient_evaluations", gev);
    memcpy(REAL(X), REAL(X_in), sizeof(double) * Md);
    memcpy(REAL(lf), REAL(logz_need_len(state, "lf", REALSXP, M)), sizeof(double) * (size_t) M);
    memcpy(REAL(lb), REAL(logz_need_len(state, "lb", REALSXP, M)), sizeof(double) * (size_t) M);
    int fresh = gradient && logz_get(state, "gf") == R_NilValue;
    if (gradient && !fresh) {
        memcpy(REAL(gf), REAL(logz_need_len(state, "gf", REALSXP, (R_xlen_t) Md)),
               sizeof(double) * Md);
        memcpy(REAL(gb), REAL(logz_need_len(state, "gb", REALSXP, (R_xlen_t) Md)),
               sizeof(double) * Md);
    }
    logz_stream *st = (logz_stream *) R_alloc(M, sizeof(logz_stream));
    if (!logz_streams_from_double(M, REAL(st_in), st)) logz_internal_error("bad streams");

    cont_r_target ctx;
    cont_target tgt;
    nprot += cont_r_target_init(&ctx, &tgt, fn, M, d);
    cont_chains ch = {.M = M, .d = d, .X = REAL(X), .lf = REAL(lf), .lb = REAL(lb),
                      .gf = gradient ? REAL(gf) : NULL, .gb = gradient ? REAL(gb) : NULL};
    cont_kernel ker = {.kind = kind, .n_leapfrog = n_leap, .step = step, .scale = scale,
                      .scale_per_chain = per_chain};
    cont_kernel_sweeps(&ker, beta, sweeps, fresh, &ch, &tgt, &p, st, REAL(acc));
    logz_streams_to_double(M, st, REAL(st_out));
    REAL(ev)[0] = ctx.evals;
    REAL(gev)[0] = ctx.grad_evals;
    UNPROTECT(nprot);
    return res;
}
