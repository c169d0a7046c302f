/* SEXP glue of ising.c: pairwise binary MRFs from R (model lists, exact log Z
 * by enumeration, Gibbs samples, AIS chunks). */
#include <string.h>
#include "logz.h"

/* model: list(n, from, to, weight, field, lo, hi) with 0-based from/to. */
void ising_model_from_list(SEXP model, ising_model *m)
{
    int n = asInteger(logz_need(model, "n", INTSXP));
    SEXP from = logz_need(model, "from", INTSXP), to = logz_need(model, "to", INTSXP),
         w = logz_need(model, "weight", REALSXP), f = logz_need(model, "field", REALSXP);
    int ne = LENGTH(from);
    if (n < 1 || LENGTH(to) != ne || LENGTH(w) != ne || LENGTH(f) != n)
        logz_internal_error("inconsistent Ising model");
    for (int e = 0; e < ne; e++)
        if (INTEGER(from)[e] < 0 || INTEGER(from)[e] >= n || INTEGER(to)[e] < 0 ||
            INTEGER(to)[e] >= n || INTEGER(from)[e] == INTEGER(to)[e])
            logz_internal_error("bad edge %d", e + 1);
    ising_model_init(m, n, ne, INTEGER(from), INTEGER(to), REAL(w), REAL(f),
                     asReal(logz_need(model, "lo", REALSXP)), asReal(logz_need(model, "hi", REALSXP)));
}

static const int *order_from_list(SEXP model, int n)
{
    SEXP order = logz_need(model, "order", INTSXP);
    if (LENGTH(order) != n) logz_internal_error("bad sweep order");
    char *seen = (char *) R_alloc((size_t) n, 1);
    memset(seen, 0, (size_t) n);
    for (int i = 0; i < n; i++) {
        int v = INTEGER(order)[i];
        if (v < 0 || v >= n || seen[v]) logz_internal_error("sweep order is not a permutation");
        seen[v] = 1;
    }
    return INTEGER(order);
}

/* The result list(log_z, node, pair) of an exact computation on m, with node
 * (n) and pair (ne) allocated as `marginals` (a logz_marginals) asks and
 * pointed to by *marg and *pair (else NULL). Returned unprotected. */
SEXP ising_exact_result(const ising_model *m, SEXP marginals, double **marg, double **pair)
{
    int mg = logz_arg_code(asInteger(marginals), "marginals", LOGZ_MARGINALS_NONE,
                           LOGZ_MARGINALS_PAIR);
    const char *names[] = {"log_z", "node", "pair", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    *marg = *pair = NULL;
    if (mg >= LOGZ_MARGINALS_NODE) {
        *marg = REAL(logz_set(out, "node", allocVector(REALSXP, m->n)));
    }
    if (mg >= LOGZ_MARGINALS_PAIR) {
        *pair = REAL(logz_set(out, "pair", allocVector(REALSXP, m->ne)));
    }
    UNPROTECT(1);
    return out;
}

/* Exact log Z (and the marginals asked for) by enumeration. */
SEXP ising_enumerate_call(SEXP model, SEXP marginals, SEXP threads)
{
    ising_model m;
    ising_model_from_list(model, &m);
    if (m.n > 40) logz_internal_error("too many variables to enumerate");
    int nthreads = logz_threads(asInteger(threads));
    double *marg, *pair;
    SEXP out = PROTECT(ising_exact_result(&m, marginals, &marg, &pair));
    double lz = ising_enumerate(&m, nthreads, marg, pair);
    logz_set(out, "log_z", ScalarReal(lz));
    UNPROTECT(1);
    return out;
}

/* model: as above plus order (0-based sweep order); state: list(X or NULL,
 * streams, out (NULL or the n_rows x n integer matrix of a previous piece));
 * control: list(n_per, sweeps, burn_in, threads, n_rows, n_per_total, offset)
 * (see gibbs_out). */
SEXP ising_gibbs_call(SEXP model, SEXP state, SEXP control)
{
    ising_model m;
    ising_model_from_list(model, &m);
    const int *order = order_from_list(model, m.n);
    SEXP streams = logz_need(state, "streams", REALSXP), X0 = logz_get(state, "X");
    if (XLENGTH(streams) % 6 != 0 || XLENGTH(streams) == 0) logz_internal_error("bad streams");
    int M = (int) (XLENGTH(streams) / 6), n = m.n;
    if (!isNull(X0) && (TYPEOF(X0) != REALSXP || XLENGTH(X0) != (R_xlen_t) n * M))
        logz_internal_error("bad chain state");
    int n_per = asInteger(logz_need(control, "n_per", INTSXP));
    int sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    int burn_in = asInteger(logz_need(control, "burn_in", INTSXP));
    int nthreads = logz_threads(asInteger(logz_need(control, "threads", INTSXP)));
    double n_rows = asReal(logz_need(control, "n_rows", REALSXP)),
           n_per_total = asReal(logz_need(control, "n_per_total", REALSXP)),
           offset = asReal(logz_need(control, "offset", REALSXP));
    if (n_per < 0 || sweeps < 1 || burn_in < 0 || !(offset >= 0) || !(n_per_total >= offset + n_per) ||
        !(n_rows >= 0) || n_rows > (double) M * n_per_total || n_rows > INT_MAX)
        logz_internal_error("bad Gibbs control");
    SEXP out0 = logz_get(state, "out");
    if (!isNull(out0) && (TYPEOF(out0) != INTSXP || !isMatrix(out0) || nrows(out0) != (int) n_rows ||
                          ncols(out0) != n))
        logz_internal_error("bad Gibbs output matrix");
    logz_stream *st = (logz_stream *) R_alloc((size_t) M, sizeof(logz_stream));
    if (!logz_streams_from_double(M, REAL(streams), st))
        logz_internal_error("stream state out of range");

    const char *names[] = {"samples", "X", "streams", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    /* the states go into the matrix of the previous piece in place (its only
     * holder is the R driver, which passes it on), or a new one */
    SEXP S = isNull(out0) ? allocMatrix(INTSXP, (int) n_rows, n) : out0;
    logz_set(out, "samples", S);
    SEXP X = allocMatrix(REALSXP, n, M);
    logz_set(out, "X", X);
    if (isNull(X0)) {
        ising_draw_base_all(&m, m.f, REAL(X), st, M);
    } else {
        logz_fill_columns(REAL(X), REAL(X0), n, M, 1);
    }
    gibbs_out o = {.out = INTEGER(S), .n_rows = (long) n_rows, .n_per_total = (long) n_per_total,
                   .offset = (long) offset};
    ising_gibbs_run(&m, order, M, burn_in, sweeps, n_per, REAL(X), st, nthreads, &o);
    SEXP so = allocMatrix(REALSXP, 6, M);
    logz_set(out, "streams", so);
    logz_streams_to_double(M, st, REAL(so));
    UNPROTECT(1);
    return out;
}

/* model: as above plus order and a0 (base field); state: list(X or NULL,
 * log_w, streams); control: list(threads, sweeps, final, log_z0). */
SEXP ising_ais_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    R_CheckUserInterrupt();   /* between chunks: interrupts and time limits */
    ising_model m;
    ising_model_from_list(model, &m);
    const int *order = order_from_list(model, m.n);
    SEXP a0 = logz_need(model, "a0", REALSXP);
    int n = m.n;
    if (LENGTH(a0) != n) logz_internal_error("bad base field");
    logz_chunk ck;
    logz_chunk_unpack(state, betas, control, "X", n, &ck);
    int M = ck.M, L = ck.L, nthreads = ck.nthreads, sweeps = ck.sweeps, final = ck.final;
    double log_z0 = ck.log_z0;
    logz_stream *st = ck.st;

    const char *names[] = {"X", "log_w", "streams", "trace", "sweeps", ""};
    SEXP out = PROTECT(logz_chunk_result(&ck, names, n));
    SEXP X = logz_get(out, "X"), logw = logz_get(out, "log_w"), trace = logz_get(out, "trace");
    if (isNull(ck.x0)) ising_draw_base_all(&m, REAL(a0), REAL(X), st, M);
    int ns = 0;
    if (L > 0) {
        double *df = (double *) R_alloc((size_t) n, sizeof(double));
        double *hist = (double *) R_alloc((size_t) L * M, sizeof(double));
        ns = ising_ais_run(&m, order, REAL(a0), REAL(betas), L, final, sweeps, log_z0, M,
                           REAL(X), REAL(logw), st, nthreads, df, hist, REAL(trace));
    }
    logz_set(out, "sweeps", ScalarInteger(ns));
    logz_chunk_streams(out, &ck);
    UNPROTECT(1);
    return out;
}
