/* SEXP glue of rts.c: one chunk of Rao-Blackwellized tempered sampling from R. */
#include <string.h>
#include "logz.h"

/* The chains' streams of state (6 x M doubles), decoded into R_alloc memory. */
static logz_stream *rts_streams(SEXP state, int M)
{
    SEXP streams = logz_need(state, "streams", REALSXP);
    if (XLENGTH(streams) != 6 * (R_xlen_t) M) logz_internal_error("bad streams");
    logz_stream *st = (logz_stream *) R_alloc((size_t) M, sizeof(logz_stream));
    if (!logz_streams_from_double(M, REAL(streams), st))
        logz_internal_error("stream state out of range");
    return st;
}

/* The settings of a call from betas (K, increasing) and control (list(threads,
 * sweeps, thin, offset, step, moments, lrz)), checked against state's k (M
 * chains), and the chains' streams *st; the output arrays are attached by
 * rts_result_new(). Checks for interrupts first (between chunks). */
rts_run rts_unpack(SEXP betas, SEXP state, SEXP control, int *nthreads, logz_stream **st)
{
    R_CheckUserInterrupt();   /* between chunks: interrupts and time limits */
    if (TYPEOF(betas) != REALSXP || LENGTH(betas) < 2) logz_internal_error("bad betas");
    SEXP k0 = logz_need(state, "k", INTSXP), lrz = logz_need(control, "lrz", REALSXP);
    int K = LENGTH(betas), M = LENGTH(k0);
    if (M < 1) logz_internal_error("no chains");
    if (LENGTH(lrz) != K) logz_internal_error("bad log r - log Z_hat");
    for (int c = 0; c < M; c++)
        if (INTEGER(k0)[c] < 0 || INTEGER(k0)[c] >= K) logz_internal_error("bad k");
    *nthreads = logz_threads(asInteger(logz_need(control, "threads", INTSXP)));
    int sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    int thin = asInteger(logz_need(control, "thin", INTSXP));
    int offset = asInteger(logz_need(control, "offset", INTSXP));
    if (sweeps < 1 || offset < 0 || thin < 0) logz_internal_error("bad sweeps");
    *st = rts_streams(state, M);
    return (rts_run) {
        .K = K, .M = M, .sweeps = sweeps, .thin = thin, .offset = offset,
        .nstore = thin > 0 ? (offset + sweeps) / thin - offset / thin : 0,
        .moments = asLogical(logz_need(control, "moments", LGLSXP)) == TRUE,
        .step = asReal(logz_need(control, "step", REALSXP)),
        .betas = REAL(betas), .lrz = REAL(lrz)};
}

/* The result list(X (nx x M, the entry state's copy), k, streams (6 x M),
 * acc (K x RTS_NSTAT x M, zero), store (K x nstore M), store_k), with r's
 * output pointers set into it. */
SEXP rts_result_new(SEXP state, int nx, rts_run *r)
{
    int K = r->K, M = r->M;
    SEXP X0 = logz_need(state, "X", REALSXP), k0 = logz_need(state, "k", INTSXP);
    if (XLENGTH(X0) != (R_xlen_t) nx * M) logz_internal_error("bad chain state");
    const char *names[] = {"X", "k", "streams", "acc", "store", "store_k", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP X = allocMatrix(REALSXP, nx, M);
    logz_set(out, "X", X);
    memcpy(REAL(X), REAL(X0), sizeof(double) * (size_t) nx * M);
    logz_set(out, "streams", allocMatrix(REALSXP, 6, M));
    SEXP kk = allocVector(INTSXP, M);
    logz_set(out, "k", kk);
    memcpy(INTEGER(kk), INTEGER(k0), sizeof(int) * M);
    SEXP acc = alloc3DArray(REALSXP, K, RTS_NSTAT, M);
    logz_set(out, "acc", acc);
    memset(REAL(acc), 0, sizeof(double) * (size_t) K * RTS_NSTAT * M);
    SEXP so = allocMatrix(REALSXP, K, r->nstore * M);
    logz_set(out, "store", so);
    SEXP sk = allocVector(INTSXP, (R_xlen_t) r->nstore * M);
    logz_set(out, "store_k", sk);
    r->kk = INTEGER(kk);
    r->acc = REAL(acc);
    r->store = r->nstore > 0 ? REAL(so) : NULL;
    r->store_k = INTEGER(sk);
    UNPROTECT(1);
    return out;
}

/* The blocked weights BX, BY of model (from ais_rbm_prepare_call()) into *BX,
 * *BY for the sparse products when control$sparse is TRUE (returns 1), else 0. */
static int rts_blocked(SEXP model, SEXP control, const logz_rbm_path *m, logz_blocked *BX,
                       logz_blocked *BY)
{
    SEXP sp = logz_get(control, "sparse"), bx = logz_get(model, "BX"), by = logz_get(model, "BY");
    if (!(TYPEOF(sp) == LGLSXP && LENGTH(sp) == 1 && LOGICAL(sp)[0] == TRUE)) return 0;
    if (TYPEOF(bx) != REALSXP || TYPEOF(by) != REALSXP ||
        (size_t) XLENGTH(bx) != logz_blocked_size(m->nh + 2, m->nv) ||
        (size_t) XLENGTH(by) != logz_blocked_size(m->nv, m->nh))
        logz_internal_error("bad blocked weights");
    logz_blocked_init(BX, NULL, m->nh + 2, m->nv, 0, REAL(bx), 0);
    logz_blocked_init(BY, NULL, m->nv, m->nh, 1, REAL(by), 0);
    return 1;
}

/* model: list(W, a, b, a0) and, for the sparse products (control$sparse TRUE),
 * the blocked weights BX, BY of ais_rbm_prepare_call(); betas (K,
 * increasing); state: list(X = V (nv x M), k (0-based), streams); control as
 * in rts_unpack(). */
SEXP rts_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    int nthreads;
    logz_stream *st;
    rts_run r = rts_unpack(betas, state, control, &nthreads, &st);
    logz_rbm_path m;
    logz_rbm_path_from_list(model, r.M, &m);
    logz_blocked BX, BY;
    int sparse = rts_blocked(model, control, &m, &BX, &BY);
    SEXP out = PROTECT(rts_result_new(state, m.nv, &r));
    rts_rbm_run(&m, sparse ? &BX : NULL, sparse ? &BY : NULL, &r, REAL(logz_get(out, "X")), st,
                nthreads);
    logz_streams_to_double(r.M, st, REAL(logz_get(out, "streams")));
    UNPROTECT(1);
    return out;
}

/* model: ising_c_model() list with order and a0; state and control as above
 * (X: n x M spins). */
SEXP rts_ising_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    int nthreads;
    logz_stream *st;
    rts_run r = rts_unpack(betas, state, control, &nthreads, &st);
    ising_model m;
    ising_model_from_list(model, &m);
    SEXP order = logz_need(model, "order", INTSXP), a0 = logz_need(model, "a0", REALSXP);
    if (LENGTH(order) != m.n || LENGTH(a0) != m.n) logz_internal_error("bad Ising model");
    for (int i = 0; i < m.n; i++)
        if (INTEGER(order)[i] < 0 || INTEGER(order)[i] >= m.n)
            logz_internal_error("bad sweep order");
    SEXP out = PROTECT(rts_result_new(state, m.n, &r));
    rts_ising_run(&m, INTEGER(order), REAL(a0), &r, REAL(logz_get(out, "X")), st, nthreads);
    logz_streams_to_double(r.M, st, REAL(logz_get(out, "streams")));
    UNPROTECT(1);
    return out;
}
