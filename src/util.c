/* Small numerical and glue helpers shared by the engines. */
#include <math.h>
#include <string.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

double logz_softplus(double x)
{
    return (x > 0 ? x : 0.0) + log1p(exp(-fabs(x)));
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

int logz_threads(int requested)
{
    if (requested < 1 || requested == NA_INTEGER) requested = 1;
#ifdef _OPENMP
    int lim = omp_get_thread_limit();
    int mx = omp_get_num_procs();
    if (requested > lim) requested = lim;
    if (requested > 4 * mx) requested = 4 * mx;
    return requested;
#else
    return 1;
#endif
}

SEXP logz_get(SEXP list, const char *name)
{
    SEXP names = getAttrib(list, R_NamesSymbol);
    if (isNull(names)) return R_NilValue;
    for (R_xlen_t i = 0; i < XLENGTH(list); i++)
        if (strcmp(CHAR(STRING_ELT(names, i)), name) == 0) return VECTOR_ELT(list, i);
    return R_NilValue;
}
