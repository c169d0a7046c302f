/* exp(-|x|) over an array, the transcendental at the heart of every sigmoid
 * and softplus in the samplers. With glibc's libmvec (detected by configure)
 * the loop is vectorised through OpenMP SIMD (2 or 4 lanes; the AVX2 clone is
 * picked at run time where the CPU has it); otherwise it calls the scalar
 * exp(). Both agree to a few ulp. */
#include <math.h>
#include "logz.h"

#ifdef LOGZ_HAVE_MVEC
#pragma omp declare simd notinbranch
extern double exp(double);
#endif

#if defined(LOGZ_HAVE_MVEC) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void logz_exp_neg_abs(const double *x, double *y, int n)
{
#ifdef LOGZ_HAVE_MVEC
#pragma omp simd
#endif
    for (int i = 0; i < n; i++) y[i] = exp(-fabs(x[i]));
}
