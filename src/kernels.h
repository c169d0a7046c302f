/* Run-time choice of the instruction set for the Gibbs kernels (binary-state
 * products, exp, Bernoulli draws). Each kernel is compiled once per level with
 * gcc/clang function attributes, so the build needs no ISA flags and runs on
 * any x86-64; elsewhere, or with -DLOGZ_NO_DISPATCH, only the portable level
 * exists. Every level gives the same products bit for bit (see
 * binary_kernels.c); exp() may differ in the last bits (see vexp.c). */
#ifndef LOGZ_KERNELS_H
#define LOGZ_KERNELS_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(LOGZ_NO_DISPATCH)
#define LOGZ_DISPATCH 1
#define LOGZ_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define LOGZ_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx2,fma")))
#if defined(__clang__)
#define LOGZ_TARGET_AVX512_WIDE LOGZ_TARGET_AVX512
#else   /* gcc vectorises with 256-bit registers unless told otherwise */
#define LOGZ_TARGET_AVX512_WIDE \
    __attribute__((target("avx512f,avx512dq,avx2,fma,prefer-vector-width=512")))
#endif
#else
#define LOGZ_DISPATCH 0
#endif

/* full unrolling of a short loop with a constant trip count (register tiles) */
#if defined(__clang__)
#define LOGZ_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define LOGZ_UNROLL _Pragma("GCC unroll 16")
#else
#define LOGZ_UNROLL
#endif

/* Kernels whose every version gives the same bits (no reassociation, no
 * rounding that depends on the vector width) are cloned by gcc and chosen by
 * the loader (glibc ifunc) instead. */
#if LOGZ_DISPATCH && !defined(__clang__) && defined(__linux__)
#define LOGZ_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define LOGZ_CLONES
#endif

typedef enum {
    LOGZ_ISA_PORTABLE = 0,     /* the baseline of the build (SSE2 on x86-64) */
    LOGZ_ISA_AVX2 = 1,         /* AVX2 with FMA */
    LOGZ_ISA_AVX512 = 2        /* AVX-512 F and DQ */
} logz_isa;

/* The best level this CPU supports, capped by the environment variable
 * LOGZ_ISA ("portable", "avx2" or "avx512"; unset or anything else: no cap).
 * Call it outside parallel regions and pass the answer down. */
logz_isa logz_isa_select(void);
const char *logz_isa_name(logz_isa isa);

/* y[i] = exp(-|x[i]|) at a given level (vexp.c) */
void logz_exp_neg_abs_isa(const double *x, double *y, int n, logz_isa isa);

/* init + the change of sum_j softplus(beta z_j), z = b + x[0:nh], from beta0 to
 * beta1; scr (4 nh) returns t1, t0, e1, e0 (rbm_gibbs.c) */
double logz_hidden_softplus_change(const double *b, const double *x, int nh, double beta0,
                                   double beta1, double init, double *scr, logz_isa isa);

#endif
