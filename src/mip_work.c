/* GumbelMIP's bottom layer: the memory of one search (its node pool and
 * scratch, by malloc so that the search can report running out of memory
 * instead of raising an R error), the clock, polling for user interrupts
 * and the time limit, and the one sleep of waiting threads. */
#include <string.h>
#include <limits.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif
#include <R_ext/Utils.h>
#include "mip.h"

/* The struct by R_alloc (freed when the .Call returns), its arrays by malloc
 * (mip_work_free()); callers check the arrays they need. */
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

/* W's staging pool for splits (mip_search.c), with row activities for
 * linear models; 1 if out of memory */
int mip_work_stage(mip_work *W, const mip_value_model *M)
{
    mip_work *St = mip_work_new(M->n);
    int rows = M->kind == MIP_KIND_LINEAR && M->nrow;
    W->stage = St;
    if (rows) St->rowact = malloc(sizeof(double) * M->nrow);
    return !St->cur || !St->sbuf || (rows && !St->rowact);
}

/* Everything a search on M needs in W (from mip_work_new()): the row
 * activities of linear models and the staging pool; 1 if out of memory. */
int mip_work_search(mip_work *W, const mip_value_model *M)
{
    int rows = M->kind == MIP_KIND_LINEAR && M->nrow;
    if (rows) W->rowact = malloc(sizeof(double) * M->nrow);
    return !W->cur || !W->tau || !W->dive || !W->flip || !W->sbuf || (rows && !W->rowact) ||
        mip_work_stage(W, M);
}

void mip_work_free(mip_work *W)
{
    if (!W) return;
    free(W->state); free(W->key); free(W->gam); free(W->nfix); free(W->heap);
    free(W->freel); free(W->flag); free(W->rowact); free(W->cur); free(W->tau); free(W->dive); free(W->flip);
    free(W->tq); free(W->nkey); free(W->sbuf);
    for (int k = 0; k < 2; k++) { free(W->lpbuf[k]); W->lpbuf[k] = NULL; W->lpcap[k] = 0; }
    if (W->stage) mip_work_free(W->stage);   /* the struct itself by R_alloc */
    W->stage = NULL;
    W->dive = NULL; W->flip = NULL; W->tq = NULL; W->nkey = NULL; W->sbuf = NULL;
    W->state = NULL; W->key = W->gam = NULL; W->nfix = W->heap = W->freel = W->flag = NULL;
    W->rowact = W->tau = NULL; W->cur = NULL;
}

/* realloc *pp (a pointer to any object pointer) to `bytes`; 0 when out of
 * memory (*pp unchanged) */
static int grow_array(void *pp, size_t bytes)
{
    void **p = (void **) pp, *q = realloc(*p, bytes);
    if (!q) return 0;
    *p = q;
    return 1;
}

/* W's scratch buffer `which` (0 or 1) of at least `bytes` (kept, grown
 * when needed, freed by mip_work_free()); NULL when out of memory. */
void *mip_work_buffer(mip_work *W, int which, size_t bytes)
{
    if (bytes == 0) bytes = 1;
    if (W->lpcap[which] < bytes) {
        if (!grow_array(&W->lpbuf[which], bytes)) return NULL;
        W->lpcap[which] = bytes;
    }
    return W->lpbuf[which];
}

/* Twice the node slots of W (1024 at first), n state bytes each; 0 when out
 * of memory (W->cap unchanged). */
int mip_work_more_slots(mip_work *W, int n)
{
    size_t cap = W->cap ? 2 * (size_t) W->cap : 1024;
    if (cap > INT_MAX || !grow_array(&W->state, cap * n) ||
        !grow_array(&W->key, sizeof(double) * cap) || !grow_array(&W->gam, sizeof(double) * cap) ||
        !grow_array(&W->nfix, sizeof(int) * cap) || !grow_array(&W->heap, sizeof(int) * cap) ||
        !grow_array(&W->freel, sizeof(int) * cap) || !grow_array(&W->flag, sizeof(int) * cap) ||
        !grow_array(&W->nkey, sizeof(uint64_t) * cap))
        return 0;
    W->cap = (int) cap;
    return 1;
}

double mip_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void chk_int(void *d) { (void) d; R_CheckUserInterrupt(); }

/* Called every search node and between GLPK simplex slices (mip_glpk.c):
 * the master thread checks for user interrupts (and R's time limits) every
 * 0.1 s through R_ToplevelExec, so no longjmp crosses the search or GLPK; an
 * interrupt sets the shared stop flag that the other threads read. */
int mip_poll(mip_work *W)
{
    if (W->stop && *W->stop) return MIP_POLL_INTERRUPT;
    double t = mip_now();
    if (W->interrupts && t >= W->next_poll) {
        W->next_poll = t + 0.1;
        if (!R_ToplevelExec(chk_int, NULL)) {
            if (W->stop) *W->stop = 1;
            return MIP_POLL_INTERRUPT;
        }
    }
    return t >= W->deadline ? MIP_POLL_TIME_LIMIT : MIP_POLL_GO;
}

/* Sleep about `seconds` (Windows: whole milliseconds, 0 yields the slice). */
void mip_sleep(double seconds)
{
#ifdef _WIN32
    Sleep((DWORD) (seconds * 1000.0));
#else
    struct timespec ts;
    ts.tv_sec = (time_t) seconds;
    ts.tv_nsec = (long) ((seconds - (double) ts.tv_sec) * 1e9);
    nanosleep(&ts, NULL);
#endif
}

/* The state bytes of a partial assignment: fix[j] NA (free) or 0/1 (fixed). */
void mip_fix_state(const int *fix, int n, unsigned char *st)
{
    for (int j = 0; j < n; j++)
        st[j] = fix[j] == NA_INTEGER ? 0 : (unsigned char) (MIP_FIXED | (fix[j] & MIP_SIGMA));
}
