/* Exact log partition function of a binary RBM by enumerating one layer.
 *
 * With the `ne` units of one layer enumerated (biases be) and the other layer
 * (size no, biases bo) summed out analytically,
 *   log Z = log sum_e exp( e'be + sum_o softplus(bo_o + (Wt e)_o) ).
 * States are visited in Gray-code order so each step adds or subtracts one
 * column of Wt (no BLAS inside threads); the accumulator is recomputed from
 * scratch every RESYNC states to bound rounding drift. Each block of states
 * has a streaming log-sum-exp; blocks are merged in a fixed order, so the
 * result does not depend on the thread count. */
#include <math.h>
#include <stdlib.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define RESYNC 4096
#define PROD_CHUNK 512
#ifndef RBM_SLICE_WORK
#define RBM_SLICE_WORK 4194304.0   /* operations a block between interrupt checks */
#endif

/* sum_o softplus(x_o) = sum_o max(x_o, 0) + log prod_o (1 + exp(-|x_o|));
 * each factor is in (1, 2], so a product over PROD_CHUNK factors is finite. */
static double sum_softplus(const double *x, int n)
{
    double lin = 0.0, lg = 0.0;
    for (int start = 0; start < n; start += PROD_CHUNK) {
        int end = start + PROD_CHUNK < n ? start + PROD_CHUNK : n;
        double prod = 1.0;
        for (int o = start; o < end; o++) {
            double v = x[o];
            if (v > 0) lin += v;
            prod *= 1.0 + exp(-fabs(v));
        }
        lg += log(prod);
    }
    return lin + lg;
}

static void set_state(uint64_t g, int ne, int no, const double *Wt, const double *be,
                      const double *bo, double *acc, double *lin_e)
{
    double le = 0.0;
    for (int o = 0; o < no; o++) acc[o] = bo[o];
    for (int e = 0; e < ne; e++)
        if ((g >> e) & 1ULL) {
            const double *col = Wt + (size_t) e * no;
            for (int o = 0; o < no; o++) acc[o] += col[o];
            le += be[e];
        }
    *lin_e = le;
}

/* Where the enumeration of one block stands: the Gray code g of the last
 * state, its e'be (le), and the block's streaming log-sum-exp (m, s). */
typedef struct {
    uint64_t g;
    double le, m, s;
} enum_pos;

/* States [i0, i1) of the block that starts at `from` (Gray-code indices),
 * continuing from *p and acc (the state of index i0 - 1 when i0 > from);
 * the block's states go through the same operations however it is sliced. */
static void enum_slice(uint64_t from, uint64_t i0, uint64_t i1, int ne, int no, const double *Wt,
                       const double *be, const double *bo, double *acc, enum_pos *p)
{
    double m = p->m, s = p->s, le = p->le;
    uint64_t g = p->g;
    for (uint64_t i = i0; i < i1; i++) {
        if (i == from || (i - from) % RESYNC == 0) {
            g = i ^ (i >> 1);
            set_state(g, ne, no, Wt, be, bo, acc, &le);
        } else {
            /* Gray code: state i differs from i-1 in bit ctz(i). */
            int bit = __builtin_ctzll(i);
            const double *col = Wt + (size_t) bit * no;
            g ^= 1ULL << bit;
            if ((g >> bit) & 1ULL) {
                for (int o = 0; o < no; o++) acc[o] += col[o];
                le += be[bit];
            } else {
                for (int o = 0; o < no; o++) acc[o] -= col[o];
                le -= be[bit];
            }
        }
        double val = le + sum_softplus(acc, no);
        if (val > m) {
            s = s * exp(m - val) + 1.0;
            m = val;
        } else {
            s += exp(val - m);
        }
    }
    p->g = g;
    p->le = le;
    p->m = m;
    p->s = s;
}

/* The 2^ne states in logz_enum_blocks() blocks (block b: [total / nblocks * b,
 * ...), the last to total), 2 nthreads blocks a round as logz_for_blocks()
 * runs them, each round in slices of about RBM_SLICE_WORK operations a block
 * with an interrupt check between slices outside the parallel region (a block
 * of a very wide model can take seconds). Blocks merge in a fixed order. */
double rbm_exact_log_z(int ne, int no, const double *Wt, const double *be,
                       const double *bo, int nthreads)
{
    uint64_t total = 1ULL << ne;
    /* per state: a softplus of each of the `no` units (about 8 operations) */
    double cost = 8.0 * no;
    int nblocks = logz_enum_blocks(total, cost, 64, 1 << 20);
    int round = 2 * nthreads;
    double *bmax = (double *) R_alloc((size_t) nblocks, sizeof(double));
    double *bsum = (double *) R_alloc((size_t) nblocks, sizeof(double));
    double *acc = (double *) R_alloc((size_t) no * (size_t) round + 1, sizeof(double));
    enum_pos *pos = (enum_pos *) R_alloc((size_t) round, sizeof(enum_pos));
    double sl = floor(RBM_SLICE_WORK / cost);
    uint64_t per = total / (uint64_t) nblocks, slice = sl < 1.0 ? 1 : (uint64_t) sl;
    for (int b0 = 0; b0 < nblocks; b0 += round) {
        int b1 = b0 + round < nblocks ? b0 + round : nblocks;
        for (int j = 0; j < b1 - b0; j++) pos[j] = (enum_pos) {0, 0.0, R_NegInf, 0.0};
        uint64_t longest = b1 == nblocks ? total - per * (uint64_t) (nblocks - 1) : per;
        for (uint64_t off = 0; off < longest; off += slice) {
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
#endif
            for (int blk = b0; blk < b1; blk++) {
                uint64_t from = per * (uint64_t) blk;
                uint64_t to = blk == nblocks - 1 ? total : per * (uint64_t) (blk + 1);
                uint64_t i0 = from + off;
                if (i0 >= to) continue;
                uint64_t i1 = to - i0 > slice ? i0 + slice : to;
                enum_slice(from, i0, i1, ne, no, Wt, be, bo, acc + (size_t) no * (blk - b0),
                           &pos[blk - b0]);
            }
            R_CheckUserInterrupt();   /* between slices, outside the parallel region */
        }
        for (int blk = b0; blk < b1; blk++) {
            bmax[blk] = pos[blk - b0].m;
            bsum[blk] = pos[blk - b0].s;
        }
    }
    return logz_merge_blocks(bmax, bsum, nblocks, NULL);
}
