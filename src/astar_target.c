/* A* sampling: the target p(x) ∝ exp(i(x) + o(x)), its log-likelihood
 * difference o and region bound M, either R functions (called back) or
 * built-in C models; and o and M at many points / boxes for R. */
#include <math.h>
#include <string.h>
#include <Rmath.h>
#include "astar.h"

/* ---- target: log-likelihood difference o(x) and region bound M(B) -------- */

void target_from_list(SEXP t, astar_target *tg)
{
    SEXP name = logz_get(t, "name"), model = logz_get(t, "model"), par = logz_get(t, "par");
    SEXP X = logz_get(t, "X"), y = logz_get(t, "y");
    if (TYPEOF(name) != STRSXP || TYPEOF(model) != INTSXP || TYPEOF(par) != REALSXP)
        logz_internal_error("malformed A* target");
    memset(tg, 0, sizeof(*tg));
    tg->name = CHAR(STRING_ELT(name, 0));
    tg->model = INTEGER(model)[0];
    proposal_from_list(logz_get(t, "proposal"), &tg->prop);
    tg->d = tg->prop.d;
    tg->par = REAL(par);
    tg->npar = LENGTH(par);
    if (!isNull(X)) {
        SEXP dim = getAttrib(X, R_DimSymbol);
        if (TYPEOF(X) != REALSXP || LENGTH(dim) != 2) logz_internal_error("bad target data");
        tg->X = REAL(X);
        tg->nrow = INTEGER(dim)[0];
        tg->ncol = INTEGER(dim)[1];
    }
    if (!isNull(y)) {
        if (TYPEOF(y) != REALSXP || LENGTH(y) != tg->nrow) logz_internal_error("bad target y");
        tg->y = REAL(y);
    }
    switch (tg->model) {
    case LOGZ_ASTAR_R:
        tg->log_lik = logz_get(t, "log_lik");
        tg->bound = logz_get(t, "bound");
        tg->env = logz_get(t, "env");
        if (!isFunction(tg->log_lik) || !isFunction(tg->bound) || !isEnvironment(tg->env))
            logz_internal_error("R target without functions");
        break;
    case LOGZ_ASTAR_PEAKY:
        if (tg->npar != 1 || tg->d != 1) logz_internal_error("bad peaky target");
        break;
    case LOGZ_ASTAR_CLUTTER: {
        /* par: inlier weight w, outlier sd s; o(x) = sum_n log(w N(y_n; x, I) +
         * (1 - w) N(y_n; 0, s^2 I)); work[n] = log of the outlier term. */
        if (tg->npar != 2 || !tg->X || tg->ncol != tg->d) logz_internal_error("bad clutter target");
        double w = tg->par[0], s = tg->par[1], D = tg->d;
        tg->work = (double *) R_alloc((size_t) tg->nrow + 1, sizeof(double));
        for (int n = 0; n < tg->nrow; n++) {
            double ss = 0.0;
            for (int j = 0; j < tg->d; j++) {
                double v = tg->X[n + (size_t) tg->nrow * j];
                ss += v * v;
            }
            tg->work[n] = log1p(-w) - 0.5 * ss / (s * s) - 0.5 * D * log(2 * M_PI) - D * log(s);
        }
        tg->work[tg->nrow] = log(w) - 0.5 * D * log(2 * M_PI);
        break;
    }
    case LOGZ_ASTAR_CAUCHY:
        /* par: prior sd (0: no prior term), offset added to o, bound type
         * (logz_gauss_bound; see astar_cauchy.c). */
        if (tg->npar != 3 || tg->par[2] < LOGZ_GAUSS_BOUND_CONSTANT ||
            tg->par[2] > LOGZ_GAUSS_BOUND_QUADRATIC || !tg->X || !tg->y || tg->ncol != tg->d)
            logz_internal_error("bad Cauchy regression target");
        break;
    case LOGZ_ASTAR_GAUSS_MEAN: {
        /* par: sd, bound type; X: the N observations (N x 1); work: sum x,
         * sum x^2, N log N(0; 0, sd^2) */
        if (tg->npar != 2 || !tg->X || tg->ncol != 1 || tg->d != 1)
            logz_internal_error("bad Gaussian-mean target");
        double s = tg->par[0], s1 = 0.0, s2 = 0.0;
        for (int n = 0; n < tg->nrow; n++) {
            s1 += tg->X[n];
            s2 += tg->X[n] * tg->X[n];
        }
        tg->work = (double *) R_alloc(3, sizeof(double));
        tg->work[0] = s1;
        tg->work[1] = s2;
        tg->work[2] = tg->nrow * (-0.5 * log(2 * M_PI) - log(s));
        break;
    }
    case LOGZ_ASTAR_EXPR:
        program_from_list(logz_get(t, "program"), &tg->prog);
        if (tg->prog.d != tg->d) logz_internal_error("expression of the wrong dimension");
        tg->stack = (double *) R_alloc((size_t) tg->prog.n + 1, sizeof(double));
        tg->stack_hi = (double *) R_alloc((size_t) tg->prog.n + 1, sizeof(double));
        break;
    default:
        logz_internal_error("unknown A* model %d", tg->model);
    }
}

static double call_r_scalar(astar_target *tg, SEXP fn, int nargs, const double *a,
                            const double *b, const char *what)
{
    int d = tg->d;
    SEXP xa = PROTECT(allocVector(REALSXP, d));
    memcpy(REAL(xa), a, sizeof(double) * d);
    SEXP call;
    if (nargs == 1) {
        call = PROTECT(lang2(fn, xa));
    } else {
        SEXP xb = PROTECT(allocVector(REALSXP, d));
        memcpy(REAL(xb), b, sizeof(double) * d);
        call = lang3(fn, xa, xb);
        UNPROTECT(1);
        PROTECT(call);
    }
    SEXP r = PROTECT(eval(call, tg->env));
    if (!(TYPEOF(r) == REALSXP || TYPEOF(r) == INTSXP || TYPEOF(r) == LGLSXP) || LENGTH(r) != 1)
        error("target '%s': `%s` must return a single number.", tg->name, what);
    double v = asReal(r);
    UNPROTECT(3);
    return v;
}

static double clutter_term(const astar_target *tg, int n, const double *x)
{
    double ss = 0.0;
    for (int j = 0; j < tg->d; j++) {
        double r = tg->X[n + (size_t) tg->nrow * j] - x[j];
        ss += r * r;
    }
    return logz_log_add_exp(tg->work[tg->nrow] - 0.5 * ss, tg->work[n]);
}

/* 1-D Gaussian mean: o(mu) = sum_n log N(x_n; mu, sd^2), from the sums */
static double gauss_mean_o(const astar_target *tg, double mu)
{
    double s = tg->par[0], N = tg->nrow;
    return tg->work[2] - (tg->work[1] - 2.0 * mu * tg->work[0] + N * mu * mu) / (2.0 * s * s);
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Bounds of o over [l, u] (Section 6.2): "constant" sums each term's maximum
 * (at the point of the box nearest x_n); "linear" sums each term's tangent
 * at the box centre m (an upper bound: the terms are concave) and maximises
 * the sum, o(m) + o'(m)(mu - m), at an end of the box, falling back to
 * constant bounds on unbounded boxes; "quadratic" sums the terms themselves
 * (quadratic, so the bound is tight): o at the clamped mean. */
static double gauss_mean_m(const astar_target *tg, double l, double u)
{
    double s = tg->par[0], N = tg->nrow;
    int type = (int) tg->par[1];
    if (type == LOGZ_GAUSS_BOUND_QUADRATIC) return gauss_mean_o(tg, clamp(tg->work[0] / N, l, u));
    if (type == LOGZ_GAUSS_BOUND_LINEAR && R_FINITE(l) && R_FINITE(u)) {
        double m = 0.5 * (l + u), g = (tg->work[0] - N * m) / (s * s);
        return gauss_mean_o(tg, m) + (g > 0 ? g * (u - m) : g * (l - m));
    }
    double ss = 0.0;
    for (int n = 0; n < tg->nrow; n++) {
        double r = tg->X[n] - clamp(tg->X[n], l, u);
        ss += r * r;
    }
    return tg->work[2] - ss / (2.0 * s * s);
}

static double target_o(astar_target *tg, const double *x)
{
    double o = 0.0;
    switch (tg->model) {
    case LOGZ_ASTAR_R:
        o = call_r_scalar(tg, tg->log_lik, 1, x, NULL, "log_lik");
        break;
    case LOGZ_ASTAR_PEAKY:
        o = -tg->par[0] * log1p(x[0]);
        break;
    case LOGZ_ASTAR_CLUTTER:
        for (int n = 0; n < tg->nrow; n++) o += clutter_term(tg, n, x);
        break;
    case LOGZ_ASTAR_CAUCHY: {
        double s = tg->par[0];
        if (s > 0)
            for (int j = 0; j < tg->d; j++) o += dnorm(x[j], 0.0, s, 1);
        for (int n = 0; n < tg->nrow; n++) {
            double r = -tg->y[n];
            for (int j = 0; j < tg->d; j++) r += tg->X[n + (size_t) tg->nrow * j] * x[j];
            o -= log1p(r * r);
        }
        o += tg->par[1] - tg->nrow * log(M_PI);
        break;
    }
    case LOGZ_ASTAR_EXPR:
        o = program_point(&tg->prog, x, tg->stack);
        break;
    case LOGZ_ASTAR_GAUSS_MEAN:
        o = gauss_mean_o(tg, x[0]);
        break;
    }
    return o;
}

/* o(x), counted; +Inf and NaN are errors, -Inf is zero density. */
double target_log_lik(astar_target *tg, const double *x)
{
    tg->n_lik += 1;
    double o = target_o(tg, x);
    if (ISNAN(o) || o == R_PosInf)
        error("target '%s': log_lik is %s at x = (%g%s); it must be finite or -Inf.",
              tg->name, ISNAN(o) ? "NaN" : "+Inf", x[0], tg->d > 1 ? ", ..." : "");
    return o;
}

static double target_m(astar_target *tg, const double *lo, const double *hi)
{
    double m = 0.0;
    switch (tg->model) {
    case LOGZ_ASTAR_R:
        m = call_r_scalar(tg, tg->bound, 2, lo, hi, "bound");
        break;
    case LOGZ_ASTAR_PEAKY:
        m = -tg->par[0] * log1p(lo[0] > 0 ? lo[0] : 0.0);
        break;
    case LOGZ_ASTAR_CLUTTER: {
        /* each term is largest at the point of the box nearest y_n */
        double *xs = (double *) R_alloc(tg->d, sizeof(double));
        for (int n = 0; n < tg->nrow; n++) {
            for (int j = 0; j < tg->d; j++)
                xs[j] = clamp(tg->X[n + (size_t) tg->nrow * j], lo[j], hi[j]);
            m += clutter_term(tg, n, xs);
        }
        break;
    }
    case LOGZ_ASTAR_CAUCHY:
        m = cauchy_bound(tg, lo, hi, (int) tg->par[2]);
        break;
    case LOGZ_ASTAR_EXPR: {
        double l;
        program_box(&tg->prog, lo, hi, tg->stack, tg->stack_hi, &l, &m);
        break;
    }
    case LOGZ_ASTAR_GAUSS_MEAN:
        m = gauss_mean_m(tg, lo[0], hi[0]);
        break;
    }
    return m;
}

/* M(B), counted; NaN is an error. */
double target_bound(astar_target *tg, const double *lo, const double *hi)
{
    tg->n_bound += 1;
    const void *vmax = vmaxget();
    double m = target_m(tg, lo, hi);
    vmaxset(vmax);
    if (ISNAN(m)) error("target '%s': bound is NaN on a region.", tg->name);
    return m;
}

void check_below_bound(const astar_target *tg, double o, double m, const double *x)
{
    /* (an infinite bound gets no tolerance: -Inf + Inf would be NaN) */
    if (o > m + (R_FINITE(m) ? 1e-8 * (1.0 + fabs(m)) : 0.0))
        error("target '%s': log_lik at x = (%g%s) is %g, above the bound %g of its region; "
              "`bound` must return an upper bound of `log_lik` over the box.",
              tg->name, x[0], tg->d > 1 ? ", ..." : "", o, m);
}

#ifndef ASTAR_CHECK_WORK
#define ASTAR_CHECK_WORK 2e6
#endif

/* R_CheckUserInterrupt() after every evaluation of an R target, else once
 * about ASTAR_CHECK_WORK operations of evaluations (a built-in model's
 * log_lik or bound is a pass over its data rows) have passed since the last
 * check; *next: the work at which the next check is due (0 at the start). */
void target_check_interrupt(const astar_target *tg, double *next)
{
    double per = 1.0 + (double) tg->nrow * (tg->ncol > 0 ? tg->ncol : 1);
    double work = (tg->n_lik + tg->n_bound) * per;
    if (tg->model == LOGZ_ASTAR_R || work >= *next) {
        *next = work + ASTAR_CHECK_WORK;
        R_CheckUserInterrupt();
    }
}
