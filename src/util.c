/* Small numerical and glue helpers shared by the engines. */
#include <math.h>
#include <string.h>
#include "logz.h"

double logz_softplus(double x)
{
    return (x > 0 ? x : 0.0) + log1p(exp(-fabs(x)));
}

double logz_log_add_exp(double a, double b)
{
    if (a == R_NegInf) return b;
    if (b == R_NegInf) return a;
    double m = a > b ? a : b;
    return m + log1p(exp(-fabs(a - b)));
}

double logz_log_sum_exp(const double *x, int n)
{
    double m = R_NegInf, s = 0.0;
    for (int i = 0; i < n; i++)
        if (x[i] > m) m = x[i];
    if (!R_FINITE(m)) return m;
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
    return m + log(s);
}

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

/* log(sum_b bsum[b] exp(bmax[b])) over blocks, merged in block order; if
 * weight != NULL it receives each block's share exp(bmax[b]) bsum-scale / total,
 * i.e. weight[b] = exp(bmax[b] - log Z). */
double logz_merge_blocks(const double *bmax, const double *bsum, int nblocks, double *weight)
{
    double mx = R_NegInf, s = 0.0;
    for (int b = 0; b < nblocks; b++) if (bmax[b] > mx) mx = bmax[b];
    if (!R_FINITE(mx)) return mx;
    for (int b = 0; b < nblocks; b++) s += bsum[b] * exp(bmax[b] - mx);
    if (weight)
        for (int b = 0; b < nblocks; b++) weight[b] = exp(bmax[b] - mx) / s;
    return mx + log(s);
}

/* Per annealing step k < L, from the M log weights LW[k * M + c]: the ESS
 * (sum w)^2 / sum w^2 into trace[k] and log Z0 + log mean(w) into trace[L + k]. */
void logz_ais_trace(const double *LW, int L, int M, double log_z0, double *trace)
{
    for (int k = 0; k < L; k++) {
        const double *lw = LW + (size_t) M * k;
        double mx = R_NegInf, s1 = 0.0, s2 = 0.0;
        for (int c = 0; c < M; c++) if (lw[c] > mx) mx = lw[c];
        for (int c = 0; c < M; c++) {
            double w = exp(lw[c] - mx);
            s1 += w;
            s2 += w * w;
        }
        trace[k] = s1 * s1 / s2;
        trace[L + k] = log_z0 + mx + log(s1) - log((double) M);
    }
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

/* For long loops written in R (byte-compiled loops check interrupts only every
 * 1000 back-jumps): R_CheckUserInterrupt() honours interrupts and time limits. */
SEXP check_interrupt_call(void)
{
    R_CheckUserInterrupt();
    return R_NilValue;
}

/* Column j of the nrow x ncol matrix V is column j / copies of V0 (nrow x
 * ncol / copies); copies = 1 is a plain copy. Written in slices of about 2e6
 * values with an interrupt check between them (main thread only), so copying
 * a state of gigabytes does not hold up interrupts. */
void logz_fill_columns(double *V, const double *V0, int nrow, int ncol, int copies)
{
    const long slice = 2000000L / (nrow > 0 ? nrow : 1) + 1;
    for (long j0 = 0; j0 < ncol; j0 += slice) {
        long j1 = j0 + slice < ncol ? j0 + slice : ncol;
        if (copies == 1) {
            memcpy(V + (size_t) j0 * nrow, V0 + (size_t) j0 * nrow,
                   sizeof(double) * (size_t) nrow * (j1 - j0));
        } else {
            for (long j = j0; j < j1; j++)
                memcpy(V + (size_t) j * nrow, V0 + (size_t) (j / copies) * nrow,
                       sizeof(double) * (size_t) nrow);
        }
        if (j1 < ncol) R_CheckUserInterrupt();
    }
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
