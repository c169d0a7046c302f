/* GumbelMIP: threads sharing the branch and bound of one sample (issue 19).
 *
 * Node keys. Every node of the search tree carries a 64-bit key: the root's
 * comes from the sample's stream, a child's is a hash of its parent's key,
 * the branching variable and the side (kept sigma_x or flipped), and the
 * random draws of a split (the new child's truncated Gumbel and its redrawn
 * sigma, split_node()) come from an MRG32k3a stream seeded by hashing the
 * child's key. Since the branching variable of a node also depends only on
 * the node (its fixings, sigma and LP solution; never the incumbent), the
 * whole perturbed tree -- every configuration's Gumbel value -- is a
 * function of the sample's stream alone, and any correct search (one thread
 * or several, in any order) returns the same argmax and value. The hash is
 * splitmix64's finaliser (Steele, Lea & Flood 2014); 64-bit keys collide with
 * probability ~ N^2 / 2^65 for N nodes.
 *
 * Sharing. The sample's owner runs mip_search(); once the root is expanded
 * the search is joinable and idle threads (no sample left to start) join it
 * through mip_search_join() and run the same loop, mip_search_loop()
 * (mip_search.c), with their own scratch and min-cut graph. The lock guards
 * the pool, the open list, the incumbent and the counters; the bound of a
 * popped node is computed outside it. */
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#include "mip.h"

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define GOLDEN 0x9E3779B97F4A7C15ULL

uint64_t mip_key_child(uint64_t key, int x, int side)
{
    return mix64(key ^ mix64((((uint64_t) x << 1) | (uint64_t) (side & 1)) + GOLDEN));
}

/* 64 bits from two draws of the sample's stream (32 bits each) */
uint64_t mip_key_root(logz_stream *rs)
{
    uint64_t hi = (uint64_t) (logz_stream_unif(rs) * 4294967296.0);
    uint64_t lo = (uint64_t) (logz_stream_unif(rs) * 4294967296.0);
    return mix64((hi << 32) ^ lo);
}

/* An MRG32k3a state from a key: six splitmix64 outputs reduced below the
 * moduli (neither half all zero). */
void mip_node_stream(uint64_t key, logz_stream *s)
{
    uint64_t z = key ^ 0x5851F42D4C957F2DULL;
    for (int i = 0; i < 6; i++) {
        z += GOLDEN;
        uint64_t m = i < 3 ? 4294967087ULL : 4294944443ULL;
        s->s[i] = (double) ((mix64(z) >> 16) % m);
    }
    if (s->s[0] == 0 && s->s[1] == 0 && s->s[2] == 0) s->s[0] = 1;
    if (s->s[3] == 0 && s->s[4] == 0 && s->s[5] == 0) s->s[3] = 1;
}

/* ---- the lock ----------------------------------------------------------- */

/* share: 0 no other thread joins, 1 idle threads join, 2 also the owner
 * waits after the root until every thread has joined (forces the shared
 * path, for tests). S and its lock and key slots by R_alloc (the caller's .Call frees them);
 * the lock is destroyed by mip_shared_done() once the threads have joined. */
void mip_shared_init(mip_shared *S, int share, int nthreads)
{
    memset(S, 0, sizeof *S);
    S->nthreads = nthreads > 0 ? nthreads : 1;
    S->ikey = (double *) R_alloc(S->nthreads, sizeof(double));
    for (int t = 0; t < S->nthreads; t++) S->ikey[t] = R_NegInf;
#ifdef _OPENMP
    if (share > 0 && S->nthreads > 1) {
        S->lock = R_alloc(1, sizeof(omp_lock_t));
        omp_init_lock((omp_lock_t *) S->lock);
        S->locking = 1;
        S->wait_helpers = share == 2;
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

/* wait a little (another thread holds the only open nodes) */
void mip_pause(void)
{
#ifdef _WIN32
    Sleep(0);
#else
    struct timespec ts = {0, 20000};   /* 20 us */
    nanosleep(&ts, NULL);
#endif
}

/* ---- joining and leaving -------------------------------------------------- */

/* Thread tid (scratch Ws, control Cs with its own min-cut graph) joins S if
 * S is joinable and still running, and searches until it ends. 1 if it did. */
int mip_search_join(mip_shared *S, int tid, mip_work *Ws, const mip_control *Cs)
{
    if (!S->locking) return 0;
    int ok = 0;
    mip_lock(S);
    if (S->joinable && !S->done && !S->limited && !S->R->status) {
        S->helpers++;
        ok = 1;
        Ws->deadline = S->W->deadline;
    }
    mip_unlock(S);
    if (!ok) return 0;
    mip_search_loop(S, tid, Ws, Cs);
    mip_lock(S);
    S->helpers--;
    mip_unlock(S);
    return 1;
}

/* The owner, after its loop ended: no new helper may join; wait until the
 * helpers (each finishing the node it bounds) have left. */
void mip_search_release(mip_shared *S)
{
    if (!S->locking) return;
    for (;;) {
        mip_lock(S);
        S->joinable = 0;
        int h = S->helpers;
        mip_unlock(S);
        if (h == 0) break;
        mip_pause();
    }
}
