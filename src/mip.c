/* GumbelMIP's .Call glue (the top layer of mip.h): reading the model, LP,
 * proposal and control lists that R/mip*.R build, the GLPK error trap of
 * the LP bounds call (setjmp; the hook longjmps here through mip_lp_trap; a
 * batch of samples traps on each of its threads, mip_batch.c, and reports
 * MIP_LP_ERROR), R errors, and the result lists. The engines below work on
 * plain C types. */
#include <string.h>
#include <setjmp.h>
#include "mip.h"

/* ---- reading R lists ------------------------------------------------------------ */

static void model_from_list(SEXP cm, mip_value_model *M)
{
    memset(M, 0, sizeof *M);
    M->n = asInteger(logz_need(cm, "n", INTSXP));
    int kind = asInteger(logz_need(cm, "kind", INTSXP));
    M->c0 = asReal(logz_need(cm, "c0", REALSXP));
    if (kind == MIP_KIND_PAIRWISE) {
        M->kind = MIP_KIND_PAIRWISE;
        SEXP from = logz_need(cm, "from", INTSXP), to = logz_need(cm, "to", INTSXP);
        SEXP node = logz_need(cm, "node", REALSXP), edge = logz_need(cm, "edge", REALSXP);
        M->m = LENGTH(from);
        if (LENGTH(to) != M->m || LENGTH(node) != 2 * M->n || LENGTH(edge) != 4 * M->m)
            error("internal error: bad pairwise mip model");
        M->from = INTEGER(from); M->to = INTEGER(to);
        for (int e = 0; e < M->m; e++)
            if (M->from[e] < 0 || M->from[e] >= M->n || M->to[e] < 0 || M->to[e] >= M->n)
                error("internal error: edge end out of range");
        M->node = REAL(node); M->edge = REAL(edge);
    } else if (kind == MIP_KIND_LINEAR) {
        M->kind = MIP_KIND_LINEAR;
        SEXP c = logz_need(cm, "c", REALSXP);
        SEXP ai = logz_need(cm, "ai", INTSXP), aj = logz_need(cm, "aj", INTSXP);
        SEXP ax = logz_need(cm, "ax", REALSXP);
        SEXP rlo = logz_need(cm, "rlo", REALSXP), rhi = logz_need(cm, "rhi", REALSXP);
        if (LENGTH(c) != M->n || LENGTH(aj) != LENGTH(ai) || LENGTH(ax) != LENGTH(ai) ||
            LENGTH(rhi) != LENGTH(rlo))
            error("internal error: bad linear mip model");
        M->c = REAL(c); M->nrow = LENGTH(rlo); M->nnz = LENGTH(ai);
        M->ai = INTEGER(ai); M->aj = INTEGER(aj); M->ax = REAL(ax);
        M->rlo = REAL(rlo); M->rhi = REAL(rhi);
        for (int k = 0; k < M->nnz; k++)
            if (M->ai[k] < 0 || M->ai[k] >= M->nrow || M->aj[k] < 0 || M->aj[k] >= M->n)
                error("internal error: constraint index out of range");
    } else error("internal error: unknown mip model kind %d", kind);
}

static void lp_from_list(SEXP lp, int n, mip_lp_def *L)
{
    SEXP obj = logz_need(lp, "obj", REALSXP), clo = logz_need(lp, "clo", REALSXP);
    SEXP chi = logz_need(lp, "chi", REALSXP), rlo = logz_need(lp, "rlo", REALSXP);
    SEXP rhi = logz_need(lp, "rhi", REALSXP), ia = logz_need(lp, "ia", INTSXP);
    SEXP ja = logz_need(lp, "ja", INTSXP), ar = logz_need(lp, "ar", REALSXP);
    *L = (mip_lp_def) {.ncol = LENGTH(obj), .nrow = LENGTH(rlo), .nnz = LENGTH(ia)};
    if (L->ncol < n || LENGTH(clo) != L->ncol || LENGTH(chi) != L->ncol ||
        LENGTH(rhi) != L->nrow || LENGTH(ja) != L->nnz || LENGTH(ar) != L->nnz)
        error("internal error: bad LP definition");
    L->obj = REAL(obj); L->clo = REAL(clo); L->chi = REAL(chi); L->rlo = REAL(rlo);
    L->rhi = REAL(rhi); L->ia = INTEGER(ia); L->ja = INTEGER(ja); L->ar = REAL(ar);
    for (int k = 0; k < L->nnz; k++)
        if (L->ia[k] < 0 || L->ia[k] >= L->nrow || L->ja[k] < 0 || L->ja[k] >= L->ncol)
            error("internal error: LP matrix index out of range");
    L->c0 = asReal(logz_need(lp, "c0", REALSXP));
}

/* The forest of an R list (order, parent: 0-based; th, psi, logz), or NULL for
 * R_NilValue; R_alloc'd, checked. */
static const mip_tree *tree_from_list(SEXP tr, int n)
{
    if (tr == R_NilValue) return NULL;
    SEXP order = logz_need(tr, "order", INTSXP), parent = logz_need(tr, "parent", INTSXP);
    SEXP th = logz_need(tr, "th", REALSXP), psi = logz_need(tr, "psi", REALSXP);
    if (LENGTH(order) != n || LENGTH(parent) != n || LENGTH(th) != 2 * n || LENGTH(psi) != 4 * n)
        error("internal error: bad tree proposal");
    mip_tree *T = (mip_tree *) R_alloc(1, sizeof(mip_tree));
    *T = (mip_tree) {.n = n, .order = INTEGER(order), .parent = INTEGER(parent),
                     .th = REAL(th), .psi = REAL(psi),
                     .logz = asReal(logz_need(tr, "logz", REALSXP))};
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

static mip_cut *cut_from_model(const mip_value_model *M, double *c0)
{
    if (M->kind != MIP_KIND_PAIRWISE) error("internal error: the cut bound needs a pairwise model");
    mip_cut *G = mip_cut_from_model(M, c0);
    if (!G) error("internal error: the cut bound needs b >= 0");
    return G;
}

static mip_roof *roof_from_model(const mip_value_model *M)
{
    if (M->kind != MIP_KIND_PAIRWISE) error("internal error: the roof-dual bound needs a pairwise model");
    return mip_roof_from_model(M);
}

/* The search control of R's control list (and the proposal); *lp_bound set
 * when GLPK bounds (the LP list is then read). */
static void control_from_list(SEXP control, const mip_value_model *M, mip_control *C)
{
    int n = M->n;
    SEXP order = logz_need(control, "order", INTSXP);
    if (LENGTH(order) != n) error("internal error: bad order");
    int branching = asInteger(logz_need(control, "branching", INTSXP));
    if (branching != MIP_BRANCH_AUTO && branching != MIP_BRANCH_MOST_FRACTIONAL &&
        branching != MIP_BRANCH_FIRST)
        error("internal error: unknown branching rule %d", branching);
    *C = (mip_control) {
        .bound_lp = asInteger(logz_need(control, "bound_lp", INTSXP)),
        .best_first = asInteger(logz_need(control, "best_first", INTSXP)),
        .branching = (mip_branching) branching,
        .perturb = asInteger(logz_need(control, "perturb", INTSXP)),
        .dive = asInteger(logz_need(control, "dive", INTSXP)),
        .node_limit = asReal(logz_need(control, "node_limit", REALSXP)),
        .time_limit = asReal(logz_need(control, "time_limit", REALSXP)),
        .order = INTEGER(order),
        .cut = NULL, .cut_c0 = 0.0, .roof = NULL, .cycle = NULL, .lq = NULL, .q1 = NULL, .tree = NULL
    };
    SEXP lq = logz_get(control, "logq");
    if (lq != R_NilValue) {
        if (TYPEOF(lq) != REALSXP || XLENGTH(lq) != 2 * (R_xlen_t) n)
            error("internal error: bad proposal");
        double *q1 = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
        for (int i = 0; i < n; i++) q1[i] = exp(REAL(lq)[2 * i + 1]);
        C->lq = REAL(lq);
        C->q1 = q1;
    }
    C->tree = tree_from_list(logz_get(control, "tree"), n);
    int cut = asInteger(logz_need(control, "cut", INTSXP));
    int roof = asInteger(logz_need(control, "roof", INTSXP));
    if (cut && roof) error("internal error: both the cut and the roof-dual bound");
    if (C->bound_lp && !cut && !roof && !mip_lp_available())
        error("internal error: logz was built without GLPK (checked in R: logz_has_glpk())");
    if (C->bound_lp && cut) C->cut = cut_from_model(M, &C->cut_c0);
    if (C->bound_lp && roof) {
        C->roof = roof_from_model(M);
        SEXP tri = logz_get(control, "triangle");
        int mode = tri == R_NilValue ? MIP_TRI_OFF : asInteger(tri);
        if (mode != MIP_TRI_OFF && mode != MIP_TRI_ON)
            error("internal error: unknown triangle mode %d", mode);
        if (mode == MIP_TRI_ON) C->roof->tri = mip_tri_from_model(M, MIP_TRI_SWEEPS);
    }
    if (C->bound_lp && asInteger(logz_need(control, "cycle", INTSXP))) {
        if (cut || roof || M->kind != MIP_KIND_PAIRWISE)
            error("internal error: triangle cuts need GLPK's LP of a pairwise model");
        C->cycle = mip_cycle_new(M);
    }
}

static logz_stream *streams_from_matrix(SEXP streams, int *ns)
{
    if (TYPEOF(streams) != REALSXP || XLENGTH(streams) % 6 != 0)
        error("internal error: bad streams");
    *ns = (int) (XLENGTH(streams) / 6);
    logz_stream *rs = (logz_stream *) R_alloc(*ns > 0 ? *ns : 1, sizeof(logz_stream));
    if (!logz_streams_from_double(*ns, REAL(streams), rs))
        error("internal error: stream state out of range");
    return rs;
}

/* A partial-assignment matrix: n x J integers (NA free, else 0/1); J. */
static int fix_columns(SEXP fix, int n)
{
    if (TYPEOF(fix) != INTSXP || XLENGTH(fix) % (n > 0 ? n : 1) != 0)
        error("internal error: bad fixings");
    return n > 0 ? (int) (XLENGTH(fix) / n) : 0;
}

/* After GLPK's error hook longjmp'd back (its environment already freed):
 * free our memory, drop the hooks, raise the R error. */
static void NORET glpk_failed(mip_work *W, const mip_lp_trap *trap, int nprotect,
                              const char *where)
{
    W->lp = NULL;
    mip_work_free(W);
    mip_lp_hooks_off();
    UNPROTECT(nprotect);
    error("GLPK failed in %s: %s", where, trap->msg[0] ? trap->msg : "(no message)");
}

/* ---- .Call routines ------------------------------------------------------------- */

/* mip_sample_call(model, lp (or NULL), streams (6 x ns), control): ns samples;
 * with control$k > 1 each sample's k best configurations too (top_states
 * n x k x ns, -1 in positions an early stop left empty; top_value and
 * top_rank k x ns), else those three are NULL. */
SEXP mip_sample_call(SEXP cm, SEXP lpdef, SEXP streams, SEXP control)
{
    mip_value_model M;
    mip_control C;
    mip_lp_def L;
    memset(&L, 0, sizeof L);
    model_from_list(cm, &M);
    int n = M.n;
    control_from_list(control, &M, &C);
    if (C.bound_lp && !C.cut && !C.roof) lp_from_list(lpdef, n, &L);
    int ns;
    logz_stream *rs = streams_from_matrix(streams, &ns);
    int trace_cap = asInteger(logz_need(control, "trace_cap", INTSXP));
    SEXP share = logz_get(control, "share"), no_tls = logz_get(control, "no_tls");
    SEXP kk = logz_get(control, "k");
    int k = kk == R_NilValue ? 1 : asInteger(kk);
    if (k == NA_INTEGER || k < 1) error("internal error: bad k");

    const char *nm[] = {"states", "value", "upper", "exact", "rank_bound", "nodes",
                        "lp_solves", "lp_failures", "time", "trace", "ntrace", "helped",
                        "threads", "lp_serial", "top_states", "top_value", "top_rank", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, nm));
    SET_VECTOR_ELT(out, 0, allocMatrix(INTSXP, n, ns));
    for (int k = 1; k <= 8; k++) SET_VECTOR_ELT(out, k, allocVector(k == 3 ? LGLSXP : REALSXP, ns));
    SET_VECTOR_ELT(out, 9, allocMatrix(REALSXP, 5, (R_xlen_t) trace_cap * (ns > 0 ? ns : 1)));
    SET_VECTOR_ELT(out, 11, allocVector(REALSXP, ns));
    if (k > 1) {
        SET_VECTOR_ELT(out, 14, allocVector(INTSXP, (R_xlen_t) n * k * ns));
        SET_VECTOR_ELT(out, 15, allocVector(REALSXP, (R_xlen_t) k * ns));
        SET_VECTOR_ELT(out, 16, allocVector(REALSXP, (R_xlen_t) k * ns));
    }
    mip_batch B = {
        .ns = ns, .trace_cap = trace_cap,
        .threads = asInteger(logz_need(control, "threads", INTSXP)),
        .selftest = asInteger(logz_need(control, "selftest", INTSXP)),
        .no_tls = no_tls != R_NilValue && asLogical(no_tls) == TRUE,
        .share = share == R_NilValue ? MIP_SHARE_NONE : (mip_share) asInteger(share),
        .rs = rs, .states = INTEGER(VECTOR_ELT(out, 0)),
        .value = REAL(VECTOR_ELT(out, 1)), .upper = REAL(VECTOR_ELT(out, 2)),
        .exact = LOGICAL(VECTOR_ELT(out, 3)), .rank_bound = REAL(VECTOR_ELT(out, 4)),
        .nodes = REAL(VECTOR_ELT(out, 5)), .lp_solves = REAL(VECTOR_ELT(out, 6)),
        .lp_failures = REAL(VECTOR_ELT(out, 7)), .time = REAL(VECTOR_ELT(out, 8)),
        .trace = REAL(VECTOR_ELT(out, 9)), .helped = REAL(VECTOR_ELT(out, 11)), .ntrace = 0,
        .k = k, .kstates = k > 1 ? INTEGER(VECTOR_ELT(out, 14)) : NULL,
        .kvalue = k > 1 ? REAL(VECTOR_ELT(out, 15)) : NULL,
        .krank = k > 1 ? REAL(VECTOR_ELT(out, 16)) : NULL
    };

    mip_work *W = mip_work_new(n);
    if (mip_work_search(W, &M)) {
        mip_work_free(W);
        error("mip_sample: out of memory");
    }
    int status = mip_batch_run(&B, W, &M, &L, &C);
    mip_work_free(W);
    if (status == MIP_LP_ERROR) {
        UNPROTECT(1);
        error("GLPK failed in mip_sample(): %s",
              B.lp_error && B.lp_error[0] ? B.lp_error : "(no message)");
    }
    if (status == MIP_OUT_OF_MEMORY) { UNPROTECT(1); error("mip_sample: out of memory for search nodes"); }
    if (status == MIP_INTERRUPTED) { UNPROTECT(1); error("mip_sample: interrupted"); }
    SET_VECTOR_ELT(out, 10, ScalarInteger(B.ntrace));
    SET_VECTOR_ELT(out, 12, ScalarInteger(B.threads_used));
    SET_VECTOR_ELT(out, 13, ScalarLogical(B.lp_serial));
    UNPROTECT(1);
    return out;
}

/* mip_lp_bounds_call(model, lp, fix (n x J, NA free)): the GLPK LP bound of
 * each partial assignment (-Inf infeasible, NaN solver failure). */
SEXP mip_lp_bounds_call(SEXP cm, SEXP lpdef, SEXP fix)
{
    if (!mip_lp_available())
        error("internal error: logz was built without GLPK (logz_has_glpk())");
    mip_value_model M;
    mip_lp_def L;
    model_from_list(cm, &M);
    int n = M.n;
    lp_from_list(lpdef, n, &L);
    int J = fix_columns(fix, n);
    SEXP out = PROTECT(allocVector(REALSXP, J));
    mip_work *W = mip_work_new(n);
    if (!W->cur || !W->tau) { mip_work_free(W); UNPROTECT(1); error("out of memory"); }
    W->interrupts = 1;
    mip_lp_trap trap;
    if (setjmp(trap.jmp)) glpk_failed(W, &trap, 1, "an LP bound");
    mip_lp_hooks_on(&trap);
    int status = mip_lp_open(W, &L, n) ? MIP_OUT_OF_MEMORY :
        mip_lp_bounds(W, &L, n, INTEGER(fix), J, REAL(out));
    mip_lp_close(W);
    mip_lp_hooks_off();
    mip_work_free(W);
    UNPROTECT(1);
    if (status == MIP_INTERRUPTED) error("interrupted");
    if (status == MIP_OUT_OF_MEMORY) error("out of memory");
    return out;
}

/* mip_cut_bounds_call(model, fix (n x J, NA free)): the min-cut bound (max of
 * v) of each partial assignment, for tests. */
SEXP mip_cut_bounds_call(SEXP cm, SEXP fix)
{
    mip_value_model M;
    model_from_list(cm, &M);
    int n = M.n, J = fix_columns(fix, n);
    double c0;
    mip_cut *G = cut_from_model(&M, &c0);
    SEXP out = PROTECT(allocVector(REALSXP, J));
    mip_cut_bounds(G, c0, n, INTEGER(fix), J, REAL(out));
    UNPROTECT(1);
    return out;
}

/* mip_roof_bounds_call(model, fix (n x J, NA free)): the roof-dual bound
 * (the local-polytope LP value) of each partial assignment and its
 * half-integral LP solution (n x J), for tests. */
SEXP mip_roof_bounds_call(SEXP cm, SEXP fix)
{
    mip_value_model M;
    model_from_list(cm, &M);
    int n = M.n, J = fix_columns(fix, n);
    mip_roof *R = roof_from_model(&M);
    const char *nm[] = {"value", "tau", "triangle", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, nm));
    SET_VECTOR_ELT(out, 0, allocVector(REALSXP, J));
    SET_VECTOR_ELT(out, 1, allocMatrix(REALSXP, n, J));
    SET_VECTOR_ELT(out, 2, allocVector(REALSXP, J));
    mip_roof_bounds(R, n, INTEGER(fix), J, REAL(VECTOR_ELT(out, 0)), REAL(VECTOR_ELT(out, 1)));
    mip_tri *T = mip_tri_from_model(&M, 1000);   /* to convergence, or 1000 sweeps */
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    for (int k = 0; k < J; k++) {
        mip_fix_state(INTEGER(fix) + (size_t) k * n, n, st);
        REAL(VECTOR_ELT(out, 2))[k] = T ? mip_tri_bound(T, st, R_NegInf) : NA_REAL;
    }
    UNPROTECT(1);
    return out;
}

/* mip_tree_call(tree, fix (n x J integer, NA free), streams (6 x J) or NULL):
 * for each column, log q(region) and (with streams) a draw of q given the
 * fixed variables; for tests, and for R's log Z_q (the region of no fixed
 * variable with logz = 0, no streams: R's RNG is left alone). */
SEXP mip_tree_call(SEXP tr, SEXP fix, SEXP streams)
{
    int n = LENGTH(logz_need(tr, "order", INTSXP));
    const mip_tree *T = tree_from_list(tr, n);
    if (TYPEOF(fix) != INTSXP || (n > 0 && XLENGTH(fix) % n != 0))
        error("internal error: bad fixings");
    int J = n > 0 ? (int) (XLENGTH(fix) / n) : 0;
    logz_stream *rs = NULL;
    if (streams != R_NilValue) {
        int Js;
        rs = streams_from_matrix(streams, &Js);
        if (Js != J) error("internal error: bad streams");
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
        mip_fix_state(INTEGER(fix) + (size_t) k * n, n, st);
        REAL(lq)[k] = mip_tree_region(T, st, bel);
        if (rs) mip_tree_draw(T, st, bel, rs + k);
        for (int j = 0; j < n; j++)
            INTEGER(S)[(size_t) k * n + j] = rs || (st[j] & MIP_FIXED) ? st[j] & MIP_SIGMA : NA_INTEGER;
    }
    UNPROTECT(1);
    return out;
}

/* Built with GLPK? (configure defines LOGZ_HAVE_GLPK when glpk.h links) */
SEXP mip_has_glpk_call(void)
{
    return ScalarLogical(mip_lp_available());
}

/* GLPK's version string (NA without GLPK), for benchmark headers. */
SEXP mip_glpk_version_call(void)
{
    const char *v = mip_lp_version();
    return v ? mkString(v) : ScalarString(NA_STRING);
}
