/* GumbelMIP: the LP bound by GNU GLPK (the local-polytope or compact LP of
 * R/mip_problem.R); the only file that uses GLPK. Without GLPK (configure did
 * not find it) the same functions exist as stubs at the end of this file; R
 * checks logz_has_glpk() before asking for them.
 *
 * One GLPK problem per thread is kept and warm-started: a search node only
 * changes the bounds of the columns it fixes, then the dual simplex restarts
 * from the previous optimal basis. GLPK errors reach the error hook, which
 * gets the caller's mip_lp_trap through its info pointer, frees GLPK's
 * environment and longjmps to the trap's jmp_buf (set on the same thread:
 * by the .Call glue, mip.c, or by each thread of a batch, mip_batch.c).
 *
 * Threads: GLPK keeps its environment (problem objects, hooks, memory
 * accounting) in one global unless it was built with thread-local storage;
 * glp_config("TLS") names the storage class then (NULL otherwise). With
 * it, every thread has its own environment: its own problem, error hook and
 * trap; a thread frees its environment when it is done (mip_lp_env_free()).
 * Only mip_lp_bounds() (R's thread) allocates through R: the others run on
 * any thread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include "mip.h"

#ifdef LOGZ_HAVE_GLPK
#include <glpk.h>
#define LP(W) ((glp_prob *) (W)->lp)

int mip_lp_available(void) { return 1; }

const char *mip_lp_version(void) { return glp_version(); }

/* 1 if GLPK keeps its environment per thread (built with thread-local
 * storage), so that threads may each solve their own LPs. */
int mip_lp_threads_ok(void) { return glp_config("TLS") != NULL; }

/* Free the calling thread's GLPK environment (every GLPK object it made). */
void mip_lp_env_free(void) { glp_free_env(); }

static void error_hook(void *info)
{
    mip_lp_trap *trap = (mip_lp_trap *) info;
    glp_free_env();     /* frees every GLPK object, including the open problem */
    longjmp(trap->jmp, 1);
}

static int term_hook(void *info, const char *s)
{
    char *msg = ((mip_lp_trap *) info)->msg;
    size_t size = sizeof ((mip_lp_trap *) info)->msg;
    size_t have = strlen(msg), add = strlen(s);
    if (have + add >= size) { have = 0; msg[0] = '\0'; }
    if (add >= size) s += add - (size - 1);
    strncat(msg, s, size - 1 - strlen(msg));
    return 1;           /* do not print */
}

/* GLPK's output and errors go to trap (set its jmp before GLPK runs). */
void mip_lp_hooks_on(mip_lp_trap *trap)
{
    trap->msg[0] = '\0';
    glp_term_hook(term_hook, trap);
    glp_error_hook(error_hook, trap);
}

void mip_lp_hooks_off(void)
{
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
}

/* The LP of L as a GLPK problem; NULL when out of memory (our arrays, W's
 * scratch so that a GLPK error's longjmp leaks nothing; GLPK's own
 * allocations fail through the error hook). */
static glp_prob *mip_lp_create(mip_work *W, const mip_lp_def *L)
{
    /* GLPK arrays are 1-based */
    size_t nz = (size_t) L->nnz + 1;
    int *ia = mip_work_buffer(W, 1, 2 * nz * sizeof(int));
    double *ar = mip_work_buffer(W, 0, nz * sizeof(double));
    if (!ia || !ar) return NULL;
    int *ja = ia + nz;
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
 * sample's time limit. Returns GLPK's code, MIP_LP_INTERRUPTED or
 * MIP_LP_TIME_LIMIT. */
static int simplex_polled(mip_work *W, const glp_smcp *parm)
{
    for (;;) {
        int ret = glp_simplex(LP(W), parm);
        if (ret != GLP_ETMLIM) return ret;
        int pl = mip_poll(W);
        if (pl == MIP_POLL_INTERRUPT) return MIP_LP_INTERRUPTED;
        if (pl == MIP_POLL_TIME_LIMIT) return MIP_LP_TIME_LIMIT;
    }
}

static int lp_resolve(mip_work *W, const mip_lp_def *L, int n, double *val);

/* Set the bounds of the binary columns to the node's fixings (only those that
 * changed) and solve by the dual simplex from the current basis.
 * Returns MIP_LP_OPTIMAL (*val, W->tau filled), MIP_LP_INFEASIBLE,
 * MIP_LP_FAILED, MIP_LP_INTERRUPTED or MIP_LP_TIME_LIMIT. */
int mip_lp_solve(mip_work *W, const mip_lp_def *L, int n, const unsigned char *st,
                 double *val)
{
    for (int j = 0; j < n; j++) {
        int want = (st[j] & MIP_FIXED) ? (st[j] & MIP_SIGMA) : -1;
        if (want == W->cur[j]) continue;
        if (want < 0) glp_set_col_bnds(LP(W), j + 1, L->clo[j] == L->chi[j] ? GLP_FX : GLP_DB,
                                       L->clo[j], L->chi[j]);
        else glp_set_col_bnds(LP(W), j + 1, GLP_FX, (double) want, (double) want);
        W->cur[j] = want;
    }
    return lp_resolve(W, L, n, val);
}

/* Solve W's LP by the dual simplex from the current basis (the primal
 * simplex from the standard basis if that fails); *val and W->tau as for
 * mip_lp_solve(). */
static int lp_resolve(mip_work *W, const mip_lp_def *L, int n, double *val)
{
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
    if (ret != 0) return MIP_LP_FAILED;
    int status = glp_get_status(LP(W));
    if (status == GLP_NOFEAS) return MIP_LP_INFEASIBLE;
    if (status != GLP_OPT) return MIP_LP_FAILED;
    *val = glp_get_obj_val(LP(W)) + L->c0;
    for (int j = 0; j < n; j++) W->tau[j] = glp_get_col_prim(LP(W), j + 1);
    return MIP_LP_OPTIMAL;
}

/* Drop the cut rows (those after L's rows) and restart from the standard
 * basis: every sample's search starts from L's LP, so the cuts and bases it
 * meets do not depend on the samples its thread searched before. */
void mip_lp_reset(mip_work *W, const mip_lp_def *L)
{
    int nr = glp_get_num_rows(LP(W));
    if (nr > L->nrow) {
        int k = nr - L->nrow;
        int *num = mip_work_buffer(W, 1, sizeof(int) * ((size_t) k + 1));
        if (num) {
            for (int r = 0; r < k; r++) num[r + 1] = L->nrow + r + 1;
            glp_del_rows(LP(W), k, num);
        }
    }
    glp_std_basis(LP(W));
}

/* Delete the cut rows whose slack is basic (inactive) when more than keep
 * cut rows are in the LP. */
static void purge_cuts(mip_work *W, const mip_lp_def *L, int keep)
{
    int nr = glp_get_num_rows(LP(W)), k = nr - L->nrow;
    if (k <= keep) return;
    int *num = mip_work_buffer(W, 1, sizeof(int) * ((size_t) k + 1)), d = 0;
    if (!num) return;
    for (int r = L->nrow + 1; r <= nr; r++)
        if (glp_get_row_stat(LP(W), r) == GLP_BS) num[++d] = r;
    if (d > 0) glp_del_rows(LP(W), d, num);
}

/* The LP bound of the node st tightened by triangle inequalities
 * (mip_cycle.c; L in the "mccormick" encoding): at most CYCLE_ROUNDS rounds
 * of separation on the LP solution, at most n + 10 cuts a round (the most
 * violated), until none is violated, the bound falls to target (the node is
 * pruned) or stalls; inactive cuts are dropped beyond 50 n cut rows. Returns as
 * mip_lp_solve(); MIP_LP_OPTIMAL with the last LP's value and tau. */
#define CYCLE_ROUNDS 3
int mip_lp_solve_cycle(mip_work *W, const mip_lp_def *L, const mip_cycle *Y, int n,
                       const unsigned char *st, double target, double *val)
{
    int s = mip_lp_solve(W, L, n, st, val);
    if (s != MIP_LP_OPTIMAL) return s;
    /* the scratch is W's (mip_work_buffer()): a GLPK error longjmps out of
     * this loop, and W is freed after it */
    int ncol = L->ncol, maxcuts = n + 10;
    size_t nd = (size_t) ncol + 1 + 7 * (size_t) maxcuts, ni = 7 * (size_t) maxcuts;
    double *x = mip_work_buffer(W, 0, sizeof(double) * nd + sizeof(int) * ni);
    if (!x) return MIP_LP_FAILED;
    double *coef = x + ncol + 1, *rhs = coef + 6 * (size_t) maxcuts;
    int *nz = (int *) (rhs + maxcuts), *cols = nz + maxcuts;
    int ind[7];
    double v7[7];
    for (int round = 0; s == MIP_LP_OPTIMAL && round < CYCLE_ROUNDS; round++) {
        if (*val <= target) break;
        for (int j = 0; j < ncol; j++) x[j] = glp_get_col_prim(LP(W), j + 1);
        int k = mip_cycle_separate(Y, x, 1e-6, maxcuts, nz, cols, coef, rhs);
        if (k < 0) { s = MIP_LP_FAILED; break; }
        if (k == 0) break;
        purge_cuts(W, L, 50 * n);
        int r0 = glp_add_rows(LP(W), k);
        for (int r = 0; r < k; r++) {
            for (int t = 0; t < nz[r]; t++) { ind[t + 1] = cols[6 * r + t] + 1; v7[t + 1] = coef[6 * r + t]; }
            glp_set_mat_row(LP(W), r0 + r, nz[r], ind, v7);
            glp_set_row_bnds(LP(W), r0 + r, GLP_UP, 0.0, rhs[r]);
        }
        double prev = *val;
        s = lp_resolve(W, L, n, val);
        if (s == MIP_LP_OPTIMAL && prev - *val < 1e-6 * (1.0 + fabs(*val))) break;
    }
    return s;
}

/* W's LP (the calling thread's GLPK problem); 1 if out of memory. */
int mip_lp_open(mip_work *W, const mip_lp_def *L, int n)
{
    W->lp = mip_lp_create(W, L);
    for (int j = 0; j < n; j++) W->cur[j] = -1;
    return W->lp == NULL;
}

void mip_lp_close(mip_work *W)
{
    if (W->lp) glp_delete_prob(LP(W));
    W->lp = NULL;
}

/* provoke a GLPK error (column out of range) to test the error trap */
void mip_lp_selftest(mip_work *W, const mip_lp_def *L)
{
    glp_set_col_bnds(LP(W), L->ncol + 7, GLP_FX, 0.0, 0.0);
}

#else  /* no GLPK: stubs, never reached from R (R checks logz_has_glpk()) */

int mip_lp_available(void) { return 0; }
const char *mip_lp_version(void) { return NULL; }
void mip_lp_hooks_on(mip_lp_trap *trap) { trap->msg[0] = '\0'; }
void mip_lp_hooks_off(void) {}
int mip_lp_threads_ok(void) { return 0; }
void mip_lp_env_free(void) {}

int mip_lp_open(mip_work *W, const mip_lp_def *L, int n)
{
    (void) W; (void) L; (void) n;
    return 0;
}

void mip_lp_close(mip_work *W) { W->lp = NULL; }

int mip_lp_solve(mip_work *W, const mip_lp_def *L, int n, const unsigned char *st, double *val)
{
    (void) W; (void) L; (void) n; (void) st; (void) val;
    return MIP_LP_FAILED;
}

void mip_lp_selftest(mip_work *W, const mip_lp_def *L) { (void) W; (void) L; }

void mip_lp_reset(mip_work *W, const mip_lp_def *L) { (void) W; (void) L; }

int mip_lp_solve_cycle(mip_work *W, const mip_lp_def *L, const mip_cycle *Y, int n,
                       const unsigned char *st, double target, double *val)
{
    (void) W; (void) L; (void) Y; (void) n; (void) st; (void) target; (void) val;
    return MIP_LP_FAILED;
}

#endif

/* LP bounds of J partial assignments, the columns of the n x J matrix fix
 * (NA free, else 0/1), into out[J]: the LP value, -Inf when infeasible, NaN
 * on solver failure. W's LP is open (mip_lp_open()). Returns MIP_OK or
 * MIP_INTERRUPTED. */
int mip_lp_bounds(mip_work *W, const mip_lp_def *L, int n, const int *fix, int J, double *out)
{
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    for (int k = 0; k < J; k++) {
        mip_fix_state(fix + (size_t) k * n, n, st);
        double v;
        int s = mip_lp_solve(W, L, n, st, &v);
        if (s == MIP_LP_INTERRUPTED) return MIP_INTERRUPTED;
        out[k] = s == MIP_LP_OPTIMAL ? v : s == MIP_LP_INFEASIBLE ? R_NegInf : R_NaN;
    }
    return MIP_OK;
}
