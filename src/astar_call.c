/* SEXP glue of astar.c: A* sampling and the drill down from R. */
#include "astar.h"

/* control: list(method (a logz_astar_search), reuse, max_nodes, lower_bounds,
 * lower_bounds_random, and optionally tick, tick_every). Returns
 * list(samples (n x d), gumbel, likelihood, bound, nodes (n), tree_size). */
SEXP astar_sample_call(SEXP target, SEXP n_, SEXP control)
{
    astar_target tg;
    target_from_list(target, &tg);
    int n = asInteger(n_), d = tg.d;
    astar_opts o = {.n = n, .method = asInteger(logz_get(control, "method")),
                    .reuse = asLogical(logz_get(control, "reuse")),
                    .max_nodes = asReal(logz_get(control, "max_nodes")),
                    .lb_mean = asReal(logz_get(control, "lower_bounds")),
                    .lb_random = asLogical(logz_get(control, "lower_bounds_random"))};
    if (n == NA_INTEGER || n < 0 || o.method == NA_INTEGER || o.reuse == NA_LOGICAL ||
        ISNAN(o.max_nodes) || !(o.lb_mean >= 1.0) || o.lb_random == NA_LOGICAL ||
        (o.method != LOGZ_SEARCH_ASTAR && o.method != LOGZ_SEARCH_DRILL_DOWN))
        logz_internal_error("bad arguments to astar_sample");
    if (o.method == LOGZ_SEARCH_DRILL_DOWN && d != 1)
        logz_internal_error("drill down needs d = 1");
    logz_tick_ctx tc;
    logz_progress pr;
    logz_progress_init(&pr, &tc, control);

    const char *names[] = {"samples", "gumbel", "likelihood", "bound", "nodes", "tree_size", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    astar_result r = {
        .samples = REAL(logz_set(out, "samples", allocMatrix(REALSXP, n, d))),
        .gumbel = REAL(logz_set(out, "gumbel", allocVector(REALSXP, n))),
        .likelihood = REAL(logz_set(out, "likelihood", allocVector(REALSXP, n))),
        .bound = REAL(logz_set(out, "bound", allocVector(REALSXP, n))),
        .nodes = REAL(logz_set(out, "nodes", allocVector(REALSXP, n)))};
    GetRNGstate();
    astar_sample_run(&tg, &o, &pr, &r);
    PutRNGstate();
    logz_set(out, "tree_size", ScalarInteger(r.tree_size));
    UNPROTECT(1);
    return out;
}
