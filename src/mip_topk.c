/* GumbelMIP: the ranked perturbed optima of one search (Kim, Sabharwal &
 * Ermon 2016, Theorem 1) and Proposition 1's rank bound.
 *
 * Every configuration sigma tied to a node's Gumbel value (the root's, and the
 * new child's at every split) is a distinct leaf of the perturbed tree with
 * its value v(sigma) + gamma_sigma; the search offers each to the list, which
 * keeps the k largest in decreasing order. The search prunes a node when its
 * bound plus gamma cannot beat the list's threshold (the k-th value; -Inf
 * while fewer than k are known), so when it ends the list holds the k largest
 * perturbed values of all configurations: by Theorem 1 an ordered draw of k
 * distinct states without replacement, each next one with probability
 * proportional to its weight among those not yet drawn (Plackett-Luce).
 * With k = 1 the threshold is the incumbent value v* of Algorithm 1. */
#include <math.h>
#include <string.h>
#include "mip.h"

/* K's arrays (value, rank: k; slot: k; states: k n) are the caller's. */
void mip_topk_reset(mip_topk *K)
{
    K->count = 0;
    for (int j = 0; j < K->k; j++) K->slot[j] = j;
}

double mip_topk_threshold(const mip_topk *K)
{
    return K->count < K->k ? R_NegInf : K->value[K->k - 1];
}

/* Offer sigma (n ints 0/1) with perturbed value v; returns the new threshold.
 * The positions hold slots of the state store, so an insertion moves k ints,
 * not k states. */
double mip_topk_offer(mip_topk *K, double v, const int *sigma)
{
    int k = K->k;
    if (!(v > mip_topk_threshold(K))) return mip_topk_threshold(K);
    int pos = K->count < k ? K->count++ : k - 1;   /* full: the last one drops out */
    int s = K->slot[pos];
    while (pos > 0 && K->value[pos - 1] < v) {
        K->value[pos] = K->value[pos - 1];
        K->slot[pos] = K->slot[pos - 1];
        pos--;
    }
    K->value[pos] = v;
    K->slot[pos] = s;
    memcpy(K->states + (size_t) s * K->n, sigma, sizeof(int) * K->n);
    return mip_topk_threshold(K);
}

/* log(1 - F(g, b)) with F the CDF of TruncGumbel(0, b) at g (Proposition 1) */
static double log_trunc_survival(double g, double b)
{
    if (g >= b) return R_NegInf;
    /* F = exp(-e^{-g} + e^{-b});  1 - F = -expm1(e^{-b} - e^{-g}) */
    return log(-expm1(exp(-b) - exp(-g)));
}

/* Proposition 1 for a configuration of perturbed value v among the open nodes
 * of W (their key: bound + gamma; gamma; fixings): the bound on the expected
 * number of configurations not yet tied to a Gumbel value that beat v, plus
 * one, 1 + sum over open Q with LP(Q) + gamma_Q >= v of
 * 1 + (2^|X_Q| - 1)(1 - F(v - LP(Q), gamma_Q)). *U (if not NULL) gets
 * Theorem 2's U = max(v, the largest such key). */
double mip_rank_bound(mip_work *W, const mip_control *C, int n, double v, double *U)
{
    double u = v, lrank = 0.0;   /* log of (the bound - 1) */
    int any = 0;
    for (int i = 0; i < W->nheap; i++) {
        int q = W->heap[i];
        double kq = W->key[q];
        if (kq < v) continue;
        u = fmax(u, kq);
        int fv = n - W->nfix[q];
        double lp_q = kq - W->gam[q];
        double ls;
        if (!C->lq && !C->tree) ls = log_trunc_survival(v - lp_q, W->gam[q]);
        else {
            /* each of Q's configurations x has a TruncGumbel(log q(x), gamma_Q)
             * and beats v with probability 1 - exp(-q(x) (e^-t - e^-b)),
             * t = v - LP(Q) and b = gamma_Q; by concavity the sum over Q's
             * 2^fv configurations is at most 2^fv times that at q(Q) / 2^fv
             * (the uniform case is the paper's bound) */
            double t = v - lp_q, b = W->gam[q], lqQ = 0.0;
            const unsigned char *sq = W->state + (size_t) q * n;
            if (C->tree) lqQ = mip_tree_region(C->tree, sq, W->tq);   /* allocated at the root */
            else for (int j = 0; j < n; j++) if (sq[j] & MIP_FIXED) lqQ += C->lq[2 * j + (sq[j] & MIP_SIGMA)];
            ls = t >= b ? R_NegInf
                : log(-expm1(-exp(lqQ - fv * MIP_LOG2 - t + log(-expm1(t - b)))));
        }
        double term = logz_log_add_exp(0.0, (fv * MIP_LOG2 + log1p(-exp(-fv * MIP_LOG2))) + ls);
        lrank = any ? logz_log_add_exp(lrank, term) : term;
        any = 1;
    }
    if (U) *U = u;
    return any ? 1.0 + exp(lrank) : 1.0;
}

/* The rank bounds of the list's positions after a search that left the open
 * nodes of W: the j-th (from 1) of value v_j has rank j plus the number of
 * configurations in open nodes that beat v_j (every known configuration
 * that beats it is above it in the list), so E[rank] <= j - 1 +
 * mip_rank_bound(v_j); 1, ..., k after an exact search. */
void mip_topk_ranks(mip_topk *K, mip_work *W, const mip_control *C)
{
    for (int j = 0; j < K->k; j++)
        K->rank[j] = j < K->count ? j + mip_rank_bound(W, C, K->n, K->value[j], NULL) : NA_REAL;
}

/* Copy the list out: states (n x k ints; -1 in empty positions), values
 * (k; -Inf empty), rank bounds (k). */
void mip_topk_export(const mip_topk *K, int *states, double *value, double *rank)
{
    int n = K->n;
    for (int j = 0; j < K->k; j++) {
        if (j < K->count) {
            memcpy(states + (size_t) j * n, K->states + (size_t) K->slot[j] * n, sizeof(int) * n);
            value[j] = K->value[j];
        } else {
            for (int i = 0; i < n; i++) states[(size_t) j * n + i] = -1;
            value[j] = R_NegInf;
        }
        rank[j] = K->rank[j];
    }
}
