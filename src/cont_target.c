/* An R log density as a cont_target (cont_kernel.c): the R wrapper `fn`
 * takes an M x d matrix and a gradient code (0 none, 1 required finite, 2 a
 * trajectory point, where a non-finite gradient gives log f = -Inf, a
 * divergence) and returns M finite-or--Inf log densities with an M x d
 * "gradient" attribute when asked, already validated in R. */
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
