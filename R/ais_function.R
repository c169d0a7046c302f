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
#' it takes `sweeps_per_step` random-walk Metropolis steps targeting
#' \eqn{f_{\beta_k}}, with Gaussian proposals of sd \eqn{s_k t_j} in dimension
#' \eqn{j} (\eqn{t_j} the base's scale, or `step_size`). The estimate is
#' \eqn{\log \frac1M \sum_m w_m} (the base is normalised, \eqn{\log Z_0 = 0}).
#'
#' The loop runs in C and calls back to R once per sweep for all chains. The
#' log density contract: with `vectorized = FALSE` (default) `model(theta)`
#' is called with one point, a numeric vector of length `d`, and returns one
#' number; with `vectorized = TRUE` it is called with an `M` x `d` matrix, one
#' point per row, and returns `M` numbers. Values must be finite or `-Inf`
#' (outside the support); `NA`, `NaN`, `+Inf` or the wrong length are errors.
#'
#' **Adapting the step.** An AIS estimate is unbiased for \eqn{Z} only if each
#' transition is a fixed kernel that leaves its \eqn{f_{\beta_k}} invariant.
#' With `adapt = "pilot"` (default) a separate pilot run of `pilot_chains`
#' chains on the same schedule adapts the log scale after every sweep,
#' \eqn{\log s \leftarrow \log s + \gamma(a - a^*)} (acceptance fraction
#' \eqn{a} over the chains, target `target_accept`); the smoothed per-step
#' scales are then fixed for the main run, whose weights are exactly unbiased
#' (the pilot's density evaluations are counted). `adapt = "online"` adapts
#' within the main run from the statistics of the earlier sweeps, shared across
#' chains: cheaper, consistent as M grows, but each chain's kernel then depends
#' weakly (through the shared scale) on the other chains' past. `adapt =
#' "none"` keeps `step_size` throughout.
#'
#' `plot()` draws the pictures of [plot.logz_ais()] and, with `type =
#' "accept"`, the Metropolis acceptance fraction at each beta with the
#' adaptation's target (dashed) and the step scale \eqn{s_k} (right axis).
#'
#' @param model a function returning the log of an unnormalised density (see
#'   the contract above).
#' @param base a `logz_proposal` (e.g. [proposal_normal()]) giving the
#'   normalised base density \eqn{p_0}, of the dimension `d` of the target;
#'   its support must contain the target's.
#' @param schedule a [logz_schedule][schedule] or numeric vector of betas from
#'   0 to 1; default `schedule_geometric(200)`.
#' @param n_chains number of AIS chains M (>= 2).
#' @param sweeps_per_step Metropolis steps at each intermediate beta (>= 1).
#' @param vectorized `TRUE` if `model` takes a matrix of points (one per row).
#' @param step_size `NULL` (the base's per-dimension scale, times
#'   \eqn{2.38/\sqrt d} at the start), or the initial proposal sd: a positive
#'   number or a vector of length `d`.
#' @param adapt `"pilot"`, `"online"` or `"none"` (see above).
#' @param pilot_chains chains of the pilot run (`adapt = "pilot"`); default
#'   `max(10, n_chains %/% 5)`.
#' @param target_accept acceptance rate the adaptation aims at, in (0, 1).
#' @param progress show progress (default: in interactive sessions; through
#'   \pkg{progressr} when its handlers are on, see [logz_progress]), counted
#'   in density evaluations (pilot run included).
#' @param ... ignored.
#' @return An object of class `c("logz_ais_function", "logz_ais",
#'   "logz_estimate")`: the fields of [ais()] (`log_z`, `se`, `bounds`, `ess`,
#'   `log_weights`, `log_z0 = 0`, `schedule`, ...) with `diagnostics` (one row
#'   per step: `step`, `beta`, `ess`, `log_z`, `accept` (Metropolis
#'   acceptance fraction), `step_scale` (the multiplier \eqn{s_k} of the
#'   per-dimension scales \eqn{t_j}; 1 with `adapt = "none"` and a
#'   `step_size`)), `counts`
#'   (`density_evaluations` (calls of `model` per point, pilot included),
#'   `metropolis_steps` (chain-steps of the main run), `chains`, `steps`) and
#'   `x`, the final M x d chain states (approximate draws from
#'   \eqn{f/Z}, to be weighted by `exp(log_weights)`).
#' @section Errors: `model` not a function; `base` not a `logz_proposal`;
#'   `model` returning `NA`, `NaN`, `+Inf`, a non-numeric value or the wrong
#'   number of values (naming the point); `-Inf` at every base draw;
#'   `n_chains`, `sweeps_per_step`, `pilot_chains` not whole numbers;
#'   `step_size` not positive or of the wrong length; a bad schedule.
#' @references Neal, R. M. (2001). Annealed importance sampling. Statistics and
#'   Computing 11, 125-139. Andrieu, C. and Thoms, J. (2008). A tutorial on
#'   adaptive MCMC. Statistics and Computing 18, 343-373.
#' @seealso [ais()], [rts()] (the same targets by tempered sampling),
#'   [log_partition()]
#' @examples
#' # unnormalised N(1, 0.5^2) in 2-D: log Z = log(2 * pi * 0.25) = 0.4516
#' f <- function(theta) -sum((theta - 1)^2) / (2 * 0.25)
#' set.seed(1)
#' fit <- ais(f, proposal_normal(c(0, 0), 2), n_chains = 100)   # 200 geometric steps
#' fit
#' log(2 * pi * 0.25)
#' @rdname ais_function
#' @export
ais.function <- function(model, base, schedule = schedule_geometric(200L), n_chains = 100L,
                         sweeps_per_step = 1L, vectorized = FALSE, step_size = NULL,
                         adapt = c("pilot", "online", "none"), pilot_chains = NULL,
                         target_accept = 0.35, progress = interactive(), ...) {
  call <- match.call()
  check_dots_used(...)
  check_flag(progress, "progress")
  if (missing(base) || !inherits(base, "logz_proposal"))
    stop_no_call(sprintf(paste0("`base` must be a logz_proposal (e.g. proposal_normal()) giving ",
                                "the normalised base density, not %s."),
                         if (missing(base)) "missing" else describe(base)))
  schedule <- as_schedule(schedule)
  n_chains <- check_count(n_chains, "n_chains", min = 2L)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  check_flag(vectorized, "vectorized")
  adapt <- match_arg(adapt, "adapt")
  pilot_chains <- if (is.null(pilot_chains)) max(10L, n_chains %/% 5L) else
    check_count(pilot_chains, "pilot_chains", min = 2L)
  target_accept <- check_number(target_accept, "target_accept", lower = 0, upper = 1,
                                lower_open = TRUE, upper_open = TRUE)
  d <- base$dim
  if (is.null(step_size)) {
    template <- base_scales(base)
    log_s0 <- log(2.38 / sqrt(d))
  } else {
    if (!is.numeric(step_size) || !length(step_size) %in% c(1L, d) || anyNA(step_size) ||
        any(!is.finite(step_size)) || any(step_size <= 0))
      stop_no_call(sprintf("`step_size` must be NULL or positive finite numbers (1 or %d), not %s.",
                           d, describe(step_size)))
    template <- rep_len(as.double(step_size), d)
    log_s0 <- 0
  }
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  betas <- as.double(schedule)
  K <- length(betas) - 1L
  pb <- progress_bar(progress, ((if (adapt == "pilot") pilot_chains else 0) + n_chains) *
                                 (K * sweeps_per_step + 1))
  on.exit(pb$close())
  evaluated <- 0
  fn <- ais_function_wrapper(model, vectorized, d, function(m) {
    evaluated <<- evaluated + m
    pb$update(evaluated)
  })
  streams <- list(pilot = rng_streams(pilot_chains),
                  main = rng_streams(n_chains))   # before `model` can touch the RNG
  run <- function(M, adapt_now, log_scale, streams) {
    control <- list(n_chains = M, sweeps = sweeps_per_step, adapt = adapt_now,
                    target_accept = target_accept, gain = 1, log_scale = log_scale,
                    template = template, streams = streams)
    ais_function_run(fn, base, betas, control)
  }
  evals <- 0
  log_scale <- rep(log_s0, K)
  if (adapt == "pilot") {
    pilot <- run(pilot_chains, TRUE, log_scale, streams$pilot)
    evals <- pilot$evaluations
    log_scale <- if (K >= 5L) stats::lowess(seq_len(K), pilot$log_scale, f = 0.1)$y else
      pilot$log_scale
  }
  res <- run(n_chains, adapt == "online", log_scale, streams$main)
  if (all(res$log_w == -Inf))
    stop_no_call(paste0("`model` is -Inf at every chain: its support must overlap the base's ",
                        "(check `base`)."))
  fit <- new_ais_result(res$log_w, 0, schedule, res$trace, 0, n_chains,
                        time = proc.time()[["elapsed"]] - t0, seed = seed, call = call)
  fit$diagnostics$accept <- res$accept
  fit$diagnostics$step_scale <- exp(res$log_scale)
  fit$counts <- c(density_evaluations = evals + res$evaluations,
                  metropolis_steps = (K - 1) * sweeps_per_step * n_chains,
                  chains = n_chains, steps = K)
  fit$x <- res$x
  fit$adapt <- adapt
  fit$target_accept <- target_accept
  class(fit) <- c("logz_ais_function", class(fit))
  fit
}

# AIS on an R log density (src/ais_function.c). fn: the callback of
# ais_function_wrapper() (M x d matrix -> M validated log densities); base: a
# logz_proposal (d dimensions); betas: K + 1 values from 0 to 1; control:
# list(n_chains (M), sweeps (Metropolis sweeps per intermediate step), adapt
# (update the log step scale after every sweep towards target_accept, by
# gain per unit of acceptance), target_accept, gain, log_scale (K: the log
# scale of each step, or the start when adapting), template (d: the proposal
# sd per dimension at log scale 0), streams (6 x M)). Returns list(log_w,
# trace (K x 2), log_scale (K), accept (K), evaluations, x (M x d final states)).
ais_function_run <- function(fn, base, betas, control) {
  if (!is.function(fn)) internal_error("`fn` must be a function.")
  check_proposal(base, "base")
  betas <- internal_double(betas, "betas")
  K <- length(betas) - 1L
  if (K < 1L) internal_error("`betas` must hold at least 2 values.")
  M <- internal_count(control$n_chains, "n_chains")
  control <- list(n_chains = M, sweeps = internal_count(control$sweeps, "sweeps", min = 0L),
                  adapt = internal_flag(control$adapt, "adapt"),
                  target_accept = internal_number(control$target_accept, "target_accept"),
                  gain = internal_number(control$gain, "gain"),
                  log_scale = internal_double(control$log_scale, "log_scale", K),
                  template = internal_double(control$template, "template", base$dim),
                  streams = internal_streams(control$streams, M))
  .Call(C_ais_function, fn, base, betas, control)
}

# The callback handed to C: X (M x d) -> M validated log densities.
# `tick(m)` is told of every m points evaluated (progress).
ais_function_wrapper <- function(model, vectorized, d, tick = function(m) NULL) {
  force(model)
  function(X) {
    tick(nrow(X))
    v <- if (vectorized) model(X) else
      lapply(seq_len(nrow(X)), function(i) model(X[i, ]))
    if (!vectorized) {
      bad <- which(lengths(v) != 1L | !vapply(v, is.numeric, logical(1)))
      if (length(bad))
        stop_no_call(sprintf("`model` must return one number per point; at point (%s) it gave %s.",
                             paste(format(X[bad[1], ], digits = 4), collapse = ", "),
                             describe(v[[bad[1]]])))
      v <- unlist(v, use.names = FALSE)
    }
    if (!is.numeric(v) || length(v) != nrow(X))
      stop_no_call(sprintf(paste0("`model` (vectorized) must return %d log densities for a ",
                                  "%d x %d matrix, not %s."), nrow(X), nrow(X), d, describe(v)))
    v <- as.double(v)
    bad <- which(is.na(v) | v == Inf)
    if (length(bad))
      stop_no_call(sprintf(paste0("`model` must return a finite log density or -Inf; at point ",
                                  "(%s) it gave %s."),
                           paste(format(X[bad[1], ], digits = 4), collapse = ", "),
                           format(v[bad[1]])))
    v
  }
}

# Per-dimension scale of a proposal (sd where finite, else the scale parameter).
base_scales <- function(base) {
  fams <- names(PROP_FAMILY)[base$family]
  vapply(seq_len(base$dim), function(j) {
    p <- base$par[, j]
    switch(fams[j], uniform = (p[2] - p[1]) / sqrt(12), normal = p[2],
           exponential = 1 / p[1], cauchy = p[2], student = p[2])
  }, numeric(1))
}

#' @export
print.logz_ais_function <- function(x, ...) {
  cat(sprintf("<logz_ais> AIS estimate of log Z for an R log density (%d-D)\n", ncol(x$x)))
  cat(sprintf("  log Z = %.4f (se %.4f); 3-sd bounds [%.4f, %.4f]\n", x$log_z, x$se,
              x$bounds[[1]], x$bounds[[2]]))
  cat(sprintf("  %d chains, %d steps (%s schedule); ESS %.1f of %d\n", x$counts[["chains"]],
              x$counts[["steps"]], attr(x$schedule, "name"), x$ess, x$counts[["chains"]]))
  acc <- x$diagnostics$accept
  cat(sprintf("  Metropolis acceptance %.2f (mean; %s step scale)\n", mean(acc, na.rm = TRUE),
              x$adapt))
  cat(sprintf("  %s density evaluations in %.2f s\n",
              format(x$counts[["density_evaluations"]], big.mark = ","), x$time))
  invisible(x)
}

#' @rdname ais_function
#' @param x a `logz_ais_function` result.
#' @param type `"ess"`, `"log_z"`, `"weights"`, `"schedule"`, `"estimate"`
#'   (see [plot.logz_ais()]) or `"accept"`.
#' @param main the title; `NULL` for the default.
#' @export
plot.logz_ais_function <- function(x, type = c("ess", "log_z", "weights", "schedule", "accept",
                                               "estimate"), main = NULL, ...) {
  type <- match_arg(type, "type")
  if (type != "accept") return(NextMethod(type = type, main = main))
  d <- x$diagnostics[!is.na(x$diagnostics$accept), ]
  op <- graphics::par(mar = c(5, 4, 4, 4) + 0.1)
  on.exit(graphics::par(op))
  plot(d$beta, d$accept, type = "n", ylim = c(0, 1), xlab = expression(beta),
       ylab = "Metropolis acceptance fraction",
       main = or_default(main, sprintf("AIS on an R log density: acceptance (%s step scale)",
                                       x$adapt)), ...)
  graphics::lines(d$beta, d$accept)
  graphics::abline(h = x$target_accept, lty = 2, col = "red")
  s <- d$step_scale
  rs <- range(s)
  if (diff(rs) == 0) rs <- rs * c(0.5, 1.5)
  graphics::lines(d$beta, (s - rs[1]) / diff(rs), col = "steelblue", lty = 3, lwd = 2)
  at <- pretty(rs)
  at <- at[at >= rs[1] & at <= rs[2]]
  graphics::axis(4, at = (at - rs[1]) / diff(rs), labels = format(at), col.axis = "steelblue")
  graphics::mtext("step scale s_k (right axis)", side = 4, line = 2.5, col = "steelblue")
  graphics::legend("topright", c("acceptance", sprintf("target %.2f", x$target_accept),
                                 "step scale"),
                   lty = c(1, 2, 3), lwd = c(1, 1, 2), col = c("black", "red", "steelblue"),
                   bg = grDevices::adjustcolor("white", 0.8), box.col = NA)
  invisible(x)
}
