/* An R log density as a cont_target (cont_kernel.c): the R wrapper `fn`
 * takes an M x d matrix and a gradient code (0 none, 1 required finite, 2 a
 * trajectory point, where a non-finite gradient gives log f = -Inf, a
 * divergence) and returns M finite-or--Inf log densities with an M x d
 * "gradient" attribute when asked, already validated in R. Also the .Call
 * glue that moves chains at their own betas by one kernel sweep (the x-move of
 * tempered sampling on R log densities). */
#include "logz.h"

/* f (and its gradient when gf != NULL) at the M rows of X. */
static void r_eval(void *ctx_, const double *X, int M, double *lf, double *gf, int trial)
{
    cont_r_target *ctx = (cont_r_target *) ctx_;
    size_t Md = (size_t) M * ctx->d;
    if (M != ctx->M) logz_internal_error("evaluator called with %d points", M);
    memcpy(REAL(ctx->Xs), X, sizeof(double) * Md);
    INTEGER(ctx->flag)[0] = gf == NULL ? 0 : (trial ? 2 : 1);
    SEXP call = PROTECT(lang3(ctx->fn, ctx->Xs, ctx->flag));
    SEXP v = PROTECT(eval(call, R_GlobalEnv));
    if (TYPEOF(v) != REALSXP || LENGTH(v) != M)
        logz_internal_error("the log density wrapper returned a malformed vector");
    memcpy(lf, REAL(v), sizeof(double) * (size_t) M);
    ctx->evals += M;
    if (gf) {
        SEXP g = getAttrib(v, install("gradient"));
        if (TYPEOF(g) != REALSXP || (size_t) XLENGTH(g) != Md)
            logz_internal_error("the gradient wrapper returned a malformed matrix");
        memcpy(gf, REAL(g), sizeof(double) * Md);
        ctx->grad_evals += M;
    }
    UNPROTECT(2);
}

/* Fill ctx and t for the R closure fn on M points of dimension d; returns the
 * number of objects it PROTECTed (the caller unprotects them). */
int cont_r_target_init(cont_r_target *ctx, cont_target *t, SEXP fn, int M, int d)
{
    *ctx = (cont_r_target) {.fn = fn, .M = M, .d = d, .evals = 0.0, .grad_evals = 0.0};
    ctx->Xs = PROTECT(allocMatrix(REALSXP, M, d));
    ctx->flag = PROTECT(allocVector(INTSXP, 1));
    *t = (cont_target) {.eval = r_eval, .ctx = ctx};
    return 2;
}

static SEXP need_len(SEXP list, const char *name, R_xlen_t n)
{
    SEXP x = logz_need(list, name, REALSXP);
    if (XLENGTH(x) != n) logz_internal_error("`%s` has length %ld, not %ld", name,
                               (long) XLENGTH(x), (long) n);
    return x;
}

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
    const double *beta = REAL(need_len(control, "beta", M));
    const double *step = REAL(need_len(control, "step", M));
    SEXP sc_in = logz_need(control, "scale", REALSXP);
    if (XLENGTH(sc_in) != d && XLENGTH(sc_in) != (R_xlen_t) Md)
        logz_internal_error("bad scale");
    const double *scale = REAL(sc_in);
    int per_chain = XLENGTH(sc_in) != d;
    SEXP st_in = need_len(state, "streams", 6 * (R_xlen_t) M);

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
    memcpy(REAL(lf), REAL(need_len(state, "lf", M)), sizeof(double) * (size_t) M);
    memcpy(REAL(lb), REAL(need_len(state, "lb", M)), sizeof(double) * (size_t) M);
    int fresh = gradient && logz_get(state, "gf") == R_NilValue;
    if (gradient && !fresh) {
        memcpy(REAL(gf), REAL(need_len(state, "gf", (R_xlen_t) Md)), sizeof(double) * Md);
        memcpy(REAL(gb), REAL(need_len(state, "gb", (R_xlen_t) Md)), sizeof(double) * Md);
    }
    logz_stream *st = (logz_stream *) R_alloc(M, sizeof(logz_stream));
    if (!logz_streams_from_double(M, REAL(st_in), st)) logz_internal_error("bad streams");

    cont_r_target ctx;
    cont_target tgt;
    nprot += cont_r_target_init(&ctx, &tgt, fn, M, d);
    cont_chains ch = {.M = M, .d = d, .X = REAL(X), .lf = REAL(lf), .lb = REAL(lb),
                      .gf = gradient ? REAL(gf) : NULL, .gb = gradient ? REAL(gb) : NULL};
    cont_work w;
    cont_work_alloc(&w, M, d, gradient);
    if (fresh) {   /* the gradients at the entry states */
        tgt.eval(&ctx, ch.X, M, w.lfp, ch.gf, 0);
        cont_base_eval(&p, ch.X, M, w.row, w.lbp, ch.gb);
    }
    cont_kernel ker = {.kind = kind, .n_leapfrog = n_leap, .step = step, .scale = scale,
                      .scale_per_chain = per_chain};
    double *a = (double *) R_alloc(M, sizeof(double));
    for (int c = 0; c < M; c++) REAL(acc)[c] = 0.0;
    for (int s = 0; s < sweeps; s++) {
        cont_kernel_sweep(&ker, beta, &ch, &tgt, &p, st, &w, a);
        for (int c = 0; c < M; c++) REAL(acc)[c] += a[c] / sweeps;
        R_CheckUserInterrupt();
    }
    logz_streams_to_double(M, st, REAL(st_out));
    REAL(ev)[0] = ctx.evals;
    REAL(gev)[0] = ctx.grad_evals;
    UNPROTECT(nprot);
    return res;
}
