/* GumbelMIP: the state that threads share while searching one sample, and
 * its lock. The sample's owner runs mip_search(); once the root is expanded
 * the search is joinable and idle threads join it (mip_search_join(),
 * mip_search.c). The lock guards the pool, the open list, the incumbent and
 * the counters; the bound of a popped node is computed outside it. */
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "mip.h"

/* share: MIP_SHARE_NONE no other thread joins, MIP_SHARE_IDLE idle threads
 * join, MIP_SHARE_FORCED also the owner waits after the root until every
 * thread has joined (forces the shared path, for tests). S's lock and key
 * slots by R_alloc (the .Call frees them); the lock is destroyed by
 * mip_shared_done() once the threads have joined. */
void mip_shared_init(mip_shared *S, mip_share share, int nthreads)
{
    memset(S, 0, sizeof *S);
    S->nthreads = nthreads > 0 ? nthreads : 1;
    S->ikey = (double *) R_alloc(S->nthreads, sizeof(double));
    for (int t = 0; t < S->nthreads; t++) S->ikey[t] = R_NegInf;
#ifdef _OPENMP
    if (share != MIP_SHARE_NONE && S->nthreads > 1) {
        S->lock = R_alloc(1, sizeof(omp_lock_t));
        omp_init_lock((omp_lock_t *) S->lock);
        S->locking = 1;
        S->wait_helpers = share == MIP_SHARE_FORCED;
    }
#else
    (void) share;
#endif
}

void mip_shared_done(mip_shared *S)
{
#ifdef _OPENMP
    if (S->locking) omp_destroy_lock((omp_lock_t *) S->lock);
#endif
    S->locking = 0;
}

void mip_lock(mip_shared *S)
{
#ifdef _OPENMP
    if (S->locking) omp_set_lock((omp_lock_t *) S->lock);
#else
    (void) S;
#endif
}

void mip_unlock(mip_shared *S)
{
#ifdef _OPENMP
    if (S->locking) omp_unset_lock((omp_lock_t *) S->lock);
#else
    (void) S;
#endif
}
