/* Glue helpers shared by the *_call files: progress callbacks into R, the
 * chunk state of the annealing engines, and interrupts from R loops. */
#include <string.h>
#include "logz.h"

int logz_tick_every(SEXP control)
{
    SEXP tick = logz_get(control, "tick");
    if (isNull(tick)) return 0;
    int every = asInteger(logz_get(control, "tick_every"));
    if (!isFunction(tick) || every == NA_INTEGER || every < 1)
        logz_internal_error("bad progress callback");
    return every;
}

/* inside a GetRNGstate()/PutRNGstate() bracket: the callback sees, and leaves,
 * the RNG state as it is, so the draws do not depend on progress */
void logz_tick(SEXP control, int every, int done, int total)
{
    if (every <= 0 || (done % every != 0 && done != total)) return;
    PutRNGstate();
    SEXP v = PROTECT(ScalarInteger(done));
    SEXP call = PROTECT(lang2(logz_get(control, "tick"), v));
    eval(call, R_GlobalEnv);
    UNPROTECT(2);
    GetRNGstate();
}

/* Unpack one chunk of an annealing engine (AIS on RBMs, Ising models, GP
 * classifiers): the state list(log_w, streams (6 x M), <xname> (rows x M
 * chain states, or NULL before the first chunk)), the betas of the chunk
 * (L + 1 values) and the control list(threads, sweeps, final, log_z0). The
 * streams are decoded into R_alloc'ed memory. Inconsistencies are internal
 * errors (the R drivers build these lists). */
void logz_chunk_unpack(SEXP state, SEXP betas, SEXP control, const char *xname, int rows,
                       logz_chunk *c)
{
    SEXP lw = logz_need(state, "log_w", REALSXP), streams = logz_need(state, "streams", REALSXP);
    c->x0 = logz_get(state, xname);
    c->M = LENGTH(lw);
    c->log_w = REAL(lw);
    if (c->M < 1 || XLENGTH(streams) != 6 * (R_xlen_t) c->M) logz_internal_error("bad streams");
    if (!isNull(c->x0) && (TYPEOF(c->x0) != REALSXP || XLENGTH(c->x0) != (R_xlen_t) rows * c->M))
        logz_internal_error("bad chain state");
    if (TYPEOF(betas) != REALSXP || LENGTH(betas) < 1) logz_internal_error("bad betas");
    c->L = LENGTH(betas) - 1;
    c->nthreads = logz_threads(asInteger(logz_need(control, "threads", INTSXP)));
    c->sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    c->final = asLogical(logz_need(control, "final", LGLSXP));
    c->log_z0 = asReal(logz_need(control, "log_z0", REALSXP));
    if (c->sweeps < 1) logz_internal_error("sweeps < 1");
    c->st = (logz_stream *) R_alloc((size_t) c->M, sizeof(logz_stream));
    if (!logz_streams_from_double(c->M, REAL(streams), c->st))
        logz_internal_error("stream state out of range");
}

/* The result list `names` of chunk c: its first four names are the chain
 * states (rows x M, the entry states copied in when there are any; without
 * them, isNull(c->x0), the caller draws them from its base), "log_w" (the
 * entry weights copied in), "streams" (set by logz_chunk_streams() at the end)
 * and "trace" (L x 2); the rest are the caller's. Returned unprotected. */
SEXP logz_chunk_result(const logz_chunk *c, const char **names, int rows)
{
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP X = logz_set(out, names[0], allocMatrix(REALSXP, rows, c->M));
    if (!isNull(c->x0)) logz_fill_columns(REAL(X), REAL(c->x0), rows, c->M, 1);
    SEXP logw = logz_set(out, "log_w", allocVector(REALSXP, c->M));
    memcpy(REAL(logw), c->log_w, sizeof(double) * c->M);
    logz_set(out, "trace", allocMatrix(REALSXP, c->L, 2));
    UNPROTECT(1);
    return out;
}

/* out$streams (6 x M): the chains' streams of c at the end of the chunk. */
void logz_chunk_streams(SEXP out, const logz_chunk *c)
{
    SEXP so = logz_set(out, "streams", allocMatrix(REALSXP, 6, c->M));
    logz_streams_to_double(c->M, c->st, REAL(so));
}

/* For long loops written in R (byte-compiled loops check interrupts only every
 * 1000 back-jumps): R_CheckUserInterrupt() honours interrupts and time limits. */
SEXP check_interrupt_call(void)
{
    R_CheckUserInterrupt();
    return R_NilValue;
}

static void tick_control(void *ctx, int done, int total)
{
    const logz_tick_ctx *t = (const logz_tick_ctx *) ctx;
    logz_tick(t->control, t->every, done, total);
}

/* p ticks through control$tick as logz_tick() does (nothing without one) */
void logz_progress_init(logz_progress *p, logz_tick_ctx *c, SEXP control)
{
    c->control = control;
    c->every = logz_tick_every(control);
    p->tick = c->every > 0 ? tick_control : NULL;
    p->ctx = c;
}
