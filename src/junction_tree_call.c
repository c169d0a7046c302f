/* SEXP glue of junction_tree.c: elimination orders and calibration from R. */
#include "logz.h"

static void check_permutation(const int *order, int n)
{
    char *seen = (char *) R_alloc((size_t) n, 1);
    memset(seen, 0, (size_t) n);
    for (int i = 0; i < n; i++) {
        int v = order[i];
        if (v < 0 || v >= n || seen[v]) logz_internal_error("order is not a permutation");
        seen[v] = 1;
    }
}

/* Elimination order of the graph (n nodes, 0-based edge ends): min-fill if
 * `given` is NULL, else the clique sizes of the given 0-based order.
 * Returns list(order, sizes (clique sizes in elimination order), width); a
 * width above `cap` means the elimination stopped there (incomplete). */
SEXP jt_order_call(SEXP n_, SEXP from, SEXP to, SEXP given, SEXP cap_)
{
    int n = asInteger(n_), cap = asInteger(cap_);
    if (cap == NA_INTEGER || cap < 0) logz_internal_error("bad cap");
    if (n < 1 || TYPEOF(from) != INTSXP || TYPEOF(to) != INTSXP || LENGTH(from) != LENGTH(to))
        logz_internal_error("bad graph");
    int ne = LENGTH(from);
    for (int e = 0; e < ne; e++)
        if (INTEGER(from)[e] < 0 || INTEGER(from)[e] >= n || INTEGER(to)[e] < 0 ||
            INTEGER(to)[e] >= n || INTEGER(from)[e] == INTEGER(to)[e])
            logz_internal_error("bad edge %d", e + 1);
    if (!isNull(given)) {
        if (TYPEOF(given) != INTSXP || LENGTH(given) != n) logz_internal_error("bad order");
        check_permutation(INTEGER(given), n);
    }
    const char *names[] = {"order", "sizes", "width", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP order = allocVector(INTSXP, n);
    logz_set(out, "order", order);
    SEXP sizes = allocVector(INTSXP, n);
    logz_set(out, "sizes", sizes);
    int w;
    if (isNull(given)) {
        w = jt_min_fill(n, ne, INTEGER(from), INTEGER(to), cap, INTEGER(order), INTEGER(sizes));
    } else {
        memcpy(INTEGER(order), INTEGER(given), sizeof(int) * n);
        w = jt_sizes(n, ne, INTEGER(from), INTEGER(to), INTEGER(order), cap, INTEGER(sizes));
    }
    logz_set(out, "width", ScalarInteger(w));
    UNPROTECT(1);
    return out;
}

/* model: list(n, from, to, weight, field, lo, hi, order); marginals: a
 * logz_marginals code. */
SEXP jt_calibrate_call(SEXP model, SEXP marginals)
{
    ising_model m;
    ising_model_from_list(model, &m);
    SEXP order = logz_get(model, "order");
    if (TYPEOF(order) != INTSXP || LENGTH(order) != m.n) logz_internal_error("bad order");
    check_permutation(INTEGER(order), m.n);
    double *marg, *pair;
    SEXP out = PROTECT(ising_exact_result(&m, marginals, &marg, &pair));
    double lz = jt_calibrate(&m, INTEGER(order), marg, pair);
    logz_set(out, "log_z", ScalarReal(lz));
    UNPROTECT(1);
    return out;
}
