/* GumbelMIP's tree-structured proposal (A* sampling's base measure,
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

/* log q(Q) for the region of st (state bytes: MIP_FIXED, its value MIP_SIGMA). Leaves in
 * bel[2 i + c] the upward belief of i: th_i(c) plus its children's messages,
 * -Inf for a value that the evidence excludes (for mip_tree_draw()). */
double mip_tree_region(const mip_tree *T, const unsigned char *st, double *bel)
{
    int n = T->n;
    for (int i = 0; i < n; i++) {
        bel[2 * i] = T->th[2 * i];
        bel[2 * i + 1] = T->th[2 * i + 1];
        if (st[i] & MIP_FIXED) bel[2 * i + 1 - (st[i] & MIP_SIGMA)] = R_NegInf;
    }
    double tot = 0.0;
    for (int k = n - 1; k >= 0; k--) {
        int i = T->order[k], p = T->parent[i];
        const double *b = bel + 2 * i;
        if (p < 0) { tot += logz_log_add_exp(b[0], b[1]); continue; }
        const double *s = T->psi + 4 * i;
        /* the message to the parent, for each parent value (a parent value
         * already excluded stays -Inf) */
        bel[2 * p] += logz_log_add_exp(b[0] + s[0], b[1] + s[1]);
        bel[2 * p + 1] += logz_log_add_exp(b[0] + s[2], b[1] + s[3]);
    }
    return tot - T->logz;
}

/* The free variables of st drawn from q given the fixed ones (MIP_SIGMA set,
 * MIP_FIXED left clear), from the beliefs mip_tree_region() left for the same st: each
 * variable given its parent's value, parents first. One uniform per free
 * variable. */
void mip_tree_draw(const mip_tree *T, unsigned char *st, const double *bel, logz_stream *rs)
{
    int n = T->n;
    for (int k = 0; k < n; k++) {
        int i = T->order[k], p = T->parent[i];
        if (st[i] & MIP_FIXED) continue;
        double l0 = bel[2 * i], l1 = bel[2 * i + 1];
        if (p >= 0) {
            const double *s = T->psi + 4 * i + 2 * (st[p] & MIP_SIGMA);
            l0 += s[0];
            l1 += s[1];
        }
        /* P(x_i = 1 | parent) = 1 / (1 + exp(l0 - l1)) */
        double p1 = 1.0 / (1.0 + exp(l0 - l1));
        st[i] = logz_stream_unif(rs) < p1 ? 1 : 0;
    }
}
