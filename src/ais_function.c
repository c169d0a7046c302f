/* AIS for a user's log density written in R (ais.function): the geometric
 * path log f_beta(x) = (1 - beta) log p0(x) + beta log f(x) from a product
 * base p0 (proposal.c, exact draws and normalised density) to the
 * unnormalised f, with random-walk Metropolis moves at each intermediate
 * beta. f is evaluated by calling back into R, once per sweep for all chains
 * (the R wrapper `fn` takes an M x d matrix and returns M finite-or--Inf log
 * densities, already validated). Each chain draws from its own MRG32k3a
 * stream, seeded by the caller before f is first called, so a log density
 * that uses R's RNG does not change the run. */
#include "logz.h"

/* f at the rows of Xs (M x d, bound in `call`) into out (M). */
static void fn_eval(SEXP call, int M, double *out)
{
    SEXP v = PROTECT(eval(call, R_GlobalEnv));
    if (TYPEOF(v) != REALSXP || LENGTH(v) != M)
        error("internal error: the log density wrapper returned a malformed vector");
    memcpy(out, REAL(v), sizeof(double) * (size_t) M);
    UNPROTECT(1);
}

/* log p0 at the rows of X (M x d); row: work space (d). */
static void base_eval(const logz_proposal *p, const double *X, int M, double *row, double *out)
{
    for (int c = 0; c < M; c++) {
        for (int j = 0; j < p->d; j++) row[j] = X[c + (size_t) M * j];
        out[c] = proposal_log_density(p, row);
    }
}

/* log f_beta from the two log densities, with 0 * -Inf = 0 at the ends. */
static double path_log_density(double beta, double lf, double lb)
{
    double t = 0.0;
    if (beta > 0.0) t += beta * lf;
    if (beta < 1.0) t += (1.0 - beta) * lb;
    return t;
}

/* fn: R closure (M x d matrix -> M log densities); base: a logz_proposal
 * list; betas: K + 1 values from 0 to 1; control: list(n_chains, sweeps,
 * adapt (logical: update the log scale after every sweep towards
 * target_accept), target_accept, gain, log_scale (K: the log scale at each
 * step when not adapting; element 1 is the start when adapting), template
 * (d: per-dimension proposal sd at log scale 0), streams (6 x M, from
 * rng_streams: seeded in R before any call of f)). */
SEXP ais_function_call(SEXP fn, SEXP base, SEXP betas, SEXP control)
{
    int nprot = 0;
    logz_proposal p;
    proposal_from_list(base, &p);
    int d = p.d;
    int M = asInteger(logz_need(control, "n_chains", INTSXP));
    int sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    int adapt = asLogical(logz_need(control, "adapt", LGLSXP));
    double target = asReal(logz_need(control, "target_accept", REALSXP));
    double gain = asReal(logz_need(control, "gain", REALSXP));
    SEXP ls_in = logz_need(control, "log_scale", REALSXP);
    SEXP tmpl_in = logz_need(control, "template", REALSXP);
    int K = LENGTH(betas) - 1;
    if (TYPEOF(betas) != REALSXP || K < 1 || M < 1 || sweeps < 0 || LENGTH(ls_in) != K ||
        LENGTH(tmpl_in) != d || adapt == NA_LOGICAL || !isFunction(fn))
        error("internal error: bad arguments to ais_function");
    const double *beta = REAL(betas), *tmpl = REAL(tmpl_in);

    SEXP Xs = PROTECT(allocMatrix(REALSXP, M, d)); nprot++;
    SEXP call = PROTECT(lang2(fn, Xs)); nprot++;
    double *Xp = REAL(Xs);
    double *X = (double *) R_alloc((size_t) M * d, sizeof(double));
    double *lf = (double *) R_alloc(M, sizeof(double)), *lb = (double *) R_alloc(M, sizeof(double));
    double *lfp = (double *) R_alloc(M, sizeof(double));
    double *lbp = (double *) R_alloc(M, sizeof(double));
    double *row = (double *) R_alloc(d, sizeof(double));
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    double *LW = (double *) R_alloc((size_t) M * K, sizeof(double));
    logz_stream *st = (logz_stream *) R_alloc(M, sizeof(logz_stream));

    const char *names[] = {"log_w", "trace", "log_scale", "accept", "evaluations", "x", ""};
    SEXP res = PROTECT(mkNamed(VECSXP, names)); nprot++;
    SEXP lw_s = allocVector(REALSXP, M);       SET_VECTOR_ELT(res, 0, lw_s);
    SEXP tr_s = allocMatrix(REALSXP, K, 2);    SET_VECTOR_ELT(res, 1, tr_s);
    SEXP ls_s = allocVector(REALSXP, K);       SET_VECTOR_ELT(res, 2, ls_s);
    SEXP ac_s = allocVector(REALSXP, K);       SET_VECTOR_ELT(res, 3, ac_s);
    SEXP ev_s = allocVector(REALSXP, 1);       SET_VECTOR_ELT(res, 4, ev_s);
    SEXP x_s = allocMatrix(REALSXP, M, d);     SET_VECTOR_ELT(res, 5, x_s);
    double *lw = REAL(lw_s), *ls_out = REAL(ls_s), *acc_out = REAL(ac_s);

    SEXP st_in = logz_need(control, "streams", REALSXP);
    if (LENGTH(st_in) != 6 * M || !logz_streams_from_double(M, REAL(st_in), st))
        error("internal error: bad streams");

    /* exact draws from the base, one stream per chain */
    proposal_support(&p, lo, hi);
    for (int c = 0; c < M; c++)
        for (int j = 0; j < d; j++)
            Xp[c + (size_t) M * j] =
                proposal_quantile1(&p, j, lo[j], hi[j], logz_stream_unif(&st[c]));
    fn_eval(call, M, lf);
    base_eval(&p, Xp, M, row, lb);
    memcpy(X, Xp, sizeof(double) * (size_t) M * d);
    double evals = M;
    for (int c = 0; c < M; c++) lw[c] = 0.0;

    double ls = REAL(ls_in)[0];
    for (int k = 1; k <= K; k++) {
        double b = beta[k], db = beta[k] - beta[k - 1];
        if (db > 0.0)
            for (int c = 0; c < M; c++) lw[c] += db * (lf[c] - lb[c]);
        memcpy(LW + (size_t) M * (k - 1), lw, sizeof(double) * (size_t) M);
        double n_acc = 0.0;
        if (!adapt) ls = REAL(ls_in)[k - 1];
        if (k < K) {
            for (int s = 0; s < sweeps; s++) {
                double scale = exp(ls);
                for (int j = 0; j < d; j++)
                    for (int c = 0; c < M; c++)
                        Xp[c + (size_t) M * j] = X[c + (size_t) M * j] +
                            scale * tmpl[j] * logz_stream_norm(&st[c]);
                fn_eval(call, M, lfp);
                base_eval(&p, Xp, M, row, lbp);
                evals += M;
                int acc_sweep = 0;
                for (int c = 0; c < M; c++) {
                    double tn = path_log_density(b, lfp[c], lbp[c]);
                    double tc = path_log_density(b, lf[c], lb[c]);
                    double u = logz_stream_unif(&st[c]);
                    int ok = !ISNAN(tn) && tn > R_NegInf &&
                             (tc == R_NegInf || log(u) < tn - tc);
                    if (ok) {
                        for (int j = 0; j < d; j++) X[c + (size_t) M * j] = Xp[c + (size_t) M * j];
                        lf[c] = lfp[c];
                        lb[c] = lbp[c];
                        acc_sweep++;
                    }
                }
                n_acc += acc_sweep;
                if (adapt) ls += gain * ((double) acc_sweep / M - target);
            }
        }
        ls_out[k - 1] = ls;
        acc_out[k - 1] = (k < K && sweeps > 0) ? n_acc / ((double) M * sweeps) : NA_REAL;
        R_CheckUserInterrupt();
    }
    REAL(ev_s)[0] = evals;
    memcpy(REAL(x_s), X, sizeof(double) * (size_t) M * d);
    logz_ais_trace(LW, K, M, 0.0, REAL(tr_s));
    UNPROTECT(nprot);
    return res;
}
