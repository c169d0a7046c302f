/* AIS for a user's log density written in R (ais.function): the geometric
 * path log f_beta(x) = (1 - beta) log p0(x) + beta log f(x) from a product
 * base p0 (proposal.c, exact draws and normalised density) to the
 * unnormalised f, with the kernels of cont_kernel.c (random-walk Metropolis,
 * MALA, HMC) at each intermediate beta. f (and its gradient) is evaluated by
 * calling back into R, once per stage for all chains (the R wrapper `fn`
 * takes an M x d matrix and a code asking for gradients, and returns M
 * finite-or--Inf log densities with an M x d "gradient" attribute, already
 * validated; ais_function_call.c is that glue). Each chain draws from its
 * own MRG32k3a stream, seeded by the
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

/* Run the annealing (see logz.h for the arguments): exact draws from the base
 * p, then for k = 1..K the weight update to betas[k] and (k < K) `sweeps`
 * kernel sweeps at betas[k], adapting the step as o->adapt asks. The target t
 * is evaluated for all chains at once. Returns 0. */
int ais_function_run(const ais_function_opts *o, const logz_proposal *p, const double *beta,
                     const cont_target *t, logz_stream *st, ais_function_out *out)
{
    int d = p->d, M = o->M, K = o->K, kind = o->kind, sweeps = o->sweeps;
    int adapt = o->adapt, gradient = kind != LOGZ_KERNEL_RWM;
    const double *tmpl = o->tmpl, *sc = o->scales;
    size_t Md = (size_t) M * d;
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
    double *bvec = (double *) R_alloc(M, sizeof(double));
    double *svec = (double *) R_alloc(M, sizeof(double));
    double *acc_c = (double *) R_alloc(M, sizeof(double));
    double *LW = (double *) R_alloc((size_t) M * K, sizeof(double));
    double *lw = out->log_w, *ls_out = out->log_scale, *acc_out = out->accept;
    double *sc_out = out->scales;

    /* exact draws from the base, one stream per chain */
    proposal_support(p, lo, hi);
    for (int c = 0; c < M; c++)
        for (int j = 0; j < d; j++)
            ch.X[c + (size_t) M * j] =
                proposal_quantile1(p, j, lo[j], hi[j], logz_stream_unif(&st[c]));
    t->eval(t->ctx, ch.X, M, ch.lf, ch.gf, 0);
    cont_base_eval(p, ch.X, M, w.row, ch.lb, ch.gb);
    for (int c = 0; c < M; c++) lw[c] = 0.0;

    double ls = o->log_scale[0];
    cont_dual dual;
    cont_dual_init(&dual, ls);
    for (int k = 1; k <= K; k++) {
        double b = beta[k], db = beta[k] - beta[k - 1];
        if (db > 0.0)
            for (int c = 0; c < M; c++) lw[c] += db * (ch.lf[c] - ch.lb[c]);
        memcpy(LW + (size_t) M * (k - 1), lw, sizeof(double) * (size_t) M);
        double n_acc = 0.0;
        if (!adapt) ls = o->log_scale[k - 1];
        for (int j = 0; j < d; j++) scale[j] = sc[(k - 1) + (size_t) K * j];
        if (adapt && gradient) column_sd(ch.X, M, d, tmpl, 1e-3, scale);
        if (k < K) {
            for (int c = 0; c < M; c++) bvec[c] = b;
            for (int s = 0; s < sweeps; s++) {
                double step = exp(ls);
                for (int c = 0; c < M; c++) svec[c] = step;
                cont_kernel ker = {.kind = kind, .n_leapfrog = o->n_leapfrog, .step = svec,
                                   .scale = scale};
                double a = cont_kernel_sweep(&ker, bvec, &ch, t, p, st, &w, acc_c);
                n_acc += a;
                if (adapt) {
                    if (gradient) {
                        cont_dual_update(&dual, a, o->target_accept);
                        ls = dual.log_step;
                    } else {
                        ls += o->gain * (a - o->target_accept);
                    }
                }
            }
        }
        ls_out[k - 1] = ls;
        for (int j = 0; j < d; j++) sc_out[(k - 1) + (size_t) K * j] = scale[j];
        acc_out[k - 1] = (k < K && sweeps > 0) ? n_acc / sweeps : NA_REAL;
        R_CheckUserInterrupt();
    }
    memcpy(out->x, ch.X, sizeof(double) * Md);
    logz_ais_trace(LW, K, M, 0.0, out->trace);
    return 0;
}
