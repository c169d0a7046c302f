/* AIS for a user's log density written in R (ais.function): the geometric
 * path log f_beta(x) = (1 - beta) log p0(x) + beta log f(x) from a product
 * base p0 (proposal.c, exact draws and normalised density) to the
 * unnormalised f, with the kernels of cont_kernel.c (random-walk Metropolis,
 * MALA, HMC) at each intermediate beta. f (and its gradient) is evaluated by
 * calling back into R, once per stage for all chains (the R wrapper `fn`
 * takes an M x d matrix and a code asking for gradients, and returns M
 * finite-or--Inf log densities with an M x d "gradient" attribute, already
 * validated). Each chain draws from its own MRG32k3a stream, seeded by the
 * caller before f is first called, so a log density that uses R's RNG does
 * not change the run. */
#include "logz.h"

/* sd of each column of X (M x d) into out, floored at floor_frac * tmpl[j]. */
static void column_sd(const double *X, int M, int d, const double *tmpl, double floor_frac,
                      double *out)
{
    for (int j = 0; j < d; j++) {
        const double *x = X + (size_t) M * j;
        double m = 0.0, v = 0.0;
        for (int c = 0; c < M; c++) m += x[c];
        m /= M;
        for (int c = 0; c < M; c++) v += (x[c] - m) * (x[c] - m);
        double sd = M > 1 ? sqrt(v / (M - 1)) : tmpl[j];
        double lo = floor_frac * tmpl[j];
        out[j] = (R_FINITE(sd) && sd > lo) ? sd : lo;
    }
}

/* fn: R closure (M x d matrix, gradient flag -> M log densities, with a
 * "gradient" attribute when asked); base: a logz_proposal list; betas: K + 1
 * values from 0 to 1; control: list(n_chains, sweeps, kernel (LOGZ_KERNEL_*),
 * n_leapfrog, adapt (logical: adapt the step after every sweep towards
 * target_accept, by Robbins-Monro for RWM and dual averaging for MALA/HMC,
 * and, for MALA/HMC, the position scales to the chains' sd at each step),
 * target_accept, gain, log_scale (K: the log step at each step when not
 * adapting; element 1 is the start when adapting), template (d: the
 * position scale at log step 0), scales (K x d position scales per step, used
 * when not adapting), streams (6 x M, from rng_streams: seeded in R before any
 * call of f)). */
SEXP ais_function_call(SEXP fn, SEXP base, SEXP betas, SEXP control)
{
    int nprot = 0;
    logz_proposal p;
    proposal_from_list(base, &p);
    int d = p.d;
    int M = asInteger(logz_need(control, "n_chains", INTSXP));
    int sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    int kind = asInteger(logz_need(control, "kernel", INTSXP));
    int n_leap = asInteger(logz_need(control, "n_leapfrog", INTSXP));
    int adapt = asLogical(logz_need(control, "adapt", LGLSXP));
    double target = asReal(logz_need(control, "target_accept", REALSXP));
    double gain = asReal(logz_need(control, "gain", REALSXP));
    SEXP ls_in = logz_need(control, "log_scale", REALSXP);
    SEXP tmpl_in = logz_need(control, "template", REALSXP);
    SEXP sc_in = logz_need(control, "scales", REALSXP);
    int K = LENGTH(betas) - 1;
    int gradient = kind != LOGZ_KERNEL_RWM;
    if (TYPEOF(betas) != REALSXP || K < 1 || M < 1 || sweeps < 0 || LENGTH(ls_in) != K ||
        LENGTH(tmpl_in) != d || XLENGTH(sc_in) != (R_xlen_t) K * d || adapt == NA_LOGICAL ||
        !isFunction(fn) || kind < LOGZ_KERNEL_RWM || kind > LOGZ_KERNEL_HMC || n_leap < 1)
        logz_internal_error("bad arguments to ais_function");
    const double *beta = REAL(betas), *tmpl = REAL(tmpl_in), *sc = REAL(sc_in);
    size_t Md = (size_t) M * d;

    cont_r_target ctx;
    cont_target tgt;
    nprot += cont_r_target_init(&ctx, &tgt, fn, M, d);
    cont_chains ch = {.M = M, .d = d};
    ch.X = (double *) R_alloc(Md, sizeof(double));
    ch.lf = (double *) R_alloc(M, sizeof(double));
    ch.lb = (double *) R_alloc(M, sizeof(double));
    ch.gf = gradient ? (double *) R_alloc(Md, sizeof(double)) : NULL;
    ch.gb = gradient ? (double *) R_alloc(Md, sizeof(double)) : NULL;
    cont_work w;
    cont_work_alloc(&w, M, d, gradient);
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    double *scale = (double *) R_alloc(d, sizeof(double));
    double *bvec = (double *) R_alloc(M, sizeof(double)), *svec = (double *) R_alloc(M, sizeof(double));
    double *acc_c = (double *) R_alloc(M, sizeof(double));
    double *LW = (double *) R_alloc((size_t) M * K, sizeof(double));
    logz_stream *st = (logz_stream *) R_alloc(M, sizeof(logz_stream));

    const char *names[] = {"log_w", "trace", "log_scale", "accept", "evaluations",
                           "gradient_evaluations", "x", "scales", ""};
    SEXP res = PROTECT(mkNamed(VECSXP, names)); nprot++;
    SEXP lw_s = allocVector(REALSXP, M);       logz_set(res, "log_w", lw_s);
    SEXP tr_s = allocMatrix(REALSXP, K, 2);    logz_set(res, "trace", tr_s);
    SEXP ls_s = allocVector(REALSXP, K);       logz_set(res, "log_scale", ls_s);
    SEXP ac_s = allocVector(REALSXP, K);       logz_set(res, "accept", ac_s);
    SEXP ev_s = allocVector(REALSXP, 1);       logz_set(res, "evaluations", ev_s);
    SEXP gev_s = allocVector(REALSXP, 1);      logz_set(res, "gradient_evaluations", gev_s);
    SEXP x_s = allocMatrix(REALSXP, M, d);     logz_set(res, "x", x_s);
    SEXP sc_s = allocMatrix(REALSXP, K, d);    logz_set(res, "scales", sc_s);
    double *lw = REAL(lw_s), *ls_out = REAL(ls_s), *acc_out = REAL(ac_s), *sc_out = REAL(sc_s);

    SEXP st_in = logz_need(control, "streams", REALSXP);
    if (LENGTH(st_in) != 6 * M || !logz_streams_from_double(M, REAL(st_in), st))
        logz_internal_error("bad streams");

    /* exact draws from the base, one stream per chain */
    proposal_support(&p, lo, hi);
    for (int c = 0; c < M; c++)
        for (int j = 0; j < d; j++)
            ch.X[c + (size_t) M * j] =
                proposal_quantile1(&p, j, lo[j], hi[j], logz_stream_unif(&st[c]));
    tgt.eval(&ctx, ch.X, M, ch.lf, ch.gf, 0);
    cont_base_eval(&p, ch.X, M, w.row, ch.lb, ch.gb);
    for (int c = 0; c < M; c++) lw[c] = 0.0;

    double ls = REAL(ls_in)[0];
    cont_dual dual;
    cont_dual_init(&dual, ls);
    for (int k = 1; k <= K; k++) {
        double b = beta[k], db = beta[k] - beta[k - 1];
        if (db > 0.0)
            for (int c = 0; c < M; c++) lw[c] += db * (ch.lf[c] - ch.lb[c]);
        memcpy(LW + (size_t) M * (k - 1), lw, sizeof(double) * (size_t) M);
        double n_acc = 0.0;
        if (!adapt) ls = REAL(ls_in)[k - 1];
        for (int j = 0; j < d; j++) scale[j] = sc[(k - 1) + (size_t) K * j];
        if (adapt && gradient) column_sd(ch.X, M, d, tmpl, 1e-3, scale);
        if (k < K) {
            for (int c = 0; c < M; c++) bvec[c] = b;
            for (int s = 0; s < sweeps; s++) {
                double step = exp(ls);
                for (int c = 0; c < M; c++) svec[c] = step;
                cont_kernel ker = {.kind = kind, .n_leapfrog = n_leap, .step = svec,
                                   .scale = scale};
                double a = cont_kernel_sweep(&ker, bvec, &ch, &tgt, &p, st, &w, acc_c);
                n_acc += a;
                if (adapt) {
                    if (gradient) {
                        cont_dual_update(&dual, a, target);
                        ls = dual.log_step;
                    } else {
                        ls += gain * (a - target);
                    }
                }
            }
        }
        ls_out[k - 1] = ls;
        for (int j = 0; j < d; j++) sc_out[(k - 1) + (size_t) K * j] = scale[j];
        acc_out[k - 1] = (k < K && sweeps > 0) ? n_acc / sweeps : NA_REAL;
        R_CheckUserInterrupt();
    }
    REAL(ev_s)[0] = ctx.evals;
    REAL(gev_s)[0] = ctx.grad_evals;
    memcpy(REAL(x_s), ch.X, sizeof(double) * Md);
    logz_ais_trace(LW, K, M, 0.0, REAL(tr_s));
    UNPROTECT(nprot);
    return res;
}
