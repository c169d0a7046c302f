/* SEXP glue of rng.c: stream states and uniforms from R. */
#include "logz.h"

/* n fresh streams seeded from R's RNG, as a 6 x n numeric matrix. */
SEXP rng_streams_call(SEXP n_)
{
    int n = asInteger(n_);
    if (n == NA_INTEGER || n < 0) logz_internal_error("bad stream count");
    logz_stream *st = (logz_stream *) R_alloc((size_t) (n > 0 ? n : 1), sizeof(logz_stream));
    GetRNGstate();
    logz_streams_seed(n, st);
    PutRNGstate();
    SEXP out = PROTECT(allocMatrix(REALSXP, 6, n));
    logz_streams_to_double(n, st, REAL(out));
    UNPROTECT(1);
    return out;
}

/* n uniforms from each of k streams (state: 6 x k), as an n x k matrix, through
 * logz_streams_fill (for tests against RNGkind("L'Ecuyer-CMRG")). */
SEXP rng_stream_unif_call(SEXP state, SEXP n_)
{
    int n = asInteger(n_);
    if (TYPEOF(state) != REALSXP || XLENGTH(state) % 6 != 0 || n == NA_INTEGER || n < 0)
        logz_internal_error("bad stream state");
    int k = (int) (XLENGTH(state) / 6);
    logz_stream *st = (logz_stream *) R_alloc((size_t) (k > 0 ? k : 1), sizeof(logz_stream));
    if (!logz_streams_from_double(k, REAL(state), st))
        logz_internal_error("stream state out of range");
    SEXP out = PROTECT(allocMatrix(REALSXP, n, k));
    logz_streams_fill(st, k, n, REAL(out), n);
    UNPROTECT(1);
    return out;
}
