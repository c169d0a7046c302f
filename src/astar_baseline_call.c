/* SEXP glue of astar_baseline.c: rejection sampling and OS*. */
#include "astar.h"

/* target: an astar_target list; n: samples; control: list(refine
 * (LOGZ_REFINE_*), reuse, max_nodes, refine_rate, tick, tick_every). Returns
 * list(samples (n x d), likelihood, bound, nodes (n: evaluations and splits a
 * sample), log_w_sum, log_w2_sum, trials, pieces). */
SEXP astar_baseline_call(SEXP target, SEXP n_, SEXP control)
{
    astar_target tg;
    target_from_list(target, &tg);
    int n = asInteger(n_), d = tg.d;
    os_opts o = {.n = n, .refine = asInteger(logz_get(control, "refine")),
                 .reuse = asLogical(logz_get(control, "reuse")),
                 .max_nodes = asReal(logz_get(control, "max_nodes")),
                 .rate = asReal(logz_get(control, "refine_rate"))};
    int known = o.refine == LOGZ_REFINE_NONE || o.refine == LOGZ_REFINE_SAMPLED_POINT ||
                o.refine == LOGZ_REFINE_LARGEST_MASS;
    if (n == NA_INTEGER || n < 0 || !known || o.reuse == NA_LOGICAL || ISNAN(o.max_nodes) ||
        !(o.rate > 0.0 && o.rate <= 1.0))
        logz_internal_error("bad arguments to astar_baseline");
    logz_tick_ctx tc;
    logz_progress pr;
    logz_progress_init(&pr, &tc, control);

    const char *names[] = {"samples", "likelihood", "bound", "nodes", "log_w_sum",
                           "log_w2_sum", "trials", "pieces", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    os_result r = {
        .samples = REAL(logz_set(out, "samples", allocMatrix(REALSXP, n, d))),
        .likelihood = REAL(logz_set(out, "likelihood", allocVector(REALSXP, n))),
        .bound = REAL(logz_set(out, "bound", allocVector(REALSXP, n))),
        .nodes = REAL(logz_set(out, "nodes", allocVector(REALSXP, n)))};
    GetRNGstate();
    int status = astar_baseline_run(&tg, &o, &pr, &r);
    PutRNGstate();
    if (status == ASTAR_ZERO_MASS)
        error("target '%s' has zero mass: its global bound is -Inf.", tg.name);
    if (status == ASTAR_INFINITE_BOUND)
        error("target '%s': the global bound is %g; rejection sampling and OS* need a "
              "finite bound over the whole support.", tg.name, r.global_bound);
    if (status == ASTAR_ZERO_MASS_PIECES)
        error("target '%s' has zero mass: every piece is bounded by -Inf.", tg.name);
    if (status == ASTAR_TOO_MANY_PIECES)
        error("target '%s': more than max_nodes = %.0f pieces in the OS* envelope; "
              "the bounds may be far too loose.", tg.name, o.max_nodes);
    logz_set(out, "log_w_sum", ScalarReal(r.log_w_sum));
    logz_set(out, "log_w2_sum", ScalarReal(r.log_w2_sum));
    logz_set(out, "trials", ScalarReal(r.trials));
    logz_set(out, "pieces", ScalarInteger(r.pieces));
    UNPROTECT(1);
    return out;
}
