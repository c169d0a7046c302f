/* A* sampling: region bounds of the built-in robust (Cauchy-noise)
 * regression model, o(w) = sum_n f(x_n'w - y_n) + log prior(w) + const with
 * f(r) = -log(1 + r^2) (Maddison, Tarlow & Minka 2014, Section 6.4).
 *
 * Over a finite box B with centre c and half-widths h, each residual
 * r_n = x_n'w - y_n ranges over [r0_n - e_n, r0_n + e_n] with r0_n = x_n'c - y_n
 * and e_n = sum_j |x_nj| h_j. Each term is bounded on that interval by
 *   b_n(r) = a0 + a1 (r - r0) + a2 / 2 (r - r0)^2 >= f(r),
 * and with v = w - c (r - r0 = x_n'v) the sum of the b_n plus the Gaussian
 * log prior is a quadratic Q(v) = const + g'v + v'Hv / 2 whose maximum over
 * [-h, h] is the region's bound:
 *   linear:    b_n linear: the tangent at r0 where f is concave on the interval
 *              (f'' <= 0), the chord of f where it is convex (f'' >= 0), and
 *              otherwise the chord of the quadratic bound below; H is then
 *              the prior's diagonal, so Q is maximised coordinate-wise.
 *   quadratic: a2 = sup f'' over the interval (Taylor's theorem with the
 *              Lagrange remainder), so b_n >= f; Q may be indefinite and is
 *              maximised exactly by enumerating the 3^d faces of the box (each
 *              coordinate at -h, +h or free, the free ones at the stationary
 *              point of their face); used for d <= CAUCHY_QUAD_MAX_D, beyond
 *              which the linear bound is used.
 * Both are combined with the constant bound (each term at its smallest |r|)
 * by taking the smaller; on unbounded boxes only the constant bound is used. */
#include <math.h>
#include <Rmath.h>
#include "astar.h"

#define CAUCHY_QUAD_MAX_D 8

static double f0(double r) { return -log1p(r * r); }
static double f1(double r) { return -2.0 * r / (1.0 + r * r); }
/* f'' as a function of u = r^2: increasing on [0, 3], decreasing after */
static double f2u(double u) { return 2.0 * (u - 1.0) / ((1.0 + u) * (1.0 + u)); }

/* the constant bound: each term at the point of the box where |r| is smallest */
static double cauchy_constant(const astar_target *tg, const double *lo, const double *hi)
{
    double m = 0.0, s = tg->par[0];
    if (s > 0)
        for (int j = 0; j < tg->d; j++) m += dnorm(fmin2(fmax2(0.0, lo[j]), hi[j]), 0.0, s, 1);
    for (int n = 0; n < tg->nrow; n++) {
        double rl = -tg->y[n], ru = -tg->y[n];
        for (int j = 0; j < tg->d; j++) {
            double c = tg->X[n + (size_t) tg->nrow * j];
            if (c == 0.0) continue;
            double a = c * lo[j], b = c * hi[j];
            rl += a < b ? a : b;
            ru += a < b ? b : a;
        }
        double r = (rl <= 0.0 && ru >= 0.0) ? 0.0 : (rl > 0.0 ? rl : -ru);
        m -= log1p(r * r);
    }
    return m;
}

/* b_n on [r0 - e, r0 + e]: coefficients (a0, a1, a2) about r0 */
static void term_bound(double r0, double e, int type, double *a)
{
    double rl = r0 - e, ru = r0 + e;
    double umin = (rl <= 0.0 && ru >= 0.0) ? 0.0 : fmin2(rl * rl, ru * ru);
    double umax = fmax2(rl * rl, ru * ru);
    double sup2 = (umin <= 3.0 && umax >= 3.0) ? 0.25 : fmax2(f2u(umin), f2u(umax));
    double inf2 = fmin2(f2u(umin), f2u(umax));
    a[0] = f0(r0);
    a[1] = f1(r0);
    a[2] = 0.0;
    if (type == LOGZ_GAUSS_BOUND_QUADRATIC) {
        a[2] = sup2;
    } else if (sup2 <= 0.0 || e == 0.0) {
        /* concave on the interval: the tangent at r0 */
    } else if (inf2 >= 0.0) {
        /* convex on the interval: the chord of f */
        a[1] = (f0(ru) - f0(rl)) / (2.0 * e);
        a[0] = 0.5 * (f0(ru) + f0(rl));
    } else {
        /* the chord of the quadratic bound a0 + a1 t + sup2 t^2 / 2 */
        a[0] += 0.5 * sup2 * e * e;
    }
}

/* solve A z = b (k x k, column-major, overwritten) by Gaussian elimination with
 * partial pivoting; 0 if A is (numerically) singular */
static int small_solve(int k, double *A, double *b, double scale)
{
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(A[r + k * c]) > fabs(A[p + k * c])) p = r;
        if (!(fabs(A[p + k * c]) > 1e-12 * scale)) return 0;
        if (p != c) {
            for (int j = 0; j < k; j++) {
                double t = A[c + k * j]; A[c + k * j] = A[p + k * j]; A[p + k * j] = t;
            }
            double t = b[c]; b[c] = b[p]; b[p] = t;
        }
        for (int r = c + 1; r < k; r++) {
            double f = A[r + k * c] / A[c + k * c];
            if (f == 0.0) continue;
            for (int j = c; j < k; j++) A[r + k * j] -= f * A[c + k * j];
            b[r] -= f * b[c];
        }
    }
    for (int c = k - 1; c >= 0; c--) {
        double t = b[c];
        for (int j = c + 1; j < k; j++) t -= A[c + k * j] * b[j];
        b[c] = t / A[c + k * c];
    }
    return 1;
}

static double quad_value(int d, const double *g, const double *H, const double *v)
{
    double q = 0.0;
    for (int i = 0; i < d; i++) {
        double hv = 0.0;
        for (int j = 0; j < d; j++) hv += H[i + d * j] * v[j];
        q += v[i] * (g[i] + 0.5 * hv);
    }
    return q;
}

/* max of g'v + v'Hv/2 over |v_j| <= h_j, by the faces of the box */
static double quad_box_max(int d, const double *g, const double *H, const double *h)
{
    int *state = (int *) R_alloc(d, sizeof(int));      /* 0: -h, 1: +h, 2: free */
    int *fr = (int *) R_alloc(d, sizeof(int));
    double *v = (double *) R_alloc(d, sizeof(double));
    double *A = (double *) R_alloc((size_t) d * d, sizeof(double));
    double *b = (double *) R_alloc(d, sizeof(double));
    double scale = 0.0, best = R_NegInf;
    for (int i = 0; i < d * d; i++) scale = fmax2(scale, fabs(H[i]));
    long faces = 1;
    for (int j = 0; j < d; j++) faces *= 3;
    for (long f = 0; f < faces; f++) {
        long t = f;
        int k = 0;
        for (int j = 0; j < d; j++) {
            state[j] = (int) (t % 3);
            t /= 3;
            if (state[j] == 2) fr[k++] = j;
            else v[j] = state[j] ? h[j] : -h[j];
        }
        if (k > 0) {
            for (int a = 0; a < k; a++) {
                double r = -g[fr[a]];
                for (int j = 0; j < d; j++)
                    if (state[j] != 2) r -= H[fr[a] + d * j] * v[j];
                b[a] = r;
                for (int c = 0; c < k; c++) A[a + k * c] = H[fr[a] + d * fr[c]];
            }
            if (!small_solve(k, A, b, scale)) continue;
            int inside = 1;
            for (int a = 0; a < k && inside; a++) {
                double hj = h[fr[a]];
                if (fabs(b[a]) > hj * (1.0 + 1e-12)) inside = 0;
                v[fr[a]] = fmin2(fmax2(b[a], -hj), hj);
            }
            if (!inside) continue;
        }
        double q = quad_value(d, g, H, v);
        if (q > best) best = q;
    }
    return best;
}

double cauchy_bound(const astar_target *tg, const double *lo, const double *hi, int type)
{
    int d = tg->d, N = tg->nrow;
    double m = cauchy_constant(tg, lo, hi), s = tg->par[0];
    int finite = 1;
    for (int j = 0; j < d; j++)
        if (!R_FINITE(lo[j]) || !R_FINITE(hi[j])) finite = 0;
    if (type != LOGZ_GAUSS_BOUND_CONSTANT && finite) {
        if (type == LOGZ_GAUSS_BOUND_QUADRATIC && d > CAUCHY_QUAD_MAX_D)
            type = LOGZ_GAUSS_BOUND_LINEAR;
        double *c = (double *) R_alloc(d, sizeof(double)), *h = (double *) R_alloc(d, sizeof(double));
        double *g = (double *) R_alloc(d, sizeof(double));
        double *H = (double *) R_alloc((size_t) d * d, sizeof(double));
        double k0 = 0.0, a[3];
        for (int j = 0; j < d; j++) {
            c[j] = 0.5 * (lo[j] + hi[j]);
            h[j] = 0.5 * (hi[j] - lo[j]);
            g[j] = 0.0;
        }
        memset(H, 0, sizeof(double) * d * d);
        for (int n = 0; n < N; n++) {
            double r0 = -tg->y[n], e = 0.0;
            for (int j = 0; j < d; j++) {
                double xj = tg->X[n + (size_t) N * j];
                r0 += xj * c[j];
                e += fabs(xj) * h[j];
            }
            term_bound(r0, e, type, a);
            k0 += a[0];
            for (int j = 0; j < d; j++) {
                double xj = tg->X[n + (size_t) N * j];
                g[j] += a[1] * xj;
                if (a[2] != 0.0)
                    for (int i = 0; i < d; i++) H[i + d * j] += a[2] * tg->X[n + (size_t) N * i] * xj;
            }
        }
        if (s > 0)
            for (int j = 0; j < d; j++) {
                k0 += dnorm(c[j], 0.0, s, 1);
                g[j] -= c[j] / (s * s);
                H[j + d * j] -= 1.0 / (s * s);
            }
        double best;
        if (type == LOGZ_GAUSS_BOUND_LINEAR) {
            /* H diagonal: each coordinate on its own */
            best = 0.0;
            for (int j = 0; j < d; j++) {
                double hjj = H[j + d * j], v;
                if (hjj < 0.0) v = fmin2(fmax2(-g[j] / hjj, -h[j]), h[j]);
                else v = g[j] >= 0.0 ? h[j] : -h[j];
                best += v * (g[j] + 0.5 * hjj * v);
            }
        } else {
            best = quad_box_max(d, g, H, h);
        }
        if (k0 + best < m) m = k0 + best;
    }
    return m + tg->par[1] - N * log(M_PI);
}
