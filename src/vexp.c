/* exp(-|x|) over an array, the transcendental at the heart of every sigmoid
 * and softplus in the samplers. With glibc's libmvec (detected by configure)
 * the loop is vectorised through OpenMP SIMD, at the instruction set chosen at
 * run time (kernels.h): libmvec's SSE2, AVX2 or AVX-512 exp; otherwise it calls
 * the scalar exp(). They agree to a few ulp: libmvec's AVX2 and AVX-512
 * versions give the same bits, its SSE2 version differs from them in the last
 * bit for about one argument in 10^4. */
#include <math.h>
#include "logz.h"
#include "kernels.h"

#ifdef LOGZ_HAVE_MVEC
#pragma omp declare simd notinbranch
extern double exp(double);
#endif

#define EXP_LOOP                                                                     \
    for (int i = 0; i < n; i++) y[i] = exp(-fabs(x[i]));

static void exp_portable(const double *x, double *y, int n)
{
#ifdef LOGZ_HAVE_MVEC
#pragma omp simd
#endif
    EXP_LOOP
}

#if LOGZ_DISPATCH
LOGZ_TARGET_AVX2 static void exp_avx2(const double *x, double *y, int n)
{
#ifdef LOGZ_HAVE_MVEC
#pragma omp simd
#endif
    EXP_LOOP
}
LOGZ_TARGET_AVX512_WIDE static void exp_avx512(const double *x, double *y, int n)
{
#ifdef LOGZ_HAVE_MVEC
#pragma omp simd
#endif
    EXP_LOOP
}
#endif

void logz_exp_neg_abs_isa(const double *x, double *y, int n, logz_isa isa)
{
    switch (isa) {
#if LOGZ_DISPATCH
    case LOGZ_ISA_AVX512: exp_avx512(x, y, n); break;
    case LOGZ_ISA_AVX2: exp_avx2(x, y, n); break;
#endif
    default: exp_portable(x, y, n);
    }
}

void logz_exp_neg_abs(const double *x, double *y, int n)
{
    logz_exp_neg_abs_isa(x, y, n, logz_isa_select());
}
