/* Matrix-vector products with 0/1 state vectors: sum the weight columns of the
 * active units. RBM and Ising states are binary and often sparse (about 13 % of
 * MNIST pixels are on), so this does nnz * rows additions where dgemm does
 * cols * rows multiply-adds; the AIS engine picks whichever is cheaper per
 * sweep. The weights are stored in row blocks of LOGZ_BLK (one block's rows for
 * every column contiguous) so the accumulator stays in registers and a block
 * stays in cache across chains. */
#include <string.h>
#include "logz.h"

/* M is rows x cols; ld_rows_first = 1: column-major M[r + rows * k];
 * 0: M given transposed (cols x rows, column-major), i.e. M[k + cols * r]. */
size_t logz_blocked_size(int rows, int cols)
{
    return (size_t) ((rows + LOGZ_BLK - 1) / LOGZ_BLK) * cols * LOGZ_BLK;
}

/* store: logz_blocked_size(rows, cols) doubles. */
void logz_blocked_init(logz_blocked *B, const double *M, int rows, int cols, int ld_rows_first,
                       double *store, int fill)
{
    B->rows = rows;
    B->cols = cols;
    B->nblk = (rows + LOGZ_BLK - 1) / LOGZ_BLK;
    size_t sz = logz_blocked_size(rows, cols);
    B->blk = store;
    if (fill) memset(B->blk, 0, sizeof(double) * sz);
    if (!fill) return;
    for (int b = 0; b < B->nblk; b++)
        for (int k = 0; k < cols; k++)
            for (int r = 0; r < LOGZ_BLK; r++) {
                int row = b * LOGZ_BLK + r;
                if (row >= rows) break;
                B->blk[((size_t) b * cols + k) * LOGZ_BLK + r] =
                    ld_rows_first ? M[row + (size_t) rows * k] : M[k + (size_t) cols * row];
            }
}

typedef double logz_v4d __attribute__((vector_size(32)));

#define LOAD8(col)                                                                   \
    memcpy(&c0, col, 32); memcpy(&c1, col + 4, 32); memcpy(&c2, col + 8, 32);           \
    memcpy(&c3, col + 12, 32); memcpy(&c4, col + 16, 32); memcpy(&c5, col + 20, 32);    \
    memcpy(&c6, col + 24, 32); memcpy(&c7, col + 28, 32)
#define PREFETCH_AHEAD(list, t, n)                                                   \
    if ((t) + 4 < (n)) {   /* columns are scattered: fetch ahead of use */          \
        const double *nxt = base + (size_t) (list)[(t) + 4] * LOGZ_BLK;             \
        __builtin_prefetch(nxt); __builtin_prefetch(nxt + 8);                        \
        __builtin_prefetch(nxt + 16); __builtin_prefetch(nxt + 24);                  \
    }

/* For one block of rows: acc = sum of the columns in `plus` - sum of those in
 * `minus`; then out = acc (overwrite) or out += acc (an incremental update from
 * the units that switched on and off since out was computed). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
void logz_blocked_accumulate(const logz_blocked *B, int blk, const int *plus, int np,
                             const int *minus, int nm, double *out, int overwrite)
{
    /* eight 4-wide accumulators (LOGZ_BLK = 32) held in registers */
    logz_v4d s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    logz_v4d c0, c1, c2, c3, c4, c5, c6, c7;
    const double *base = B->blk + (size_t) blk * B->cols * LOGZ_BLK;
    for (int t = 0; t < np; t++) {
        const double *col = base + (size_t) plus[t] * LOGZ_BLK;
        PREFETCH_AHEAD(plus, t, np)
        LOAD8(col);
        s0 += c0; s1 += c1; s2 += c2; s3 += c3; s4 += c4; s5 += c5; s6 += c6; s7 += c7;
    }
    for (int t = 0; t < nm; t++) {
        const double *col = base + (size_t) minus[t] * LOGZ_BLK;
        PREFETCH_AHEAD(minus, t, nm)
        LOAD8(col);
        s0 -= c0; s1 -= c1; s2 -= c2; s3 -= c3; s4 -= c4; s5 -= c5; s6 -= c6; s7 -= c7;
    }
    double acc[LOGZ_BLK];
    memcpy(acc, &s0, 32); memcpy(acc + 4, &s1, 32); memcpy(acc + 8, &s2, 32);
    memcpy(acc + 12, &s3, 32); memcpy(acc + 16, &s4, 32); memcpy(acc + 20, &s5, 32);
    memcpy(acc + 24, &s6, 32); memcpy(acc + 28, &s7, 32);
    int r0 = blk * LOGZ_BLK, n = B->rows - r0 < LOGZ_BLK ? B->rows - r0 : LOGZ_BLK;
    if (overwrite)
        for (int r = 0; r < n; r++) out[r0 + r] = acc[r];
    else
        for (int r = 0; r < n; r++) out[r0 + r] += acc[r];
}
