/* One epoch of minibatch contrastive divergence (CD-k, Hinton 2002) or
 * persistent CD (PCD, Tieleman 2008) for a binary RBM, with momentum and L2
 * weight decay. Matrix products over the batch go through BLAS dgemm; draws use
 * R's RNG (single thread), so set.seed() reproduces training.
 * The learning rate falls by control$lr_step after every update (a linear decay
 * over training when the R side sets lr_step = learning_rate / total updates).
 * PCD keeps control$n_chains persistent fantasy chains (Tieleman 2008), which
 * need not equal the batch size: the negative statistics average over them.
 * Layout: data_t is nv x N (one example per column), W is nv x nh.
 * rbm_train_epoch() is the engine on plain C types; rbm_train_call.c the
 * SEXP glue. */
#include <math.h>
#include <string.h>
#include "logz.h"

static double sigmoid(double x)
{
    if (x >= 0) return 1.0 / (1.0 + exp(-x));
    double e = exp(x);
    return e / (1.0 + e);
}

/* Multiply-adds of one block of gemm_rows() (about a hundredth of a second). */
#ifndef TRAIN_GEMM_WORK
#define TRAIN_GEMM_WORK 2e7
#endif

/* C = alpha op(A) op(B) + beta C (m x n, inner dimension k) through BLAS dgemm,
 * in blocks of rows of C sized by work, with an interrupt check between
 * blocks, so one product over a large batch stays interruptible. Each element
 * is the same dot product as in a single call. */
static void gemm_rows(const char *ta, const char *tb, int m, int n, int k, double alpha,
                      const double *A, int lda, const double *B, int ldb, double beta,
                      double *C, int ldc)
{
    double per_row = (double) n * (k > 0 ? k : 1);
    double r = floor(TRAIN_GEMM_WORK / per_row);
    int rows = r >= (double) m ? m : (r < 1.0 ? 1 : (int) r);
    if (rows > m) rows = m;
    for (int i0 = 0; i0 < m; i0 += rows) {
        int mi = i0 + rows < m ? rows : m - i0;
        const double *Ai = ta[0] == 'T' ? A + (size_t) lda * i0 : A + i0;
        F77_CALL(dgemm)(ta, tb, &mi, &n, &k, &alpha, Ai, &lda, B, &ldb, &beta, C + i0, &ldc
                        FCONE FCONE);
        if (mi < m) R_CheckUserInterrupt();
    }
}

/* P = sigmoid(bias + op(W) X) for all columns; S ~ Bern(P) when S != NULL.
 * trans = "T": P is nh x B from X nv x B; trans = "N": P is nv x B from X nh x B. */
static void layer_probs(const char *trans, int nv, int nh, int B, const double *W,
                        const double *bias, const double *X, double *P, double *S)
{
    int rows = trans[0] == 'T' ? nh : nv;
    if (trans[0] == 'T')
        gemm_rows("T", "N", nh, B, nv, 1.0, W, nv, X, nv, 0.0, P, nh);
    else
        gemm_rows("N", "N", nv, B, nh, 1.0, W, nv, X, nh, 0.0, P, nv);
    size_t done = 0;
    for (int c = 0; c < B; c++) {
        for (int r = 0; r < rows; r++) {
            size_t idx = (size_t) rows * c + r;
            P[idx] = sigmoid(bias[r] + P[idx]);
            if (S) S[idx] = unif_rand() < P[idx] ? 1.0 : 0.0;
        }
        done += (size_t) rows;
        if (done >= 2097152) {   /* about 2^21 draws between interrupt checks */
            done = 0;
            R_CheckUserInterrupt();
        }
    }
}

/* One epoch over data (nv x N, one example per column) in the order perm
 * (0-based; the first floor(N / B) * B entries are used, the remainder is
 * left for the next epoch's shuffle). W (nv x nh), a, b and their momentum
 * terms dW, da, db are updated in place; P (nv x C) holds the persistent
 * chains (PCD only), started at random training examples when fresh_chains.
 * Draws from R's RNG (the caller brackets with GetRNGstate/PutRNGstate).
 * Returns the mean squared reconstruction error |v0 - E[v | h0]|^2. */
double rbm_train_epoch(const rbm_train_opts *o, const double *data, const int *perm, double *W,
                       double *a, double *b, double *dW, double *da, double *db, double *P,
                       int fresh_chains)
{
    int nv = o->nv, nh = o->nh, N = o->N, pcd = o->pcd, k = o->k, B = o->B, C = o->C;
    double lr = o->lr, mom = o->momentum, wd = o->weight_decay;
    double *V0 = (double *) R_alloc((size_t) nv * B, sizeof(double));
    int BC = B > C ? B : C;
    double *Vk = (double *) R_alloc((size_t) nv * C, sizeof(double));
    double *Vp = (double *) R_alloc((size_t) nv * BC, sizeof(double));
    double *H0p = (double *) R_alloc((size_t) nh * B, sizeof(double));
    double *Hs = (double *) R_alloc((size_t) nh * BC, sizeof(double));
    double *Hkp = (double *) R_alloc((size_t) nh * C, sizeof(double));
    double *G = (double *) R_alloc((size_t) nv * nh, sizeof(double));

    if (pcd && fresh_chains) {
        /* persistent chains start at random training examples */
        for (int c = 0; c < C; c++) {
            int ex = (int) (unif_rand() * N);
            if (ex >= N) ex = N - 1;
            memcpy(P + (size_t) nv * c, data + (size_t) nv * ex, sizeof(double) * nv);
        }
    }
    double recon = 0.0;
    int nbatch = N / B;
    for (int bt = 0; bt < nbatch; bt++) {
        for (int c = 0; c < B; c++)
            memcpy(V0 + (size_t) nv * c, data + (size_t) nv * perm[bt * B + c],
                   sizeof(double) * nv);
        /* positive phase */
        layer_probs("T", nv, nh, B, W, b, V0, H0p, Hs);
        /* reconstruction error: |v0 - E[v | h0]|^2 */
        layer_probs("N", nv, nh, B, W, a, Hs, Vp, NULL);
        for (size_t i = 0; i < (size_t) nv * B; i++) {
            double d = V0[i] - Vp[i];
            recon += d * d;
        }
        R_CheckUserInterrupt();
        /* negative phase */
        if (pcd) layer_probs("T", nv, nh, C, W, b, P, Hkp, Hs);
        for (int s = 0; s < k; s++) {
            if (s == 0 && !pcd) {
                /* CD: the first reconstruction is the one computed above */
                for (size_t i = 0; i < (size_t) nv * B; i++) Vk[i] = unif_rand() < Vp[i] ? 1.0 : 0.0;
            } else {
                layer_probs("N", nv, nh, C, W, a, Hs, Vp, Vk);
            }
            layer_probs("T", nv, nh, C, W, b, Vk, Hkp, s < k - 1 ? Hs : NULL);
            R_CheckUserInterrupt();   /* a step over C chains can take a while */
        }
        if (pcd) memcpy(P, Vk, sizeof(double) * (size_t) nv * C);
        /* gradient and update: data statistics over the batch, model
         * statistics over the C negative chains */
        gemm_rows("N", "T", nv, nh, B, 1.0 / B, V0, nv, H0p, nh, 0.0, G, nv);
        gemm_rows("N", "T", nv, nh, C, -1.0 / C, Vk, nv, Hkp, nh, 1.0, G, nv);
        for (size_t i = 0; i < (size_t) nv * nh; i++) {
            dW[i] = mom * dW[i] + lr * (G[i] - wd * W[i]);
            W[i] += dW[i];
        }
        for (int i = 0; i < nv; i++) {
            double gp = 0.0, gn = 0.0;
            for (int c = 0; c < B; c++) gp += V0[i + (size_t) nv * c];
            for (int c = 0; c < C; c++) gn += Vk[i + (size_t) nv * c];
            da[i] = mom * da[i] + lr * (gp / B - gn / C);
            a[i] += da[i];
        }
        for (int j = 0; j < nh; j++) {
            double gp = 0.0, gn = 0.0;
            for (int c = 0; c < B; c++) gp += H0p[j + (size_t) nh * c];
            for (int c = 0; c < C; c++) gn += Hkp[j + (size_t) nh * c];
            db[j] = mom * db[j] + lr * (gp / B - gn / C);
            b[j] += db[j];
        }
        lr -= o->lr_step;
        if (lr < 0) lr = 0;
        R_CheckUserInterrupt();
    }
    return recon / ((double) nbatch * B);
}
