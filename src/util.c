/* Small numerical helpers shared by the engines (glue helpers: util_call.c). */
#include <math.h>
#include <string.h>
#include "logz.h"

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
