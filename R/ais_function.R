#' Annealed importance sampling for a log density written in R
#'
#' `ais()` on a function: estimates \eqn{\log Z = \log \int f(x)\,dx} for an
#' unnormalised density \eqn{f} given as an R function returning
#' \eqn{\log f(\theta)}, by annealed importance sampling (Neal 2001) along the
#' geometric path
#' \deqn{\log f_\beta(x) = (1-\beta)\log p_0(x) + \beta \log f(x)}{log f_beta(x) = (1 - beta) log p0(x) + beta log f(x)}
#' from a normalised base density \eqn{p_0} (a [logz_proposal][proposal], the
#' same object [rts()] takes for function targets) to \eqn{f} (Neal 2001,
#' Eq. 4-5). Each chain starts with an exact draw \eqn{x \sim p_0}; for
#' \eqn{k = 1..K} its log weight gains
#' \eqn{(\beta_k - \beta_{k-1})(\log f(x) - \log p_0(x))}, and for \eqn{k < K}
#' it takes `sweeps_per_step` transitions of `kernel` targeting
#' \eqn{f_{\beta_k}}. The estimate is
#' \eqn{\log \frac1M \sum_m w_m} (the base is normalised, \eqn{\log Z_0 = 0}).
#'
#' The loop runs in C and calls back to R once per sweep for all chains. The
#' log density contract: with `vectorized = FALSE` (default) `model(theta)`
#' is called with one point, a numeric vector of length `d`, and returns one
#' number; with `vectorized = TRUE` it is called with an `M` x `d` matrix, one
#' point per row, and returns `M` numbers. Values must be finite or `-Inf`
#' (outside the support); `NA`, `NaN`, `+Inf` or the wrong length are errors.
#'
#' **Kernels.** Random-walk Metropolis takes Gaussian steps of sd
#' \eqn{s_k t_j} in dimension \eqn{j} (\eqn{t_j} the base's scale, or
#' `step_size`). MALA and HMC (Neal 2011, Section 5) follow the gradient of
#' \eqn{\log f_{\beta_k}}: momentum \eqn{p_j \sim N(0, 1/m_{kj})}, `n_leapfrog`
#' leapfrog steps of size \eqn{\epsilon_k}, then a Metropolis test on the
#' total energy; the position scales \eqn{1/\sqrt{m_{kj}}} start at
#' \eqn{t_j}. With the Laplace base the chains run in the whitened
#' coordinates \eqn{z} of [laplace_base()], where a near-Gaussian target has
#' unit scales.
#'
#' **Adapting the kernel.** An AIS estimate is unbiased for \eqn{Z} only if
#' each transition is a fixed kernel that leaves its \eqn{f_{\beta_k}}
#' invariant. With `adapt = "pilot"` (default) a separate pilot run of
#' `pilot_chains` chains on the same schedule adapts the log step after every
#' sweep (random-walk: \eqn{\log s \leftarrow \log s + \gamma(a - a^*)};
#' MALA/HMC: dual averaging, Hoffman and Gelman 2014, Algorithm 5, with its
#' weight floored so that it tracks the moving beta) towards `target_accept`,
#' and for MALA/HMC sets the position scales at each step to the pilot chains'
#' sd there; the smoothed per-step values are then fixed for the main run,
#' whose weights are exactly unbiased (the pilot's and the Laplace fit's
#' evaluations are counted). `adapt = "online"` adapts within the main run
#' from the statistics of the earlier sweeps, shared across chains: cheaper,
#' consistent as M grows, but each chain's kernel then depends weakly on the
#' other chains' past. `adapt = "none"` keeps `step_size` throughout.
#'
#' **Reliability.** Besides the flags of [ais()] (ESS/M < 0.1, Pareto
#' \eqn{\hat k > 0.7}), an estimate from a Laplace base is flagged when the
#' final weighted chains, in the whitened coordinates \eqn{z} of the fit,
#' spread more than \eqn{1.5(1 + q/\sqrt{2 E})} times the fit's scale or
#' have their weighted mean more than \eqn{1 + q/\sqrt{E}} from the mode
#' along some \eqn{z_j} (\eqn{E} the ESS of the final weights, \eqn{q} the
#' \eqn{1 - 0.025/d} normal quantile, for the sampling noise of the weighted
#' moments over \eqn{d} coordinates): the target is then curved
#' or skewed away from its fit (a banana), and annealing from the fit tends
#' to underestimate \eqn{\log Z} by the mass it has not reached.
#'
#' `plot()` draws the pictures of [plot.logz_ais()] and, with `type =
#' "accept"`, the Metropolis acceptance fraction at each beta with the
#' adaptation's target (dashed) and the step scale \eqn{s_k} (right axis).
#'
#' @param model a function returning the log of an unnormalised density (see
#'   the contract above).
#' @param base the normalised base density \eqn{p_0}: `"laplace"` (default:
#'   the fit at the mode of `model` with Student-t tails of 5 df, see
#'   [laplace_base()]; needs `start`), `"laplace_normal"` (the Gaussian fit,
#'   exact for a Gaussian target), a [laplace_base()] fit, or a
#'   `logz_proposal` (e.g. [proposal_normal()]) of the dimension `d` of the
#'   target whose support contains the target's.
#' @param schedule a [logz_schedule][schedule] or numeric vector of betas from
#'   0 to 1; default (`NULL`) `schedule_linear(100)` from a Laplace base with
#'   MALA or HMC, `schedule_linear(200)` from a Laplace base with random-walk
#'   Metropolis, and `schedule_geometric(200)` from a proposal.
#' @param n_chains number of AIS chains M (>= 2).
#' @param sweeps_per_step Metropolis steps at each intermediate beta (>= 1).
#' @param vectorized `TRUE` if `model` takes a matrix of points (one per row).
#' @param step_size `NULL` (the base's per-dimension scale, times
#'   \eqn{2.38/\sqrt d} at the start), or the initial proposal sd: a positive
#'   number or a vector of length `d`.
#' @param adapt `"pilot"`, `"online"` or `"none"` (see above).
#' @param pilot_chains chains of the pilot run (`adapt = "pilot"`); default
#'   `max(10, n_chains %/% 5)`.
#' @param target_accept acceptance rate the adaptation aims at, in (0, 1);
#'   default 0.35 for `"rwm"`, 0.57 for `"mala"`, 0.65 for `"hmc"`.
#' @param gradient `NULL`, or a function returning the gradient of the log
#'   density: a numeric vector of length `d` at one point, or with
#'   `vectorized = TRUE` an `M` x `d` matrix (one gradient per row). It is
#'   checked against central finite differences of `model` at two base draws
#'   before the run (an error when they disagree). Needed by `"mala"` and
#'   `"hmc"`.
#' @param kernel the Markov kernel at each intermediate beta: `"rwm"`
#'   (random-walk Metropolis), `"mala"` (Metropolis-adjusted Langevin, HMC
#'   with one leapfrog step) or `"hmc"` (Hamiltonian Monte Carlo with
#'   `n_leapfrog` leapfrog steps and a diagonal mass matrix); default `"hmc"`
#'   when `gradient` is given, else `"rwm"` (with a message).
#' @param n_leapfrog leapfrog steps per HMC transition (>= 1).
#' @param start for the Laplace base: a point (length `d`) where the log
#'   density is finite, the start of the mode search.
#' @param progress show progress (default: in interactive sessions; through
#'   \pkg{progressr} when its handlers are on, see [logz_progress]), counted
#'   in density evaluations (pilot run included).
#' @param target_se `NULL` (one run), or the se of log Z (nats) to reach:
#'   the run is repeated (at least 8 times, each round at most doubling the
#'   number of runs) until the se over the runs, by the delta method on
#'   their estimates of Z, is at most `target_se`; the estimate is the log of
#'   their mean Z (the pooled weights). `counts` then adds `replicates`.
#' @param max_time,max_evaluations with `target_se`: stop repeating after
#'   this many seconds or density evaluations; the result is then flagged
#'   ("target se ... not reached").
#' @param ... ignored.
#' @return An object of class `c("logz_ais_function", "logz_ais",
#'   "logz_estimate")`: the fields of [ais()] (`log_z`, `se`, `bounds`, `ess`,
#'   `log_weights`, `log_z0 = 0`, `schedule`, ...) with `diagnostics` (one row
#'   per step: `step`, `beta`, `ess`, `log_z`, `accept` (Metropolis
#'   acceptance fraction), `step_scale` (the multiplier \eqn{s_k} of the
#'   per-dimension scales \eqn{t_j}; 1 with `adapt = "none"` and a
#'   `step_size`)), `counts`
#'   (`density_evaluations` (calls of `model` per point, pilot and Laplace
#'   fit included), `gradient_evaluations` (the same for `gradient`),
#'   `metropolis_steps` (chain-steps of the main run), `chains`, `steps`) and
#'   `x`, the final M x d chain states (approximate draws from
#'   \eqn{f/Z}, to be weighted by `exp(log_weights)`).
#' @section Errors: `model` not a function; `base` not a `logz_proposal`,
#'   `"laplace"`, `"laplace_normal"` or [laplace_base()] fit (and, for the Laplace
#'   bases, the errors of [laplace_base()], e.g. no `start`); `gradient` not a
#'   function, of the wrong shape, not finite where `model` is, or disagreeing
#'   with finite differences of `model`; `kernel = "mala"` or `"hmc"` without
#'   `gradient`;
#'   `model` returning `NA`, `NaN`, `+Inf`, a non-numeric value or the wrong
#'   number of values (naming the point); `-Inf` at every base draw;
#'   `n_chains`, `sweeps_per_step`, `pilot_chains` not whole numbers;
#'   `step_size` not positive or of the wrong length; a bad schedule.
#' @references
#' * Neal, R. M. (2001). Annealed importance sampling. Statistics and Computing 11,
#'   125-139.
#' * Neal, R. M. (2011). MCMC using Hamiltonian dynamics. Handbook of Markov Chain
#'   Monte Carlo, ch. 5.
#' * Hoffman, M. D. and Gelman, A. (2014). The No-U-Turn sampler. JMLR 15, 1593-1623.
#' * Andrieu, C. and Thoms, J. (2008). A tutorial on adaptive MCMC. Statistics and
#'   Computing 18, 343-373.
#' @seealso [ais()], [rts()] (the same targets by tempered sampling),
#'   [log_partition()]
#' @examples
#' # unnormalised N(1, 0.5^2) in 2-D: log Z = log(2 * pi * 0.25) = 0.4516
#' f <- function(theta) -sum((theta - 1)^2) / (2 * 0.25)
#' set.seed(1)
#' fit <- ais(f, proposal_normal(c(0, 0), 2), n_chains = 100)   # 200 geometric steps
#' fit
#' log(2 * pi * 0.25)
#' # a correlated, skewed target with its gradient: HMC from the Laplace base
#' S <- solve(matrix(c(1, 0.9, 0.9, 1), 2))
#' f2 <- function(x) -0.5 * sum(x * (S %*% x)) + x[1] - 2 * log1p(exp(x[1]))
#' g2 <- function(x) -as.vector(S %*% x) + c(1 - 2 * plogis(x[1]), 0)
#' ais(f2, gradient = g2, start = c(0, 0), schedule = schedule_geometric(50), n_chains = 50)
#' @rdname ais_function
#' @usage
#' \method{ais}{function}(
#'   model,
#'   base = "laplace",
#'   schedule = NULL,
#'   n_chains = 100L,
#'   sweeps_per_step = 1L,
#'   vectorized = FALSE,
#'   gradient = NULL,
#'   kernel = NULL,
#'   n_leapfrog = 10L,
#'   start = NULL,
#'   step_size = NULL,
#'   adapt = c("pilot", "online", "none"),
#'   pilot_chains = NULL,
#'   target_accept = NULL,
#'   progress = interactive(),
#'   target_se = NULL,
#'   max_time = 600,
#'   max_evaluations = Inf,
#'   ...
#' )
#' @export
ais.function <- function(model, base = "laplace", schedule = NULL,
                         n_chains = 100L, sweeps_per_step = 1L, vectorized = FALSE,
                         gradient = NULL, kernel = NULL, n_leapfrog = 10L, start = NULL,
                         step_size = NULL, adapt = c("pilot", "online", "none"),
                         pilot_chains = NULL, target_accept = NULL, progress = interactive(),
                         target_se = NULL, max_time = 600, max_evaluations = Inf, ...) {
  call <- match.call()
  check_dots_used(...)
  check_caps_need_target(target_se, c(max_time = !missing(max_time),
                                      max_evaluations = !missing(max_evaluations)))
  if (!is.null(target_se))
    return(ais_function_to_target(mget(setdiff(names(formals(ais.function)), c("...", "target_se",
                                         "max_time", "max_evaluations",
                                         if (missing(n_leapfrog)) "n_leapfrog"))), call,
                                  check_target_se(target_se, max_time, max_evaluations)))
  adapt <- match_arg(adapt, "adapt")
  s <- ais_function_prepare(model, base, schedule, n_chains, sweeps_per_step, vectorized, gradient,
                            kernel, n_leapfrog, !missing(n_leapfrog), start, step_size, adapt,
                            pilot_chains, target_accept, progress)
  ais_function_engine(model, s, call)
}

#' @rdname stan_target
#' @export
ais.stanfit <- function(model, ..., base = "draws", df = Inf, stanfit_model = NULL, start = NULL) {
  stan_estimate(ais, model, base, df, stanfit_model, start, match.call(), ...)
}

# ais() on an R log density run to a target se: replicates of the call with
# `target_se = NULL` (each an unbiased estimate of Z with its own pilot),
# combined as log of the mean Z (the pooled log weights of the replicates),
# with the se from their spread.
ais_function_to_target <- function(args, call, control) {
  args$progress <- FALSE
  t0 <- proc.time()[["elapsed"]]
  seed <- rng_state()
  one <- function(i) muffle_unreliable(do.call(ais.function, args))
  reps <- replicate_to_target(one, 8L, control$target_se, control$max_time,
                             control$max_evaluations,
                             evals = function(r) r$counts[["density_evaluations"]],
                             log_z = function(r) r$log_z, workers = NULL, progress = FALSE)
  runs <- reps$runs
  fit <- runs[[1L]]
  lz <- vapply(runs, `[[`, 0, "log_z")
  comb <- combine_log_z(lz)
  fit$log_z <- comb[["log_z"]]
  fit$se <- comb[["se"]]
  fit$log_z_runs <- lz
  fit$log_weights <- unlist(lapply(runs, `[[`, "log_weights"), use.names = FALSE)
  fit$bounds <- c(lower = fit$log_z - 3 * fit$se, upper = fit$log_z + 3 * fit$se)
  fit$bounds_method <- "delta"
  wd <- weight_diagnostics(fit$log_weights)
  fit[c("ess", "ess_ratio", "khat")] <- wd[c("ess", "ess_ratio", "khat")]
  for (nm in c("density_evaluations", "gradient_evaluations", "divergences", "metropolis_steps",
               "chains"))
    if (nm %in% names(fit$counts)) fit$counts[[nm]] <- sum(vapply(runs, function(r) r$counts[[nm]], 0))
  fit$counts <- c(fit$counts, replicates = length(runs))
  fit$target_se <- control$target_se
  fit$time <- proc.time()[["elapsed"]] - t0
  fit$seed <- seed
  fit$call <- call
  fit$flags <- character()
  fit$reliable <- TRUE
  flag_target_se(fit, control$target_se, reps$why,
                 carried = unlist(lapply(runs, `[[`, "flags")))
}

ais_gpc_hmc <- function(model, base, schedule, n_chains, sweeps_per_step, n_leapfrog,
                        progress, call) {
  A <- gpc_sqrt_k(model$K)
  tg <- gpc_v_target(model, A)
  n <- model$n
  b <- if (base == "ep") gpc_ep_base(model, A) else proposal_normal(rep(0, n), 1)
  fit <- ais.function(tg$f, base = b, schedule = schedule, n_chains = n_chains,
                      sweeps_per_step = sweeps_per_step, vectorized = TRUE, gradient = tg$g,
                      kernel = "hmc", n_leapfrog = n_leapfrog, progress = progress)
  fit$x <- fit$x %*% A
  fit$method <- sprintf("AIS (HMC from %s)", if (base == "ep") "EP's q" else "the prior")
  fit$base <- list(type = base, how = "given")
  fit$target <- "a GP classifier"
  fit$call <- call
  fit
}
