/* SEXP glue of ais_function.c: AIS on a log density written in R. */
#include "logz.h"

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
    ais_function_opts o = {
        .M = asInteger(logz_need(control, "n_chains", INTSXP)),
        .sweeps = asInteger(logz_need(control, "sweeps", INTSXP)),
        .kind = asInteger(logz_need(control, "kernel", INTSXP)),
        .n_leapfrog = asInteger(logz_need(control, "n_leapfrog", INTSXP)),
        .adapt = asLogical(logz_need(control, "adapt", LGLSXP)),
        .target_accept = asReal(logz_need(control, "target_accept", REALSXP)),
        .gain = asReal(logz_need(control, "gain", REALSXP))};
    SEXP ls_in = logz_need(control, "log_scale", REALSXP);
    SEXP tmpl_in = logz_need(control, "template", REALSXP);
    SEXP sc_in = logz_need(control, "scales", REALSXP);
    int M = o.M, K = LENGTH(betas) - 1;
    o.K = K;
    if (TYPEOF(betas) != REALSXP || K < 1 || M < 1 || o.sweeps < 0 || LENGTH(ls_in) != K ||
        LENGTH(tmpl_in) != d || XLENGTH(sc_in) != (R_xlen_t) K * d || o.adapt == NA_LOGICAL ||
        !isFunction(fn) || o.kind < LOGZ_KERNEL_RWM || o.kind > LOGZ_KERNEL_HMC ||
        o.n_leapfrog < 1)
        logz_internal_error("bad arguments to ais_function");
    o.log_scale = REAL(ls_in);
    o.tmpl = REAL(tmpl_in);
    o.scales = REAL(sc_in);

    cont_r_target ctx;
    cont_target tgt;
    nprot += cont_r_target_init(&ctx, &tgt, fn, M, d);
    logz_stream *st = (logz_stream *) R_alloc(M, sizeof(logz_stream));

    const char *names[] = {"log_w", "trace", "log_scale", "accept", "evaluations",
                           "gradient_evaluations", "x", "scales", ""};
    SEXP res = PROTECT(mkNamed(VECSXP, names)); nprot++;
    SEXP lw_s = logz_set(res, "log_w", allocVector(REALSXP, M));
    SEXP tr_s = logz_set(res, "trace", allocMatrix(REALSXP, K, 2));
    SEXP ls_s = logz_set(res, "log_scale", allocVector(REALSXP, K));
    SEXP ac_s = logz_set(res, "accept", allocVector(REALSXP, K));
    SEXP ev_s = logz_set(res, "evaluations", allocVector(REALSXP, 1));
    SEXP gev_s = logz_set(res, "gradient_evaluations", allocVector(REALSXP, 1));
    SEXP x_s = logz_set(res, "x", allocMatrix(REALSXP, M, d));
    SEXP sc_s = logz_set(res, "scales", allocMatrix(REALSXP, K, d));

    SEXP st_in = logz_need(control, "streams", REALSXP);
    if (LENGTH(st_in) != 6 * M || !logz_streams_from_double(M, REAL(st_in), st))
        logz_internal_error("bad streams");

    ais_function_out out = {.log_w = REAL(lw_s), .trace = REAL(tr_s), .log_scale = REAL(ls_s),
                            .accept = REAL(ac_s), .x = REAL(x_s), .scales = REAL(sc_s)};
    ais_function_run(&o, &p, REAL(betas), &tgt, st, &out);
    REAL(ev_s)[0] = ctx.evals;
    REAL(gev_s)[0] = ctx.grad_evals;
    UNPROTECT(nprot);
    return res;
}
