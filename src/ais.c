/* Annealed importance sampling for binary RBMs (Neal 2001; Salakhutdinov &
 * Murray 2008) on the path with the hidden units summed out:
 *   log f_beta(v) = (1-beta) v'a0 + beta v'a + sum_j softplus(beta (b_j + v'W_j)),
 * from the product-of-Bernoullis base (visible biases a0) to the RBM (W, a, b).
 * For k = 1..K: log w += log f_{beta_k}(v) - log f_{beta_{k-1}}(v), then (k < K)
 * a block-Gibbs transition at beta_k: h ~ Bern(sigmoid(beta_k (b + W'v))),
 * v ~ Bern(sigmoid((1-beta_k) a0 + beta_k (a + W h))).
 *
 * All chains move together: X = [W a a0]' V is one dgemm (the extra columns
 * give v'a and v'a0 for free) and serves both the weight update and the hidden
 * draw; Y = W H is the second dgemm. Per-unit work (exp, uniforms) runs over
 * chains in OpenMP threads, each chain with its own MRG32k3a stream, so the
 * result is the same for any thread count. The R side calls this in chunks of
 * betas, carrying the state (V, log_w, streams) between calls, for progress
 * reporting and interrupts; the SEXP glue is ais_call.c. */
#include <math.h>
#include <string.h>
#include "logz.h"
#include "kernels.h"


typedef logz_rbm_path ais_rbm_model;

#define GROUP 4   /* chains whose streams are drawn in turn (hides RNG latency) */

/* Units that switched on (plus) and off (minus) in the last draw of a layer, so
 * the next product with that layer can be updated from them alone. */
typedef struct {
    double *tmp;              /* scratch: the new states before they are committed */
    int *plus, *minus;
    int np, nm;
} flip_track;

/* Draw s ~ Bern(sigmoid(t)) (see logz_bernoulli_logit); with ft, also record
 * which units switched on and off. Returns the number of ones. */
static int draw_state(const double *t, const double *e, const double *u, double *s, int n,
                      flip_track *ft)
{
    if (!ft) return logz_bernoulli_logit(t, e, u, s, n);
    int on = logz_bernoulli_logit(t, e, u, ft->tmp, n), np = 0, nm = 0;
    for (int j = 0; j < n; j++) {   /* branch-free: flips are random */
        double o = s[j], w = ft->tmp[j];
        ft->plus[np] = j;
        ft->minus[nm] = j;
        np += w > o;
        nm += o > w;
        s[j] = w;
    }
    ft->np = np;
    ft->nm = nm;
    return on;
}

/* Weight increment of one chain from beta0 to beta1 (x: its column of X) and,
 * if h != NULL, a draw of the hidden units at beta1 from the uniforms u.
 * scr: 4 * nh doubles of scratch. The exps run as one vectorisable pass. */
static double hidden_weight_draw(const ais_rbm_model *m, const double *x, double beta0,
                                 double beta1, double *h, const double *u, int *nnz,
                                 double *scr, flip_track *ft, logz_isa isa)
{
    int nh = m->nh, on = 0;
    double lg = logz_hidden_softplus_change(m->b, x, nh, beta0, beta1, 0.0, scr, isa);
    double lin = (beta1 - beta0) * (x[nh] - x[nh + 1]);
    const double *t1 = scr, *e1 = scr + 2 * (size_t) nh;
    if (h) on = draw_state(t1, e1, u, h, nh, ft);
    *nnz = on;
    return lin + lg;
}

/* D = d log f_beta(v)/d beta = v'(a - a0) + sum_j z_j sigmoid(beta z_j) and
 * D2 = d^2 log f_beta(v)/d beta^2 = sum_j z_j^2 sigmoid'(beta z_j), z = b + W'v,
 * at beta = beta1 of the hidden_weight_draw() call that just filled scr
 * (t1 = beta1 z, e1 = exp(-|t1|)), so no exp is recomputed. */
static void chain_moments(const ais_rbm_model *m, const double *x, const double *scr,
                          double *D, double *D2)
{
    int nh = m->nh;
    const double *t1 = scr, *e1 = scr + 2 * (size_t) nh;
    double d = x[nh] - x[nh + 1], d2 = 0.0;
    for (int j = 0; j < nh; j++) {
        double z = m->b[j] + x[j], q = 1.0 / (1.0 + e1[j]);
        double s = t1[j] >= 0 ? q : e1[j] * q;   /* sigmoid(t1) */
        d += z * s;
        d2 += z * z * s * (1.0 - s);
    }
    *D = d;
    *D2 = d2;
}

static int hidden_draw(const ais_rbm_model *m, const double *x, double beta, double *h,
                       const double *u, double *scr, flip_track *ft, logz_isa isa)
{
    int nh = m->nh, on = 0;
    double *t = scr, *e = scr + nh;
    for (int j = 0; j < nh; j++) t[j] = beta * (m->b[j] + x[j]);
    logz_exp_neg_abs_isa(t, e, nh, isa);
    on = draw_state(t, e, u, h, nh, ft);
    return on;
}

/* v ~ Bern(sigmoid(c0 + beta * y)) with c0 = (1-beta) a0 + beta a. */
static int visible_draw(int nv, const double *c0, const double *y, double beta, double *v,
                        const double *u, double *scr, flip_track *ft, logz_isa isa)
{
    int on = 0;
    double *t = scr, *e = scr + nv;
    for (int i = 0; i < nv; i++) t[i] = c0[i] + beta * y[i];
    logz_exp_neg_abs_isa(t, e, nv, isa);
    on = draw_state(t, e, u, v, nv, ft);
    return on;
}

/* out[:, c0:c1) = B S[:, c0:c1) for binary S (see logz_binary_product()). */
static void sparse_update(const logz_blocked *B, const double *S, double *out, int c0, int c1,
                          int *plus, int *minus, int ld, int *np, int *nm, const int *on,
                          int have_prev, int *full)
{
    logz_binary_product(B, S, out, c0, c1, plus, minus, ld, np, nm, on, have_prev, full);
}

/* Work a round of ais_rbm_run() does per thread, in multiply-adds (a few
 * hundredths of a second), so that the interrupt checks between rounds come
 * well within 0.1 s even when a single step makes many sweeps. */
#ifndef AIS_ROUND_WORK
#define AIS_ROUND_WORK 2e8
#endif

/* Run steps betas[1..L] from betas[0] for all chains. A chain's work is the
 * sequence of units (k, sw): for k = 1..L, sweeps units (one for the last step
 * when final), the first of which also makes the weight update of step k. The
 * chains advance through the units in rounds of about AIS_ROUND_WORK a thread
 * (a range of units for all chains, or one unit for a block of chains when one
 * unit over all chains is more), one parallel region a round, with an
 * interrupt check between rounds. In a round each thread owns a fixed slice of
 * the chains (its own dgemm or sparse products on its slice; its streams drawn
 * GROUP at a time); a chain does the same work in the same order in any case,
 * so the result does not depend on the rounds or the thread count. With limit_blas, BLAS runs
 * single-threaded inside each round (restored before each check). sparse_x / sparse_y choose the
 * kernels for the whole call. LW (L x M) receives the log weights after each
 * step, for the trace. If DM and D2M (L x M) are not NULL they receive, per step
 * and chain, D = d log f_beta(v) / d beta and D2 = d^2 log f_beta(v) / d beta^2
 * at beta_k (the moments of VAROPT's g; see chain_moments()). Returns the
 * number of Gibbs sweeps made per chain. */
typedef struct {
    const ais_rbm_model *m;
    const logz_blocked *BX, *BY;
    const double *betas;
    int L, final, sweeps, sparse_x, sparse_y, nu;
    logz_isa isa;                /* of the exps, fixed for the call */
    double *V, *logw, *LW, *DM, *D2M;
    logz_stream *st;
    double *X, *H, *Y, *c0buf, *U, *SCR;
    int *plus, *minus, *np, *nm, *full, *lastv, *lasth;
    long *onv, *onh;
} ais_run;

/* units [t0, t1) of the chains [cA, cB) (one thread's slice of a round) */
static void ais_rbm_round(void *ctx, long t0, long t1, int cA, int cB, int tid)
{
    const ais_run *a = (const ais_run *) ctx;
    const ais_rbm_model *m = a->m;
    int nv = m->nv, nh = m->nh, M = m->M, nx = nh + 2, nu = a->nu, L = a->L;
    int sweeps = a->sweeps, final = a->final, sparse_x = a->sparse_x, sparse_y = a->sparse_y;
    const double *betas = a->betas;
    double *V = a->V, *X = a->X, *H = a->H, *Y = a->Y;
    int *plus = a->plus, *minus = a->minus, *np = a->np, *nm = a->nm;
    logz_isa isa = a->isa;
    double *u = a->U + (size_t) tid * GROUP * nu, *c0 = a->c0buf + (size_t) nv * tid;
    double *scr = a->SCR + (size_t) tid * 5 * nu;
    /* X, Y hold the products of the current V, H after the first unit */
    int have_x = t0 > 0, have_y = t0 > 0;
    flip_track ft = {.tmp = scr + 4 * (size_t) nu, .plus = NULL, .minus = NULL, .np = 0, .nm = 0};
    for (long t = t0; t < t1 && cA < cB; t++) {
        int k = (int) (t / sweeps) + 1, sw = (int) (t % sweeps);
        double b0 = betas[k - 1], b1 = betas[k];
        int transition = !(final && k == L);
        if (sw == 0 || t == t0)
            for (int i = 0; i < nv; i++) c0[i] = (1.0 - b1) * m->a0[i] + b1 * m->a[i];
        if (sparse_x)
            sparse_update(a->BX, V, X, cA, cB, plus, minus, nu, np, nm, a->lastv, have_x, a->full);
        else
            logz_rbm_gemm_x(m, V, X, cA, cB);
        have_x = 1;
        for (int cf = cA; cf < cB; cf += GROUP) {
            int n = cB - cf < GROUP ? cB - cf : GROUP;
            if (transition) logz_streams_fill(a->st + cf, n, nh, u, nu);
            for (int c = cf; c < cf + n; c++) {
                double *hc = transition ? H + (size_t) nh * c : NULL;
                const double *uc = u + (size_t) (c - cf) * nu;
                flip_track *fh = NULL;
                if (transition && sparse_y && have_y) {
                    ft.plus = plus + (size_t) nu * c;
                    ft.minus = minus + (size_t) nu * c;
                    fh = &ft;
                }
                int on = 0;
                if (sw == 0) {
                    a->logw[c] += hidden_weight_draw(m, X + (size_t) nx * c, b0, b1, hc, uc, &on,
                                                     scr, fh, isa);
                    if (a->DM)
                        chain_moments(m, X + (size_t) nx * c, scr,
                                      &a->DM[(size_t) M * (k - 1) + c],
                                      &a->D2M[(size_t) M * (k - 1) + c]);
                } else {
                    on = hidden_draw(m, X + (size_t) nx * c, b1, hc, uc, scr, fh, isa);
                }
                if (transition) {
                    a->onh[c] += on;
                    a->lasth[c] = on;
                    if (fh) {
                        np[c] = fh->np;
                        nm[c] = fh->nm;
                    }
                }
            }
        }
        if (sw == 0)
            for (int c = cA; c < cB; c++) a->LW[(size_t) M * (k - 1) + c] = a->logw[c];
        if (!transition) break;
        if (sparse_y)
            sparse_update(a->BY, H, Y, cA, cB, plus, minus, nu, np, nm, a->lasth, have_y, a->full);
        else
            logz_rbm_gemm_y(m, H, Y, cA, cB);
        have_y = 1;
        for (int cf = cA; cf < cB; cf += GROUP) {
            int n = cB - cf < GROUP ? cB - cf : GROUP;
            logz_streams_fill(a->st + cf, n, nv, u, nu);
            for (int c = cf; c < cf + n; c++) {
                flip_track *fv = NULL;
                if (sparse_x) {
                    ft.plus = plus + (size_t) nu * c;
                    ft.minus = minus + (size_t) nu * c;
                    fv = &ft;
                }
                int on = visible_draw(nv, c0, Y + (size_t) nv * c, b1, V + (size_t) nv * c,
                                      u + (size_t) (c - cf) * nu, scr, fv, isa);
                a->onv[c] += on;
                a->lastv[c] = on;
                if (fv) {
                    np[c] = fv->np;
                    nm[c] = fv->nm;
                }
            }
        }
    }
}

static int ais_rbm_run(const ais_rbm_model *m, const logz_blocked *BX, const logz_blocked *BY,
                       const double *betas, int L, int final, int sweeps, int sparse_x,
                       int sparse_y, double *V, double *logw, logz_stream *st, int nthreads,
                       double *LW, double *DM, double *D2M, long *on_counts, int limit_blas)
{
    int nv = m->nv, nh = m->nh, M = m->M, nx = nh + 2;
    int nu = nv > nh ? nv : nh;
    ais_run a = {.m = m, .BX = BX, .BY = BY, .betas = betas, .L = L, .final = final,
                 .sweeps = sweeps, .sparse_x = sparse_x, .sparse_y = sparse_y, .nu = nu,
                 .V = V, .logw = logw, .LW = LW, .DM = DM, .D2M = D2M, .st = st};
    a.X = (double *) R_alloc((size_t) nx * M, sizeof(double));
    a.H = (double *) R_alloc((size_t) nh * M, sizeof(double));
    a.Y = (double *) R_alloc((size_t) nv * M, sizeof(double));
    a.c0buf = (double *) R_alloc((size_t) nv * nthreads, sizeof(double));
    a.U = (double *) R_alloc((size_t) nthreads * GROUP * nu, sizeof(double));
    a.SCR = (double *) R_alloc((size_t) nthreads * 5 * nu, sizeof(double));
    a.isa = logz_isa_select();
    a.plus = (int *) R_alloc((size_t) nu * M, sizeof(int));
    a.minus = (int *) R_alloc((size_t) nu * M, sizeof(int));
    a.np = (int *) R_alloc((size_t) M, sizeof(int));
    a.nm = (int *) R_alloc((size_t) M, sizeof(int));
    a.full = (int *) R_alloc((size_t) M, sizeof(int));
    a.lastv = (int *) R_alloc((size_t) M, sizeof(int));   /* ones in each chain's v */
    a.lasth = (int *) R_alloc((size_t) M, sizeof(int));   /* ones in each chain's h */
    a.onv = (long *) R_alloc((size_t) M, sizeof(long));
    a.onh = (long *) R_alloc((size_t) M, sizeof(long));
    memset(a.H, 0, sizeof(double) * (size_t) nh * M);
    for (int c = 0; c < M; c++) {
        a.onv[c] = a.onh[c] = 0;
        a.np[c] = a.nm[c] = a.lastv[c] = a.lasth[c] = 0;
    }
    /* units per chain, and the rounds: r.units units for blocks of r.items chains */
    logz_rounds r = {.total = L > 0 ? (long) L * sweeps - (final ? sweeps - 1 : 0) : 0,
                     .n_items = M, .nthreads = nthreads, .split = LOGZ_SPLIT_SLICES,
                     .limit_blas = limit_blas};
    double per_unit = 2.0 * nv * (double) (nh + 2) + 8.0 * (nv + nh);   /* a chain */
    double chains_per_thread = ceil((double) M / nthreads);
    logz_round_plan(per_unit, chains_per_thread, r.total, AIS_ROUND_WORK, M, GROUP, nthreads,
                    &r.units, &r.items);
    logz_rounds_run(&r, ais_rbm_round, &a);
    int nsweep = 0;
    for (int k = 1; k <= L; k++) nsweep += (final && k == L) ? 0 : sweeps;
    long tv = 0, th = 0;
    for (int c = 0; c < M; c++) {
        tv += a.onv[c];
        th += a.onh[c];
    }
    on_counts[0] = tv;
    on_counts[1] = th;
    return nsweep;
}

/* Per step k < L, from the log weights LW and the per-chain D and D2 (each
 * L x M, as filled by ais_rbm_run()): the importance-weighted mean of D into
 * mom[k], its weighted variance into mom[L + k] and the weighted mean of D2
 * into mom[2 L + k]. */
static void ais_weighted_moments(const double *LW, const double *DM, const double *D2M, int L,
                                 int M, double *mom)
{
    for (int k = 0; k < L; k++) {
        const double *lw_k = LW + (size_t) M * k;
        const double *d = DM + (size_t) M * k, *d2 = D2M + (size_t) M * k;
        double mx = R_NegInf, s1 = 0.0, m1 = 0.0, m2 = 0.0, vr = 0.0;
        for (int c = 0; c < M; c++) if (lw_k[c] > mx) mx = lw_k[c];
        for (int c = 0; c < M; c++) {
            double w = exp(lw_k[c] - mx);
            s1 += w;
            m1 += w * d[c];
            m2 += w * d2[c];
        }
        m1 /= s1;
        m2 /= s1;
        for (int c = 0; c < M; c++) {
            double w = exp(lw_k[c] - mx), e = d[c] - m1;
            vr += w * e * e;
        }
        mom[k] = m1;
        mom[L + k] = vr / s1;
        mom[2 * (size_t) L + k] = m2;
    }
}

/* v ~ the base model for each of the M chains (columns of V, nv x M):
 * independent Bernoulli(sigmoid(a0_i)), from each chain's stream. */
void ais_draw_base(int nv, int M, const double *a0, double *V, logz_stream *st)
{
    for (int c = 0; c < M; c++)
        for (int i = 0; i < nv; i++) {
            double p = 1.0 / (1.0 + exp(-a0[i]));
            V[i + (size_t) nv * c] = logz_stream_unif(&st[c]) < p ? 1.0 : 0.0;
        }
}

/* One chunk: steps betas[1..L] from betas[0] for the M chains V (nv x M) with
 * log weights logw, both updated in place. density: on entry density[1] is the
 * fraction of active hidden units the previous chunk reported; on exit the
 * fractions of active visible and hidden units over this chunk's sweeps (or
 * at entry when it made none). The kernel of each layer is chosen from these
 * densities at entry, so the choice does not depend on the thread count.
 * trace (L x 2) receives the ESS and running log Z after each step; mom (L x 3),
 * when not NULL, the weighted moments of ais_weighted_moments(). Returns the
 * number of Gibbs sweeps made per chain. */
int ais_rbm_chunk(const ais_rbm_model *m, const ais_rbm_opts *o, const double *betas,
                  double *V, double *logw, logz_stream *st, double *density,
                  double *trace, double *mom)
{
    int nv = m->nv, nh = m->nh, M = m->M, L = o->L;
    long on = 0;
    for (size_t i = 0; i < (size_t) nv * M; i++) on += V[i] != 0.0;
    double dv = (double) on / ((double) nv * M), dh = density[1];
    int sparse_x = o->kernel == LOGZ_KERNEL_SPARSE ||
                   (o->kernel == LOGZ_KERNEL_AUTO && dv < o->crossover);
    int sparse_y = o->kernel == LOGZ_KERNEL_SPARSE ||
                   (o->kernel == LOGZ_KERNEL_AUTO && dh < o->crossover);
    int ns = 0;
    long on_counts[2] = {0, 0};
    if (L > 0) {
        logz_blocked BX = {.rows = 0, .cols = 0, .nblk = 0, .blk = NULL}, BY = BX;
        if (sparse_x || sparse_y) {
            int have = o->blocked_x && o->blocked_y;
            double *sx = have ? o->blocked_x
                              : (double *) R_alloc(logz_blocked_size(nh + 2, nv), sizeof(double));
            double *sy = have ? o->blocked_y
                              : (double *) R_alloc(logz_blocked_size(nv, nh), sizeof(double));
            logz_blocked_init(&BX, m->Wx, nh + 2, nv, 0, sx, !have);  /* X = [W a a0]' V */
            logz_blocked_init(&BY, m->Wx, nv, nh, 1, sy, !have);      /* Y = W H */
        }
        double *LW = (double *) R_alloc((size_t) L * M, sizeof(double));
        double *DM = NULL, *D2M = NULL;
        if (mom) {
            DM = (double *) R_alloc((size_t) L * M, sizeof(double));
            D2M = (double *) R_alloc((size_t) L * M, sizeof(double));
        }
        ns = ais_rbm_run(m, &BX, &BY, betas, L, o->final, o->sweeps, sparse_x, sparse_y, V,
                         logw, st, o->nthreads, LW, DM, D2M, on_counts,
                         o->nthreads > 1 && !(sparse_x && sparse_y));
        logz_ais_trace(LW, L, M, o->log_z0, trace);
        if (mom) ais_weighted_moments(LW, DM, D2M, L, M, mom);
        if (ns > 0) {
            dv = (double) on_counts[0] / ((double) nv * M * ns);
            dh = (double) on_counts[1] / ((double) nh * M * ns);
        }
    }
    density[0] = dv;
    density[1] = dh;
    return ns;
}
