/* Expressions for A* targets: a small postfix program compiled in R from an R
 * expression (R/interval.R), evaluated at a point and, by interval arithmetic
 * (Hansen & Walster 2003), over a box, which gives the region bound M(B)
 * automatically, as the paper did with FuncDesigner (Section 6.3).
 *
 * Opcodes (arg: index into constants / parameters / data columns, or the
 * body length of a sum over data rows). Intervals are [lo, hi] with possibly
 * infinite ends; 0 * Inf counts as 0 and an undefined end widens to -Inf/+Inf,
 * so the result is always a valid (perhaps loose) enclosure. Rounding is
 * outward: every rounded end moves one ulp away from the interval (nextafter)
 * after an arithmetic operation, and two ulps after a libm function (whose
 * results are within one ulp of the exact value), so the enclosure holds the
 * exact real value, not only its nearest-rounded approximation: exact
 * sampling needs bounds that are valid. */
#include <math.h>
#include <Rmath.h>
#include "logz.h"

/* ---- at a point ----------------------------------------------------------- */

static int run_point(const logz_program *p, int start, int end, int row, const double *x,
                     double *st, int sp)
{
    for (int i = start; i < end; i++) {
        int a = p->arg[i];
        double v;
        switch (p->op[i]) {
        case LOGZ_OP_CONST: st[sp++] = p->k[a]; break;
        case LOGZ_OP_VAR: st[sp++] = x[a]; break;
        case LOGZ_OP_COL: st[sp++] = p->data[row + (size_t) p->nrow * a]; break;
        case LOGZ_OP_ADD: sp--; st[sp - 1] += st[sp]; break;
        case LOGZ_OP_SUB: sp--; st[sp - 1] -= st[sp]; break;
        case LOGZ_OP_MUL: sp--; st[sp - 1] *= st[sp]; break;
        case LOGZ_OP_DIV: sp--; st[sp - 1] /= st[sp]; break;
        case LOGZ_OP_NEG: st[sp - 1] = -st[sp - 1]; break;
        case LOGZ_OP_POWI: st[sp - 1] = R_pow_di(st[sp - 1], (int) p->k[a]); break;
        case LOGZ_OP_POWR: st[sp - 1] = R_pow(st[sp - 1], p->k[a]); break;
        case LOGZ_OP_POW: sp--; st[sp - 1] = R_pow(st[sp - 1], st[sp]); break;
        case LOGZ_OP_EXP: st[sp - 1] = exp(st[sp - 1]); break;
        case LOGZ_OP_LOG: v = st[sp - 1]; st[sp - 1] = v < 0 ? R_NaN : log(v); break;
        case LOGZ_OP_SQRT: v = st[sp - 1]; st[sp - 1] = v < 0 ? R_NaN : sqrt(v); break;
        case LOGZ_OP_ABS: st[sp - 1] = fabs(st[sp - 1]); break;
        case LOGZ_OP_SIN: st[sp - 1] = sin(st[sp - 1]); break;
        case LOGZ_OP_COS: st[sp - 1] = cos(st[sp - 1]); break;
        case LOGZ_OP_TANH: st[sp - 1] = tanh(st[sp - 1]); break;
        case LOGZ_OP_SUM: {
            double s = 0.0;
            for (int r = 0; r < p->nrow; r++) {
                run_point(p, i + 1, i + 1 + a, r, x, st, sp);
                s += st[sp];
            }
            st[sp++] = s;
            i += a;
            break;
        }
        }
    }
    return sp;
}

double program_point(const logz_program *p, const double *x, double *stack)
{
    run_point(p, 0, p->n, 0, x, stack, 0);
    return stack[0];
}

/* ---- over a box ------------------------------------------------------------ */

/* One (k) ulp(s) down / up; infinite ends stay where they are, except that an
 * end at +Inf / -Inf moving down / up becomes +/-DBL_MAX (still an enclosure). */
static double rdown(double x, int k)
{
    if (ISNAN(x) || x == R_NegInf) return x;
    while (k-- > 0) x = nextafter(x, R_NegInf);
    return x;
}

static double rup(double x, int k)
{
    if (ISNAN(x) || x == R_PosInf) return x;
    while (k-- > 0) x = nextafter(x, R_PosInf);
    return x;
}

/* ulps to widen by after each opcode: 0 for exact ones */
static int op_ulps(int op)
{
    switch (op) {
    case LOGZ_OP_CONST: case LOGZ_OP_VAR: case LOGZ_OP_COL: case LOGZ_OP_NEG: case LOGZ_OP_ABS: case LOGZ_OP_SUM:
    case LOGZ_OP_POWI:
        return 0;   /* exact, or rounded outward in place (LOGZ_OP_SUM, LOGZ_OP_POWI) */
    case LOGZ_OP_ADD: case LOGZ_OP_SUB: case LOGZ_OP_MUL: case LOGZ_OP_DIV:
        return 1;
    default:
        return 2;   /* exp, log, sqrt, pow, sin, cos, tanh */
    }
}

static double mul0(double a, double b)    /* 0 * Inf = 0 for enclosures */
{
    return (a == 0.0 || b == 0.0) ? 0.0 : a * b;
}

static void iv_mul(double a, double b, double c, double d, double *lo, double *hi)
{
    double p[4] = {mul0(a, c), mul0(a, d), mul0(b, c), mul0(b, d)};
    double l = p[0], h = p[0];
    for (int i = 1; i < 4; i++) {
        if (p[i] < l) l = p[i];
        if (p[i] > h) h = p[i];
    }
    *lo = l;
    *hi = h;
}

static void iv_powi(double a, double b, int k, double *lo, double *hi)
{
    if (k == 0) { *lo = *hi = 1.0; return; }
    if (k < 0) {
        double l, h;
        iv_powi(a, b, -k, &l, &h);
        if (l <= 0.0 && h >= 0.0) { *lo = R_NegInf; *hi = R_PosInf; return; }
        *lo = 1.0 / h;
        *hi = 1.0 / l;
        if (l == 0.0) *hi = R_PosInf;
        return;
    }
    double pa = R_pow_di(a, k), pb = R_pow_di(b, k);
    if (k % 2) { *lo = pa; *hi = pb; return; }
    if (a >= 0.0) { *lo = pa; *hi = pb; }
    else if (b <= 0.0) { *lo = pb; *hi = pa; }
    else { *lo = 0.0; *hi = pa > pb ? pa : pb; }
}

/* sin over [a, b]: the end values, and 1 / -1 where a peak / trough lies inside. */
static void iv_sin(double a, double b, double *lo, double *hi)
{
    if (!R_FINITE(a) || !R_FINITE(b) || b - a >= 2 * M_PI) { *lo = -1.0; *hi = 1.0; return; }
    double sa = sin(a), sb = sin(b);
    *lo = sa < sb ? sa : sb;
    *hi = sa < sb ? sb : sa;
    /* a peak pi/2 + 2 k pi in [a, b]? a trough -pi/2 + 2 k pi? */
    double kp = ceil((a - M_PI_2) / (2 * M_PI)), kt = ceil((a + M_PI_2) / (2 * M_PI));
    if (M_PI_2 + 2 * M_PI * kp <= b) *hi = 1.0;
    if (-M_PI_2 + 2 * M_PI * kt <= b) *lo = -1.0;
}

static int run_box(const logz_program *p, int start, int end, int row, const double *xl,
                   const double *xh, double *L, double *H, int sp)
{
    for (int i = start; i < end; i++) {
        int a = p->arg[i];
        double l1, h1, l2, h2;
        switch (p->op[i]) {
        case LOGZ_OP_CONST: L[sp] = H[sp] = p->k[a]; sp++; break;
        case LOGZ_OP_VAR: L[sp] = xl[a]; H[sp] = xh[a]; sp++; break;
        case LOGZ_OP_COL: L[sp] = H[sp] = p->data[row + (size_t) p->nrow * a]; sp++; break;
        case LOGZ_OP_ADD: sp--; L[sp - 1] += L[sp]; H[sp - 1] += H[sp]; break;
        case LOGZ_OP_SUB: sp--; L[sp - 1] -= H[sp]; H[sp - 1] -= L[sp]; break;
        case LOGZ_OP_MUL:
            sp--;
            iv_mul(L[sp - 1], H[sp - 1], L[sp], H[sp], &L[sp - 1], &H[sp - 1]);
            break;
        case LOGZ_OP_DIV:
            sp--;
            l2 = L[sp]; h2 = H[sp];
            if (l2 <= 0.0 && h2 >= 0.0) { L[sp - 1] = R_NegInf; H[sp - 1] = R_PosInf; break; }
            iv_mul(L[sp - 1], H[sp - 1], 1.0 / h2, 1.0 / l2, &L[sp - 1], &H[sp - 1]);
            break;
        case LOGZ_OP_NEG: l1 = L[sp - 1]; L[sp - 1] = -H[sp - 1]; H[sp - 1] = -l1; break;
        case LOGZ_OP_POWI: {
            /* R_pow_di multiplies (|k| - 1 roundings, and 1/x for k < 0) */
            int kk = (int) p->k[a];
            iv_powi(L[sp - 1], H[sp - 1], kk, &L[sp - 1], &H[sp - 1]);
            int u = kk < 0 ? -kk : kk;
            L[sp - 1] = rdown(L[sp - 1], u);
            H[sp - 1] = rup(H[sp - 1], u);
            break;
        }
        case LOGZ_OP_POWR: {
            /* real exponent: defined for a base >= 0, monotone there */
            double e = p->k[a];
            l1 = L[sp - 1] > 0.0 ? L[sp - 1] : 0.0;
            h1 = H[sp - 1];
            if (h1 < 0.0) { L[sp - 1] = R_NegInf; H[sp - 1] = R_PosInf; break; }
            L[sp - 1] = e > 0 ? R_pow(l1, e) : R_pow(h1, e);
            H[sp - 1] = e > 0 ? R_pow(h1, e) : R_pow(l1, e);
            break;
        }
        case LOGZ_OP_POW: {
            /* x^y = exp(y log x) for x >= 0; a base that can be negative gives
             * values only at integer y: no useful enclosure */
            sp--;
            if (L[sp - 1] < 0.0) { L[sp - 1] = R_NegInf; H[sp - 1] = R_PosInf; break; }
            l1 = L[sp - 1] > 0.0 ? log(L[sp - 1]) : R_NegInf;
            h1 = H[sp - 1] > 0.0 ? log(H[sp - 1]) : R_NegInf;
            iv_mul(l1, h1, L[sp], H[sp], &l2, &h2);
            L[sp - 1] = exp(l2);
            H[sp - 1] = exp(h2);
            break;
        }
        case LOGZ_OP_EXP: L[sp - 1] = exp(L[sp - 1]); H[sp - 1] = exp(H[sp - 1]); break;
        case LOGZ_OP_LOG:
            L[sp - 1] = L[sp - 1] > 0.0 ? log(L[sp - 1]) : R_NegInf;
            H[sp - 1] = H[sp - 1] > 0.0 ? log(H[sp - 1]) : (H[sp - 1] == 0.0 ? R_NegInf : R_NaN);
            break;
        case LOGZ_OP_SQRT:
            L[sp - 1] = L[sp - 1] > 0.0 ? sqrt(L[sp - 1]) : 0.0;
            H[sp - 1] = H[sp - 1] >= 0.0 ? sqrt(H[sp - 1]) : R_NaN;
            break;
        case LOGZ_OP_ABS:
            l1 = L[sp - 1]; h1 = H[sp - 1];
            if (l1 >= 0.0) break;
            if (h1 <= 0.0) { L[sp - 1] = -h1; H[sp - 1] = -l1; break; }
            L[sp - 1] = 0.0;
            H[sp - 1] = -l1 > h1 ? -l1 : h1;
            break;
        case LOGZ_OP_SIN: iv_sin(L[sp - 1], H[sp - 1], &L[sp - 1], &H[sp - 1]); break;
        case LOGZ_OP_COS: iv_sin(L[sp - 1] + M_PI_2, H[sp - 1] + M_PI_2, &L[sp - 1], &H[sp - 1]); break;
        case LOGZ_OP_TANH: L[sp - 1] = tanh(L[sp - 1]); H[sp - 1] = tanh(H[sp - 1]); break;
        case LOGZ_OP_SUM: {
            double sl = 0.0, sh = 0.0;
            for (int r = 0; r < p->nrow; r++) {
                run_box(p, i + 1, i + 1 + a, r, xl, xh, L, H, sp);
                sl = rdown(sl + L[sp], 1);
                sh = rup(sh + H[sp], 1);
            }
            L[sp] = sl;
            H[sp] = sh;
            sp++;
            i += a;
            break;
        }
        }
        /* outward rounding; an undefined end widens the enclosure */
        if (sp > 0) {
            int u = op_ulps(p->op[i]);
            if (u > 0) {
                L[sp - 1] = rdown(L[sp - 1], u);
                H[sp - 1] = rup(H[sp - 1], u);
            }
            if (ISNAN(L[sp - 1])) L[sp - 1] = R_NegInf;
            if (ISNAN(H[sp - 1])) H[sp - 1] = R_PosInf;
        }
    }
    return sp;
}

void program_box(const logz_program *p, const double *lo, const double *hi, double *L,
                 double *H, double *out_lo, double *out_hi)
{
    run_box(p, 0, p->n, 0, lo, hi, L, H, 0);
    *out_lo = L[0];
    *out_hi = H[0];
}
