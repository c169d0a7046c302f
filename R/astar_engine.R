# The engines of A* sampling (src/astar*.c, src/proposal.c, src/interval.c):
# the searches, the rejection / OS* baselines, the C-side targets and
# proposals, and the logz_samples result.

# n samples by A* sampling or drill down (src/astar.c). control: list(method
# (a name of ASTAR_SEARCH), reuse (keep the refined partition between samples),
# max_nodes (splits per sample), lower_bounds (mean lower bounds per node),
# lower_bounds_random (Poisson numbers of them), and optionally tick,
# tick_every). Returns list(samples (n x d), gumbel, likelihood, bound, nodes
# (per sample), tree_size).
astar_search <- function(target, n, control) {
  target <- check_target(target)
  control <- c(list(method = internal_code(control$method, ASTAR_SEARCH, "method"),
                    reuse = internal_flag(control$reuse, "reuse"),
                    max_nodes = internal_number(control$max_nodes, "max_nodes"),
                    lower_bounds = internal_number(control$lower_bounds, "lower_bounds"),
                    lower_bounds_random = internal_flag(control$lower_bounds_random,
                                                        "lower_bounds_random")),
               internal_tick(control))
  .Call(C_astar_sample, target, internal_count(n, "n", min = 0L), control)
}

# n samples by rejection or OS* (src/astar_baseline.c). control: list(refine
# (a name of OS_REFINE), reuse, max_nodes, refine_rate (the probability of
# refining after a rejection), and optionally tick, tick_every).
# Returns list(samples (n x d), likelihood, bound, nodes (per sample),
# log_w_sum, log_w2_sum (log sums of the importance weights and their
# squares), trials, pieces).
astar_baseline_run <- function(target, n, control) {
  target <- check_target(target)
  control <- c(list(refine = internal_code(control$refine, OS_REFINE, "refine"),
                    reuse = internal_flag(control$reuse, "reuse"),
                    max_nodes = internal_number(control$max_nodes, "max_nodes"),
                    refine_rate = internal_number(control$refine_rate, "refine_rate")),
               internal_tick(control))
  .Call(C_astar_baseline, target, internal_count(n, "n", min = 0L), control)
}

run_baseline <- function(target, n, refine, reuse, max_nodes, method, subclass, call,
                         progress = FALSE, refine_rate = 1) {
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  pb <- progress_bar(progress, n)
  on.exit(pb$close())
  res <- astar_baseline_run(target, n, c(list(refine = refine, reuse = reuse,
                                              max_nodes = max_nodes, refine_rate = refine_rate),
                                         progress_tick(progress, pb, n)))
  trials <- res$trials
  log_z <- res$log_w_sum - log(trials)
  rel_var <- exp(res$log_w2_sum - log(trials) - 2 * log_z) - 1
  se <- if (trials > 1) sqrt(max(rel_var, 0) / trials) else NA_real_
  new_astar_samples(res, target, log_z = log_z, se = se, gumbel = rep(NA_real_, n),
                    method = method, subclass = subclass,
                    time = proc.time()[["elapsed"]] - t0, seed = seed, call = call,
                    extra = list(trials = trials, pieces = res$pieces))
}

new_astar_samples <- function(res, target, log_z, se, gumbel, method, subclass, time, seed,
                              call, extra = list()) {
  samples <- res$samples
  colnames(samples) <- paste0("x", seq_len(ncol(samples)))
  cost <- data.frame(likelihood = res$likelihood, bound = res$bound, nodes = res$nodes)
  n <- nrow(samples)
  x <- c(list(samples = samples, gumbel = gumbel, cost = cost, log_z = log_z, se = se,
              method = method, time = time,
              counts = c(likelihood = sum(cost$likelihood), bound = sum(cost$bound),
                         nodes = sum(cost$nodes), samples = n),
              diagnostics = data.frame(sample = seq_len(n), gumbel = gumbel, cost),
              seed = seed, call = call, target = target), extra)
  new_logz_estimate(x, c(subclass, "logz_samples"))
}

#' Methods for A* samples
#'
#' `print()` shows the method, target, log Z and the mean cost per sample;
#' `summary()` adds per-dimension sample summaries and cost quantiles;
#' `plot()` draws, with `type = "samples"`, a histogram of 1-D samples
#' against the target density normalised by [stats::integrate()] (for `d >=
#' 2`, a scatter plot of the first two coordinates), and with `type =
#' "cost"` the likelihood and bound evaluations of each sample.
#'
#' @param x,object a `logz_samples` result of [astar_sample()],
#'   [os_star_sample()] or [rejection_sample()].
#' @param type `"samples"`, `"cost"` or `"estimate"` (see [plot.logz_estimate()]).
#' @param breaks histogram breaks (see [graphics::hist()]).
#' @param ... passed to [graphics::plot.default()].
#' @return `print()` and `plot()`: `x`, invisibly. `summary()`: an object of
#'   class `summary.logz_samples` (a list with `method`, `target`, `n`,
#'   `log_z`, `se`, `samples` (a per-dimension summary matrix), `cost` (a
#'   summary of the per-sample counts), `time`).
#' @section Errors: `type` not one of the choices.
#' @examples
#' set.seed(2)
#' s <- astar_sample(astar_example("clutter", D = 1), 100)
#' summary(s)
#' plot(s)
#' plot(s, type = "cost")
#' @name logz_samples
NULL

#' Evaluate a target's log-likelihood, bound and log density
#'
#' `astar_log_lik()` evaluates \eqn{o(x)} at points, `astar_bound()` the
#' bound \eqn{M(B)} over boxes, and `astar_log_density()` the unnormalised log
#' density \eqn{i(x) + o(x)} of an [astar_target()], with the same code the
#' samplers use (for built-in models, C). Useful to check that a bound bounds
#' and to normalise a density numerically.
#'
#' @param target an `astar_target`.
#' @param x points: a vector of length `d` or a matrix with `d` columns
#'   (one point per row).
#' @param lower,upper boxes: vectors of length `d` or matrices with `d`
#'   columns, one box per row; infinite entries are allowed.
#' @return A numeric vector with one value per point or box.
#' @section Errors: `target` not a target; points or boxes of the wrong
#'   dimension or with `NA`; `lower > upper`; `log_lik` `+Inf` or `NaN` at a
#'   point (named after the target).
#' @references
#' * Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling. NIPS 27.
#' @examples
#' tg <- astar_example("peaky", a = 5)
#' astar_log_lik(tg, c(0, 1, 10))
#' astar_bound(tg, lower = 1, upper = 2)   # = astar_log_lik(tg, 1)
#' integrate(function(x) exp(astar_log_density(tg, x)), 0, Inf)$value
#' @export
astar_log_lik <- function(target, x) {
  target <- check_target(target)
  .Call(C_astar_log_lik, target, as_points(x, target$dim, "x"))
}

#' @rdname astar_log_lik
#' @export
astar_bound <- function(target, lower, upper) {
  target <- check_target(target)
  lower <- as_points(lower, target$dim, "lower")
  upper <- as_points(upper, target$dim, "upper")
  if (nrow(lower) != nrow(upper))
    stop_no_call(sprintf("`lower` has %d rows but `upper` has %d.", nrow(lower), nrow(upper)))
  if (any(lower > upper)) stop_no_call("`lower` must not exceed `upper`.")
  .Call(C_astar_bound, target, lower, upper)
}

#' @rdname astar_log_lik
#' @export
astar_log_density <- function(target, x) {
  target <- check_target(target)
  x <- as_points(x, target$dim, "x")
  proposal_log_density(target$proposal, x) + astar_log_lik(target, x)
}

# Interval enclosures of a compiled program over boxes (rows): k x 2 (lo, hi).
interval_eval <- function(program, lower, upper) {
  if (!is.list(program) || !is.integer(program$op) || !is.integer(program$arg) ||
      length(program$op) != length(program$arg) || !is.double(program$const) ||
      !is.matrix(program$data))
    internal_error("`program` must come from compile_expr().")
  lower <- as_points(lower, program$dim, "lower")
  upper <- as_points(upper, program$dim, "upper")
  if (nrow(lower) != nrow(upper)) internal_error("`lower` and `upper` have different rows.")
  .Call(C_interval_eval, program, lower, upper)
}

#' @rdname proposal
#' @export
proposal_log_mass <- function(proposal, box_lower, box_upper) {
  proposal <- check_proposal(proposal)
  s <- proposal_support(proposal)
  if (missing(box_lower)) box_lower <- s[1, ]
  if (missing(box_upper)) box_upper <- s[2, ]
  b <- as_boxes(box_lower, box_upper, proposal$dim)
  .Call(C_proposal_log_mass, proposal, b$lower, b$upper)
}

#' @rdname proposal
#' @export
proposal_log_density <- function(proposal, x) {
  proposal <- check_proposal(proposal)
  .Call(C_proposal_log_density, proposal, as_points(x, proposal$dim, "x"))
}

#' @rdname proposal
#' @export
proposal_sample <- function(proposal, n, box_lower, box_upper) {
  proposal <- check_proposal(proposal)
  n <- check_count(n, "n", min = 0L)
  s <- proposal_support(proposal)
  if (missing(box_lower)) box_lower <- s[1, ]
  if (missing(box_upper)) box_upper <- s[2, ]
  b <- as_boxes(box_lower, box_upper, proposal$dim)
  if (nrow(b$lower) != 1L) stop_no_call("`box_lower` and `box_upper` must describe one box.")
  lo <- pmax(b$lower[1, ], s[1, ])
  hi <- pmin(b$upper[1, ], s[2, ])
  if (any(lo > hi)) stop_no_call("The box does not meet the support of `proposal`.")
  .Call(C_proposal_draw, proposal, n, lo, hi)
}
