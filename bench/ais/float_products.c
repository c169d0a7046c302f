/* Single against double precision for the two hot parts of an RBM Gibbs sweep
 * at AVX-512 (the dispatcher's level on the development machine): the
 * binary-state product (sum of the weight columns of the active units, W in
 * row blocks of 32 as in src/binary_kernels.c, per chain) and exp(-|x|) through
 * libmvec. Called from float_products.R; timings in seconds per call. */
#include <math.h>
#include <string.h>
#include <time.h>
#include <R.h>
#include <Rinternals.h>

#pragma omp declare simd notinbranch
extern double exp(double);
#pragma omp declare simd notinbranch
extern float expf(float);

#define BLK 32
#define T512 __attribute__((target("avx512f,avx512dq,avx2,fma,prefer-vector-width=512")))
typedef double v8d __attribute__((vector_size(64)));
typedef float v16f __attribute__((vector_size(64)));

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

T512 static void prod_d(const double *blk, int nblk, int cols, int rows, const int *act,
                        const int *nact, int M, int ld, double *out)
{
    for (int b = 0; b < nblk; b++) {
        const double *base = blk + (size_t) b * cols * BLK;
        for (int c = 0; c < M; c++) {
            v8d s[4] = {{0}, {0}, {0}, {0}};
            const int *a = act + (size_t) ld * c;
            for (int t = 0; t < nact[c]; t++) {
                const double *col = base + (size_t) a[t] * BLK;
#pragma GCC unroll 4
                for (int i = 0; i < 4; i++) {
                    v8d x;
                    memcpy(&x, col + 8 * i, sizeof x);
                    s[i] += x;
                }
            }
            int n = rows - b * BLK < BLK ? rows - b * BLK : BLK;
            double tmp[BLK];
            memcpy(tmp, s, sizeof tmp);
            memcpy(out + (size_t) rows * c + b * BLK, tmp, sizeof(double) * n);
        }
    }
}

T512 static void prod_f(const float *blk, int nblk, int cols, int rows, const int *act,
                        const int *nact, int M, int ld, float *out)
{
    for (int b = 0; b < nblk; b++) {
        const float *base = blk + (size_t) b * cols * BLK;
        for (int c = 0; c < M; c++) {
            v16f s[2] = {{0}, {0}};
            const int *a = act + (size_t) ld * c;
            for (int t = 0; t < nact[c]; t++) {
                const float *col = base + (size_t) a[t] * BLK;
#pragma GCC unroll 2
                for (int i = 0; i < 2; i++) {
                    v16f x;
                    memcpy(&x, col + 16 * i, sizeof x);
                    s[i] += x;
                }
            }
            int n = rows - b * BLK < BLK ? rows - b * BLK : BLK;
            float tmp[BLK];
            memcpy(tmp, s, sizeof tmp);
            memcpy(out + (size_t) rows * c + b * BLK, tmp, sizeof(float) * n);
        }
    }
}

T512 static void exp_d(const double *x, double *y, int n)
{
#pragma omp simd
    for (int i = 0; i < n; i++) y[i] = exp(-fabs(x[i]));
}

T512 static void exp_f(const float *x, float *y, int n)
{
#pragma omp simd
    for (int i = 0; i < n; i++) y[i] = expf(-fabsf(x[i]));
}

/* W (rows x cols), S (cols x M, 0/1), reps: c(product double, product float,
 * exp double, exp float) seconds per call, and the largest |float - double|
 * product difference. */
SEXP float_products(SEXP W, SEXP S, SEXP reps)
{
    int rows = nrows(W), cols = ncols(W), M = ncols(S), R = asInteger(reps);
    int nblk = (rows + BLK - 1) / BLK;
    double *bd = (double *) R_alloc((size_t) nblk * cols * BLK, sizeof(double));
    float *bf = (float *) R_alloc((size_t) nblk * cols * BLK, sizeof(float));
    memset(bd, 0, sizeof(double) * nblk * cols * BLK);
    memset(bf, 0, sizeof(float) * nblk * cols * BLK);
    for (int b = 0; b < nblk; b++)
        for (int k = 0; k < cols; k++)
            for (int r = 0; r < BLK && b * BLK + r < rows; r++) {
                double w = REAL(W)[b * BLK + r + (size_t) rows * k];
                bd[((size_t) b * cols + k) * BLK + r] = w;
                bf[((size_t) b * cols + k) * BLK + r] = (float) w;
            }
    int *act = (int *) R_alloc((size_t) cols * M, sizeof(int)), *nact = (int *) R_alloc(M, sizeof(int));
    for (int c = 0; c < M; c++) {
        int n = 0;
        for (int k = 0; k < cols; k++)
            if (REAL(S)[k + (size_t) cols * c] != 0) act[(size_t) cols * c + n++] = k;
        nact[c] = n;
    }
    double *od = (double *) R_alloc((size_t) rows * M, sizeof(double));
    float *of = (float *) R_alloc((size_t) rows * M, sizeof(float));
    SEXP out = PROTECT(allocVector(REALSXP, 5));
    double t0 = now();
    for (int r = 0; r < R; r++) prod_d(bd, nblk, cols, rows, act, nact, M, cols, od);
    REAL(out)[0] = (now() - t0) / R;
    t0 = now();
    for (int r = 0; r < R; r++) prod_f(bf, nblk, cols, rows, act, nact, M, cols, of);
    REAL(out)[1] = (now() - t0) / R;
    double md = 0;
    for (size_t i = 0; i < (size_t) rows * M; i++) {
        double d = fabs(od[i] - (double) of[i]);
        if (d > md) md = d;
    }
    float *xf = (float *) R_alloc((size_t) rows * M, sizeof(float));
    for (size_t i = 0; i < (size_t) rows * M; i++) xf[i] = of[i];
    t0 = now();
    for (int r = 0; r < R; r++) exp_d(od, od, rows * M);
    REAL(out)[2] = (now() - t0) / R;
    t0 = now();
    for (int r = 0; r < R; r++) exp_f(xf, xf, rows * M);
    REAL(out)[3] = (now() - t0) / R;
    REAL(out)[4] = md;
    UNPROTECT(1);
    return out;
}
