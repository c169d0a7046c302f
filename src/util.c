/* Small numerical and glue helpers shared by the engines. */
#include <math.h>
#include <string.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

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

int logz_threads(int requested)
{
    if (requested < 1 || requested == NA_INTEGER) requested = 1;
#ifdef _OPENMP
    int lim = omp_get_thread_limit();
    int mx = omp_get_num_procs();
    if (requested > lim) requested = lim;
    if (requested > 4 * mx) requested = 4 * mx;
    return requested;
#else
    return 1;
#endif
}

int logz_tick_every(SEXP control)
{
    SEXP tick = logz_get(control, "tick");
    if (isNull(tick)) return 0;
    int every = asInteger(logz_get(control, "tick_every"));
    if (!isFunction(tick) || every == NA_INTEGER || every < 1)
        error("internal error: bad progress callback");
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

SEXP logz_get(SEXP list, const char *name)
{
    SEXP names = getAttrib(list, R_NamesSymbol);
    if (isNull(names)) return R_NilValue;
    for (R_xlen_t i = 0; i < XLENGTH(list); i++)
        if (strcmp(CHAR(STRING_ELT(names, i)), name) == 0) return VECTOR_ELT(list, i);
    return R_NilValue;
}

/* The number of enumeration blocks for `total` states of `cost` elementary
 * operations each: `base`, or more for large enumerations (about 2^22
 * operations a block, a few hundredths of a second; at most `cap` blocks), so
 * that the interrupt checks between rounds come well within 0.1 s. It depends
 * on the model only (never on the thread count). */
int logz_enum_blocks(uint64_t total, double cost, int base, int cap)
{
    double want = (double) total * (cost > 1.0 ? cost : 1.0) / 4194304.0;
    uint64_t nb = want >= (double) cap ? (uint64_t) cap : (uint64_t) want;
    if (nb < (uint64_t) base) nb = (uint64_t) base;
    if (nb > total) nb = total;
    return (int) nb;
}

/* Visit `total` enumeration states split into `nblocks` fixed blocks (block
 * blk covers [from, to)), in rounds of 2 * nthreads blocks run by OpenMP, with
 * an interrupt check between rounds (never inside the parallel region). Results
 * that fn writes per block can then be merged in block order, so they do not
 * depend on the thread count. */
void logz_round_plan(double per, double per_thread, long total, double work, int n_blocks,
                     int min_blocks, int nthreads, long *units, int *blocks)
{
    *units = 1;
    *blocks = n_blocks;
    if (per * per_thread <= work) {
        double r = floor(work / (per * per_thread));
        *units = r > (double) total ? (total > 0 ? total : 1) : (long) r;
    } else {
        double g = floor(work / per) * nthreads;
        *blocks = g < min_blocks ? min_blocks : (g > n_blocks ? n_blocks : (int) g);
    }
}

void logz_for_blocks(uint64_t total, int nblocks, int nthreads, logz_block_fn fn, void *ctx)
{
    int round = 2 * nthreads;
    for (int b0 = 0; b0 < nblocks; b0 += round) {
        int b1 = b0 + round < nblocks ? b0 + round : nblocks;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
#endif
        for (int blk = b0; blk < b1; blk++) {
            int tid = 0;
#ifdef _OPENMP
            tid = omp_get_thread_num();
#endif
            uint64_t from = total / (uint64_t) nblocks * (uint64_t) blk;
            uint64_t to = blk == nblocks - 1 ? total
                                             : total / (uint64_t) nblocks * (uint64_t) (blk + 1);
            fn(blk, from, to, tid, ctx);
        }
        R_CheckUserInterrupt();
    }
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

/* An element of a named list that the R side must have supplied with this type. */
SEXP logz_need(SEXP list, const char *name, SEXPTYPE type)
{
    SEXP x = logz_get(list, name);
    if (TYPEOF(x) != type) error("internal error: '%s' missing or of the wrong type", name);
    return x;
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
    if (c->M < 1 || XLENGTH(streams) != 6 * (R_xlen_t) c->M) error("internal error: bad streams");
    if (!isNull(c->x0) && (TYPEOF(c->x0) != REALSXP || XLENGTH(c->x0) != (R_xlen_t) rows * c->M))
        error("internal error: bad chain state");
    if (TYPEOF(betas) != REALSXP || LENGTH(betas) < 1) error("internal error: bad betas");
    c->L = LENGTH(betas) - 1;
    c->nthreads = logz_threads(asInteger(logz_need(control, "threads", INTSXP)));
    c->sweeps = asInteger(logz_need(control, "sweeps", INTSXP));
    c->final = asLogical(logz_need(control, "final", LGLSXP));
    c->log_z0 = asReal(logz_need(control, "log_z0", REALSXP));
    if (c->sweeps < 1) error("internal error: sweeps < 1");
    c->st = (logz_stream *) R_alloc((size_t) c->M, sizeof(logz_stream));
    if (!logz_streams_from_double(c->M, REAL(streams), c->st))
        error("internal error: stream state out of range");
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
