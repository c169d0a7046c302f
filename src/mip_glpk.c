/* GumbelMIP: the LP bound by GNU GLPK (the local-polytope or compact LP of
 * R/mip_problem.R), and the two .Call routines that only need GLPK.
 * Without GLPK (configure did not find it) the same functions exist as stubs
 * at the end of this file; R checks logz_has_glpk() before calling them.
 *
 * One GLPK problem per call is kept and warm-started: a search node only
 * changes the bounds of the columns it fixes, then the dual simplex restarts
 * from the previous optimal basis. GLPK errors reach glp_error_hook, which
 * frees GLPK's environment and longjmps back to the .Call wrapper; it frees
 * our memory and raises an R error, so R never aborts. */
#include <string.h>
#include <setjmp.h>
#include "mip.h"

mip_work *mip_W = NULL;
jmp_buf mip_jmp;

/* Built with GLPK? (configure defines LOGZ_HAVE_GLPK when glpk.h links) */
SEXP mip_has_glpk_call(void)
{
#ifdef LOGZ_HAVE_GLPK
    return ScalarLogical(1);
#else
    return ScalarLogical(0);
#endif
}

#ifdef LOGZ_HAVE_GLPK
#include <glpk.h>
#define LP(W) ((glp_prob *) (W)->lp)
static char mip_msg[600];

static void mip_glpk_error_hook(void *info)
{
    (void) info;
    glp_free_env();     /* frees every GLPK object, including mip_W->lp */
    longjmp(mip_jmp, 1);
}

static int mip_glpk_term_hook(void *info, const char *s)
{
    (void) info;
    size_t have = strlen(mip_msg), add = strlen(s);
    if (have + add >= sizeof mip_msg) { have = 0; mip_msg[0] = '\0'; }
    if (add >= sizeof mip_msg) s += add - (sizeof mip_msg - 1);
    strncat(mip_msg, s, sizeof mip_msg - 1 - strlen(mip_msg));
    return 1;           /* do not print */
}

/* ---- GLPK ------------------------------------------------------------------ */

static glp_prob *mip_lp_create(const mip_lp_def *L)
{
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_cols(lp, L->ncol);
    for (int j = 0; j < L->ncol; j++) {
        glp_set_obj_coef(lp, j + 1, L->obj[j]);
        int type = L->clo[j] == L->chi[j] ? GLP_FX : GLP_DB;
        glp_set_col_bnds(lp, j + 1, type, L->clo[j], L->chi[j]);
    }
    if (L->nrow > 0) {
        glp_add_rows(lp, L->nrow);
        for (int r = 0; r < L->nrow; r++) {
            double lo = L->rlo[r], hi = L->rhi[r];
            int type = !R_FINITE(lo) && !R_FINITE(hi) ? GLP_FR : !R_FINITE(lo) ? GLP_UP :
                       !R_FINITE(hi) ? GLP_LO : lo == hi ? GLP_FX : GLP_DB;
            glp_set_row_bnds(lp, r + 1, type, R_FINITE(lo) ? lo : 0.0, R_FINITE(hi) ? hi : 0.0);
        }
        /* GLPK arrays are 1-based */
        int *ia = (int *) R_alloc(L->nnz + 1, sizeof(int));
        int *ja = (int *) R_alloc(L->nnz + 1, sizeof(int));
        double *ar = (double *) R_alloc(L->nnz + 1, sizeof(double));
        for (int k = 0; k < L->nnz; k++) {
            ia[k + 1] = L->ia[k] + 1;
            ja[k + 1] = L->ja[k] + 1;
            ar[k + 1] = L->ar[k];
        }
        glp_load_matrix(lp, L->nnz, ia, ja, ar);
    }
    glp_std_basis(lp);
    return lp;
}

/* glp_simplex in slices of parm->tm_lim ms (it resumes from the basis it
 * stopped at); between slices mip_poll() checks for user interrupts and the
 * sample's time limit. Returns GLPK's code, -2 interrupted, -3 time limit. */
static int simplex_polled(mip_work *W, const glp_smcp *parm)
{
    for (;;) {
        int ret = glp_simplex(LP(W), parm);
        if (ret != GLP_ETMLIM) return ret;
        int pl = mip_poll(W);
        if (pl == 2) return -2;
        if (pl == 1) return -3;
    }
}

/* Set the bounds of the binary columns to the node's fixings (only those that
 * changed) and solve by the dual simplex from the current basis.
 * Returns 1 optimal (*val, tau filled), 0 infeasible, -1 solver failure,
 * -2 interrupted, -3 the sample's time limit reached. */
int mip_lp_solve(mip_work *W, const mip_lp_def *L, int n, const unsigned char *st,
                 double *val)
{
    for (int j = 0; j < n; j++) {
        int want = (st[j] & 2) ? (st[j] & 1) : -1;
        if (want == W->cur[j]) continue;
        if (want < 0) glp_set_col_bnds(LP(W), j + 1, L->clo[j] == L->chi[j] ? GLP_FX : GLP_DB,
                                       L->clo[j], L->chi[j]);
        else glp_set_col_bnds(LP(W), j + 1, GLP_FX, (double) want, (double) want);
        W->cur[j] = want;
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_DUALP;
    parm.tm_lim = 200;       /* ms: poll for interrupts and the time limit between slices */
    int ret = simplex_polled(W, &parm);
    if (ret == GLP_EBADB || ret == GLP_ESING || ret == GLP_ECOND || ret == GLP_EFAIL ||
        ret == GLP_EITLIM) {
        glp_std_basis(LP(W));
        parm.meth = GLP_PRIMAL;
        ret = simplex_polled(W, &parm);
    }
    if (ret < 0) return ret;
    if (ret != 0) return -1;
    int status = glp_get_status(LP(W));
    if (status == GLP_NOFEAS || status == GLP_INFEAS) {
        if (status == GLP_INFEAS) return -1;
        return 0;
    }
    if (status != GLP_OPT) return -1;
    *val = glp_get_obj_val(LP(W)) + L->c0;
    for (int j = 0; j < n; j++) W->tau[j] = glp_get_col_prim(LP(W), j + 1);
    return 1;
}


void mip_lp_open(mip_work *W, const mip_lp_def *L, int n)
{
    W->lp = mip_lp_create(L);
    for (int j = 0; j < n; j++) W->cur[j] = -1;
}

/* provoke a GLPK error (column out of range) to test the error trap */
void mip_lp_selftest(mip_work *W, const mip_lp_def *L)
{
    glp_set_col_bnds(LP(W), L->ncol + 7, GLP_FX, 0.0, 0.0);
}

void mip_glpk_begin(void)
{
    mip_msg[0] = '\0';
    glp_term_hook(mip_glpk_term_hook, NULL);
    glp_error_hook(mip_glpk_error_hook, NULL);
}

/* After GLPK's error hook longjmp'd back (its environment is already freed):
 * free our memory, drop the hooks, raise the R error. */
void NORET mip_glpk_failed(int nprotect, const char *where)
{
    mip_work *W = mip_W;
    W->lp = NULL;
    mip_work_free(W);
    mip_W = NULL;
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    UNPROTECT(nprotect);
    error("GLPK failed in %s: %s", where, mip_msg[0] ? mip_msg : "(no message)");
}

void mip_glpk_end(mip_work *W)
{
    if (W->lp) glp_delete_prob(LP(W));
    W->lp = NULL;
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
}

/* LP bounds for partial assignments: fix is an n x J integer matrix (NA free,
 * else 0/1). Returns J LP values (-Inf when infeasible, NaN on solver failure). */
SEXP mip_lp_bounds_call(SEXP cm, SEXP lpdef, SEXP fix)
{
    mip_value_model M;
    mip_lp_def L;
    mip_value_model_from_list(cm, &M);
    int n = M.n;
    mip_lp_def_from_list(lpdef, n, &L);
    if (TYPEOF(fix) != INTSXP || XLENGTH(fix) % (n > 0 ? n : 1) != 0)
        error("internal error: bad fixings");
    int J = n > 0 ? (int) (XLENGTH(fix) / n) : 0;
    SEXP out = PROTECT(allocVector(REALSXP, J));
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    mip_work *W = mip_work_new(n);
    if (!W->cur || !W->tau) { mip_work_free(W); UNPROTECT(1); error("out of memory"); }
    W->interrupts = 1;
    mip_W = W;
    if (setjmp(mip_jmp)) mip_glpk_failed(1, "an LP bound");
    mip_glpk_begin();
    mip_lp_open(W, &L, n);
    for (int k = 0; k < J; k++) {
        const int *f = INTEGER(fix) + (size_t) k * n;
        for (int j = 0; j < n; j++) st[j] = f[j] == NA_INTEGER ? 0 : (unsigned char) (2 | (f[j] & 1));
        double v;
        int s = mip_lp_solve(W, &L, n, st, &v);
        if (s == -2) {
            mip_glpk_end(W);
            mip_work_free(W);
            mip_W = NULL;
            UNPROTECT(1);
            error("interrupted");
        }
        REAL(out)[k] = s == 1 ? v : s == 0 ? R_NegInf : R_NaN;
    }
    mip_glpk_end(W);
    mip_work_free(W);
    mip_W = NULL;
    UNPROTECT(1);
    return out;
}

/* GLPK version string (for benchmark headers). */
SEXP mip_glpk_version_call(void)
{
    return mkString(glp_version());
}

#else  /* no GLPK: stubs, never reached from R (R checks logz_has_glpk()) */

static const char *no_glpk = "internal error: logz was built without GLPK (logz_has_glpk())";

void mip_lp_open(mip_work *W, const mip_lp_def *L, int n)
{
    (void) W; (void) L; (void) n;
}

int mip_lp_solve(mip_work *W, const mip_lp_def *L, int n, const unsigned char *st, double *val)
{
    (void) W; (void) L; (void) n; (void) st; (void) val;
    return -1;
}

void mip_lp_selftest(mip_work *W, const mip_lp_def *L) { (void) W; (void) L; }
void mip_glpk_begin(void) {}
void mip_glpk_end(mip_work *W) { W->lp = NULL; }

void NORET mip_glpk_failed(int nprotect, const char *where)
{
    (void) where;
    UNPROTECT(nprotect);
    error("%s", no_glpk);
}

SEXP mip_lp_bounds_call(SEXP cm, SEXP lpdef, SEXP fix)
{
    (void) cm; (void) lpdef; (void) fix;
    error("%s", no_glpk);
}

SEXP mip_glpk_version_call(void)
{
    return ScalarString(NA_STRING);
}

#endif
