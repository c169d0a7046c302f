/* GumbelMIP: a batch of samples over threads. Every sample draws from its own
 * MRG32k3a stream (rng.c), seeded in R, so a sample does not depend on how
 * many others were drawn or on the thread split; within a sample every
 * node's draws come from the node's key (mip_key.c), so neither does it
 * depend on how many threads share its search. No R API is called inside the
 * parallel region except mip_poll()'s interrupt check on the master thread
 * (through R_ToplevelExec).
 *
 * GLPK bounds: every thread has its own GLPK problem and error trap, set
 * here on the thread itself (run_glpk()), so GLPK's longjmp never leaves the
 * thread; this needs GLPK's thread-local environments (mip_lp_threads_ok()),
 * else one thread runs. A failure stops every thread and reaches the caller
 * as MIP_LP_ERROR with GLPK's message. Searches are then not shared: a
 * helper's longjmp would leave the owner waiting for it. */
#include <string.h>
#include <setjmp.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "mip.h"

/* seconds an idle thread waits between looks for a joinable search: PAUSE
 * for the first WAITS looks, NAP after */
#define PAUSE 2e-5
#define NAP 0.02
#define WAITS 500

/* The samples of one call, shared by the threads. */
typedef struct {
    const mip_value_model *M;
    const mip_lp_def *L;
    mip_batch *B;
    mip_work **Wt;           /* per thread: its work space */
    mip_control *Ct;         /* per thread: its control (its own min-cut or roof graph) */
    mip_shared *S;           /* per thread: the search it owns */
    mip_topk *K;             /* per thread: its search's k best (NULL: k = 1) */
    double *tball;           /* per sample: trace_cap rows of 4 */
    int *tlen, *sstat;       /* per sample: trace rows, status */
    volatile int *stop;
    int next, running;       /* next sample to start; threads still searching */
    int nt;
    mip_share share;
    int active;              /* threads owning a search (or about to) */
    mip_lp_trap *trap;       /* per thread: its GLPK error trap (GLPK bounds) */
    int *tstat;              /* per thread: MIP_OK, MIP_LP_ERROR or MIP_OUT_OF_MEMORY */
    int selftest;
} sample_job;

static void run_one(sample_job *J, int t, int s)
{
    mip_batch *B = J->B;
    mip_result R;
    mip_trace T = {.buf = J->tball + (size_t) 4 * B->trace_cap * s, .len = 0, .cap = B->trace_cap};
    J->S[t].owner = t;
    J->S[t].topk = J->K ? J->K + t : NULL;
    mip_search(&J->S[t], J->Wt[t], J->M, J->L, &J->Ct[t], B->rs + s,
               B->states + (size_t) s * J->M->n, &R, &T);
    J->sstat[s] = R.status;
    if (R.status) *J->stop = 1;
    B->value[s] = R.value; B->upper[s] = R.upper; B->exact[s] = R.exact;
    B->rank_bound[s] = R.rank_bound; B->nodes[s] = R.nodes; B->lp_solves[s] = R.lp_solves;
    B->lp_failures[s] = R.lp_failures; B->time[s] = R.time; B->helped[s] = R.helped;
    J->tlen[s] = T.len;
    if (J->K && !R.status) {
        size_t k = (size_t) B->k;
        mip_topk_export(J->K + t, B->kstates + k * J->M->n * s, B->kvalue + k * s, B->krank + k * s);
    }
}

/* An idle thread (no sample left to start) joins the running searches of the
 * other threads (mip_search_join()) until every sample has been started and
 * no search runs. The master keeps polling for interrupts meanwhile. */
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
        if (next >= J->B->ns && active <= 0) break;
        if (t == 0 && mip_poll(J->Wt[0]) == MIP_POLL_INTERRUPT) break;   /* sets *stop */
        /* a search becomes joinable once its root is expanded: wait briefly
         * at first, then in longer naps */
        mip_sleep(J->share == MIP_SHARE_FORCED || ++waits < WAITS ? PAUSE : NAP);
    }
}

/* Thread t takes the next sample until none is left (samples have their own
 * streams, so the results do not depend on the split), then helps the
 * others' searches (when sharing). With threads, the master (t = 0, R's
 * thread) then keeps polling for interrupts until the others finish, so a
 * long last search can still be interrupted. */
static void run_samples(sample_job *J, int t)
{
    if (J->share != MIP_SHARE_FORCED || t == 0) for (;;) {
        int s;
#ifdef _OPENMP
#pragma omp atomic
#endif
        J->active++;
#ifdef _OPENMP
#pragma omp atomic capture
#endif
        s = J->next++;
        if (s >= J->B->ns || *J->stop) {
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
    if (J->share != MIP_SHARE_NONE) help_samples(J, t);
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
            if (mip_poll(J->Wt[0]) == MIP_POLL_INTERRUPT) break;   /* sets *stop: the others return */
            mip_sleep(NAP);
        }
    }
}

/* run_samples() on thread t with its own GLPK problem (in Wt[t]) and error
 * trap. GLPK's error hook frees the thread's GLPK environment and longjmps
 * back here, on the same thread: the thread records the failure, stops the
 * others and leaves. Threads other than the caller's free their GLPK
 * environment when done (the caller's, R's thread, may hold other GLPK
 * objects). */
static void run_glpk(sample_job *J, int t)
{
    mip_work *W = J->Wt[t];
    if (setjmp(J->trap[t].jmp)) {
        W->lp = NULL;        /* freed with the environment */
        J->tstat[t] = MIP_LP_ERROR;
        *J->stop = 1;
#ifdef _OPENMP
#pragma omp atomic
#endif
        J->running--;
        return;
    }
    mip_lp_hooks_on(&J->trap[t]);
    if (mip_lp_open(W, J->L, J->M->n)) {
        J->tstat[t] = MIP_OUT_OF_MEMORY;
        *J->stop = 1;
#ifdef _OPENMP
#pragma omp atomic
#endif
        J->running--;
    } else {
        if ((J->selftest == 1 && t == 0) || (J->selftest == 2 && t == J->nt - 1))
            mip_lp_selftest(W, J->L);
        run_samples(J, t);
    }
    mip_lp_close(W);
    mip_lp_hooks_off();
    if (t > 0) mip_lp_env_free();
}

static void run_thread(sample_job *J, int t, int glpk)
{
    if (glpk) run_glpk(J, t);
    else run_samples(J, t);
}

/* The samples of B (B->ns streams in B->rs) on the model M with control C:
 * W is the master thread's work space (mip_work_search() done), L the LP
 * when GLPK bounds (then B->selftest provokes a GLPK error). Fills B's
 * outputs; returns MIP_OK, MIP_OUT_OF_MEMORY, MIP_INTERRUPTED or
 * MIP_LP_ERROR (B->lp_error: GLPK's message). */
int mip_batch_run(mip_batch *B, mip_work *W, const mip_value_model *M, const mip_lp_def *L,
                  const mip_control *C)
{
    int n = M->n, ns = B->ns, glpk = C->bound_lp && !C->cut && !C->roof;
    B->lp_error = NULL;
    B->lp_serial = glpk && (B->no_tls || !mip_lp_threads_ok());
    /* each thread has its own work space, cut graph or GLPK problem; each
     * sample its own stream. GLPK without thread-local environments: one */
    int nt = B->lp_serial ? 1 : logz_threads(B->threads);
    /* sharing one search needs unlimited nodes (with a node limit the nodes
     * explored would depend on timing) and no GLPK (see the top) */
    mip_share share = B->share;
    if (nt == 1 || R_FINITE(C->node_limit) || glpk ||
        (share != MIP_SHARE_IDLE && share != MIP_SHARE_FORCED)) share = MIP_SHARE_NONE;
    if (nt > ns && share == MIP_SHARE_NONE) nt = ns > 0 ? ns : 1;
    mip_work **Wt = (mip_work **) R_alloc(nt, sizeof(mip_work *));
    mip_control *Ct = (mip_control *) R_alloc(nt, sizeof(mip_control));
    volatile int stop = 0;   /* interrupted (or out of memory): every thread stops */
    Wt[0] = W;
    Ct[0] = *C;
    W->interrupts = 1;       /* the master thread (R's) polls for interrupts */
    W->stop = &stop;
    int oom = 0;
    for (int t = 1; t < nt; t++) {
        Wt[t] = mip_work_new(n);
        Wt[t]->stop = &stop;
        if (mip_work_search(Wt[t], M)) oom = 1;
        Ct[t] = *C;
        if (C->cut) Ct[t].cut = mip_cut_clone(C->cut);
        if (C->roof) Ct[t].roof = mip_roof_clone(C->roof);
    }
    int cap = B->trace_cap, ns1 = ns > 0 ? ns : 1;
    double *tball = (double *) R_alloc((size_t) 4 * cap * ns1, sizeof(double));
    int *tlen = (int *) R_alloc(ns1, sizeof(int));
    int *sstat = (int *) R_alloc(ns1, sizeof(int));
    for (int s = 0; s < ns; s++) { sstat[s] = MIP_OK; tlen[s] = 0; B->helped[s] = 0.0; }
    mip_shared *S = (mip_shared *) R_alloc(nt, sizeof(mip_shared));
    for (int t = 0; t < nt; t++) mip_shared_init(&S[t], share, nt);
    mip_lp_trap *trap = glpk ? (mip_lp_trap *) R_alloc(nt, sizeof(mip_lp_trap)) : NULL;
    int *tstat = (int *) R_alloc(nt, sizeof(int));
    for (int t = 0; t < nt; t++) tstat[t] = MIP_OK;
    mip_topk *K = NULL;      /* k > 1: each thread's list of its search's k best */
    if (B->k > 1) {
        K = (mip_topk *) R_alloc(nt, sizeof(mip_topk));
        for (int t = 0; t < nt; t++)
            K[t] = (mip_topk) {.k = B->k, .n = n, .count = 0,
                               .value = (double *) R_alloc(B->k, sizeof(double)),
                               .rank = (double *) R_alloc(B->k, sizeof(double)),
                               .slot = (int *) R_alloc(B->k, sizeof(int)),
                               .states = (int *) R_alloc((size_t) B->k * (n > 0 ? n : 1), sizeof(int))};
    }
    sample_job J = {.M = M, .L = L, .B = B, .Wt = Wt, .Ct = Ct, .S = S, .K = K, .tball = tball,
                    .tlen = tlen, .sstat = sstat, .stop = &stop, .next = 0, .running = nt,
                    .nt = nt, .share = share, .active = 0, .trap = trap, .tstat = tstat,
                    .selftest = B->selftest};
    B->threads_used = nt;
    if (!oom) {
        if (nt == 1) run_thread(&J, 0, glpk);
        else {
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
            run_thread(&J, omp_get_thread_num(), glpk);
#endif
        }
    }
    for (int t = 0; t < nt; t++) mip_shared_done(&S[t]);
    for (int t = 1; t < nt; t++) mip_work_free(Wt[t]);
    int status = oom ? MIP_OUT_OF_MEMORY : MIP_OK;
    for (int t = 0; t < nt && !status; t++)
        if (tstat[t] == MIP_LP_ERROR) {
            status = MIP_LP_ERROR;
            B->lp_error = trap[t].msg;
        }
    for (int t = 0; t < nt && !status; t++) status = tstat[t];
    for (int s = 0; s < ns && !status; s++) status = sstat[s];
    B->ntrace = 0;
    for (int s = 0; s < ns && !status; s++)
        for (int k = 0; k < tlen[s]; k++) {
            double *r = B->trace + 5 * (size_t) B->ntrace++;
            r[0] = s + 1;
            memcpy(r + 1, tball + (size_t) 4 * cap * s + 4 * k, 4 * sizeof(double));
        }
    return status;
}
