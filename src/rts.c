/* Rao-Blackwellized tempered sampling (Carlson, Stinson, Pakman & Paninski
 * 2016): simulated tempering by Gibbs sampling on (x, k) with
 *   q(x, k) ∝ f_k(x) r_k / Z_hat_k,   f_k = f^beta_k p_1^(1 - beta_k),
 * an x-move leaving f_k invariant, then k | x ~ q(k | x) ∝ f_k(x) r_k / Z_hat_k
 * (their Eq. 7). Per chain and temperature the engine accumulates the
 * sufficient statistics of every estimator the R side computes, indexed by
 * enum logz_rts_stat (src/logz.h; RTS_STAT in R):
 *   RTS_SUM_Q     sum_i q(k | x_i)              (Rao-Blackwellized c_hat_k, Eq. 9)
 *   RTS_SUM_Q_D   sum_i q(k | x_i) D_k(x_i)     (TI-RB, Eq. 21)
 *   RTS_N         n_k = #{i : k_i = k}          (TS counts, TI bins)
 *   RTS_SUM_D     sum_{i: k_i = k} D_k(x_i), RTS_SUM_D_SQ the same of D_k^2,
 *   RTS_SUM_D2    the same of D2_k(x_i)         (TI, Friel's correction)
 * where D_k = d log f_beta(x) / d beta at beta_k and D2_k the second
 * derivative (zero on a geometric path; for an RBM with the hidden units
 * summed out, D = E[Delta(v, h) | v] and Var[Delta] = Var[D] + E[D2]).
 * Optionally every `thin`-th sweep stores log f_k(x) for all k (for MBAR).
 *
 * RBM (hidden units summed out, base-rate visible biases a0):
 *   log f_beta(v) = (1-beta) v'a0 + beta v'a + sum_j softplus(beta (b_j + v'W_j));
 * the x-move is one block-Gibbs sweep at beta_k (h | v, then v | h).
 * Ising (base field a0): log f_beta(x) = a0'x + beta Delta(x), Delta(x) the
 * couplings plus (f - a0)'x; the x-move is one Gibbs sweep at beta_k.
 *
 * Chains run in fixed groups (RBM: RTS_GROUP chains with their own dgemm
 * calls) spread over OpenMP threads; every chain has its own MRG32k3a stream,
 * so the result does not depend on the thread count or on how R splits a run
 * into calls. The engines (rts_rbm_run, rts_ising_run) work on plain C types;
 * rts_call.c unpacks and checks the SEXP arguments and builds the result list. */
#include <math.h>
#include <string.h>
#include "logz.h"

#define RTS_GROUP 8
#define RTS_PROD 512   /* factors in [1, 2] multiplied before one log */
#ifndef RTS_ROUND_WORK
#define RTS_ROUND_WORK 2e7   /* operations a thread between interrupt checks */
#endif

/* Given log f_k(x) (lk), D_k and D2_k for one chain: accumulate, draw the new
 * k from q(k | x) with the uniform u, store if asked. q: K doubles scratch. */
static void rts_update(const rts_run *r, int c, const double *lk, const double *D,
                       const double *D2, double u, double *q, int sweep)
{
    int K = r->K;
    double mx = -INFINITY, s = 0.0, *acc = r->acc + (size_t) RTS_NSTAT * K * c;
    for (int k = 0; k < K; k++) {
        q[k] = lk[k] + r->lrz[k];
        if (q[k] > mx) mx = q[k];
    }
    for (int k = 0; k < K; k++) {
        q[k] = exp(q[k] - mx);
        s += q[k];
    }
    double inv = 1.0 / s, target = u * s, cum = 0.0;
    int knew = K - 1;
    for (int k = 0; k < K; k++) {
        cum += q[k];
        if (target < cum) {
            knew = k;
            break;
        }
    }
    for (int k = 0; k < K; k++) {
        double p = q[k] * inv;
        acc[RTS_SUM_Q * K + k] += p;
        acc[RTS_SUM_Q_D * K + k] += p * D[k];
    }
    acc[RTS_N * K + knew] += 1.0;
    acc[RTS_SUM_D * K + knew] += D[knew];
    acc[RTS_SUM_D_SQ * K + knew] += D[knew] * D[knew];
    acc[RTS_SUM_D2 * K + knew] += D2[knew];
    r->kk[c] = knew;
    if (r->store) {
        int g = r->offset + sweep + 1;
        if (g % r->thin == 0) {
            size_t col = (size_t) (g / r->thin - r->offset / r->thin - 1) * r->M + c;
            memcpy(r->store + col * K, lk, sizeof(double) * K);
            r->store_k[col] = knew;
        }
    }
}

/* ---- RBM ------------------------------------------------------------------ */

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RTS_CLONES __attribute__((target_clones("avx2", "default"), noinline))
#else
#define RTS_CLONES
#endif

/* Over one chunk of at most RTS_PROD hidden units at one beta (e =
 * exp(-beta |z|)): returns prod (1 + e); with moments also adds
 * sum z sigmoid(beta z) to out[0] and sum z^2 sigmoid (1 - sigmoid) to out[1]. */
RTS_CLONES static double ladder_chunk(const double *e, const double *z, int n, int moments,
                                      double *out)
{
    double p = 1.0, d = 0.0, d2 = 0.0;
    if (moments) {
#pragma omp simd reduction(+:d, d2) reduction(*:p)
        for (int j = 0; j < n; j++) {
            double iq = 1.0 / (1.0 + e[j]);
            double sg = z[j] >= 0 ? iq : e[j] * iq;
            p *= 1.0 + e[j];
            d += z[j] * sg;
            d2 += z[j] * z[j] * sg * (1.0 - sg);
        }
    } else {
#pragma omp simd reduction(*:p)
        for (int j = 0; j < n; j++) p *= 1.0 + e[j];
    }
    out[0] += d;
    out[1] += d2;
    return p;
}

/* e = e_prev * r, flushed to zero below 1e-280 (no subnormal arithmetic). */
RTS_CLONES static void ladder_step(const double *prev, const double *r, double *e, int n)
{
#pragma omp simd
    for (int j = 0; j < n; j++) {
        double v = prev[j] * r[j];
        e[j] = v < 1e-280 ? 0.0 : v;
    }
}

/* log f_k(v), and with moments D_k, D2_k, for all k from x = [W a a0]'v.
 * With z = b + W'v: softplus(beta z) = beta max(z, 0) + log(1 + exp(-beta |z|)),
 * so row k of E (K x nh) is exp(-beta_k |z|); on an evenly spaced ladder
 * (step > 0) it is the previous row times exp(-step |z|), one multiplication
 * per unit instead of an exp. E's row k and z (the sign of the logit) are all
 * the hidden draw at beta_k needs. z, az: nh scratch each. */
void rbm_ladder(const logz_rbm_path *m, const double *betas, int K, double step,
                const double *x, double *E, double *z, double *az, int moments,
                double *lk, double *D, double *D2)
{
    int nh = m->nh;
    double xa = x[nh], xa0 = x[nh + 1], pos = 0.0;
    for (int j = 0; j < nh; j++) {
        z[j] = m->b[j] + x[j];
        pos += z[j] > 0 ? z[j] : 0.0;
    }
    if (step > 0) {
        for (int j = 0; j < nh; j++) az[j] = step * fabs(z[j]);
        logz_exp_neg_abs(az, az, nh);            /* az = exp(-step |z|) */
        for (int j = 0; j < nh; j++) E[j] = 1.0; /* beta_1 = 0 */
        for (int k = 1; k < K; k++)
            ladder_step(E + (size_t) (k - 1) * nh, az, E + (size_t) k * nh, nh);
    } else {
        for (int k = 0; k < K; k++)
            for (int j = 0; j < nh; j++) E[(size_t) k * nh + j] = betas[k] * z[j];
        logz_exp_neg_abs(E, E, K * nh);
    }
    for (int k = 0; k < K; k++) {
        const double *e = E + (size_t) k * nh;
        double acc[2] = {0.0, 0.0}, lg = 0.0;
        for (int s = 0; s < nh; s += RTS_PROD) {
            int n = s + RTS_PROD < nh ? RTS_PROD : nh - s;
            lg += log(ladder_chunk(e + s, z + s, n, moments, acc));
        }
        lk[k] = (1.0 - betas[k]) * xa0 + betas[k] * (xa + pos) + lg;
        D[k] = xa - xa0 + acc[0];
        D2[k] = acc[1];
    }
}

/* out[:, c0:c1) = B S[:, c0:c1) for binary S (B->cols x M) from each chain's
 * active units (the binary-state kernels of src/binary_kernels.c, as in AIS:
 * per chain or, where it pays, for a group of chains loading each weight
 * column once): about nnz x rows additions instead of cols x rows
 * multiply-adds. act: G x ld ints (ld >= B->cols), cnt: 4 G ints, G >= c1 -
 * c0. Every kernel gives the same bits from the chain's state alone, so
 * results do not depend on the thread count. */
static void rts_sparse_prod(const logz_blocked *B, const double *S, double *out, int c0, int c1,
                            int *act, int ld, int *cnt, int G)
{
    int n = c1 - c0, *np = cnt, *nm = cnt + G, *on = cnt + 2 * G, *full = cnt + 3 * G;
    for (int c = 0; c < n; c++) np[c] = nm[c] = on[c] = 0;
    logz_binary_product(B, S + (size_t) B->cols * c0, out + (size_t) B->rows * c0, 0, n, act, act,
                        ld, np, nm, on, 0, full);
}

/* X = [W a a0]'V and Y = W H on a group: dense (dgemm) or sparse products. */
static void rts_prod_x(const logz_rbm_path *m, const logz_blocked *BX, const double *V, double *X,
                       int c0, int c1, int *act, int ld, int *cnt)
{
    if (BX) rts_sparse_prod(BX, V, X, c0, c1, act, ld, cnt, RTS_GROUP);
    else logz_rbm_gemm_x(m, V, X, c0, c1);
}

static void rts_prod_y(const logz_rbm_path *m, const logz_blocked *BY, const double *H, double *Y,
                       int c0, int c1, int *act, int ld, int *cnt)
{
    if (BY) rts_sparse_prod(BY, H, Y, c0, c1, act, ld, cnt, RTS_GROUP);
    else logz_rbm_gemm_y(m, H, Y, c0, c1);
}

/* The chains' work arrays, and per thread scratch (SCR, ISCR: per, iper each). */
typedef struct {
    double *X, *H, *Y, *HT, *HE, *SCR;   /* HT, HE: nh per chain (logits, exp(-beta |logit|)) */
    int *ISCR;
    size_t per, iper;
} rts_rbm_work;

/* Sweeps [s0, s1) of the call for the chains of group g (RTS_GROUP chains):
 * at the call's start the ladder pass from the group's state, then per sweep
 * the hidden draw, the visible draw and k | x. */
static void rts_rbm_group(const logz_rbm_path *m, const logz_blocked *BX, const logz_blocked *BY,
                          rts_run *r, double *V, logz_stream *st, const rts_rbm_work *w, int g,
                          int tid, long s0, long s1)
{
    int nv = m->nv, nh = m->nh, M = m->M, K = r->K, nx = nh + 2;
    int nu = nv > nh ? nv : nh, nh1 = nh > 0 ? nh : 1, G = RTS_GROUP;
    double *X = w->X, *H = w->H, *Y = w->Y;
    double *E = w->SCR + w->per * tid;
    double *t = E + (size_t) K * nh1, *ev = t + nv, *U = ev + nv;
    double *ku = U + (size_t) G * nu;
    double *lk = ku + G, *D = lk + K, *D2 = D + K, *q = D2 + K, *zb = q + K, *az = zb + nh1;
    int c0 = g * G, c1 = c0 + G < M ? c0 + G : M, n = c1 - c0;
    double *HT = w->HT + (size_t) nh * c0, *HE = w->HE + (size_t) nh * c0;
    int *act = w->ISCR + w->iper * tid, *cnt = act + (size_t) G * nu;
    long ns = s1 - s0;
    /* The uniforms of a group's chains are drawn together (four streams per
     * vector, see logz_streams_fill); each stream's order is: nh for the
     * hidden draw, then per sweep nv (visible), 1 (k), nh (hidden). The
     * hidden logits at the chain's beta (HT, HE) come from the ladder pass,
     * recomputed at the start of a call (and kept from round to round), so a
     * run split into calls gives the same bits. */
    if (s0 == 0) {
        rts_prod_x(m, BX, V, X, c0, c1, act, nu, cnt);
        for (int c = c0; c < c1; c++) {
            rbm_ladder(m, r->betas, K, r->step, X + (size_t) nx * c, E, zb, az, r->moments, lk, D,
                       D2);
            memcpy(HT + (size_t) nh * (c - c0), zb, sizeof(double) * nh);
            memcpy(HE + (size_t) nh * (c - c0), E + (size_t) r->kk[c] * nh, sizeof(double) * nh);
        }
    }
    for (long sw = 0; sw <= ns; sw++) {
        if (sw > 0) {   /* k | x, then the hidden logits at the new beta */
            rts_prod_x(m, BX, V, X, c0, c1, act, nu, cnt);
            logz_streams_fill(st + c0, n, 1, ku, 1);
            for (int c = c0; c < c1; c++) {
                rbm_ladder(m, r->betas, K, r->step, X + (size_t) nx * c, E, zb, az, r->moments, lk,
                           D, D2);
                rts_update(r, c, lk, D, D2, ku[c - c0], q, (int) (s0 + sw - 1));
                memcpy(HT + (size_t) nh * (c - c0), zb, sizeof(double) * nh);
                memcpy(HE + (size_t) nh * (c - c0), E + (size_t) r->kk[c] * nh,
                       sizeof(double) * nh);
            }
            if (sw == ns) break;
        }
        logz_streams_fill(st + c0, n, nh, U, nu);
        for (int c = c0; c < c1; c++)
            logz_bernoulli_logit(HT + (size_t) nh * (c - c0), HE + (size_t) nh * (c - c0),
                                 U + (size_t) nu * (c - c0), H + (size_t) nh * c, nh);
        rts_prod_y(m, BY, H, Y, c0, c1, act, nu, cnt);
        logz_streams_fill(st + c0, n, nv, U, nu);
        for (int c = c0; c < c1; c++) {
            double bt = r->betas[r->kk[c]];
            const double *y = Y + (size_t) nv * c;
            for (int i = 0; i < nv; i++)
                t[i] = (1.0 - bt) * m->a0[i] + bt * (m->a[i] + y[i]);
            logz_exp_neg_abs(t, ev, nv);
            logz_bernoulli_logit(t, ev, U + (size_t) nu * (c - c0), V + (size_t) nv * c, nv);
        }
    }
}

typedef struct {
    const logz_rbm_path *m;
    const logz_blocked *BX, *BY;
    rts_run *r;
    double *V;
    logz_stream *st;
    const rts_rbm_work *w;
} rts_rbm_job;

/* sweeps [s0, s1) of the groups [g0, g1) (one thread's slice of a round) */
static void rts_rbm_round(void *ctx, long s0, long s1, int g0, int g1, int tid)
{
    const rts_rbm_job *j = (const rts_rbm_job *) ctx;
    for (int g = g0; g < g1; g++) rts_rbm_group(j->m, j->BX, j->BY, j->r, j->V, j->st, j->w, g, tid,
                                                 s0, s1);
}

/* All chains through the call's sweeps, in rounds of about RTS_ROUND_WORK
 * operations a thread (sweeps [s0, s1) of a block of groups), with an
 * interrupt check between rounds outside the parallel region; each group's
 * work and draws do not depend on the rounds. The products are small
 * (RTS_GROUP columns), so BLAS runs on one thread within a round and gets its
 * limit back before each check. */
void rts_rbm_run(const logz_rbm_path *m, const logz_blocked *BX, const logz_blocked *BY,
                 rts_run *r, double *V, logz_stream *st, int nthreads)
{
    int nv = m->nv, nh = m->nh, M = m->M, K = r->K, nx = nh + 2;
    int nu = nv > nh ? nv : nh, ng = (M + RTS_GROUP - 1) / RTS_GROUP;
    int nh1 = nh > 0 ? nh : 1, G = RTS_GROUP;
    rts_rbm_work w;
    w.X = (double *) R_alloc((size_t) nx * M, sizeof(double));
    w.H = (double *) R_alloc((size_t) nh1 * M, sizeof(double));
    w.Y = (double *) R_alloc((size_t) nv * M, sizeof(double));
    w.HT = (double *) R_alloc((size_t) nh1 * M, sizeof(double));
    w.HE = (double *) R_alloc((size_t) nh1 * M, sizeof(double));
    w.per = (size_t) K * nh1 + 2 * (size_t) nv + (size_t) G * nu + G + 4 * (size_t) K +
            2 * (size_t) nh1;
    w.SCR = (double *) R_alloc(w.per * nthreads, sizeof(double));
    w.iper = (size_t) G * nu + 4 * (size_t) G;
    w.ISCR = (int *) R_alloc(w.iper * nthreads, sizeof(int));
    /* a group-sweep: the two products, the ladder and the draws */
    double per = (double) G * (4.0 * nv * (double) nh1 + 2.0 * K * (double) nh1 + 4.0 * nv);
    rts_rbm_job j = {.m = m, .BX = BX, .BY = BY, .r = r, .V = V, .st = st, .w = &w};
    logz_rounds rr = {.total = r->sweeps, .n_items = ng, .nthreads = nthreads,
                      .split = LOGZ_SPLIT_SLICES, .limit_blas = 1};
    logz_round_plan(per, ceil((double) ng / nthreads), r->sweeps, RTS_ROUND_WORK, ng, 1, nthreads,
                    &rr.units, &rr.items);
    logz_rounds_run(&rr, rts_rbm_round, &j);
}

/* ---- Ising ---------------------------------------------------------------- */

/* All chains through the call's sweeps, in rounds of about RTS_ROUND_WORK
 * updates a thread (sweeps [s0, s1) of a block of chains) with an interrupt
 * check between rounds outside the parallel region; a chain's work and draws
 * do not depend on the rounds. */
typedef struct {
    const ising_model *m;
    const int *order;
    const double *a0, *df;
    rts_run *r;
    double *X, *SCR;
    logz_stream *st;
} rts_ising_job;

/* sweeps [s0, s1) of the chains [cA, cZ) (one thread's slice of a round) */
static void rts_ising_round(void *ctx, long s0, long s1, int cA, int cZ, int tid)
{
    const rts_ising_job *j = (const rts_ising_job *) ctx;
    const ising_model *m = j->m;
    const double *a0 = j->a0;
    rts_run *r = j->r;
    int n = m->n, K = r->K;
    double *lk = j->SCR + (size_t) 4 * K * tid, *D = lk + K, *D2 = D + K, *q = D2 + K;
    for (int c = cA; c < cZ; c++) {
        double *x = j->X + (size_t) n * c;
        for (int k = 0; k < K; k++) D2[k] = 0.0;
        for (long sw = s0; sw < s1; sw++) {
            ising_sweep(m, j->order, a0, r->betas[r->kk[c]], x, &j->st[c]);
            double delta = ising_energy(m, j->df, x), base = 0.0;
            for (int i = 0; i < n; i++) base += a0[i] * x[i];
            for (int k = 0; k < K; k++) {
                lk[k] = base + r->betas[k] * delta;
                D[k] = delta;
            }
            rts_update(r, c, lk, D, D2, logz_stream_unif(&j->st[c]), q, (int) sw);
        }
    }
}

void rts_ising_run(const ising_model *m, const int *order, const double *a0, rts_run *r,
                   double *X, logz_stream *st, int nthreads)
{
    int n = m->n, K = r->K, M = r->M;
    double *df = (double *) R_alloc((size_t) n, sizeof(double));
    double *SCR = (double *) R_alloc((size_t) 4 * K * nthreads, sizeof(double));
    for (int i = 0; i < n; i++) df[i] = m->f[i] - a0[i];
    double per = 2.0 * n + 4.0 * m->ne + 4.0 * K;   /* a chain-sweep */
    rts_ising_job j = {.m = m, .order = order, .a0 = a0, .df = df, .r = r, .X = X, .SCR = SCR,
                       .st = st};
    logz_rounds rr = {.total = r->sweeps, .n_items = M, .nthreads = nthreads,
                      .split = LOGZ_SPLIT_SLICES, .limit_blas = 0};
    logz_round_plan(per, ceil((double) M / nthreads), r->sweeps, RTS_ROUND_WORK, M, 1, nthreads,
                    &rr.units, &rr.items);
    logz_rounds_run(&rr, rts_ising_round, &j);
}

