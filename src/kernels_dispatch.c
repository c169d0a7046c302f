/* Which instruction set the Gibbs kernels use: the CPU's best level among
 * portable, AVX2 and AVX-512, capped by LOGZ_ISA (a test and bench hook). */
#include <stdlib.h>
#include <string.h>
#include "logz.h"
#include "kernels.h"

static logz_isa isa_cap(void)
{
    const char *s = getenv("LOGZ_ISA");
    if (!s) return LOGZ_ISA_AVX512;
    if (!strcmp(s, "portable")) return LOGZ_ISA_PORTABLE;
    if (!strcmp(s, "avx2")) return LOGZ_ISA_AVX2;
    return LOGZ_ISA_AVX512;
}

logz_isa logz_isa_select(void)
{
    logz_isa best = LOGZ_ISA_PORTABLE;
#if LOGZ_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = LOGZ_ISA_AVX2;
    if (best == LOGZ_ISA_AVX2 && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512dq"))
        best = LOGZ_ISA_AVX512;
#endif
    logz_isa cap = isa_cap();
    return best < cap ? best : cap;
}

const char *logz_isa_name(logz_isa isa)
{
    switch (isa) {
    case LOGZ_ISA_AVX2: return "avx2";
    case LOGZ_ISA_AVX512: return "avx512";
    default: return "portable";
    }
}

/* The level the kernels would use now, as a string. */
SEXP kernel_isa_call(void)
{
    return mkString(logz_isa_name(logz_isa_select()));
}
