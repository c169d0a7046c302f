/* Proposals for A* sampling, OS* and rejection: products of univariate
 * distributions over hyper-rectangles (Maddison, Tarlow & Minka 2014,
 * Section 6: regions are boxes, possibly with infinite sides). For a box we need the log mass
 * log nu(B) and a draw from nu restricted to B; both go through Rmath's
 * distribution functions in standardised coordinates z = (x - location)/scale,
 * on the log scale and in the tail where the box lies, so boxes far out in a
 * tail keep their mass and their draws (inversion of the truncated CDF).
 *
 * Families (per dimension, par[3 j .. 3 j + 2]):
 *   1 uniform(lower, upper)   location lower, scale upper - lower
 *   2 normal(mean, sd)
 *   3 exponential(rate)       location 0, scale 1 / rate, support [0, Inf)
 *   4 cauchy(location, scale)
 *   5 student(location, scale, df) */
#include <math.h>
#include <Rmath.h>
#include "logz.h"

static double std_p(int fam, double df, double z, int lower, int logp)
{
    switch (fam) {
    case LOGZ_PROP_UNIFORM: return punif(z, 0.0, 1.0, lower, logp);
    case LOGZ_PROP_NORMAL: return pnorm(z, 0.0, 1.0, lower, logp);
    case LOGZ_PROP_EXPONENTIAL: return pexp(z, 1.0, lower, logp);
    case LOGZ_PROP_CAUCHY: return pcauchy(z, 0.0, 1.0, lower, logp);
    case LOGZ_PROP_STUDENT: return pt(z, df, lower, logp);
    }
    logz_internal_error("unknown proposal family %d", fam);
    return NA_REAL;
}

static double std_q(int fam, double df, double p, int lower, int logp)
{
    switch (fam) {
    case LOGZ_PROP_UNIFORM: return qunif(p, 0.0, 1.0, lower, logp);
    case LOGZ_PROP_NORMAL: return qnorm(p, 0.0, 1.0, lower, logp);
    case LOGZ_PROP_EXPONENTIAL: return qexp(p, 1.0, lower, logp);
    case LOGZ_PROP_CAUCHY: return qcauchy(p, 0.0, 1.0, lower, logp);
    case LOGZ_PROP_STUDENT: return qt(p, df, lower, logp);
    }
    logz_internal_error("unknown proposal family %d", fam);
    return NA_REAL;
}

static double std_median(int fam)
{
    switch (fam) {
    case LOGZ_PROP_UNIFORM: return 0.5;
    case LOGZ_PROP_EXPONENTIAL: return M_LN2;
    default: return 0.0;
    }
}

/* log(1 - exp(t)) for t <= 0 (Maechler's log1mexp). */
static double log_1m_exp(double t)
{
    if (t >= 0.0) return R_NegInf;
    return t > -M_LN2 ? log(-expm1(t)) : log1p(-exp(t));
}

/* Standardised coordinates z = (pre x - loc) / scale, x = (loc + scale z) / pre.
 * pre is 1 except for a uniform whose width upper - lower overflows (e.g.
 * [-1e308, 1e308]): then everything is halved (pre = 0.5), which is exact. */
static void std_params(const logz_proposal *p, int j, double *loc, double *scale, double *df,
                       double *pre)
{
    const double *par = p->par + 3 * (size_t) j;
    *df = 0.0;
    *pre = 1.0;
    switch (p->family[j]) {
    case LOGZ_PROP_UNIFORM:
        *loc = par[0];
        *scale = par[1] - par[0];
        if (!R_FINITE(*scale)) {
            *pre = 0.5;
            *loc = 0.5 * par[0];
            *scale = 0.5 * par[1] - 0.5 * par[0];
        }
        break;
    case LOGZ_PROP_EXPONENTIAL: *loc = 0.0; *scale = 1.0 / par[0]; break;
    case LOGZ_PROP_STUDENT: *loc = par[0]; *scale = par[1]; *df = par[2]; break;
    default: *loc = par[0]; *scale = par[1]; break;
    }
}

void proposal_support(const logz_proposal *p, double *lo, double *hi)
{
    for (int j = 0; j < p->d; j++) {
        const double *par = p->par + 3 * (size_t) j;
        switch (p->family[j]) {
        case LOGZ_PROP_UNIFORM: lo[j] = par[0]; hi[j] = par[1]; break;
        case LOGZ_PROP_EXPONENTIAL: lo[j] = 0.0; hi[j] = R_PosInf; break;
        default: lo[j] = R_NegInf; hi[j] = R_PosInf; break;
        }
    }
}

double proposal_log_density(const logz_proposal *p, const double *x)
{
    double s = 0.0;
    for (int j = 0; j < p->d; j++) {
        double loc, scale, df, pre, z;
        std_params(p, j, &loc, &scale, &df, &pre);
        z = (pre * x[j] - loc) / scale;
        switch (p->family[j]) {
        case LOGZ_PROP_UNIFORM: s += dunif(z, 0.0, 1.0, 1); break;
        case LOGZ_PROP_NORMAL: s += dnorm(z, 0.0, 1.0, 1); break;
        case LOGZ_PROP_EXPONENTIAL: s += dexp(z, 1.0, 1); break;
        case LOGZ_PROP_CAUCHY: s += dcauchy(z, 0.0, 1.0, 1); break;
        case LOGZ_PROP_STUDENT: s += dt(z, df, 1); break;
        }
        s -= log(scale);
        if (pre != 1.0) s -= M_LN2;
    }
    return s;
}

/* log nu([a, b]) in standardised coordinates, a <= b. */
static double std_log_mass(int fam, double df, double a, double b)
{
    if (!(a < b)) return R_NegInf;
    double med = std_median(fam);
    if (a >= med) {            /* upper tail: survival functions */
        double la = std_p(fam, df, a, 0, 1), lb = std_p(fam, df, b, 0, 1);
        return la + log_1m_exp(lb - la);
    }
    if (b <= med) {            /* lower tail: distribution functions */
        double la = std_p(fam, df, a, 1, 1), lb = std_p(fam, df, b, 1, 1);
        return lb + log_1m_exp(la - lb);
    }
    double fa = std_p(fam, df, a, 1, 0), sb = std_p(fam, df, b, 0, 0);
    return log1p(-(fa + sb));
}

/* The u-quantile of nu restricted to [a, b] (standardised), by inversion. */
static double std_trunc_quantile(int fam, double df, double a, double b, double u)
{
    if (!(a < b)) return a;
    double med = std_median(fam), z;
    if (a >= med) {
        double la = std_p(fam, df, a, 0, 1), lb = std_p(fam, df, b, 0, 1);
        /* S(z) = (1 - u) S(a) + u S(b) */
        z = std_q(fam, df, la + log((1.0 - u) + u * exp(lb - la)), 0, 1);
    } else if (b <= med) {
        double la = std_p(fam, df, a, 1, 1), lb = std_p(fam, df, b, 1, 1);
        /* F(z) = u F(b) + (1 - u) F(a) */
        z = std_q(fam, df, lb + log(u + (1.0 - u) * exp(la - lb)), 1, 1);
    } else {
        double fa = std_p(fam, df, a, 1, 0), fb = std_p(fam, df, b, 1, 0);
        z = std_q(fam, df, fa + u * (fb - fa), 1, 0);
    }
    if (!(z >= a)) z = a;      /* also catches NaN from extreme tails */
    if (z > b) z = b;
    return z;
}

double proposal_log_mass(const logz_proposal *p, const double *lo, const double *hi)
{
    double s = 0.0;
    for (int j = 0; j < p->d; j++) {
        double loc, scale, df, pre;
        std_params(p, j, &loc, &scale, &df, &pre);
        s += std_log_mass(p->family[j], df, (pre * lo[j] - loc) / scale, (pre * hi[j] - loc) / scale);
        if (s == R_NegInf) return s;
    }
    return s;
}

double proposal_quantile1(const logz_proposal *p, int j, double lo, double hi, double u)
{
    double loc, scale, df, pre;
    std_params(p, j, &loc, &scale, &df, &pre);
    double z = std_trunc_quantile(p->family[j], df, (pre * lo - loc) / scale, (pre * hi - loc) / scale, u);
    double x = (loc + scale * z) / pre;
    if (!(x >= lo)) x = lo;
    if (x > hi) x = hi;
    return x;
}

void proposal_draw(const logz_proposal *p, const double *lo, const double *hi, double *x)
{
    for (int j = 0; j < p->d; j++) x[j] = proposal_quantile1(p, j, lo[j], hi[j], unif_rand());
}

double proposal_grad_log_density1(const logz_proposal *p, int j, double x)
{
    const double *par = p->par + 3 * (size_t) j;
    double z;
    switch (p->family[j]) {
    case LOGZ_PROP_UNIFORM: return 0.0;
    case LOGZ_PROP_NORMAL: return -(x - par[0]) / (par[1] * par[1]);
    case LOGZ_PROP_EXPONENTIAL: return -par[0];
    case LOGZ_PROP_CAUCHY:
        z = x - par[0];
        return -2.0 * z / (par[1] * par[1] + z * z);
    case LOGZ_PROP_STUDENT:
        z = x - par[0];
        return -(par[2] + 1.0) * z / (par[2] * par[1] * par[1] + z * z);
    }
    logz_internal_error("unknown proposal family %d", p->family[j]);
    return NA_REAL;
}
