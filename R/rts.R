#' Rao-Blackwellized tempered sampling (RTS)
#'
#' Estimates log Z, and the whole ladder \eqn{\log Z_k} of the tempered family
#' \eqn{f_k(x) = f(x)^{\beta_k} p_1(x)^{1-\beta_k}}, from a simulated-tempering
#' run (Carlson, Stinson, Pakman & Paninski 2016).
#'
#' Each of `n_chains` chains is a Gibbs sampler on \eqn{(x, k)} under
#' \eqn{q(x, k) \propto f_k(x) r_k / \hat Z_k}: an x-move that leaves
#' \eqn{f_k} invariant (RBM: one block-Gibbs sweep with the hidden units
#' drawn and summed out, as in [ais()]; Ising: one Gibbs sweep), then
#' \eqn{k \sim q(k | x) \propto f_k(x) r_k / \hat Z_k} (their Eq. 7). The
#' Rao-Blackwellized marginals \eqn{\hat c_k = \frac1N \sum_i q(k | x_i)} (Eq. 9)
#' give \eqn{\hat Z_k^{RTS} = \hat Z_k \frac{r_1}{r_k}\frac{\hat c_k}{\hat c_1}}
#' (Eq. 12), with \eqn{Z_1} the known normalising constant of the base
#' \eqn{p_1} (RBM: the base-rate product of Bernoullis times \eqn{2^{n_h}};
#' Ising: the product distribution with the base field).
#'
#' Initial iterations (Section 2.4): starting from \eqn{\hat Z_k = Z_1} with
#' the chains drawn from the base and uniformly drawn k, up to `init_iter` runs of
#' `init_sweeps` sweeps, each replacing \eqn{\hat Z_k} by the RTS estimate,
#' until \eqn{\max_k |r_k - \hat c_k| <} `tol / K`. The final run of `sweeps`
#' sweeps gives the estimates. Every stage after the first continues the chains
#' from their last x with k drawn from \eqn{q(k | x)} under that stage's
#' ladder (Eq. 7), so a stage starts from its own \eqn{q(x, k)} as far as x is
#' at equilibrium. (The paper restarts the initial iterations with uniformly
#' drawn k; a final run restarted that way is biased low when it is short.)
#'
#' Estimators (all from the same final run):
#' \describe{
#'   \item{`"rts"`}{Eq. 12; `se` from Eq. 16,
#'     \eqn{\sigma_1^2/c_1^2 + \sigma_k^2/c_k^2 - 2\sigma_{1k}/(c_1 c_k)}, with
#'     the variances and covariance of the \eqn{\hat c} estimated across chains.}
#'   \item{`"ts"`}{the same with counts of the sampled k plus 0.1 instead of
#'     \eqn{\hat c}.}
#'   \item{`"ti"`}{thermodynamic integration of
#'     \eqn{d \log Z/d\beta = E_\beta[\Delta]} estimated per bin from the
#'     samples whose k is that bin (empty bins linearly interpolated): right
#'     Riemann sum (`ti_riemann`), trapezoid (`ti_trapezoid`) and the
#'     trapezoid with Friel et al.'s correction
#'     \eqn{-\sum (\Delta\beta)^2 (V_k - V_{k-1})/12} (`ti_friel`), V the
#'     variance of \eqn{\Delta}.}
#'   \item{`"ti_rb"`}{TI with the Rao-Blackwellized gradient
#'     \eqn{\sum_i q(k|x_i)\Delta(x_i) / \sum_i q(k|x_i)} (Eq. 21), trapezoid.}
#'   \item{`"mbar"`}{maximum of the MBAR likelihood (Eq. 18) by Newton's
#'     method, on at most `mbar_samples` stored samples (every `thin`-th sweep of
#'     every chain).}
#' }
#' For an RBM \eqn{\Delta} is the joint-space energy difference
#' \eqn{v'(a - a_0) + h'b + v'Wh} with h summed out (its conditional mean given
#' v; its variance adds the conditional variance). The estimators other than
#' RTS get a delete-a-group jackknife `se` over 20 sets of chains within a
#' group; MBAR gets its asymptotic se (Shirts & Chodera 2008, Eq. D8, for
#' \eqn{\log Z_K - \log Z_1}, which treats the stored samples as independent
#' draws). With G > 1 groups each estimator's se is, as for RTS, the larger
#' of the combined within-group se and the spread between the groups.
#'
#' @param model an [rbm()], an [ising()] model, or an R function giving the log
#'   unnormalised density of a continuous target (see Details).
#' @param K number of inverse temperatures (>= 2); ignored when `betas` is
#'   given.
#' @param betas optional increasing inverse temperatures from 0 to 1 (length
#'   K); default `seq(0, 1, length.out = K)`.
#' @param prior optional positive prior weights \eqn{r_k} (length K; normalised
#'   to sum 1); default uniform.
#' @param n_chains number of parallel chains.
#' @param sweeps sweeps per chain in the final run.
#' @param init_iter maximum number of initial iterations (0: none, the final
#'   run uses \eqn{\hat Z_k = Z_1}).
#' @param init_sweeps sweeps per chain in each initial iteration.
#' @param tol stopping tolerance of the initial iterations:
#'   \eqn{\max_k |r_k - \hat c_k| <} `tol / K`.
#' @param estimators which estimators to compute besides RTS (any of `"rts"`,
#'   `"ts"`, `"ti"`, `"ti_rb"`, `"mbar"`).
#' @param base the base distribution \eqn{p_1}, as in [ais()] (see
#'   [logz_base]; RBM: `NULL` for the model's base rate, else the
#'   model-derived base; Ising: `NULL`/`"field"`, `"model"`, `"uniform"`, a
#'   field vector); recorded in the result's `base` field. For a function
#'   `model`, a normalised [proposal][proposal_normal] (required).
#' @param mbar_samples at most this many stored samples for MBAR.
#' @param pilot_sweeps RBM and Ising: sweeps per chain of an annealing pass
#'   that starts the sampler: 0 (none: the paper's start from
#'   \eqn{\hat Z_k = Z_1} with the chains drawn from the base) or a whole
#'   number >= 2 (one sweep cannot climb the ladder); `NULL` (the default)
#'   runs `max(2, round(sweeps / 4))`. The pass moves all chains up the ladder
#'   (one sweep per step, rungs spread evenly over the sweeps) with AIS
#'   weights (Neal 2001); the running AIS estimates give the initial
#'   \eqn{\log \hat Z_k} ("or a better estimate, if known", Section 2.4) and
#'   each chain keeps its state at a uniformly drawn rung, with k then drawn
#'   from \eqn{q(k | x)} under the pilot's ladder. These are unweighted AIS
#'   states, not draws from \eqn{q(x, k)}, so `burn_in` sweeps follow under the
#'   pilot's ladder and are discarded before the initial iterations (or, with
#'   `init_iter = 0`, the final run). Counted in `counts`. On hard models the
#'   paper's start can end far from log Z where the pilot does not.
#' @param burn_in sweeps per chain run after the pilot under its ladder and
#'   discarded (counted in `counts` as `burn_in_sweeps` and in
#'   `gibbs_sweeps`); `NULL` (default): `init_sweeps`. Ignored without a pilot.
#' @param kernel RBM: the products \eqn{W'v} and \eqn{Wh} of a sweep,
#'   `"sparse"` (default; sums of the weight columns of the active units, as
#'   [ais()]'s sparse kernel) or `"dense"` (BLAS). They differ only in rounding.
#'   For a function `model`: the x-move, `"rwm"`, `"mala"` or `"hmc"` as in
#'   [ais.function()] (default `"hmc"` with a gradient, else `"rwm"`).
#' @param threads OpenMP threads (the result does not depend on it).
#' @param progress show a progress bar.
#' @param workers RBMs and Ising models: `NULL` or the number of pieces to
#'   split the chains of the final run into, run through the active
#'   [future::plan()] after the initial iterations (whose ladder all pieces
#'   share), with the Rao-Blackwell statistics pooled exactly (see
#'   [scale_out]).
#' @param groups RBMs and Ising models: the number G of groups the chains are
#'   split into for the se. With `group_start = "shared"` (default) all chains
#'   make one run (one pilot, initial iterations, ladder and final run), whose
#'   estimate is Eq. 12 on all chains; the chains are then split into G groups
#'   (consecutive chains), each group's Eq. 12 estimate under the run's ladder
#'   computed, and `se` is the larger of Eq. 16 and the spread of the group
#'   estimates (see Value). `NULL` (default): `min(4, n_chains %/% 25)`, at
#'   least 1; 1: Eq. 16 alone. Each group needs at least 2 chains.
#' @param group_start `"shared"` (default: one run, groups only for the se,
#'   as above) or `"own"`: each group runs its own pilot, initial iterations
#'   and final run, wholly independent, and the estimate is the mean of the
#'   groups'. Their spread then also sees what a run inherits from its start
#'   and ladder when the chains relax slowly (short runs), which the shared
#'   run's se does not; but each group learns its ladder from its own few
#'   chains, which costs accuracy on hard models.
#' @param c_hat the \eqn{\hat c_k} of the initial iterations' ladder updates
#'   (Eq. 12) and of their stopping rule: `"rao_blackwell"` (default, Eq. 9,
#'   \eqn{\frac1N \sum_i q(k | x_i)}) or `"visits"`, the normalised counts of
#'   the sampled k plus 0.1 (the non-Rao-Blackwellized update of the paper's
#'   Figure 1, whose plain counts can be 0 and the update infinite). The
#'   final run's estimates are as listed under Estimators either way (its
#'   non-Rao-Blackwellized one is `"ts"`).
#' @param ... must be empty: an unused or misspelt argument (e.g. `n_sweeps`)
#'   is an error that names it.
#' @return An object of class `c("logz_rts", "logz_estimate")` (see
#'   [logz_estimate]) with, besides the common fields:
#' \describe{
#'   \item{`log_z`, `se`}{the RTS estimate at \eqn{\beta = 1} (with G > 1
#'     groups, the mean of the groups' estimates weighted by their chains) and
#'     its standard error. Eq. 16 gives the sampling error of a final run given
#'     its start and ladder; it does not see what the estimate inherits from
#'     the ladder and the start when the chains relax slowly. With G > 1
#'     groups of one shared run (`group_start = "shared"`), `log_z` is Eq. 12 on
#'     all chains and `se` the larger of its Eq. 16 se and the spread of the
#'     group estimates \eqn{\hat L_g} (Eq. 12 on each group's chains under the
#'     run's ladder), \eqn{\sqrt{\sum_g w_g^2 \cdot \sum_g w_g (\hat L_g -
#'     \bar L)^2 / (1 - \sum_g w_g^2)}} (\eqn{w_g} the share of chains,
#'     \eqn{\bar L} their weighted mean): a second estimate of the same
#'     sampling error, by batches of chains. With wholly independent groups
#'     (`"own"`), `log_z` is the groups' mean weighted by their chains and `se`
#'     the larger of Eq. 16 combined over the groups,
#'     \eqn{\sqrt{\sum_g w_g^2 se_g^2}}, and the spread between the groups,
#'     which then also sees the start and the ladder. `se_parts` holds the
#'     two, and `groups` a data frame (`group`, `chains`, `log_z`, `se` (Eq.
#'     16); with `"own"` also `init_iterations`, `converged`, `flags`).}
#'   \item{`bias`}{the bias of the RTS estimate at \eqn{\beta = 1} to second
#'     order (Eq. 15), \eqn{E[\log \hat Z_k] - \log Z_k \approx
#'     (\sigma_1^2/c_1^2 - \sigma_k^2/c_k^2)/2}{(s1^2/c1^2 - sk^2/ck^2)/2}, with
#'     the variances of the \eqn{\hat c} across chains as for Eq. 16 (with
#'     independent groups, the groups' mean); reported, not subtracted (the paper found
#'     subtracting it did not help). Like Eq. 16 it is the final run's
#'     sampling part only.}
#'   \item{`log_z_k`}{data frame, one row per temperature: `k`, `beta`,
#'     `prior`, `log_z` (RTS), `se`, `bias` (Eq. 15), `c_hat`, `log_z_hat` (the
#'     \eqn{\log \hat Z_k} of the final run) and one column per other
#'     estimator (`ts`, `ti_riemann`, `ti_trapezoid`, `ti_friel`, `ti_rb`,
#'     `mbar`).}
#'   \item{`estimates`}{data frame: `estimator`, `log_z` (at \eqn{\beta=1}), `se`.}
#'   \item{`log_z1`}{log Z of the base \eqn{p_1}.}
#'   \item{`init`}{list: `c_hat` and `log_z_hat` (iterations x K matrices, the
#'     \eqn{\hat c_k} measured in and the \eqn{\log \hat Z_k} used by each
#'     initial iteration), `log_z` and `se` (iterations x K: each iteration's
#'     own RTS ladder, Eq. 12 from its \eqn{\hat c_k}, which the next iteration
#'     uses as its \eqn{\log \hat Z_k}, and its Eq. 16 se; both assume the
#'     chains were at equilibrium, which short iterations from a poor ladder are
#'     not), `max_dev` (\eqn{\max_k |r_k - \hat c_k|}) and `converged`.}
#'   \item{`diagnostics`}{data frame `sweep`, `log_z`: the RTS estimate
#'     from the final run's first sweeps; its attribute `"outlier_chains"` is a
#'     data frame (`chain`, `k`, `share`) of the chains that hold more than
#'     half of the pooled \eqn{\hat c_k} at some k (each at its largest
#'     share; none with fewer than 3 chains), and its attribute
#'     `"ladder_drift"` a data frame (`iteration`, `log_z`, `se`, `z`) of the
#'     last (up to 3) initial iterations' RTS estimates at \eqn{\beta = 1}, their
#'     Eq. 16 se and \eqn{z_j = (\log \hat Z - E_j) / \sqrt{se^2 + se_j^2}}
#'     (no rows without initial iterations).}
#'   \item{`flags`, `reliable`}{as in [logz_estimate]: a visit deficit
#'     (\eqn{\hat c_k / r_k < 0.1} at some k), an outlier chain (one chain
#'     holding more than half of some \eqn{\hat c_k}) and ladder drift
#'     (\eqn{\max_j |z_j| > 3} in `"ladder_drift"`) are flagged, and warned.}
#'   \item{`counts`}{`gibbs_sweeps` (chain-sweeps, pilot and initial iterations
#'     and burn-in included), `chains`, `K`, `init_iterations`, `sweeps`,
#'     `pilot_sweeps`, `burn_in_sweeps`.}
#'   \item{`pilot`}{`NULL`, or list `log_z_hat`: the ladder from the pilot.}
#'   \item{`converged`}{whether the initial iterations met the stopping rule
#'     (`FALSE` is also printed: the ladder may still be biased).}
#'   \item{`pieces`}{the number of pieces, when the chains were split.}
#' }
#' @section Errors: `model` of an unsupported class; `K` not a whole number >=
#'   2; `betas` not numeric, not starting at 0, not ending at 1 or not strictly
#'   increasing; `prior` not positive, not finite or not of length K;
#'   `n_chains`, `sweeps`, `init_sweeps`, `threads`, `mbar_samples` not
#'   positive whole numbers; `init_iter` or `burn_in` negative; `pilot_sweeps`
#'   not 0 or a whole number >= 2; `tol` not positive; unknown
#'   `estimators`; a bad `base`. For a function `model`: `base` missing or not
#'   a proposal, `step_size` not positive, `metropolis_steps` not a positive
#'   whole number, `vectorized` not a flag, `model` not returning one number
#'   (finite or `-Inf`) per point or `-Inf` at the initial draws from `base`.
#' @section Warnings: three checks of the final run, each warned (class
#'   `logz_unreliable`) and recorded in `flags` (see [logz_reliability]):
#'   \describe{
#'     \item{visit deficit}{some temperature was visited more than 10 times
#'       less often than the prior asks (\eqn{\hat c_k < r_k / 10}): the
#'       ladder guess was still far from the truth, so log Z is unreliable and
#'       its Eq. 16 se too small. More initial iterations or `pilot_sweeps`
#'       fix it.}
#'     \item{outlier chain}{one chain holds more than half of the pooled
#'       \eqn{\hat c_k} at some k (named in the warning and in
#'       `attr(diagnostics, "outlier_chains")`): the estimate at that k rests
#'       on one chain's state, e.g. a chain stuck near \eqn{\beta = 1} in a
#'       poor mode. More sweeps or chains fix it.}
#'     \item{ladder drift}{the final estimate differs from one of the last
#'       three initial iterations' estimates by more than 3 combined Eq. 16 se
#'       (`attr(diagnostics, "ladder_drift")`): the stage estimates are still
#'       moving, and the final one carries part of the error of the ladder it
#'       ran under, which Eq. 16 does not see (at equilibrium Eq. 12 does not
#'       depend on the ladder). More initial iterations (`init_iter`,
#'       `init_sweeps`) fix it.}
#'   }
#'   `vignette("diagnostics", package = "logz")` says what to do when one fires.
#' @references
#' * Carlson, D. E., Stinson, P., Pakman, A. and Paninski, L. (2016). Partition
#'   functions from Rao-Blackwellized tempered sampling. ICML. Eqs. 7, 9, 12, 15, 16,
#'   18, 21 and Section 2.4.
#' * Friel, N., Hurn, M. and Wyse, J. (2014). Improving power posterior estimation of
#'   statistical evidence. Statistics and Computing.
#' * Shirts, M. R. and Chodera, J. D. (2008). Statistically optimal analysis of samples
#'   from multiple equilibrium states. J. Chem. Phys.
#' * Neal, R. M. (2001). Annealed importance sampling. Statistics and Computing 11,
#'   125-139.
#' @seealso [ais()], [raise()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(4, 4, coupling = 0.3, field = 0.1)
#' fit <- rts(m, K = 20, n_chains = 20, sweeps = 500, progress = FALSE)
#' fit
#' exact_log_z(m)
#' plot(fit, type = "ladder")
#' @export
rts <- function(model, ...) UseMethod("rts")

#' @export
rts.default <- function(model, ...) {
  stop_no_call(sprintf("rts() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

rts_estimator_names <- c("rts", "ts", "ti", "ti_rb", "mbar")

# Every argument of the rts methods (for the suggestion of check_dots_used()).
rts_arg_names <- function() {
  setdiff(unique(c(names(formals(rts_discrete)), names(formals(rts.function)))),
          c("...", "model"))
}

# The method for the discrete models (RBM and Ising: C engines).
rts_discrete <- function(model, K = 100L, betas = NULL, prior = NULL, n_chains = 100L,
                         sweeps = 1000L, init_iter = 10L, init_sweeps = 50L, tol = 0.1,
                         estimators = c("rts", "ts", "ti", "ti_rb", "mbar"), base = NULL,
                         mbar_samples = 5000L, threads = 1L, progress = interactive(),
                         pilot_sweeps = NULL, kernel = c("sparse", "dense"), workers = NULL,
                         burn_in = NULL, groups = NULL, c_hat = c("rao_blackwell", "visits"),
                         group_start = c("shared", "own"), ...) {
  call <- match.call()
  check_dots_used(..., .fn = "rts", .valid = rts_arg_names())
  validate_model(model)
  args <- rts_check_args(K, betas, prior, n_chains, sweeps, init_iter, init_sweeps, tol,
                         estimators, mbar_samples, threads, progress)
  args$c_hat <- match_arg(c_hat, "c_hat")
  args$pieces <- resolve_pieces(workers, args$n_chains)
  if (!is.character(kernel) || !all(kernel %in% c("sparse", "dense")))
    stop_no_call(sprintf("`kernel` must be \"sparse\" or \"dense\", not %s.", describe(kernel)))
  args$kernel <- kernel[1]
  pilot_sweeps <- if (is.null(pilot_sweeps)) max(2L, as.integer(round(args$sweeps / 4))) else
    check_count(pilot_sweeps, "pilot_sweeps", min = 0L)
  if (pilot_sweeps == 1L)
    stop_no_call(paste0("`pilot_sweeps` must be 0 (no pilot) or at least 2: the pilot climbs ",
                        "the ladder from beta = 0 to beta = 1 one sweep per step, so it needs ",
                        "2 sweeps or more; not 1."))
  args$burn_in <- if (is.null(burn_in)) args$init_sweeps else
    check_count(burn_in, "burn_in", min = 0L)
  G <- rts_groups(groups, args$n_chains)
  group_start <- match_arg(group_start, "group_start")
  prepare <- if (is_rbm(model)) rts_prepare_rbm else rts_prepare_ising
  seed <- rng_state()
  base <- resolve_base(model, base, args$threads)   # the default base and its record
  a0 <- base$bias
  t0 <- proc.time()[["elapsed"]]
  one_group <- function(args) {
    p <- prepare(model, a0, args)   # log_z1, initial states X (drawn from the base), run()
    args$pilot <- if (pilot_sweeps > 0L) rts_pilot(p$run, p$X, args, pilot_sweeps)
    res <- rts_engine(p$run, p$X, p$log_z1, args)
    new_rts_result(res, args, p$log_z1, time = NA_real_, seed = seed, call = call)
  }
  fit <- if (G == 1L) one_group(args) else if (group_start == "own")
    rts_run_groups(one_group, args, G, workers) else {
      p <- prepare(model, a0, args)
      args$pilot <- if (pilot_sweeps > 0L) rts_pilot(p$run, p$X, args, pilot_sweeps)
      res <- rts_engine(p$run, p$X, p$log_z1, args)
      f <- muffle_unreliable(new_rts_result(res, args, p$log_z1, time = NA_real_, seed = seed,
                                            call = call))
      rts_shared_groups(f, res$acc, res$zeta, p$log_z1, piece_sizes(args$n_chains, G))
    }
  fit$time <- proc.time()[["elapsed"]] - t0
  with_base(fit, base)
}

#' @rdname rts
#' @export
rts.rbm <- rts_discrete

#' @rdname rts
#' @export
rts.ising <- rts_discrete

# Validate the arguments shared by every rts() method.
# Refuse, naming `K`, a run whose arrays would not fit in memory, before any
# is allocated: per temperature, the chains' statistics (6 per chain) and the
# samples stored for MBAR (`mbar_samples`), and with "mbar" its Newton
# solve's K x K matrices (three at a time).
rts_check_memory <- function(K, n_chains, mbar_samples, estimators) {
  num <- function(x) if (is.numeric(x) && length(x) == 1L && !is.na(x)) as.double(x) else 1
  K <- as.double(K)
  mbar <- is.character(estimators) && "mbar" %in% estimators
  bytes <- 8 * (K * (6 * num(n_chains) + if (mbar) num(mbar_samples) else 0) +
                  if (mbar) 3 * K^2 else 0)
  check_memory(bytes, sprintf(paste0("`K` = %s temperatures (with `n_chains` = %s%s)"), format(K),
                              format(num(n_chains)),
                              if (mbar) paste0(", `mbar_samples` = ", format(num(mbar_samples)),
                                               " and the MBAR estimator's K x K matrices") else ""))
}

rts_check_args <- function(K, betas, prior, n_chains, sweeps, init_iter, init_sweeps, tol,
                           estimators, mbar_samples, threads, progress) {
  if (is.null(betas)) {
    K <- check_count(K, "K", min = 2L, max = 100000L)
    betas <- seq(0, 1, length.out = K)
  } else {
    check_finite_numeric(betas, "betas")
    K <- length(betas)
    if (K < 2L)
      stop_no_call(sprintf("`betas` must have at least 2 values (K >= 2), not %d.", K))
    if (betas[1] != 0 || betas[K] != 1 || any(diff(betas) <= 0))
      stop_no_call(sprintf(paste0("`betas` must increase strictly from 0 to 1; given %d values ",
                                  "from %g to %g%s."), K, betas[1], betas[K],
                           if (any(diff(betas) <= 0)) " that are not increasing" else ""))
    betas <- as.double(betas)
  }
  if (is.null(prior)) {
    prior <- rep(1 / K, K)
  } else {
    check_finite_numeric(prior, "prior")
    if (length(prior) != K)
      stop_no_call(sprintf("`prior` must have length K = %d (one weight per temperature), not %d.",
                           K, length(prior)))
    if (any(prior <= 0))
      stop_no_call(sprintf("`prior` must be positive; its smallest value is %g.", min(prior)))
    prior <- as.double(prior) / sum(prior)
  }
  if (!is.character(estimators) || !length(estimators) ||
      !all(estimators %in% rts_estimator_names))
    stop_no_call(sprintf("`estimators` must be a subset of %s, not %s.",
                         paste0('"', rts_estimator_names, '"', collapse = ", "),
                         paste(format(estimators), collapse = ", ")))
  check_flag(progress, "progress")
  rts_check_memory(K, n_chains, mbar_samples, estimators)
  list(K = K, betas = betas, prior = prior, n_chains = check_count(n_chains, "n_chains"),
       sweeps = check_count(sweeps, "sweeps"),
       init_iter = check_count(init_iter, "init_iter", min = 0L),
       init_sweeps = check_count(init_sweeps, "init_sweeps"),
       tol = check_number(tol, "tol", lower = 0, lower_open = TRUE),
       estimators = unique(c("rts", estimators)),
       mbar_samples = check_count(mbar_samples, "mbar_samples"),
       threads = check_threads(threads), progress = progress)
}


#' @rdname rts
#' @param vectorized for a function `model`: `TRUE` if `model(x)` takes an
#'   n x d matrix (one point per row) and returns n log densities; `FALSE`
#'   (default) if it takes one point and returns one number.
#' @param step_size for a function `model`: initial random-walk scale
#'   (per temperature it is adapted during the initial iterations towards an
#'   acceptance rate of 0.3, then frozen); with the C kernels, 0.5 stands for
#'   the default start \eqn{2.38/\sqrt d} (random walk) or \eqn{d^{-1/4}}
#'   (MALA, HMC) in units of the base's scales, and other values scale it.
#' @param metropolis_steps for a function `model`: kernel transitions per
#'   sweep.
#' @param gradient,n_leapfrog,start for a function `model`: as in
#'   [ais.function()] (the gradient of the log density, the leapfrog steps of
#'   HMC, and the start of the Laplace fit).
#' @details For a continuous target, `model` is an R function giving
#'   \eqn{\log f(x)} and `base` a normalised [proposal][proposal_normal] \eqn{p_1}
#'   (e.g. `proposal_normal(rep(0, d), 3)`) whose dimension fixes d, or
#'   `"laplace"` (default; with `start`) and the other Laplace bases of
#'   [ais.function()]; then \eqn{Z_1 = 1}, \eqn{\Delta = \log f - \log p_1}
#'   and the x-move is `metropolis_steps` transitions of `kernel` at each
#'   chain's \eqn{\beta_k}, with a step per temperature adapted only during the
#'   initial iterations towards the kernel's acceptance target (so the final
#'   run is a fixed Markov kernel). Random-walk Metropolis from a proposal base
#'   runs in R with R's RNG; the other kernels in C with a stream per chain.
#'   The result's `x` holds the chains' final states and `counts` the density
#'   and gradient evaluations (the Laplace fit's included).
#' @usage
#' \method{rts}{function}(
#'   model,
#'   base = "laplace",
#'   K = 100L,
#'   betas = NULL,
#'   prior = NULL,
#'   n_chains = 100L,
#'   sweeps = 1000L,
#'   init_iter = 10L,
#'   init_sweeps = 50L,
#'   tol = 0.1,
#'   estimators = c("rts", "ts", "ti", "ti_rb", "mbar"),
#'   mbar_samples = 5000L,
#'   vectorized = FALSE,
#'   step_size = 0.5,
#'   metropolis_steps = 1L,
#'   gradient = NULL,
#'   kernel = NULL,
#'   n_leapfrog = 10L,
#'   start = NULL,
#'   progress = interactive(),
#'   c_hat = c("rao_blackwell", "visits"),
#'   ...
#' )
#' @export
rts.function <- function(model, base = "laplace", K = 100L, betas = NULL, prior = NULL,
                         n_chains = 100L, sweeps = 1000L, init_iter = 10L, init_sweeps = 50L,
                         tol = 0.1, estimators = c("rts", "ts", "ti", "ti_rb", "mbar"),
                         mbar_samples = 5000L,
                         vectorized = FALSE, step_size = 0.5, metropolis_steps = 1L,
                         gradient = NULL, kernel = NULL, n_leapfrog = 10L, start = NULL,
                         progress = interactive(), c_hat = c("rao_blackwell", "visits"), ...) {
  call <- match.call()
  check_dots_used(..., .fn = "rts", .valid = rts_arg_names())
  validate_model(model)
  args <- rts_check_args(K, betas, prior, n_chains, sweeps, init_iter, init_sweeps, tol,
                         estimators, mbar_samples, 1L, progress)
  args$c_hat <- match_arg(c_hat, "c_hat")
  check_flag(vectorized, "vectorized")
  check_gradient_arg(gradient)
  b <- resolve_function_base(base, model, start, gradient, vectorized)
  kernel <- resolve_kernel(kernel, gradient, b$proposal$dim)
  step_size <- check_number(step_size, "step_size", lower = 0, lower_open = TRUE)
  metropolis_steps <- check_count(metropolis_steps, "metropolis_steps")
  if (!missing(n_leapfrog)) check_hmc_only(kernel, "n_leapfrog")
  n_leapfrog <- check_count(n_leapfrog, "n_leapfrog", max = 10000L)
  if (kernel == "mala") n_leapfrog <- 1L
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  target <- if (is.null(b$laplace)) list(model = model, gradient = gradient) else
    c(laplace_whiten(b$laplace, model, gradient, vectorized), list(laplace = b$laplace))
  if (kernel != "rwm") {
    X0 <- proposal_sample(b$proposal, 2L, rep(-Inf, b$proposal$dim), rep(Inf, b$proposal$dim))
    check_gradient_fd(target$model, target$gradient, X0, vectorized || !is.null(b$laplace),
                      b$proposal$dim)
  }
  p <- rts_prepare_function(model, b$proposal, args, vectorized, step_size, metropolis_steps,
                            target, kernel, n_leapfrog)
  res <- rts_engine(p$run, p$X, p$log_z1, args)
  fit <- new_rts_result(res, args, p$log_z1, time = proc.time()[["elapsed"]] - t0, seed = seed,
                        call = call, extra = list(step_size = p$step_size(), mass = p$mass(),
                                                  kernel = kernel,
                                                  x = p$x()))
  fit$counts <- c(fit$counts, p$counts() + b$evaluations)
  fit$base <- b$record
  fit
}

#' @rdname stan_target
#' @export
rts.stanfit <- function(model, ..., base = "draws", df = Inf, stanfit_model = NULL, start = NULL) {
  stan_estimate(rts, model, base, df, stanfit_model, start, match.call(), ...)
}
