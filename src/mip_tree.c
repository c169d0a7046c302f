/* GumbelMIP's tree-structured proposal (issue 19; A* sampling's base measure,
 * Maddison, Tarlow & Minka 2014, Sec. 3-4, in the discrete setting of Kim,
 * Sabharwal & Ermon 2016): q(x) = exp(sum_i th_i(x_i) + sum_{tree edges}
 * psi_e(x_parent, x_child) - log Z_q), a pairwise model on a spanning forest
 * (R/mip_proposal.R builds it from the model: its maximum spanning forest of
 * |coupling| with the model's own unaries and edge tables). The search needs
 * from q, for a region Q of the configurations (some variables fixed, the
 * others free):
 *   log q(Q)        sum-product with evidence, one upward pass, O(n);
 *   sigma ~ q | Q   the free variables drawn given the fixed ones by forward
 *                   filtering (the upward pass) and backward sampling (one
 *                   downward pass), O(n).
 * The forest is given by an order in which every variable follows its parent
 * (parent -1 at the roots of the components), th[2 i + c] and psi[4 i + 2 cp
 * + c] (the log-potential of i's edge to its parent, cp the parent's value).
 * Both functions work on plain C types, without the R API (they run in the
 * search threads); the scratch is 2 n doubles per thread. */
#include <math.h>
#include <string.h>
#include "mip.h"

static double lse2(double a, double b)
{
    if (a == R_NegInf) return b;
    if (b == R_NegInf) return a;
    return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

/* log q(Q) for the region of st (bit 1: fixed, bit 0: its value). Leaves in
 * bel[2 i + c] the upward belief of i: th_i(c) plus its children's messages,
 * -Inf for a value that the evidence excludes (for mip_tree_draw()). */
double mip_tree_region(const mip_tree *T, const unsigned char *st, double *bel)
{
    int n = T->n;
    for (int i = 0; i < n; i++) {
        bel[2 * i] = T->th[2 * i];
        bel[2 * i + 1] = T->th[2 * i + 1];
        if (st[i] & 2) bel[2 * i + 1 - (st[i] & 1)] = R_NegInf;
    }
    double tot = 0.0;
    for (int k = n - 1; k >= 0; k--) {
        int i = T->order[k], p = T->parent[i];
        const double *b = bel + 2 * i;
        if (p < 0) { tot += lse2(b[0], b[1]); continue; }
        const double *s = T->psi + 4 * i;
        /* the message to the parent, for each parent value (a parent value
         * already excluded stays -Inf) */
        bel[2 * p] += lse2(b[0] + s[0], b[1] + s[1]);
        bel[2 * p + 1] += lse2(b[0] + s[2], b[1] + s[3]);
    }
    return tot - T->logz;
}

/* The free variables of st drawn from q given the fixed ones (bit 0 set, bit 1
 * left clear), from the beliefs mip_tree_region() left for the same st: each
 * variable given its parent's value, parents first. One uniform per free
 * variable. */
void mip_tree_draw(const mip_tree *T, unsigned char *st, const double *bel, logz_stream *rs)
{
    int n = T->n;
    for (int k = 0; k < n; k++) {
        int i = T->order[k], p = T->parent[i];
        if (st[i] & 2) continue;
        double l0 = bel[2 * i], l1 = bel[2 * i + 1];
        if (p >= 0) {
            const double *s = T->psi + 4 * i + 2 * (st[p] & 1);
            l0 += s[0];
            l1 += s[1];
        }
        /* P(x_i = 1 | parent) = 1 / (1 + exp(l0 - l1)) */
        double p1 = 1.0 / (1.0 + exp(l0 - l1));
        st[i] = logz_stream_unif(rs) < p1 ? 1 : 0;
    }
}

/* The forest of an R list (order, parent: 0-based; th, psi, logz), or NULL for
 * R_NilValue; R_alloc'd, checked. */
const mip_tree *mip_tree_from_list(SEXP tr, int n)
{
    if (tr == R_NilValue) return NULL;
    SEXP order = logz_need(tr, "order", INTSXP), parent = logz_need(tr, "parent", INTSXP);
    SEXP th = logz_need(tr, "th", REALSXP), psi = logz_need(tr, "psi", REALSXP);
    if (LENGTH(order) != n || LENGTH(parent) != n || LENGTH(th) != 2 * n || LENGTH(psi) != 4 * n)
        error("internal error: bad tree proposal");
    mip_tree *T = (mip_tree *) R_alloc(1, sizeof(mip_tree));
    T->n = n;
    T->order = INTEGER(order);
    T->parent = INTEGER(parent);
    T->th = REAL(th);
    T->psi = REAL(psi);
    T->logz = asReal(logz_need(tr, "logz", REALSXP));
    /* every variable once, after its parent; finite potentials (q > 0) */
    int *pos = (int *) R_alloc(n > 0 ? n : 1, sizeof(int));
    for (int i = 0; i < n; i++) pos[i] = -1;
    for (int k = 0; k < n; k++) {
        int i = T->order[k];
        if (i < 0 || i >= n || pos[i] >= 0) error("internal error: bad tree order");
        pos[i] = k;
    }
    for (int i = 0; i < n; i++) {
        int p = T->parent[i];
        if (p < -1 || p >= n || (p >= 0 && pos[p] >= pos[i]))
            error("internal error: bad tree parent");
    }
    for (int k = 0; k < 2 * n; k++) if (!R_FINITE(T->th[k])) error("internal error: bad tree unaries");
    for (int k = 0; k < 4 * n; k++) if (!R_FINITE(T->psi[k])) error("internal error: bad tree edges");
    if (!R_FINITE(T->logz)) error("internal error: bad tree log partition");
    return T;
}

/* mip_tree_call(tree, fix (n x J integer, NA free), streams (6 x J) or NULL):
 * for each column, log q(region) and (with streams) a draw of q given the
 * fixed variables; for tests, and for R's log Z_q (the region of no fixed
 * variable with logz = 0, no streams: R's RNG is left alone). */
SEXP mip_tree_call(SEXP tr, SEXP fix, SEXP streams)
{
    int n = LENGTH(logz_need(tr, "order", INTSXP));
    const mip_tree *T = mip_tree_from_list(tr, n);
    if (TYPEOF(fix) != INTSXP || (n > 0 && XLENGTH(fix) % n != 0))
        error("internal error: bad fixings");
    int J = n > 0 ? (int) (XLENGTH(fix) / n) : 0;
    logz_stream *rs = NULL;
    if (streams != R_NilValue) {
        if (TYPEOF(streams) != REALSXP || XLENGTH(streams) != 6 * (R_xlen_t) J)
            error("internal error: bad streams");
        rs = (logz_stream *) R_alloc(J > 0 ? J : 1, sizeof(logz_stream));
        if (!logz_streams_from_double(J, REAL(streams), rs))
            error("internal error: stream state out of range");
    }
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    double *bel = (double *) R_alloc(2 * (size_t) (n > 0 ? n : 1), sizeof(double));
    const char *nm[] = {"logq", "states", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, nm));
    SEXP lq = allocVector(REALSXP, J);
    SET_VECTOR_ELT(out, 0, lq);
    SEXP S = allocMatrix(INTSXP, n, J);
    SET_VECTOR_ELT(out, 1, S);
    for (int k = 0; k < J; k++) {
        const int *f = INTEGER(fix) + (size_t) k * n;
        for (int j = 0; j < n; j++) st[j] = f[j] == NA_INTEGER ? 0 : (unsigned char) (2 | (f[j] & 1));
        REAL(lq)[k] = mip_tree_region(T, st, bel);
        if (rs) mip_tree_draw(T, st, bel, rs + k);
        for (int j = 0; j < n; j++)
            INTEGER(S)[(size_t) k * n + j] = rs || (st[j] & 2) ? st[j] & 1 : NA_INTEGER;
    }
    UNPROTECT(1);
    return out;
}
