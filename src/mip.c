/* GumbelMIP (gumbelmip-exact-sampling-ilp.txt, Algorithm 1; NOTES.md
 * "GumbelMIP"): exact samples of binary models by Gumbel-perturbed branch and
 * bound with LP relaxations solved by GNU GLPK.
 *
 * A model has n binary variables x (the branching variables) and a log-weight
 * v(x), either
 *   pairwise: v(x) = c0 + sum_i node_i(x_i) + sum_e edge_e(x_from, x_to)
 *             (tables node[2 i + x_i], edge[4 e + 2 x_from + x_to]), or
 *   linear:   v(x) = c0 + c'x if row_lo <= A x <= row_hi, else -Inf.
 * Its LP relaxation (built in R, R/mip_problem.R) has ncol >= n columns, the first n
 * being x in [0, 1], the others auxiliary (edge indicators), and value
 * LP = glp objective + lp_c0 >= max v over the integer points.
 * The files: mip_search.c (the search), mip_cut.c (min-cut bound), mip_glpk.c
 * (GLPK bound), this file (SEXP glue), mip.h (their shared types).
 *
 * Randomness: every sample draws from its own MRG32k3a stream (rng.c), seeded
 * in R, so a sample does not depend on how many others were drawn or on the
 * thread split; within a sample every node's draws come from the node's key
 * (mip_par.c), so neither does it depend on how many threads share its
 * search. */
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif
#include <setjmp.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "mip.h"

/* ---- SEXP glue ------------------------------------------------------------ */

void mip_value_model_from_list(SEXP cm, mip_value_model *M)
{
    memset(M, 0, sizeof *M);
    M->n = asInteger(logz_need(cm, "n", INTSXP));
    M->kind = asInteger(logz_need(cm, "kind", INTSXP));
    M->c0 = asReal(logz_need(cm, "c0", REALSXP));
    if (M->kind == 0) {
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
    } else {
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
    }
}

void mip_lp_def_from_list(SEXP lp, int n, mip_lp_def *L)
{
    SEXP obj = logz_need(lp, "obj", REALSXP), clo = logz_need(lp, "clo", REALSXP);
    SEXP chi = logz_need(lp, "chi", REALSXP), rlo = logz_need(lp, "rlo", REALSXP);
    SEXP rhi = logz_need(lp, "rhi", REALSXP), ia = logz_need(lp, "ia", INTSXP);
    SEXP ja = logz_need(lp, "ja", INTSXP), ar = logz_need(lp, "ar", REALSXP);
    L->ncol = LENGTH(obj); L->nrow = LENGTH(rlo); L->nnz = LENGTH(ia);
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

/* W's staging pool for splits (mip_search.c), with row activities for
 * linear models; 1 if out of memory */
int mip_work_stage(mip_work *W, const mip_value_model *M)
{
    mip_work *St = mip_work_new(M->n);
    W->stage = St;
    if (M->kind == 1 && M->nrow) St->rowact = malloc(sizeof(double) * M->nrow);
    return !St->cur || !St->sbuf || (M->kind == 1 && M->nrow && !St->rowact);
}

mip_work *mip_work_new(int n)
{
    mip_work *W = (mip_work *) R_alloc(1, sizeof(mip_work));
    memset(W, 0, sizeof *W);
    W->deadline = R_PosInf;
    W->cur = malloc(sizeof(int) * n);
    W->tau = malloc(sizeof(double) * n);
    W->dive = malloc(n > 0 ? n : 1);
    W->flip = malloc(sizeof(double) * (n > 0 ? n : 1));
    W->sbuf = malloc(n > 0 ? n : 1);
    return W;
}

/* The min-cut bound's graph of an attractive pairwise model (R_alloc):
 * canonical form c0 + a's + sum b s_i s_j from the tables. */
static mip_cut *mip_cut_from_model(const mip_value_model *M, double *c0_out)
{
    int n = M->n;
    double *a = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    double *b = (double *) R_alloc(M->m > 0 ? M->m : 1, sizeof(double));
    double c0 = M->c0;
    for (int i = 0; i < n; i++) { a[i] = M->node[2 * i + 1] - M->node[2 * i]; c0 += M->node[2 * i]; }
    for (int e = 0; e < M->m; e++) {
        const double *t = M->edge + 4 * e;
        c0 += t[0];
        a[M->from[e]] += t[2] - t[0];
        a[M->to[e]] += t[1] - t[0];
        b[e] = t[3] - t[2] - t[1] + t[0];
        if (b[e] < 0) {
            if (b[e] < -1e-12) error("internal error: the cut bound needs b >= 0");
            b[e] = 0.0;
        }
    }
    mip_cut *G = (mip_cut *) R_alloc(1, sizeof(mip_cut));
    mip_cut_build(G, n, M->m, M->from, M->to, a, b);
    *c0_out = c0;
    return G;
}

/* mip_cut_bounds_call(model, fix (n x J, NA free)): the min-cut bound (max of
 * v) of each partial assignment, for tests. */
SEXP mip_cut_bounds_call(SEXP cm, SEXP fix)
{
    mip_value_model M;
    mip_value_model_from_list(cm, &M);
    if (M.kind != 0) error("internal error: the cut bound needs a pairwise model");
    int n = M.n;
    if (TYPEOF(fix) != INTSXP || XLENGTH(fix) % (n > 0 ? n : 1) != 0)
        error("internal error: bad fixings");
    int J = n > 0 ? (int) (XLENGTH(fix) / n) : 0;
    double c0;
    mip_cut *G = mip_cut_from_model(&M, &c0);
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    double *tau = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    SEXP out = PROTECT(allocVector(REALSXP, J));
    for (int k = 0; k < J; k++) {
        const int *f = INTEGER(fix) + (size_t) k * n;
        for (int j = 0; j < n; j++) st[j] = f[j] == NA_INTEGER ? 0 : (unsigned char) (2 | (f[j] & 1));
        REAL(out)[k] = mip_cut_solve(G, st, c0, tau);
    }
    UNPROTECT(1);
    return out;
}

/* The samples of one call, shared by the threads. */
typedef struct {
    const mip_value_model *M;
    const mip_lp_def *L;
    mip_work **Wt;
    mip_control *Ct;
    logz_stream *rs;
    int *best, n, ns, trace_cap;
    double *tball;
    int *tlen, *sstat;
    double **col;
    int *exact;
    volatile int *stop;
    int next, running;       /* next sample to start; threads still searching */
    mip_shared *S;           /* per thread: the search it owns */
    int nt, share;           /* share: 0 no, 1 idle threads join, 2 only thread 0 starts samples */
    int active;              /* threads owning a search (or about to) */
} sample_job;

static void run_one(sample_job *J, int t, int s)
{
    mip_result R;
    mip_trace T = {J->tball + (size_t) 4 * J->trace_cap * s, 0, J->trace_cap};
    J->S[t].owner = t;
    mip_search(&J->S[t], J->Wt[t], J->M, J->L, &J->Ct[t], J->rs + s, J->best + (size_t) s * J->n,
               &R, &T);
    J->sstat[s] = R.status;
    if (R.status) *J->stop = 1;
    double **col = J->col;
    col[0][s] = R.value; col[1][s] = R.upper; J->exact[s] = R.exact;
    col[3][s] = R.rank_bound; col[4][s] = R.nodes; col[5][s] = R.lp_solves;
    col[6][s] = R.lp_failures; col[7][s] = R.time; col[8][s] = R.helped;
    J->tlen[s] = T.len;
}

static void nap(void)
{
#ifdef _WIN32
    Sleep(20);                            /* ms */
#else
    struct timespec ts = {0, 20000000};   /* 20 ms */
    nanosleep(&ts, NULL);
#endif
}

/* An idle thread (no sample left to start) joins the running searches of the
 * other threads (mip_par.c) until every sample has been started and no search
 * runs. The master keeps polling for interrupts meanwhile. */
static void help_samples(sample_job *J, int t)
{
    int waits = 0;
    for (;;) {
        if (*J->stop) break;
        int joined = 0;
        for (int u = 0; u < J->nt && !joined; u++)
            if (u != t) joined = mip_search_join(&J->S[u], t, J->Wt[t], &J->Ct[t]);
        if (joined) { waits = 0; continue; }
        int next, active;
#ifdef _OPENMP
#pragma omp atomic read
#endif
        next = J->next;
#ifdef _OPENMP
#pragma omp atomic read
#endif
        active = J->active;
        if (next >= J->ns && active <= 0) break;
        if (t == 0 && mip_poll(J->Wt[0]) == 2) break;   /* sets *stop */
        /* a search becomes joinable once its root is expanded: wait briefly
         * at first, then in 20 ms naps */
        if (J->share == 2 || ++waits < 500) mip_pause(); else nap();
    }
}

/* Thread t takes the next sample until none is left (samples have their own
 * streams, so the results do not depend on the split), then helps the
 * others' searches (when sharing). With threads, the master (t = 0, R's
 * thread) then keeps polling for interrupts until the others finish, so a
 * long last search can still be interrupted. */
static void run_samples(sample_job *J, int t)
{
    if (J->share < 2 || t == 0) for (;;) {
        int s;
#ifdef _OPENMP
#pragma omp atomic
#endif
        J->active++;
#ifdef _OPENMP
#pragma omp atomic capture
#endif
        s = J->next++;
        if (s >= J->ns || *J->stop) {
#ifdef _OPENMP
#pragma omp atomic
#endif
            J->active--;
            break;
        }
        run_one(J, t, s);
#ifdef _OPENMP
#pragma omp atomic
#endif
        J->active--;
    }
    if (J->share) help_samples(J, t);
#ifdef _OPENMP
#pragma omp atomic
#endif
    J->running--;
    if (t == 0) {
        for (;;) {
            int r;
#ifdef _OPENMP
#pragma omp atomic read
#endif
            r = J->running;
            if (r <= 0) break;
            if (mip_poll(J->Wt[0]) == 2) break;   /* sets *stop: the others return */
            nap();
        }
    }
}

/* mip_sample_call(model, lp, streams (6 x ns), control) */
SEXP mip_sample_call(SEXP cm, SEXP lpdef, SEXP streams, SEXP control)
{
    mip_value_model M;
    mip_lp_def L;
    memset(&L, 0, sizeof L);
    mip_value_model_from_list(cm, &M);
    int n = M.n;
    mip_control C;
    C.bound_lp = asInteger(logz_need(control, "bound_lp", INTSXP));
    C.best_first = asInteger(logz_need(control, "best_first", INTSXP));
    C.branching = asInteger(logz_need(control, "branching", INTSXP));
    C.perturb = asInteger(logz_need(control, "perturb", INTSXP));
    C.dive = asInteger(logz_need(control, "dive", INTSXP));
    C.node_limit = asReal(logz_need(control, "node_limit", REALSXP));
    C.time_limit = asReal(logz_need(control, "time_limit", REALSXP));
    SEXP order = logz_need(control, "order", INTSXP);
    if (LENGTH(order) != n) error("internal error: bad order");
    C.order = INTEGER(order);
    int selftest = asInteger(logz_need(control, "selftest", INTSXP));
    C.lq = C.q1 = NULL;
    SEXP lq = logz_get(control, "logq");
    if (lq != R_NilValue) {
        if (TYPEOF(lq) != REALSXP || XLENGTH(lq) != 2 * (R_xlen_t) n)
            error("internal error: bad proposal");
        double *q1 = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
        for (int i = 0; i < n; i++) q1[i] = exp(REAL(lq)[2 * i + 1]);
        C.lq = REAL(lq);
        C.q1 = q1;
    }
    C.tree = mip_tree_from_list(logz_get(control, "tree"), n);   /* mip_tree.c */
#ifndef LOGZ_HAVE_GLPK
    if (C.bound_lp && !asInteger(logz_need(control, "cut", INTSXP)))
        error("internal error: logz was built without GLPK (checked in R: logz_has_glpk())");
#endif
    C.cut = NULL; C.cut_c0 = 0.0;
    if (C.bound_lp && asInteger(logz_need(control, "cut", INTSXP))) {
        if (M.kind != 0) error("internal error: the cut bound needs a pairwise model");
        double c0;
        C.cut = mip_cut_from_model(&M, &c0);
        C.cut_c0 = c0;
    }
    int trace_cap = asInteger(logz_need(control, "trace_cap", INTSXP));
    int nthreads_req = asInteger(logz_need(control, "threads", INTSXP));
    SEXP share_ = logz_get(control, "share");
    int share = share_ == R_NilValue ? 0 : asInteger(share_);
    if (C.bound_lp && !asInteger(logz_need(control, "cut", INTSXP))) mip_lp_def_from_list(lpdef, n, &L);
    if (TYPEOF(streams) != REALSXP || XLENGTH(streams) % 6 != 0)
        error("internal error: bad streams");
    int ns = (int) (XLENGTH(streams) / 6);
    logz_stream *rs = (logz_stream *) R_alloc(ns > 0 ? ns : 1, sizeof(logz_stream));
    if (!logz_streams_from_double(ns, REAL(streams), rs))
        error("internal error: stream state out of range");

    const char *nm[] = {"states", "value", "upper", "exact", "rank_bound", "nodes",
                        "lp_solves", "lp_failures", "time", "trace", "ntrace", "helped", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, nm));
    SEXP states = allocMatrix(INTSXP, n, ns);
    SET_VECTOR_ELT(out, 0, states);
    double *col[9];
    for (int k = 1; k <= 8; k++) {
        SET_VECTOR_ELT(out, k, allocVector(k == 3 ? LGLSXP : REALSXP, ns));
        col[k - 1] = k == 3 ? NULL : REAL(VECTOR_ELT(out, k));
    }
    SET_VECTOR_ELT(out, 11, allocVector(REALSXP, ns));
    col[8] = REAL(VECTOR_ELT(out, 11));
    for (int s = 0; s < ns; s++) col[8][s] = 0.0;
    int *exact = LOGICAL(VECTOR_ELT(out, 3));
    SEXP trace = allocMatrix(REALSXP, 5, (R_xlen_t) trace_cap * (ns > 0 ? ns : 1));
    SET_VECTOR_ELT(out, 9, trace);
    int ntrace = 0;

    mip_work *W = mip_work_new(n);
    if (M.kind == 1 && M.nrow) W->rowact = malloc(sizeof(double) * M.nrow);
    if (!W->cur || !W->tau || !W->dive || !W->flip || !W->sbuf || (M.kind == 1 && M.nrow && !W->rowact) ||
        mip_work_stage(W, &M)) {
        mip_work_free(W);
        error("mip_sample: out of memory");
    }
    mip_W = W;
    int status = 0;
    if (setjmp(mip_jmp)) mip_glpk_failed(1, "mip_sample()");
    mip_glpk_begin();
    if (C.bound_lp && !C.cut) {
        mip_lp_open(W, &L, n);
        if (selftest) mip_lp_selftest(W, &L);
    }
    int *best = INTEGER(states);
    /* Threads only without GLPK (simple bound or min cut; checked in R): each
     * thread has its own work space and cut graph; each sample its own stream. */
    int nt = (C.bound_lp && !C.cut) ? 1 : logz_threads(nthreads_req);
    /* sharing one search (share 1: idle threads join the others' searches;
     * 2: all threads on each sample in turn, for tests) needs unlimited
     * nodes: with a node limit the nodes explored would depend on timing */
    if (nt == 1 || R_FINITE(C.node_limit) || share < 0 || share > 2) share = 0;
    if (nt > ns && !share) nt = ns > 0 ? ns : 1;
    mip_work **Wt = (mip_work **) R_alloc(nt, sizeof(mip_work *));
    mip_control *Ct = (mip_control *) R_alloc(nt, sizeof(mip_control));
    volatile int stop = 0;   /* interrupted (or out of memory): every thread stops */
    Wt[0] = W;
    Ct[0] = C;
    W->interrupts = 1;       /* the master thread (R's) polls for interrupts */
    W->stop = &stop;
    int oom = 0;
    for (int t = 1; t < nt; t++) {
        Wt[t] = mip_work_new(n);
        Wt[t]->stop = &stop;
        if (M.kind == 1 && M.nrow) Wt[t]->rowact = malloc(sizeof(double) * M.nrow);
        if (!Wt[t]->cur || !Wt[t]->tau || !Wt[t]->dive || !Wt[t]->flip || !Wt[t]->sbuf ||
            (M.kind == 1 && M.nrow && !Wt[t]->rowact) || mip_work_stage(Wt[t], &M)) oom = 1;
        Ct[t] = C;
        if (C.cut) Ct[t].cut = mip_cut_clone(C.cut);
    }
    double *tball = (double *) R_alloc((size_t) 4 * trace_cap * (ns > 0 ? ns : 1), sizeof(double));
    int *tlen = (int *) R_alloc(ns > 0 ? ns : 1, sizeof(int));
    int *sstat = (int *) R_alloc(ns > 0 ? ns : 1, sizeof(int));
    for (int s = 0; s < ns; s++) { sstat[s] = 0; tlen[s] = 0; }
    mip_shared *S = (mip_shared *) R_alloc(nt, sizeof(mip_shared));
    for (int t = 0; t < nt; t++) mip_shared_init(&S[t], share, nt);
    sample_job J = {&M, &L, Wt, Ct, rs, best, n, ns, trace_cap, tball, tlen, sstat, col, exact,
                    &stop, 0, nt, S, nt, share, 0};
    if (!oom) {
        if (nt == 1) run_samples(&J, 0);    /* no OpenMP region around GLPK's longjmp */
        else {
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
            run_samples(&J, omp_get_thread_num());
#endif
        }
    }
    for (int t = 0; t < nt; t++) mip_shared_done(&S[t]);
    for (int t = 1; t < nt; t++) mip_work_free(Wt[t]);
    status = oom ? 1 : 0;
    for (int s = 0; s < ns && !status; s++) status = sstat[s];
    for (int s = 0; s < ns && !status; s++)
        for (int k = 0; k < tlen[s]; k++) {
            double *r = REAL(trace) + 5 * (size_t) ntrace++;
            r[0] = s + 1;
            memcpy(r + 1, tball + (size_t) 4 * trace_cap * s + 4 * k, 4 * sizeof(double));
        }
    mip_glpk_end(W);
    mip_work_free(W);
    mip_W = NULL;
    if (status == 1) { UNPROTECT(1); error("mip_sample: out of memory for search nodes"); }
    if (status == 2) { UNPROTECT(1); error("mip_sample: interrupted"); }
    SEXP ntr = PROTECT(ScalarInteger(ntrace));
    SET_VECTOR_ELT(out, 10, ntr);
    UNPROTECT(2);
    return out;
}

