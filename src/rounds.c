/* The shared driver of the parallel engines: work split into rounds of blocks
 * run by OpenMP, with an interrupt check between rounds on the main thread
 * (never inside a parallel region), and the BLAS-thread helpers that keep
 * OpenBLAS single-threaded while our own threads each call dgemm.
 *
 * A job is `n_items` items (chains, groups of chains, enumeration blocks) that
 * each go through `total` units (sweeps, annealing steps). A round is a range
 * of units of a range of items; the callback does that work and must not call
 * the R API unless the split is LOGZ_SPLIT_MAIN. An item does the same work in
 * the same order whatever the rounds and the thread count, so the results of
 * the engines do not depend on either. */
#include <math.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

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

/* one round: units [t0, t1) of items [i0, i1) */
static void round_run(const logz_rounds *r, logz_round_fn fn, void *ctx, long t0, long t1,
                      int i0, int i1)
{
    int nthreads = r->nthreads > 0 ? r->nthreads : 1;
    if (r->split == LOGZ_SPLIT_MAIN) {
        fn(ctx, t0, t1, i0, i1, 0);
    } else if (r->split == LOGZ_SPLIT_EACH) {
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
#endif
        for (int i = i0; i < i1; i++) {
            int tid = 0;
#ifdef _OPENMP
            tid = omp_get_thread_num();
#endif
            fn(ctx, t0, t1, i, i + 1, tid);
        }
    } else {
#ifdef _OPENMP
#pragma omp parallel num_threads(nthreads)
#endif
        {
            int tid = 0, nt = 1;
#ifdef _OPENMP
            tid = omp_get_thread_num();
            nt = omp_get_num_threads();
#endif
            int a = i0 + (int) ((long) (i1 - i0) * tid / nt);
            int b = i0 + (int) ((long) (i1 - i0) * (tid + 1) / nt);
            if (a < b) fn(ctx, t0, t1, a, b, tid);
        }
    }
}

void logz_rounds_run(const logz_rounds *r, logz_round_fn fn, void *ctx)
{
    long units = r->units > 0 ? r->units : 1;
    int items = r->items > 0 ? r->items : 1;
    for (long t0 = 0; t0 < r->total; t0 += units) {
        long t1 = t0 + units < r->total ? t0 + units : r->total;
        for (int i0 = 0; i0 < r->n_items; i0 += items) {
            int i1 = i0 + items < r->n_items ? i0 + items : r->n_items;
            const void *vmax = vmaxget();
            int old_blas = r->limit_blas ? blas_threads_limit(1) : -1;
            round_run(r, fn, ctx, t0, t1, i0, i1);
            if (old_blas > 0) blas_threads_restore(old_blas);
            vmaxset(vmax);
            R_CheckUserInterrupt();   /* between rounds, outside the parallel region */
        }
    }
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

typedef struct {
    uint64_t total;
    int nblocks;
    logz_block_fn fn;
    void *ctx;
} enum_job;

static void enum_round(void *ctx, long t0, long t1, int i0, int i1, int tid)
{
    (void) t0;
    (void) t1;
    const enum_job *j = (const enum_job *) ctx;
    for (int blk = i0; blk < i1; blk++) {
        uint64_t from = j->total / (uint64_t) j->nblocks * (uint64_t) blk;
        uint64_t to = blk == j->nblocks - 1
                          ? j->total
                          : j->total / (uint64_t) j->nblocks * (uint64_t) (blk + 1);
        j->fn(blk, from, to, tid, j->ctx);
    }
}

/* `total` enumeration states in `nblocks` fixed blocks (block blk covers
 * [from, to)), 2 nthreads blocks a round, each block on the next free thread.
 * Results that fn writes per block can then be merged in block order, so they
 * do not depend on the thread count. */
void logz_for_blocks(uint64_t total, int nblocks, int nthreads, logz_block_fn fn, void *ctx)
{
    enum_job j = {.total = total, .nblocks = nblocks, .fn = fn, .ctx = ctx};
    logz_rounds r = {.total = 1, .units = 1, .n_items = nblocks, .items = 2 * nthreads,
                     .nthreads = nthreads, .split = LOGZ_SPLIT_EACH, .limit_blas = 0};
    logz_rounds_run(&r, enum_round, &j);
}

/* Tell OpenBLAS (when it is R's BLAS) to run single-threaded while our own
 * threads each call dgemm, so the two thread pools do not fight over cores. */
#if defined(__linux__)
#include <dlfcn.h>
typedef void (*blas_set_fn)(int);
typedef int (*blas_get_fn)(void);
int blas_threads_limit(int n)
{
    blas_set_fn set = (blas_set_fn) dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    blas_get_fn get = (blas_get_fn) dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    if (!set || !get) return -1;
    int old = get();
    set(n);
    return old;
}
void blas_threads_restore(int old)
{
    blas_set_fn set = (blas_set_fn) dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (set && old > 0) set(old);
}
#else
int blas_threads_limit(int n)
{
    (void) n;
    return -1;
}
void blas_threads_restore(int old)
{
    (void) old;
}
#endif
