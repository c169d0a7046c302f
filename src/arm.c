/* Adaptive Resample-Move (Fraccaro, Paquet & Winther 2016): the model-specific
 * steps of the sequence p_n(x_[n]) over an increasing number of variables, on a
 * particle store kept in C between calls (an external pointer). The R driver
 * (R/arm_engine.R) runs Algorithms 1 and 2: it decides when to move, expand,
 * resample and augment, and calls:
 *   move    slots [c0, c1): MCMC kernel invariant for p_n (OpenMP over slots);
 *   smooth  slots [c0, c1): log W(x_[n]) = log p_{n+1}(x_[n]) / p_n(x_[n]) * Z_{n+1}/Z_n;
 *   copy    slots src -> dst (resampling and generating copies);
 *   augment slots [0, R): x_{n+1} ~ p_{n+1}(x_{n+1} | x_[n]); then n += 1;
 *   set     slots [c0, c0 + k) <- k given states of the first n variables.
 * Three sequences: GP probit classification in the z-representation (data
 * annealing, Appendix A), Ising models (hot coupling) and RBMs with the hidden
 * units summed out (Eq. 13-14). Variables are stored in the order they are
 * added. Each slot owns an MRG32k3a stream, so results do not depend on the
 * number of threads. The functions here work on the store and plain C arrays;
 * arm_call.c unpacks and checks the SEXP arguments and builds the results. */
#include <math.h>
#include <string.h>
#include <Rmath.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

void arm_free(arm_state *s)
{
    if (!s) return;
    R_Free(s->X); R_Free(s->G); R_Free(s->st);
    R_Free(s->W); R_Free(s->a); R_Free(s->b);
    R_Free(s->Sig); R_Free(s->S); R_Free(s->y); R_Free(s->c);
    R_Free(s->ptr); R_Free(s->nbr); R_Free(s->nw); R_Free(s->f);
    R_Free(s);
}

/* Grow the store to `cap` slots; new slots get fresh streams seeded from R's RNG. */
void arm_reserve(arm_state *s, int cap)
{
    if (cap <= s->cap) return;
    s->X = R_Realloc(s->X, (size_t) s->N * cap, double);
    memset(s->X + (size_t) s->N * s->cap, 0, sizeof(double) * (size_t) s->N * (cap - s->cap));
    if (s->type == ARM_RBM) {
        s->G = R_Realloc(s->G, (size_t) (s->H > 0 ? s->H : 1) * cap, double);
        for (int c = s->cap; c < cap; c++)
            for (int h = 0; h < s->H; h++) s->G[(size_t) s->H * c + h] = s->b[h];
    }
    s->st = R_Realloc(s->st, cap, logz_stream);
    GetRNGstate();
    logz_streams_seed(cap - s->cap, s->st + s->cap);
    PutRNGstate();
    s->cap = cap;
}

/* ---- GPC (Appendix A) ---------------------------------------------------- */

/* c = S^(n) Sigma_[n],n and var = Sigma_nn - Sigma_[n],n' c: the Gaussian
 * conditional of z_n given z_[n] has mean c'z_[n] and variance var. */
static void gpc_prepare(arm_state *s)
{
    if (s->prepared) return;
    int N = s->N, n = s->n;
    const double *sig = s->Sig + (size_t) N * n;   /* column n */
    double v = sig[n];
    for (int i = 0; i < n; i++) s->c[i] = 0.0;
    for (int j = 0; j < n; j++) {
        const double *Sj = s->S + (size_t) N * j;
        for (int i = 0; i < n; i++) s->c[i] += Sj[i] * sig[j];
    }
    for (int i = 0; i < n; i++) v -= sig[i] * s->c[i];
    s->var = v > 0 ? v : 1e-300;
    s->prepared = 1;
}

/* m = c'z_[n], the conditional mean of z_n (after gpc_prepare) */
static double gpc_cond_mean(const arm_state *s, const double *z)
{
    double m = 0.0;
    for (int i = 0; i < s->n; i++) m += s->c[i] * z[i];
    return m;
}

/* S^(n+1) from S^(n) by the block inverse (Appendix A.3). */
static void gpc_grow(arm_state *s)
{
    gpc_prepare(s);
    int N = s->N, n = s->n;
    double vs = 1.0 / s->var;   /* varsigma */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) s->S[(size_t) N * j + i] += vs * s->c[i] * s->c[j];
    for (int i = 0; i < n; i++) {
        s->S[(size_t) N * n + i] = -vs * s->c[i];
        s->S[(size_t) N * i + n] = -vs * s->c[i];
    }
    s->S[(size_t) N * n + n] = vs;
    s->prepared = 0;
}

/* Gibbs sweep over z_1..z_n by the 4-line slice update (Eq. A.2), visiting the
 * variables in a fresh random order each sweep (Appendix A.1: "for i in [n] in
 * random order"; a Fisher-Yates shuffle from the slot's stream); v: work (n),
 * perm: work (n) */
static void gpc_sweep(const arm_state *s, double *z, double *v, int *perm, logz_stream *st)
{
    int N = s->N, n = s->n;
    const double *S = s->S;
    for (int i = 0; i < n; i++) {
        v[i] = 0.0;
        perm[i] = i;
    }
    for (int k = n - 1; k > 0; k--) {
        int j = (int) (logz_stream_unif(st) * (k + 1));
        if (j > k) j = k;
        int t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
    }
    for (int j = 0; j < n; j++) {   /* v = S z, column by column */
        const double *Sj = S + (size_t) N * j;
        double zj = z[j];
        for (int i = 0; i < n; i++) v[i] += Sj[i] * zj;
    }
    for (int k = 0; k < n; k++) {
        int i = perm[k];
        const double *Si = S + (size_t) N * i;
        double sii = Si[i];
        double mu = z[i] - v[i] / sii;
        double d = z[i] - mu;
        double r = sqrt(d * d - 2.0 / sii * log(logz_stream_unif(st)));
        double blo = (s->y[i] < 0 || mu > r) ? mu - r : 0.0;
        double bhi = (s->y[i] > 0 || mu < -r) ? mu + r : 0.0;
        double znew = (bhi - blo) * logz_stream_unif(st) + blo;
        double delta = znew - z[i];
        z[i] = znew;
        if (delta != 0.0)
            for (int j = 0; j < n; j++) v[j] += Si[j] * delta;
    }
}

/* ---- Ising --------------------------------------------------------------- */

/* local field of position p from the first n variables */
static double ising_local(const arm_state *s, const double *x, int p, int n)
{
    double h = s->f[p];
    for (int e = s->ptr[p]; e < s->ptr[p + 1]; e++) {
        int q = s->nbr[e];
        if (q < n && q != p) h += s->nw[e] * x[q];
    }
    return h;
}

static double ising_draw(const arm_state *s, double h, logz_stream *st)
{
    double t = (s->hi - s->lo) * h;   /* log P(hi) - log P(lo) */
    double p = 1.0 / (1.0 + exp(-t));
    return logz_stream_unif(st) < p ? s->hi : s->lo;
}

/* ---- RBM ----------------------------------------------------------------- */

/* d = log p(x_n = 1 | x_[n]) - log p(x_n = 0 | x_[n]) (Eq. 14) */
static double rbm_delta(const arm_state *s, const double *g, int n)
{
    double d = s->a[n];
    for (int h = 0; h < s->H; h++) {
        double w = s->W[(size_t) s->N * h + n];
        d += logz_softplus(g[h] + w) - logz_softplus(g[h]);
    }
    return d;
}

/* G[:, c0:c1) = b + W_[n]' X_[n] */
static void rbm_products(arm_state *s, int c0, int c1)
{
    int H = s->H, N = s->N, n = s->n, k = c1 - c0;
    if (H == 0 || k <= 0) return;
    double *G = s->G + (size_t) H * c0;
    for (int c = 0; c < k; c++) memcpy(G + (size_t) H * c, s->b, sizeof(double) * H);
    if (n == 0) return;
    double one = 1.0;
    F77_CALL(dgemm)("T", "N", &H, &k, &n, &one, s->W, &N, s->X + (size_t) N * c0, &N, &one, G,
                    &H FCONE FCONE);
}

static void rbm_move(arm_state *s, int c0, int c1, int steps, int nthreads)
{
    int H = s->H, N = s->N, n = s->n, k = c1 - c0;
    if (n == 0 || k <= 0) return;
    double *Hs = (double *) R_alloc((size_t) (H > 0 ? H : 1) * k, sizeof(double));
    double *A = (double *) R_alloc((size_t) n * k, sizeof(double));
    double one = 1.0, zero = 0.0;
    for (int t = 0; t < steps; t++) {
        /* h | x */
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
        for (int c = 0; c < k; c++) {
            const double *g = s->G + (size_t) H * (c0 + c);
            double *h = Hs + (size_t) H * c;
            logz_stream *st = &s->st[c0 + c];
            for (int j = 0; j < H; j++)
                h[j] = logz_stream_unif(st) * (1.0 + exp(-g[j])) < 1.0;
        }
        /* x_[n] | h */
        if (H > 0) {
            F77_CALL(dgemm)("N", "N", &n, &k, &H, &one, s->W, &N, Hs, &H, &zero, A, &n
                            FCONE FCONE);
        } else {
            memset(A, 0, sizeof(double) * (size_t) n * k);
        }
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
        for (int c = 0; c < k; c++) {
            double *x = s->X + (size_t) N * (c0 + c);
            const double *ac = A + (size_t) n * c;
            logz_stream *st = &s->st[c0 + c];
            for (int i = 0; i < n; i++)
                x[i] = logz_stream_unif(st) * (1.0 + exp(-(s->a[i] + ac[i]))) < 1.0;
        }
        rbm_products(s, c0, c1);
    }
}

/* ---- the steps ----------------------------------------------------------- */

/* Elementary updates per slot of one move of `steps` sweeps: sizes the chunks
 * between interrupt checks. */
static double arm_move_cost(const arm_state *s, int steps)
{
    int n = s->n;
    double per = (double) steps * n;
    if (s->type == ARM_GPC) per *= n;
    else if (s->type == ARM_RBM) per *= (s->H > 0 ? s->H : 1);
    else per *= 1.0 + (double) s->ptr[n] / n;
    return per;
}

/* lw[c - c0] = log W(x_[n]) of slots [c0, c1) (requires n < N) */
void arm_smooth(arm_state *s, int c0, int c1, double *lw)
{
    int N = s->N, n = s->n;
    if (s->type == ARM_GPC) {
        gpc_prepare(s);
        double sd = sqrt(s->var), y = s->y[n];
        for (int c = c0; c < c1; c++)
            lw[c - c0] = pnorm(y * gpc_cond_mean(s, s->X + (size_t) N * c) / sd, 0.0, 1.0, 1, 1);
    } else if (s->type == ARM_ISING) {
        for (int c = c0; c < c1; c++) {
            double h = ising_local(s, s->X + (size_t) N * c, n, n);
            double u = s->lo * h, v = s->hi * h, m = u > v ? u : v;
            lw[c - c0] = m + log(exp(u - m) + exp(v - m));
        }
    } else {
        for (int c = c0; c < c1; c++)
            lw[c - c0] = logz_softplus(rbm_delta(s, s->G + (size_t) s->H * c, n));
    }
}

/* slots dst0 + j <- slots src[j] (0-based, j < k), through the work arrays tx
 * (N k doubles) and tg (H k doubles for an RBM) so that the ranges may overlap */
void arm_copy(arm_state *s, const int *src, int k, int dst0, double *tx, double *tg)
{
    int N = s->N, H = s->type == ARM_RBM ? s->H : 0;
    for (int j = 0; j < k; j++) {
        memcpy(tx + (size_t) N * j, s->X + (size_t) N * src[j], sizeof(double) * N);
        if (H) memcpy(tg + (size_t) H * j, s->G + (size_t) H * src[j], sizeof(double) * H);
    }
    memcpy(s->X + (size_t) N * dst0, tx, sizeof(double) * (size_t) N * k);
    if (H) memcpy(s->G + (size_t) H * dst0, tg, sizeof(double) * (size_t) H * k);
}

/* x_{n+1} ~ p_{n+1}(x_{n+1} | x_[n]) for slots [0, R); then n += 1 (requires n < N) */
void arm_augment(arm_state *s, int R)
{
    int N = s->N, n = s->n;
    if (s->type == ARM_GPC) {
        gpc_prepare(s);
        double sd = sqrt(s->var), y = s->y[n];
        for (int c = 0; c < R; c++) {
            double *z = s->X + (size_t) N * c;
            double m = gpc_cond_mean(s, z);
            /* t ~ N(0, 1) truncated to t > a with a = -y m / sd: Phi(-t) = u Phi(-a) */
            double ms = y * m, a = -ms / sd;
            double lp = log(logz_stream_unif(&s->st[c])) + pnorm(-a, 0.0, 1.0, 1, 1);
            double t = -qnorm(lp, 0.0, 1.0, 1, 1);
            if (!(t > a)) t = a;   /* rounding at the boundary */
            double zz = ms + sd * t;
            z[n] = y * (zz > 0 ? zz : 0.0);
        }
        gpc_grow(s);
    } else if (s->type == ARM_ISING) {
        for (int c = 0; c < R; c++) {
            double *x = s->X + (size_t) N * c;
            x[n] = ising_draw(s, ising_local(s, x, n, n), &s->st[c]);
        }
    } else {
        int H = s->H;
        for (int c = 0; c < R; c++) {
            double *x = s->X + (size_t) N * c, *g = s->G + (size_t) H * c;
            double d = rbm_delta(s, g, n);
            x[n] = logz_stream_unif(&s->st[c]) * (1.0 + exp(-d)) < 1.0;
            if (x[n] != 0.0)
                for (int h = 0; h < H; h++) g[h] += s->W[(size_t) N * h + n];
        }
    }
    s->n = n + 1;
}

/* out (n x (c1 - c0)) = the first n variables of slots [c0, c1) */
void arm_particles(const arm_state *s, int c0, int c1, double *out)
{
    int N = s->N, n = s->n;
    for (int c = c0; c < c1; c++)
        memcpy(out + (size_t) n * (c - c0), s->X + (size_t) N * c, sizeof(double) * n);
}

/* slots c0 + j <- column j of x (n x k), the first n variables; the RBM
 * products g are recomputed */
void arm_set(arm_state *s, const double *x, int k, int c0)
{
    int N = s->N, n = s->n;
    for (int j = 0; j < k; j++)
        memcpy(s->X + (size_t) N * (c0 + j), x + (size_t) n * j, sizeof(double) * n);
    if (s->type == ARM_RBM) rbm_products(s, c0, c0 + k);
}

typedef struct {
    arm_state *s;
    int c0, steps, nthreads;
    double *v;
    int *perm;
} arm_move_job;

/* one move of the slots c0 + [i0, i1): for an RBM on the main thread (rbm_move
 * opens its own parallel regions around its dgemm calls), else on thread tid;
 * no R API but R_alloc on the main thread */
static void arm_move_round(void *ctx, long t0, long t1, int i0, int i1, int tid)
{
    (void) t0;
    (void) t1;
    const arm_move_job *j = (const arm_move_job *) ctx;
    arm_state *s = j->s;
    int N = s->N, n = s->n, c0 = j->c0 + i0, c1 = j->c0 + i1;
    if (s->type == ARM_RBM) {
        rbm_move(s, c0, c1, j->steps, j->nthreads);
    } else if (s->type == ARM_GPC) {
        for (int c = c0; c < c1; c++)
            for (int t = 0; t < j->steps; t++)
                gpc_sweep(s, s->X + (size_t) N * c, j->v + (size_t) N * tid,
                          j->perm + (size_t) N * tid, &s->st[c]);
    } else {
        for (int c = c0; c < c1; c++) {
            double *x = s->X + (size_t) N * c;
            for (int t = 0; t < j->steps; t++)
                for (int i = 0; i < n; i++)
                    x[i] = ising_draw(s, ising_local(s, x, i, n), &s->st[c]);
        }
    }
}

/* One move of slots [c0, c1) by `steps` sweeps, in chunks of about 2e7
 * elementary updates with an interrupt check (and setTimeLimit()) between
 * chunks; each slot's result does not depend on the chunking. */
void arm_move(arm_state *s, int c0, int c1, int steps, int nthreads)
{
    int N = s->N;
    if (s->n == 0 || steps < 1) return;
    double chunk_d = 2e7 / arm_move_cost(s, steps);
    int chunk = chunk_d < 1.0 ? 1 : (chunk_d > 1e6 ? 1000000 : (int) chunk_d);
    arm_move_job j = {.s = s, .c0 = c0, .steps = steps, .nthreads = nthreads, .v = NULL,
                      .perm = NULL};
    if (s->type == ARM_GPC) {
        j.v = (double *) R_alloc((size_t) N * nthreads, sizeof(double));
        j.perm = (int *) R_alloc((size_t) N * nthreads, sizeof(int));
    }
    logz_rounds r = {.total = 1, .units = 1, .n_items = c1 - c0, .items = chunk,
                     .nthreads = nthreads, .limit_blas = 0,
                     .split = s->type == ARM_RBM ? LOGZ_SPLIT_MAIN
                                                 : (s->type == ARM_GPC ? LOGZ_SPLIT_EACH
                                                                       : LOGZ_SPLIT_SLICES)};
    logz_rounds_run(&r, arm_move_round, &j);
}

