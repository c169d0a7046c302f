/* Markov kernels for continuous targets on the tempered path
 *   log f_beta(x) = (1 - beta) log p0(x) + beta log f(x)
 * from a normalised product base p0 (proposal.c) to an unnormalised f given by
 * the caller's evaluator (an R function, through a callback). Shared by the
 * annealing estimators on R log densities.
 *
 * Kernels (LOGZ_KERNEL_*): random-walk Metropolis with Gaussian steps of sd
 * step * scale[j]; HMC with a diagonal mass matrix (Neal 2011, "MCMC using
 * Hamiltonian dynamics", Section 5.4.1), position scale scale[j] = 1 /
 * sqrt(mass[j]), L leapfrog steps of size step[c]; MALA is HMC with L = 1. The
 * scales are shared by the chains or, for tempered sampling, one row per chain
 * (the mass matrix of the chain's rung).
 * Each chain c has its own beta[c] (equal for AIS, a chain's rung for
 * tempered sampling).
 * All chains move together, so the evaluator is called once per stage for the
 * M chains. Each chain draws from its own stream: RWM takes d normals then one
 * uniform; HMC d normals (momentum) then one uniform. */
#include <math.h>
#include "logz.h"

/* the position scale of chain c in dimension j */
static inline double kernel_scale(const cont_kernel *k, int M, int c, int j)
{
    return k->scale_per_chain ? k->scale[c + (size_t) M * j] : k->scale[j];
}

/* log f_beta from the two log densities, with 0 * -Inf = 0 at the ends. */
double cont_path_log_density(double beta, double lf, double lb)
{
    double t = 0.0;
    if (beta > 0.0) t += beta * lf;
    if (beta < 1.0) t += (1.0 - beta) * lb;
    return t;
}

/* log p0 (and, when gb != NULL, its gradient, M x d) at the rows of X. */
void cont_base_eval(const logz_proposal *p, const double *X, int M, double *row, double *lb,
                    double *gb)
{
    int d = p->d;
    for (int c = 0; c < M; c++) {
        for (int j = 0; j < d; j++) row[j] = X[c + (size_t) M * j];
        lb[c] = proposal_log_density(p, row);
        if (gb) {
            for (int j = 0; j < d; j++)
                gb[c + (size_t) M * j] = proposal_grad_log_density1(p, j, row[j]);
        }
    }
}

void cont_work_alloc(cont_work *w, int M, int d, int gradient)
{
    size_t Md = (size_t) M * d;
    w->Xp = (double *) R_alloc(Md, sizeof(double));
    w->lfp = (double *) R_alloc(M, sizeof(double));
    w->lbp = (double *) R_alloc(M, sizeof(double));
    w->row = (double *) R_alloc(d, sizeof(double));
    w->gfp = gradient ? (double *) R_alloc(Md, sizeof(double)) : NULL;
    w->gbp = gradient ? (double *) R_alloc(Md, sizeof(double)) : NULL;
    w->P = gradient ? (double *) R_alloc(Md, sizeof(double)) : NULL;
    w->H0 = gradient ? (double *) R_alloc(M, sizeof(double)) : NULL;
    w->alive = gradient ? (int *) R_alloc(M, sizeof(int)) : NULL;
}

/* Evaluate f (and its gradient when the kernel needs it) and p0 at Y. */
static void eval_at(const cont_target *t, const logz_proposal *p, const double *Y, int M,
                    double *lf, double *gf, double *lb, double *gb, double *row)
{
    t->eval(t->ctx, Y, M, lf, gf, 1);
    cont_base_eval(p, Y, M, row, lb, gb);
}

static void rwm_sweep(const cont_kernel *k, const double *beta, cont_chains *ch,
                      const cont_target *t, const logz_proposal *p, logz_stream *st,
                      cont_work *w, double *accept)
{
    int M = ch->M, d = ch->d;
    double *X = ch->X, *Xp = w->Xp;
    for (int j = 0; j < d; j++) {
        for (int c = 0; c < M; c++) {
            double sd = k->step[c] * kernel_scale(k, M, c, j);
            Xp[c + (size_t) M * j] = X[c + (size_t) M * j] + sd * logz_stream_norm(&st[c]);
        }
    }
    eval_at(t, p, Xp, M, w->lfp, NULL, w->lbp, NULL, w->row);
    for (int c = 0; c < M; c++) {
        double tn = cont_path_log_density(beta[c], w->lfp[c], w->lbp[c]);
        double tc = cont_path_log_density(beta[c], ch->lf[c], ch->lb[c]);
        double u = logz_stream_unif(&st[c]);
        int ok = !ISNAN(tn) && tn > R_NegInf && (tc == R_NegInf || log(u) < tn - tc);
        accept[c] = ok;
        if (ok) {
            for (int j = 0; j < d; j++) X[c + (size_t) M * j] = Xp[c + (size_t) M * j];
            ch->lf[c] = w->lfp[c];
            ch->lb[c] = w->lbp[c];
        }
    }
}

/* momentum half step of chain c: P += (eps_c / 2) * grad log f_beta at (gf, gb) */
static void half_kick(const double *beta, const double *eps, int M, int d, const double *gf,
                      const double *gb, const int *alive, double *P)
{
    for (int j = 0; j < d; j++)
        for (int c = 0; c < M; c++) {
            size_t i = c + (size_t) M * j;
            if (!alive[c]) continue;
            double g = 0.0;
            if (beta[c] > 0.0) g += beta[c] * gf[i];
            if (beta[c] < 1.0) g += (1.0 - beta[c]) * gb[i];
            P[i] += 0.5 * eps[c] * g;
        }
}

/* One HMC transition of every chain; accept[c]: its acceptance probability. */
static void hmc_sweep(const cont_kernel *k, const double *beta, cont_chains *ch,
                      const cont_target *t, const logz_proposal *p, logz_stream *st,
                      cont_work *w, double *accept)
{
    int M = ch->M, d = ch->d, L = k->kind == LOGZ_KERNEL_MALA ? 1 : k->n_leapfrog;
    const double *eps = k->step;
    double *Xp = w->Xp, *P = w->P;
    memcpy(Xp, ch->X, sizeof(double) * (size_t) M * d);
    memcpy(w->gfp, ch->gf, sizeof(double) * (size_t) M * d);
    memcpy(w->gbp, ch->gb, sizeof(double) * (size_t) M * d);
    for (int c = 0; c < M; c++) {
        double kin = 0.0;
        for (int j = 0; j < d; j++) {
            double z = logz_stream_norm(&st[c]);
            P[c + (size_t) M * j] = z / kernel_scale(k, M, c, j);
            kin += 0.5 * z * z;
        }
        w->H0[c] = kin - cont_path_log_density(beta[c], ch->lf[c], ch->lb[c]);
        w->alive[c] = 1;
    }
    for (int l = 0; l < L; l++) {
        half_kick(beta, eps, M, d, w->gfp, w->gbp, w->alive, P);
        for (int j = 0; j < d; j++)
            for (int c = 0; c < M; c++) {
                size_t i = c + (size_t) M * j;
                double sj = kernel_scale(k, M, c, j);
                if (w->alive[c]) Xp[i] += eps[c] * sj * sj * P[i];
            }
        eval_at(t, p, Xp, M, w->lfp, w->gfp, w->lbp, w->gbp, w->row);
        for (int c = 0; c < M; c++)
            if (!(cont_path_log_density(beta[c], w->lfp[c], w->lbp[c]) > R_NegInf))
                w->alive[c] = 0;
        half_kick(beta, eps, M, d, w->gfp, w->gbp, w->alive, P);
    }
    for (int c = 0; c < M; c++) {
        double u = logz_stream_unif(&st[c]);
        accept[c] = 0.0;
        if (!w->alive[c]) continue;
        double kin = 0.0;
        for (int j = 0; j < d; j++) {
            double q = kernel_scale(k, M, c, j) * P[c + (size_t) M * j];
            kin += 0.5 * q * q;
        }
        double H1 = kin - cont_path_log_density(beta[c], w->lfp[c], w->lbp[c]);
        double a = ISNAN(H1) ? 0.0 : (w->H0[c] - H1 >= 0.0 ? 1.0 : exp(w->H0[c] - H1));
        accept[c] = a;
        if (u < a) {
            for (int j = 0; j < d; j++) {
                size_t i = c + (size_t) M * j;
                ch->X[i] = Xp[i];
                ch->gf[i] = w->gfp[i];
                ch->gb[i] = w->gbp[i];
            }
            ch->lf[c] = w->lfp[c];
            ch->lb[c] = w->lbp[c];
        }
    }
}

double cont_kernel_sweep(const cont_kernel *k, const double *beta, cont_chains *ch,
                         const cont_target *t, const logz_proposal *p, logz_stream *st,
                         cont_work *w, double *accept)
{
    switch (k->kind) {
    case LOGZ_KERNEL_RWM: rwm_sweep(k, beta, ch, t, p, st, w, accept); break;
    case LOGZ_KERNEL_MALA:
    case LOGZ_KERNEL_HMC: hmc_sweep(k, beta, ch, t, p, st, w, accept); break;
    default: logz_internal_error("unknown kernel %d", k->kind);
    }
    double a = 0.0;
    for (int c = 0; c < ch->M; c++) a += accept[c];
    return a / ch->M;
}

/* `sweeps` transitions of every chain c at beta[c]; with fresh, the gradients
 * at the entry states are computed first. accept (M) receives each chain's
 * mean acceptance over the sweeps; an interrupt check after each sweep.
 * Returns 0. */
int cont_kernel_sweeps(const cont_kernel *k, const double *beta, int sweeps, int fresh,
                       cont_chains *ch, const cont_target *t, const logz_proposal *p,
                       logz_stream *st, double *accept)
{
    int M = ch->M, d = ch->d;
    cont_work w;
    cont_work_alloc(&w, M, d, k->kind != LOGZ_KERNEL_RWM);
    if (fresh) {   /* the gradients at the entry states */
        t->eval(t->ctx, ch->X, M, w.lfp, ch->gf, 0);
        cont_base_eval(p, ch->X, M, w.row, w.lbp, ch->gb);
    }
    double *a = (double *) R_alloc(M, sizeof(double));
    for (int c = 0; c < M; c++) accept[c] = 0.0;
    for (int s = 0; s < sweeps; s++) {
        cont_kernel_sweep(k, beta, ch, t, p, st, &w, a);
        for (int c = 0; c < M; c++) accept[c] += a[c] / sweeps;
        R_CheckUserInterrupt();
    }
    return 0;
}

/* Evaluations of f (and of its gradient) one sweep of kernel k makes per chain. */
int cont_kernel_evals(const cont_kernel *k)
{
    return k->kind == LOGZ_KERNEL_HMC ? k->n_leapfrog : 1;
}

/* Dual averaging of the log step (Hoffman and Gelman 2014, Algorithm 5), with
 * its weight floored at 1 / window so that it tracks an optimum that moves
 * with beta; the iterate (not its average) is the step used next. */
void cont_dual_init(cont_dual *a, double log_step)
{
    *a = (cont_dual) {.mu = log_step + log(10.0), .h_bar = 0.0, .t = 0,
                      .log_step = log_step};
}

void cont_dual_update(cont_dual *a, double accept, double target)
{
    const double t0 = 10.0, gamma = 0.05, window = 30.0;
    a->t++;
    double t = a->t < window ? a->t : window;
    double wt = 1.0 / (t + t0);
    a->h_bar = (1.0 - wt) * a->h_bar + wt * (target - accept);
    a->log_step = a->mu - sqrt(t) / gamma * a->h_bar;
}
