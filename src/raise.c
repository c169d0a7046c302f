/* Reverse AIS estimator (RAISE; Burda, Grosse & Salakhutdinov 2015) for binary
 * RBMs on the path with the hidden units summed out,
 *   log f_beta(v) = (1-beta) v'a0 + beta v'a + sum_j softplus(beta (b_j + v'W_j)).
 * Each chain starts at a data point, v_K = v_test, and runs the block-Gibbs
 * transitions T_k (h ~ p_k(h | v), then v ~ p_k(v | h); reversible on v) from
 * beta_K down to beta_1, accumulating
 *   log_w += log f_{beta_k}(v_{k-1}) - log f_{beta_{k-1}}(v_{k-1})
 * after the transition at beta_k. Then
 *   log p_hat(v_test) = log f_K(v_test) - log Z_0 - log_w,
 * an unbiased estimate of the annealed model's probability (see R/raise.R for
 * the derivation), whose log is a stochastic lower bound.
 *
 * Chains move together: X = [W a a0]' V and Y = W H are, on each thread's
 * slice of chains, the binary-state products of binary_kernels.c where they
 * run on AVX2 or AVX-512 (kernels.h), else BLAS dgemm calls (BLAS is asked to
 * run single-threaded while our threads run); every chain has its own
 * MRG32k3a stream, so the result is the same for any thread count. The R side
 * calls this in chunks of (descending) betas, carrying V, log_w and the
 * streams. */
#include <math.h>
#include <string.h>
#include "logz.h"
#include "kernels.h"

typedef logz_rbm_path raise_rbm_model;

/* s_i ~ Bern(sigmoid(t_i)), i < n, from the uniforms u; e: n doubles of scratch */
static void bern_logit(const double *t, double *s, const double *u, double *e, int n,
                       logz_isa isa)
{
    logz_exp_neg_abs_isa(t, e, n, isa);
    logz_bernoulli_logit(t, e, u, s, n);
}

/* Work a round of raise_rbm_run() does per thread, in multiply-adds (a few
 * hundredths of a second), so that the interrupt checks between rounds come
 * well within 0.1 s even when a single step makes many sweeps. */
#ifndef RAISE_ROUND_WORK
#define RAISE_ROUND_WORK 2e8
#endif

/* Run the steps betas[0] -> betas[1] -> ... -> betas[L] (descending): at each
 * step j a transition at betas[j] (`sweeps` block-Gibbs sweeps), then the
 * increment log f_{betas[j]}(v) - log f_{betas[j+1]}(v). A chain's work is the
 * sequence of units (j, sw), sweeps units a step, the last of which also adds
 * the increment. The chains advance through the units in rounds of about
 * RAISE_ROUND_WORK a thread (a range of units for all chains, or one unit for
 * a block of chains when one unit over all chains is more), one parallel
 * region a round, with an interrupt check between rounds. In a round each
 * thread owns a fixed slice of the chains (its own dgemm calls; BLAS runs
 * single-threaded inside the round when limit_blas); a chain does the same
 * work in the same order in any case, so the result does not depend on the
 * rounds or the thread count. */
typedef struct {
    const raise_rbm_model *m;
    const logz_blocked *BX, *BY;   /* blocked weights of the binary products, or NULL */
    const double *betas;
    int sweeps, nu;
    logz_isa isa;                  /* of the exps, fixed for the call */
    double *V, *logw, *X, *H, *Y, *C0, *SCR;
    int *plus, *minus, *np, *nm, *on, *full;
    logz_stream *st;
} raise_run;

/* X[:, cA:cB) = [W a a0]' V[:, cA:cB) */
static void raise_product_x(const raise_run *r, int cA, int cB)
{
    if (!r->BX) {
        logz_rbm_gemm_x(r->m, r->V, r->X, cA, cB);
        return;
    }
    logz_binary_product(r->BX, r->V, r->X, cA, cB, r->plus, r->minus, r->nu, r->np, r->nm, r->on,
                        0, r->full);
}

/* Y[:, cA:cB) = W H[:, cA:cB) */
static void raise_product_y(const raise_run *r, int cA, int cB)
{
    if (!r->BY || r->m->nh == 0) {
        logz_rbm_gemm_y(r->m, r->H, r->Y, cA, cB);
        return;
    }
    logz_binary_product(r->BY, r->H, r->Y, cA, cB, r->plus, r->minus, r->nu, r->np, r->nm, r->on,
                        0, r->full);
}

/* log f_bt(v) - log f_bl(v) of one chain from its column x of X; scr: 4 nh
 * doubles (logz_hidden_softplus_change()). */
static double raise_increment(const raise_rbm_model *m, const double *x, double bt, double bl,
                              double *scr, logz_isa isa)
{
    int nh = m->nh;
    return logz_hidden_softplus_change(m->b, x, nh, bl, bt, (bt - bl) * (x[nh] - x[nh + 1]), scr,
                                       isa);
}

/* units [t0, t1) of the chains [cA, cB) (one thread's slice of a round) */
static void raise_rbm_round(void *ctx, long t0, long t1, int cA, int cB, int tid)
{
    const raise_run *r = (const raise_run *) ctx;
    const raise_rbm_model *m = r->m;
    int nv = m->nv, nh = m->nh, nx = nh + 2, nu = r->nu, sweeps = r->sweeps;
    double *V = r->V, *X = r->X, *H = r->H, *Y = r->Y;
    double *c0 = r->C0 + (size_t) nv * tid, *t = r->SCR + (size_t) tid * 7 * nu;
    double *e = t + nu, *u = t + 2 * (size_t) nu, *scr = t + 3 * (size_t) nu;
    /* X holds the product of the current V after the first round */
    if (t0 == 0 && cA < cB) raise_product_x(r, cA, cB);
    for (long tt = t0; tt < t1 && cA < cB; tt++) {
        int j = (int) (tt / sweeps), sw = (int) (tt % sweeps);
        double bt = r->betas[j], bl = r->betas[j + 1];
        if (sw == 0 || tt == t0)
            for (int i = 0; i < nv; i++) c0[i] = (1.0 - bt) * m->a0[i] + bt * m->a[i];
        for (int c = cA; c < cB; c++) {
            const double *x = X + (size_t) nx * c;
            for (int k = 0; k < nh; k++) t[k] = bt * (m->b[k] + x[k]);
            logz_streams_fill(r->st + c, 1, nh, u, nu);
            bern_logit(t, H + (size_t) nh * c, u, e, nh, r->isa);
        }
        raise_product_y(r, cA, cB);
        for (int c = cA; c < cB; c++) {
            const double *y = Y + (size_t) nv * c;
            for (int i = 0; i < nv; i++) t[i] = c0[i] + bt * y[i];
            logz_streams_fill(r->st + c, 1, nv, u, nu);
            bern_logit(t, V + (size_t) nv * c, u, e, nv, r->isa);
        }
        raise_product_x(r, cA, cB);
        if (sw < sweeps - 1) continue;
        for (int c = cA; c < cB; c++)
            r->logw[c] += raise_increment(m, X + (size_t) nx * c, bt, bl, scr, r->isa);
    }
}

void raise_rbm_run(const logz_rbm_path *m, const double *betas, int L, int sweeps, double *V,
                   double *logw, logz_stream *st, int nthreads, int limit_blas)
{
    int nv = m->nv, nh = m->nh, M = m->M, nx = nh + 2;
    int nu = nv > nh ? nv : nh;
    raise_run a = {.m = m, .betas = betas, .sweeps = sweeps, .nu = nu, .V = V, .logw = logw,
                   .st = st};
    a.X = (double *) R_alloc((size_t) nx * M, sizeof(double));
    a.H = (double *) R_alloc((size_t) (nh > 0 ? nh : 1) * M, sizeof(double));
    a.Y = (double *) R_alloc((size_t) nv * M, sizeof(double));
    a.C0 = (double *) R_alloc((size_t) nv * nthreads, sizeof(double));
    a.SCR = (double *) R_alloc((size_t) nthreads * 7 * nu, sizeof(double));
    /* the binary products where they beat dgemm (bench/ais/binary_crossover.out) */
    logz_blocked BX, BY;
    a.isa = logz_isa_select();
    int binary = a.isa != LOGZ_ISA_PORTABLE && nh > 0;
    if (binary) {
        logz_blocked_init(&BX, m->Wx, nx, nv, 0,
                          (double *) R_alloc(logz_blocked_size(nx, nv), sizeof(double)), 1);
        logz_blocked_init(&BY, m->Wx, nv, nh, 1,
                          (double *) R_alloc(logz_blocked_size(nv, nh), sizeof(double)), 1);
        a.BX = &BX;
        a.BY = &BY;
        a.plus = (int *) R_alloc((size_t) nu * M, sizeof(int));
        a.minus = (int *) R_alloc((size_t) nu * M, sizeof(int));
        a.np = (int *) R_alloc((size_t) 4 * M, sizeof(int));
        a.nm = a.np + M;
        a.on = a.np + 2 * (size_t) M;
        a.full = a.np + 3 * (size_t) M;
        memset(a.np, 0, sizeof(int) * 4 * (size_t) M);
    }
    logz_rounds r = {.total = (long) L * sweeps, .n_items = M, .nthreads = nthreads,
                     .split = LOGZ_SPLIT_SLICES, .limit_blas = limit_blas && !binary};
    double per_unit = 2.0 * nv * (double) (nh + 2) + 8.0 * (nv + nh);   /* a chain */
    double chains_per_thread = ceil((double) M / nthreads);
    logz_round_plan(per_unit, chains_per_thread, r.total, RAISE_ROUND_WORK, M, 1, nthreads,
                    &r.units, &r.items);
    logz_rounds_run(&r, raise_rbm_round, &a);
}
