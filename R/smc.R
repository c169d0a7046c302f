#' Adaptive tempering sequential Monte Carlo for log Z and model evidence
#'
#' `smc()` estimates \eqn{\log Z} of an unnormalised density given as an R
#' function (the same contract as [ais.function()]), or the evidence of a
#' [bayes_model()], by sequential Monte Carlo along a tempered path whose
#' temperatures are chosen as the run goes (Zhou, Johansen and Aston 2016).
#'
#' **Paths.** For an R log density \eqn{\log f}, the geometric path
#' \eqn{\log \pi_\beta = (1-\beta)\log p_0 + \beta \log f} from a normalised
#' base \eqn{p_0} (by default the Laplace fit at the mode, in its whitened
#' coordinates, as for [ais.function()]); the log ratio
#' \eqn{\ell = \log f - \log p_0}. For a [bayes_model()], the power
#' posteriors \eqn{\log \pi_\beta = \log p(\theta) + \beta \log L(\theta)}
#' from the prior (Friel and Pettitt 2008), \eqn{\ell = \log L}.
#'
#' **The run.** `particles` draws from \eqn{\pi_0} with equal weights; then,
#' until \eqn{\beta = 1}: the next \eqn{\beta'} is the largest whose
#' conditional effective sample size (Zhou et al. 2016, Eq. 3.3)
#' \eqn{CESS = N (\sum_i W_i w_i)^2 / \sum_i W_i w_i^2}, with \eqn{W} the
#' normalised weights and \eqn{w_i = \exp((\beta'-\beta)\ell_i)}, is at least
#' `cess` \eqn{\times N} (found by bisection); \eqn{\log Z} gains
#' \eqn{\log \sum_i W_i w_i} and the weights become \eqn{W_i w_i}
#' (normalised); when the ESS \eqn{1/\sum W_i^2} falls below
#' `resample_threshold` \eqn{\times N} the particles are resampled
#' (systematic resampling); then each particle takes `move_steps`
#' transitions of `kernel` (random-walk Metropolis, MALA or HMC of
#' `src/cont_kernel.c`) targeting \eqn{\pi_{\beta'}}. The kernel's
#' position scales are the particles' weighted sd in each coordinate (for a
#' function target, whose Laplace base has whitened it already) or, for a
#' [bayes_model()], the kernel runs in the affine frame of the particles'
#' weighted mean and covariance (a dense mass matrix), and
#' its step is adapted after every transition towards `target_accept`
#' (\eqn{\log \epsilon \leftarrow \log \epsilon + (a - a^*)}, \eqn{a} the
#' mean acceptance probability, in the pilot run of `schedule = "pilot"`, whose
#' steps the replicates then use; each particle's step is \eqn{\epsilon}
#' times a uniform draw in \eqn{[0.8, 1.2]}, so that no trajectory length is
#' resonant for every particle). The position scales of the particles in
#' one half (by their ancestor at the last resampling) come from the other
#' half, so that no particle's kernel depends on its own state: the kernel
#' then leaves \eqn{\pi_{\beta'}} invariant for each particle given the
#' other half, and the estimate is consistent as `particles` grows (Zhou et
#' al. 2016, Section 3.3) with no bias from tuning a kernel on the particle it
#' moves.
#'
#' **The base of a function target.** The Laplace fit sits at the mode,
#' which can be far from the mass of the target (a hierarchical model's mode
#' lies in the neck of its funnel, at a small group scale). Two steps before
#' the replicates therefore adjust the default Laplace base (their
#' evaluations are counted). A multi-start mode search looks for separate
#' modes: it draws a screen of \eqn{\min(5000, 2000 + 1200 d)} points from the
#' base with its scale multiplied by 5 (one density evaluation each) and
#' runs the optimiser of [laplace_base()] from batches of `mode_starts` of
#' them, half those where \eqn{\log f} most exceeds the Laplace
#' approximations of the modes known so far (mass that no known mode
#' explains, such as a narrow mode's basin), half at random, skipping points
#' next to a mode already found (the two kinds taken in turn); a batch ends
#' early after 24 starts in a row that found only known modes, and a further
#' batch runs while the last one found a new mode (at most 4 batches), so
#' the search grows with what it finds. A start whose optimum is a known mode
#' skips its Hessian, and the gradient is checked once, at `start`. When it finds one
#' with at least 1% of the Laplace mass of the modes found, the base is
#' widened to the Gaussian with the mean and covariance of the mixture of
#' their Laplace fits, so that the particles start in reach of each mode.
#' Then, with `refit_base` and `schedule = "pilot"`, the pilot run's final
#' weighted particles give a moment-matched fit (in the base's Student-t
#' family or Gaussian) which replaces the base when it fits them better: when
#' the weighted variance of \eqn{\ell} at \eqn{\beta = 1} (the log-variance
#' of the importance weights of the base against \eqn{f/Z}) is lower, each
#' half of the particles scoring the fit to the other half. The replicates
#' and a second pilot then run from the refitted base (each still an
#' unbiased estimate of \eqn{Z} given the base). When the search found a
#' mode that the final particles of the replicates hold less than half the
#' Laplace share of, the estimate is flagged. A mode the search does not find
#' goes unflagged: a narrow one far from the base, whose basin the
#' over-dispersed screen rarely reaches, is missed by the search and the
#' particles alike, and log Z then lacks its mass with an se that does not
#' show it (more `mode_starts`, or a `base` that covers it); the result says
#' so in `mode_search_note` whenever the search found no other mode.
#'
#' **The bridge estimate (function targets).** The final weighted particles
#' of the replicates are approximate draws from \eqn{f/Z}; with draws from a
#' normalised density \eqn{q} they give the bridge-sampling estimate of
#' \eqn{Z} with the optimal bridge (Meng and Wong 1996, Eq. 4.1, by its
#' iterative scheme; the estimator of bridgesampling, Gronau et al. 2017):
#' with \eqn{l = f/q},
#' \eqn{r \leftarrow [\frac{1}{N_2}\sum_j l(y_j)/(s_1 l(y_j) + s_2 r)] /
#' [\sum_i W_i/(s_1 l(x_i) + s_2 r)]}, \eqn{y_j \sim q}, \eqn{x_i} the
#' particles with normalised weights \eqn{W_i}, \eqn{s_1 = N_1/(N_1+N_2)} with
#' \eqn{N_1} their ESS. Every draw from \eqn{q} counts in \eqn{N_2}, also
#' one where \eqn{f} is 0 (a log density of `-Inf` outside a bounded
#' support), which adds 0 to the sum. Each replicate gets its own \eqn{q}, chosen with the
#' particles of the other replicates only (so that it is independent of the
#' particles it bridges to): among the base, the Gaussian and Student-t (10
#' df) of its Laplace fit, and the moment-matched Gaussian and Student-t (10
#' and 5 df) of the other replicates' particles (each scored across halves of
#' them), the one with the lowest weighted variance of \eqn{\log l} at those
#' particles. The replicates' pieces are pooled (one iteration over all of
#' them). Its se adds in quadrature to the jackknife over the replicates
#' 0.05 times the SMC estimate's se (the replicates share the base and the
#' schedule, so their particles can depart from \eqn{f/Z} together, an error
#' their spread does not show and that does not bias the SMC estimate),
#' times \eqn{\min(1, \sqrt{1 - ESS/M} / 0.1)} of the weights \eqn{f/q} at
#' the draws from \eqn{q} (a \eqn{q} equal to \eqn{f/Z} makes the bridge exact
#' whatever the particles), and
#' is scaled by \eqn{t_{R-1, 0.975} / z_{0.975}} (the jackknife from
#' \eqn{R} replicates has \eqn{R-1} degrees of freedom), so that
#' \eqn{\pm 1.96} se is a 95 percent interval (`bridge` also holds the jackknife
#' se alone). The draws from \eqn{q} also give the importance weights
#' \eqn{f/q} (`bridge_proposal_fit`: their importance-sampling estimate
#' `log_z`, `ess_ratio` and Pareto `khat`, see [weight_diagnostics()]). Each draw from
#' \eqn{q} costs one density evaluation (counted); by default each replicate
#' first takes as many as it has particles, then more, to the number that
#' minimises variance times cost (\eqn{\sqrt{v_q C / v_p}} with \eqn{v_q} the
#' relative variance per draw of the \eqn{q} side, \eqn{v_p} that of the
#' particle side, Fruehwirth-Schnatter 2004, Eq. 16 without autocorrelation,
#' and \eqn{C} the evaluations per replicate so far), at most \eqn{C}.
#' With `estimator = "auto"` the reported `log_z` and `se` are the bridge's
#' when its iteration converged, it has an se (2 or more replicates), that
#' se is at most the SMC estimate's, and the two estimates of the same runs
#' agree within 3 combined se (\eqn{|b - s| \le 3 \sqrt{se_b^2 + se_s^2}});
#' otherwise the SMC estimate's, and a disagreement is flagged (see
#' "Reliability flags"); `estimator` in the result says which.
#'
#' **Replicates and se.** `replicates` independent runs (on the active
#' [future::plan()] when it has several workers, or with `workers`) give
#' \eqn{\hat Z_r}; the estimate is \eqn{\log \frac1R \sum_r \hat Z_r} and
#' its se the larger of two: \eqn{\mathrm{sd}(\hat Z_r) / (\bar Z \sqrt R)}
#' (delta method) and \eqn{\sqrt{\sum_r \hat Z_r^2 V_r} / (R \bar Z)}, where
#' \eqn{V_r} is replicate \eqn{r}'s own estimate of its relative variance
#' from its final weights and each particle's ancestor at \eqn{\beta = 0}
#' (Lee and Whiteley 2018, Theorem 1; one factor \eqn{N/(N-1)} per
#' resampling, as for adaptive resampling in Du and Guyader 2021; an
#' approximation under systematic resampling). When the weights of the base
#' against the target are heavy-tailed, \eqn{\hat Z_r} is right-skewed and
#' most sets of a few replicates miss its rare large values, giving a low
#' estimate with a low spread together; the particles of all replicates see
#' more of that tail.
#' With `target_se`, replicates are added (from at least 8, each round at
#' most doubling their number) until the se is at most `target_se`; a run
#' stopped first by
#' `max_time` or `max_evaluations` is flagged.
#'
#' **Path estimates from the same runs.** Thermodynamic integration
#' \eqn{\log Z = \int_0^1 E_\beta[\ell]\, d\beta} (Gelman and Meng 1998;
#' Friel and Pettitt 2008) by the trapezoid rule over the chosen betas, with
#' \eqn{E_\beta[\ell]} the weighted particle mean at each beta, and with the
#' correction \eqn{-\sum_k (\Delta\beta_k)^2 (V_k - V_{k-1}) / 12} (Friel,
#' Hurn and Wyse 2014, Eq. 10; \eqn{V_k} the weighted variance of \eqn{\ell},
#' the derivative of \eqn{E_\beta[\ell]}); and the stepping-stone estimate
#' (Xie et al. 2011, Eq. 7), the sum over the rungs of the log weighted mean
#' of \eqn{w_i}. With weighted particles the stepping-stone product of one
#' run is the SMC estimate itself; across replicates it is averaged on the
#' log scale (as stepping-stone estimates are), while the SMC estimate
#' averages \eqn{\hat Z}. Each has its se over the replicates (`ti`,
#' `ti_corrected`, `stepping_stone`: `c(log_z, se)`). TI is `NA` when
#' \eqn{\ell = -\infty} at a draw from \eqn{\pi_0}.
#'
#' @param model a function returning the log of an unnormalised density (see
#'   [ais.function()] for the contract), or a [bayes_model()].
#' @param base for a function: `"laplace"` (default; needs `start`),
#'   `"laplace_normal"`, a [laplace_base()] fit or a `logz_proposal`, as in
#'   [ais.function()].
#' @param gradient for a function: `NULL` or its gradient (as in
#'   [ais.function()]; checked against finite differences).
#' @param kernel `"rwm"`, `"mala"` or `"hmc"`; default `"hmc"` with a
#'   gradient, else `"rwm"`.
#' @param particles particles per replicate N (>= 10).
#' @param replicates independent runs R (>= 1; >= 2 for an se; the default
#'   8 makes the se itself steady enough for \eqn{|z| \le 3} to hold in about
#'   98% of runs, where 4 gives a t distribution with 3 degrees of freedom);
#'   with `target_se`, the first round.
#' @param schedule `"pilot"` (default): a pilot run of `particles` particles
#'   chooses the betas (by the conditional ESS) and the kernel's step at each,
#'   and every replicate then runs on them, so that its estimate of Z is
#'   unbiased but for the position scales taken from the particles (the
#'   pilot's evaluations are counted); `"adaptive"`: each replicate chooses
#'   its own as it goes (consistent, no pilot, but biased upwards by
#'   \eqn{O(1/N)}: the step to the next beta is fitted to the same particles
#'   whose weights estimate its ratio of normalising constants).
#' @param cess the conditional ESS fraction held at each new beta, in (0, 1).
#' @param resample_threshold resample when the ESS is below this fraction of
#'   N, in (0, 1].
#' @param move_steps kernel transitions per particle at each beta (>= 1).
#' @param n_leapfrog leapfrog steps per HMC transition (>= 1); `NULL`
#'   (default) sets them at each move so that the trajectory makes a quarter
#'   turn on a standardised Gaussian (where the end point is independent of
#'   the start): \eqn{L = \mathrm{round}((\pi/2) / \arccos(1 - \epsilon^2/2))},
#'   the phase a leapfrog step of size \eqn{\epsilon} turns (between 1 and 100).
#' @param vectorized `TRUE` if `model` (and `gradient`) take a matrix of
#'   points: `model(X)` with `X` an `M` x `d` matrix, one point per row,
#'   returns `M` log densities, and `gradient(X)` an `M` x `d` matrix (for a
#'   `bayes_model`, given to [bayes_model()]). Each step then evaluates all
#'   the particles in one call, not one R call per point; a run of more than
#'   \eqn{10^5} evaluations with `vectorized = FALSE` says so in a message. A
#'   `model` returning another length is an error.
#' @param start for the Laplace base: a point where the log density is finite.
#' @param lower,upper for a function target: known bounds of its support
#'   (`NULL`, default: none), each a number or a vector of length `d`, `-Inf`
#'   / `Inf` for an open side, `lower < upper`. With either, the run works in
#'   unconstrained coordinates \eqn{y}, as Stan does: \eqn{x = l + e^y} (lower
#'   bound only), \eqn{x = u - e^y} (upper only), \eqn{x = l + (u - l)\,
#'   \mathrm{logit}^{-1}(y)} (both), on the log density
#'   \eqn{\log f(x(y)) + \log |dx/dy|}, which has the same \eqn{Z}; `model`
#'   and `gradient` stay on their own scale (`gradient` is carried by the
#'   chain rule), and `start` must lie strictly inside. Needs the Laplace
#'   `base` (fitted in \eqn{y}); the returned particles `x` are on the
#'   model's scale and `bounds` holds the two vectors. Without bounds, a log
#'   density of `-Inf` outside the support is still correct, at the cost of
#'   the draws wasted there.
#' @param target_accept the acceptance rate the step aims at, in (0, 1);
#'   default 0.3 for `"rwm"`, 0.57 for `"mala"`, 0.65 for `"hmc"`.
#' @param target_se `NULL` (run `replicates` replicates), or the se of log Z
#'   (nats) to reach by adding replicates.
#' @param max_time,max_evaluations with `target_se`: stop adding replicates
#'   after this many seconds, or density evaluations (then the result is
#'   flagged).
#' @param max_steps the most temperatures a run may take (an error beyond).
#' @param refit_base for a function target with a Laplace base and
#'   `schedule = "pilot"`: `TRUE` (default) to replace the base by the
#'   moment-matched fit of the pilot's particles when it fits them better
#'   (see "The base of a function target"), `FALSE` to keep it.
#' @param mode_starts for a function target with a Laplace base: the number
#'   of starts per batch of the multi-start mode search (>= 0; 0 skips
#'   it); `NULL` (default) for \eqn{\max(24, 4d)} with a `gradient`,
#'   \eqn{\max(8, d)} without (each search then differentiates numerically,
#'   at `2 d` evaluations a gradient).
#' @param estimator for a function target: `"auto"` (default; the bridge
#'   estimate when its diagnostics allow, see "The bridge estimate"),
#'   `"bridge"` (the bridge estimate whenever it converged) or `"smc"` (the
#'   SMC estimate, no bridge draws).
#' @param bridge_draws for a function target: `NULL` (default; chosen by
#'   cost, see "The bridge estimate") or the draws from each replicate's
#'   \eqn{q} for the bridge (>= 0; 0 skips the bridge).
#' @param workers `NULL` (the active future plan's workers) or the number of
#'   pieces to split the replicates into (see [scale_out]).
#' @param progress show progress (see [logz_progress]).
#' @param ... must be empty (an unknown argument is an error).
#' @return An object of class `c("logz_smc", "logz_estimate")` (see
#'   [logz_estimate]) with `log_z`, `se`, `estimator` (`"bridge"` or
#'   `"smc"`: which estimate `log_z` and `se` are), for a function target
#'   `smc` (the SMC estimate, `c(log_z = , se = )`) and, when computed,
#'   `bridge` (the bridge estimate, `c(log_z = , se = , se_jackknife = )`), `bridge_runs` (each
#'   replicate's bridge alone), `bridge_draws` (per replicate) and
#'   `bridge_proposal_fit` (`c(log_z, ess_ratio, khat)` of the weights
#'   \eqn{f/q} at those draws),
#'   `log_z_runs` (one per replicate),
#'   `rel_var_runs` (each replicate's own relative variance \eqn{V_r}),
#'   `se_parts` (`replicates`, `within`: the two se's whose larger is the
#'   SMC estimate's se),
#'   `ti`, `ti_corrected`, `stepping_stone` (each `c(log_z = , se = )`),
#'   `schedules` (a list: the betas each replicate chose), `ess` (mean over
#'   replicates of the ESS at beta = 1), `diagnostics` (one row per replicate
#'   and temperature: `run`, `step`, `beta`, `ess`, `log_z` (running),
#'   `mean_ell`, `var_ell` (weighted mean and variance of \eqn{\ell}),
#'   `resampled`, `accept` (mean acceptance of the moves), `step_size`,
#'   `n_leapfrog` (of the last move)), `schedule_from` (`"pilot"` or
#'   `"adaptive"`),
#'   `counts` (`density_evaluations`, `gradient_evaluations` (per point,
#'   Laplace fit included), `particles`, `replicates`, `temperatures` (mean
#'   per replicate), `resamples`), `x` and `log_weights` (the final weighted
#'   particles of every replicate, approximate draws from \eqn{f/Z} or the
#'   posterior; `run` says which replicate), `kernel`, `cess`, `target_se`,
#'   `ell` (\eqn{\ell} at the final particles, in the path's coordinates),
#'   `replicate_evaluations` (density plus gradient evaluations of each
#'   replicate), `base` (for a function target: `type`, `how`, and after a refit
#'   `refit`, the two variances compared), `modes_found` (the separate modes
#'   the search found), `mode_search` (its `starts`, `screened` points and
#'   `batches`), `mode_search_note` (when it found no other mode: what the
#'   run could not see), `time`, `seed`, `call`, `flags`, `reliable`.
#' @section Reliability flags: a run to `target_se` that a cap stopped
#'   first ("target se ... not reached"); a mode found by the mode search
#'   whose Laplace share (at least 0.01) is more than twice the weight the
#'   final particles hold there ("a mode the particles did not reach"); a mean acceptance below 0.05 at
#'   some temperature (the particles hardly moved: the estimate may be far
#'   off; more `move_steps`, another kernel); the bridge and SMC estimates of
#'   the same runs more than 3 combined se apart (\eqn{|b - s| > 3
#'   \sqrt{se_b^2 + se_s^2}}: one of them is off; the flag names the one
#'   reported); with `estimator =
#'   "bridge"`, a bridge that did not converge (then `log_z` is the SMC
#'   estimate); the Gaussian and Student-t fits of the final particles
#'   explaining the target poorly (the weights \eqn{f/q} at the bridge's
#'   draws with Pareto \eqn{\hat k > 0.5} and ESS/M \eqn{< 0.4}: mass in
#'   tails or a curved ridge that the particles reach too rarely for the se
#'   to show, so log Z is likely too low); and, from the Laplace base, a
#'   target much wider than the base (see [ais.function()]).
#' @section Errors: those of [ais.function()] for a function target (bad
#'   `base`, `start`, `gradient`, values of `model`); `lower`/`upper` not
#'   numbers of length 1 or `d`, not below one another, with a proposal
#'   `base`, or with a `start` outside them; `kernel = "mala"` or
#'   `"hmc"` without gradients; numeric arguments out of range; a run that
#'   does not reach beta = 1 in `max_steps` temperatures; a log density that
#'   is `-Inf` at every particle drawn at beta = 0.
#' @references
#' * Meng, X.-L. and Wong, W. H. (1996). Simulating ratios of normalizing constants via
#'   a simple identity: a theoretical exploration. Statistica Sinica 6, 831-860.
#' * Fruehwirth-Schnatter, S. (2004). Estimating marginal likelihoods for mixture and
#'   Markov switching models using bridge sampling techniques. Econometrics Journal 7,
#'   143-167.
#' * Gronau, Q. F. et al. (2017). A tutorial on bridge sampling. Journal of
#'   Mathematical Psychology 81, 80-97.
#' * Zhou, Y., Johansen, A. M. and Aston, J. A. D. (2016). Toward automatic model
#'   comparison: an adaptive sequential Monte Carlo approach. JCGS 25, 701-726.
#' * Del Moral, P., Doucet, A. and Jasra, A. (2006). Sequential Monte Carlo samplers.
#'   JRSS B 68, 411-436.
#' * Friel, N. and Pettitt, A. N. (2008). Marginal likelihood estimation via power
#'   posteriors. JRSS B 70, 589-607.
#' * Friel, N., Hurn, M. and Wyse, J. (2014). Improving power posterior estimation of
#'   statistical evidence. Statistics and Computing 24, 709-723.
#' * Xie, W., Lewis, P. O., Fan, Y., Kuo, L. and Chen, M.-H. (2011). Improving marginal
#'   likelihood estimation for Bayesian phylogenetic model selection. Systematic
#'   Biology 60, 150-160.
#' * Lee, A. and Whiteley, N. (2018). Variance estimation in the particle filter.
#'   Biometrika 105, 609-625.
#' * Du, Q. and Guyader, A. (2021). Variance estimation in adaptive sequential Monte
#'   Carlo. Annals of Applied Probability 31, 1021-1060.
#' @seealso [bayes_model()], [ais.function()], [log_partition()]
#' @examples
#' # a correlated 2-D Gaussian: log Z = log(2 pi) + 0.5 log det(S)
#' S <- matrix(c(1, 0.9, 0.9, 1), 2)
#' P <- solve(S)
#' f <- function(x) -0.5 * sum(x * (P %*% x))
#' g <- function(x) -as.vector(P %*% x)
#' set.seed(1)
#' fit <- smc(f, gradient = g, start = c(1, 1), particles = 200, progress = FALSE)
#' fit
#' log(2 * pi) + 0.5 * log(det(S))
#' # the evidence of a Bayesian model: y_i ~ N(theta, 1), theta ~ N(0, 2^2)
#' y <- rnorm(20, 0.5)
#' m <- bayes_model(function(th) dnorm(th, 0, 2, log = TRUE),
#'                  function(th) sum(dnorm(y, th, 1, log = TRUE)),
#'                  function(n) rnorm(n, 0, 2),
#'                  gradient_prior = function(th) -th / 4,
#'                  gradient_lik = function(th) sum(y - th))
#' ev <- smc(m, particles = 200, progress = FALSE)
#' ev$ti_corrected
#' # exact: y ~ N(0, I + 4 11')
#' n <- length(y)
#' V <- diag(n) + 4
#' -0.5 * (n * log(2 * pi) + determinant(V)$modulus + sum(y * solve(V, y)))
#' @export
smc <- function(model, ...) UseMethod("smc")

#' @export
smc.default <- function(model, ...) {
  stop_no_call(sprintf(paste0("smc() needs `model` to be a function returning a log density or a ",
                              "bayes_model(), not %s."), describe(model)))
}

#' @rdname smc
#' @usage
#' \method{smc}{function}(
#'   model,
#'   base = "laplace",
#'   gradient = NULL,
#'   kernel = NULL,
#'   particles = 250L,
#'   replicates = 8L,
#'   schedule = c("pilot", "adaptive"),
#'   cess = 0.9,
#'   resample_threshold = 0.5,
#'   move_steps = 2L,
#'   n_leapfrog = NULL,
#'   vectorized = FALSE,
#'   start = NULL,
#'   lower = NULL,
#'   upper = NULL,
#'   target_accept = NULL,
#'   target_se = NULL,
#'   max_time = 600,
#'   max_evaluations = Inf,
#'   max_steps = 1000L,
#'   refit_base = TRUE,
#'   mode_starts = NULL,
#'   estimator = c("auto", "bridge", "smc"),
#'   bridge_draws = NULL,
#'   workers = NULL,
#'   progress = interactive(),
#'   ...
#' )
#' @export
smc.function <- function(model, base = "laplace", gradient = NULL, kernel = NULL,
                         particles = 250L, replicates = 8L, schedule = c("pilot", "adaptive"),
                         cess = 0.9, resample_threshold = 0.5, move_steps = 2L,
                         n_leapfrog = NULL, vectorized = FALSE, start = NULL,
                         lower = NULL, upper = NULL, target_accept = NULL, target_se = NULL, max_time = 600,
                         max_evaluations = Inf, max_steps = 1000L, refit_base = TRUE,
                         mode_starts = NULL, estimator = c("auto", "bridge", "smc"),
                         bridge_draws = NULL, workers = NULL, progress = interactive(), ...) {
  call <- match.call()
  check_dots_used(...)
  estimator <- match_arg(estimator, "estimator")
  check_caps_need_target(target_se, c(max_time = !missing(max_time),
                                      max_evaluations = !missing(max_evaluations)))
  check_flag(progress, "progress")
  check_gradient_arg(gradient)
  check_flag(vectorized, "vectorized")
  if (!is.null(mode_starts))
    mode_starts <- check_count(mode_starts, "mode_starts", min = 0L, max = 10000L)
  bounds <- NULL
  if (!is.null(lower) || !is.null(upper)) {
    bounds <- smc_bounds(model, gradient, vectorized, lower, upper, base, start)
    model <- bounds$model
    gradient <- bounds$gradient
    start <- bounds$start
  }
  base <- resolve_function_base(base, model, start, gradient, vectorized)
  if (is.null(base$laplace) && isTRUE(mode_starts > 0L))
    stop_no_call(sprintf(paste0("`mode_starts` = %d applies only from a Laplace base (`base` = ",
                                "\"laplace\", \"laplace_normal\" or a laplace_base() fit)."), mode_starts))
  p0 <- base$proposal
  d <- p0$dim
  kernel <- resolve_kernel(kernel, gradient, d)
  if (!is.null(n_leapfrog)) check_hmc_only(kernel, "n_leapfrog")
  if (!missing(refit_base) && is.null(base$laplace))
    stop_no_call(paste0("`refit_base` applies only from a Laplace base (`base` = \"laplace\", ",
                        "\"laplace_normal\" or a laplace_base() fit); leave it out with a proposal `base`."))
  ctl <- smc_control(kernel, d, particles, replicates, cess, resample_threshold, move_steps,
                     n_leapfrog, target_accept, target_se, max_time, max_evaluations, max_steps)
  ctl$schedule <- match_arg(schedule, "schedule")
  if (!is.null(bridge_draws))
    bridge_draws <- check_count(bridge_draws, "bridge_draws", min = 0L, max = 1e7)
  if (estimator == "bridge" && identical(bridge_draws, 0L))
    stop_no_call("`bridge_draws` = 0 leaves no draws for `estimator = \"bridge\"`.")
  target <- if (is.null(base$laplace)) list(model = model, gradient = gradient) else
    laplace_whiten(base$laplace, model, gradient, vectorized)
  vec <- vectorized || !is.null(base$laplace)
  seed <- rng_state()
  if (kernel != "rwm") {
    X0 <- proposal_sample(p0, 2L, rep(-Inf, d), rep(Inf, d))
    check_gradient_fd(target$model, target$gradient, X0, vec, d)
  }
  make_path <- function() {
    fn <- cont_evaluator(target$model, target$gradient, vec, d)
    smc_path_function(fn, p0, kernel)
  }
  extra <- c(density = base$evaluations[["density"]], gradient = base$evaluations[["gradient"]])
  laplace0 <- base$laplace
  search <- list(modes = list())
  if (!is.null(laplace0)) {
    starts <- if (is.null(mode_starts)) if (is.null(gradient)) max(8L, d) else max(24L, 4L * d)
              else mode_starts
    search <- smc_mode_search(model, gradient, vectorized, laplace0, starts)
    extra <- extra + search$evaluations
    base$laplace <- smc_cover_modes(laplace0, search$modes)
    if (!identical(base$laplace, laplace0)) {
      target <- laplace_whiten(base$laplace, model, gradient, vectorized)
      base$record$how <- paste0(base$record$how, "; widened to the mean and covariance of the ",
                                "Laplace fits at the modes a multi-start search found")
    }
  }
  pilot_run <- NULL
  refit <- NULL
  if (check_flag(refit_base, "refit_base") && ctl$schedule == "pilot" && !is.null(base$laplace)) {
    pilot_run <- smc_once(make_path(), ctl)
    refit <- smc_refit_base(base$laplace, p0, pilot_run$X, pilot_run$log_w, pilot_run$ell)
    if (!is.null(refit)) {
      extra <- extra + c(density = pilot_run$evaluations, gradient = pilot_run$gradient_evaluations)
      pilot_run <- NULL
      base$laplace <- refit$laplace
      p0 <- laplace_std_proposal(base$laplace)
      target <- laplace_whiten(base$laplace, model, gradient, vectorized)
    }
  }
  fit <- smc_fit(make_path, ctl, call, seed, progress, workers, extra = extra,
                 pilot_run = pilot_run)
  fit <- smc_add_bridge(fit, cont_evaluator(target$model, target$gradient, vec, d), p0,
                        bridge_draws, estimator, whitened = !is.null(base$laplace))
  fit$base <- base$record
  if (!is.null(refit)) {
    fit$base$how <- paste0(fit$base$how, "; refitted to the weighted particles of a pilot run ",
                           "(moment-matched), which it fits better")
    fit$base$mode <- base$laplace$mode
    fit$base$df <- base$laplace$df
    fit$base$refit <- c(var_laplace = refit$var_laplace, var_refit = refit$var_refit)
  }
  fit$target <- "an R log density"
  carried <- character()
  if (!is.null(base$laplace)) {
    w1 <- fit$run == 1L
    probe <- fit
    probe$flags <- character()
    carried <- suppressWarnings(check_laplace_width(probe, fit$x[w1, , drop = FALSE],
                                                    fit$log_weights[w1])$flags,
                                classes = "logz_unreliable")
    fit$x <- laplace_to_x(base$laplace, fit$x)
    fit$modes_found <- length(search$modes)
    fit$mode_search <- search$search
    fit$mode_search_note <- if (!length(search$modes) && starts > 0L) sprintf(paste0(
      "the mode search found no other mode (%d starts from %d over-dispersed points screened by ",
      "importance weight): a mode whose basin none of them reached is not seen by the run or its ",
      "checks"), as.integer(search$search[["starts"]]), as.integer(search$search[["screened"]]))
    carried <- c(carried, smc_check_modes(laplace0, search$modes, fit$x, fit$log_weights, fit$run))
  }
  if (!is.null(bounds)) {
    fit$x <- bounds$to_x(fit$x)
    fit$bounds <- bounds$box
    fit$base$how <- paste0(fit$base$how, "; in the unconstrained coordinates of `lower`/`upper` ",
                           "(log and logit transforms, with their Jacobian)")
  }
  suggest_vectorized(fit, vectorized)
  smc_flag(fit, c(carried, smc_bridge_flags(fit, estimator)))
}

#' @rdname smc
#' @export
smc.logz_bayes_model <- function(model, kernel = NULL, particles = 250L, replicates = 8L,
                                 schedule = c("pilot", "adaptive"), cess = 0.9, resample_threshold = 0.5, move_steps = 2L,
                                 n_leapfrog = NULL, target_accept = NULL, target_se = NULL,
                                 max_time = 600, max_evaluations = Inf, max_steps = 1000L,
                                 workers = NULL, progress = interactive(), ...) {
  call <- match.call()
  check_dots_used(...)
  validate_bayes_model(model)
  check_caps_need_target(target_se, c(max_time = !missing(max_time),
                                      max_evaluations = !missing(max_evaluations)))
  check_flag(progress, "progress")
  d <- model$dim
  kernel <- if (is.null(kernel) && !model$has_gradient) {
    if (d >= 5L) message(sprintf(paste0("the model has no gradients: using random-walk Metropolis ",
                                        "(kernel = \"rwm\"), which mixes slowly in %d dimensions."), d))
    "rwm"
  } else if (is.null(kernel)) "hmc" else match_arg(kernel, "kernel", names(CONT_KERNEL))
  if (kernel != "rwm" && !model$has_gradient)
    stop_no_call(sprintf("`kernel = \"%s\"` needs the model's `gradient_prior` and `gradient_lik`.",
                         kernel))
  if (!is.null(n_leapfrog)) check_hmc_only(kernel, "n_leapfrog")
  ctl <- smc_control(kernel, d, particles, replicates, cess, resample_threshold, move_steps,
                     n_leapfrog, target_accept, target_se, max_time, max_evaluations, max_steps)
  ctl$schedule <- match_arg(schedule, "schedule")
  seed <- rng_state()
  make_path <- function() smc_path_bayes(model, kernel)
  fit <- smc_fit(make_path, ctl, call, seed, progress, workers, extra = c(density = 0, gradient = 0))
  fit$base <- list(type = "prior", how = "the power-posterior path starts at the prior")
  fit$target <- "a Bayesian model (power posteriors from the prior)"
  smc_flag(fit, character())
}

#' @rdname stan_target
#' @export
smc.stanfit <- function(model, ..., base = "draws", df = Inf, stanfit_model = NULL, start = NULL) {
  stan_estimate(smc, model, base, df, stanfit_model, start, match.call(), ..., is_smc = TRUE)
}
