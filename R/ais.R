#' Annealed importance sampling
#'
#' Estimates log Z of a model by annealed importance sampling (Neal 2001) from
#' a tractable base distribution along a schedule of inverse temperatures.
#'
#' For an RBM the path is the one of Salakhutdinov & Murray (2008) with the
#' hidden units summed out,
#' \deqn{\log f_\beta(v) = (1-\beta) v'a_0 + \beta v'a + \sum_j \mathrm{softplus}(\beta (b_j + v'W_j)),}{log f_beta(v) = (1 - beta) v'a0 + beta v'a + sum_j softplus(beta (b_j + v'W_j)),}
#' from the product of Bernoullis with visible biases \eqn{a_0} (log
#' \eqn{Z_0 = \sum_i \mathrm{softplus}(a_{0i}) + n_h \log 2}) to the RBM.
#' Each chain starts with \eqn{v \sim p_0}; for \eqn{k = 1..K} its log weight
#' gains \eqn{\log f_{\beta_k}(v) - \log f_{\beta_{k-1}}(v)}, and for \eqn{k < K}
#' it takes `sweeps_per_step` block-Gibbs sweeps at \eqn{\beta_k}. The estimate
#' is \eqn{\log Z_0 + \log \frac1M \sum_m w_m}.
#'
#' All chains are advanced together in C: \eqn{[W\,a\,a_0]'V} is one BLAS
#' `dgemm` whose result serves both the weight update and the hidden draw, and
#' \eqn{WH} is the second. Each chain draws from its own L'Ecuyer-CMRG
#' (MRG32k3a) stream seeded from R's RNG, so `set.seed()` reproduces a run and
#' the result is identical for any `threads` (see `kernel` for the one
#' exception). While `threads > 1` and a dense product is used, OpenBLAS (when
#' it is R's BLAS) is asked to run single-threaded so the two thread pools do
#' not compete for cores.
#'
#' @param model the model: an `rbm` (for Ising models, GP classifiers and R
#'   log densities see [ais.ising()], [ais.gpc()] and [ais.function()]).
#' @param schedule a [logz_schedule][schedule] (or numeric vector of betas
#'   from 0 to 1), or `NULL` (the default): linear or SM08 steps, chosen by
#'   [schedule_pilot()] within the budget of 14,500 steps (the length of
#'   [schedule_sm08()]) per chain; see "The default schedule".
#' @param n_chains number of independent AIS runs M (>= 1).
#' @param sweeps_per_step Gibbs sweeps at each intermediate beta (>= 1).
#' @param base the base distribution (see [logz_base]): `NULL` (the model's
#'   `base_rate` if it was trained by [rbm_train()], else the moment-matched
#'   product of the model's own visible marginals from a short Gibbs run at
#'   \eqn{\beta = 1} or the visible biases alone, whichever a short pilot AIS
#'   prefers; flagged, with a warning, when that pilot shows a poor base), a
#'   type name (`"model"`, `"visible"`, `"data"`, `"uniform"`), a [logz_base()], an `rbm` with zero `W` and `b` such as
#'   [rbm_base_rate()], or a numeric vector of visible biases. The result's
#'   `base` field records which was used.
#' @param threads number of OpenMP threads for the per-unit work (the matrix
#'   products use R's BLAS, which may have threads of its own).
#' @param progress show a progress bar (default: in interactive sessions).
#' @param kernel how the products \eqn{W'v} and \eqn{Wh} are computed:
#'   `"dense"` (BLAS `dgemm` on each thread's chains), `"sparse"` (sum the
#'   weight columns of the active units, exploiting 0/1 states, with kernels for
#'   AVX-512, AVX2 or plain C chosen at run time; each chain's products are
#'   updated from the units that flipped since the last sweep when those are
#'   few) or `"auto"` (sparse for a layer while the fraction of its units that
#'   are on is under a crossover, re-decided every 1% of the schedule; the
#'   crossover is option `logz.ais_crossover`, by default 1 (always sparse) with
#'   AVX-512, 0.5 with AVX2 and 0.35 otherwise). The estimate does not depend on
#'   it beyond rounding. The sparse kernel gives bit-identical results for any
#'   `threads` and any of its instruction sets (up to the last bit of `exp()`
#'   without AVX2); with the dense kernel each thread calls `dgemm` on its own
#'   chains, and BLAS blocking can change the last bits.
#' @param workers `NULL` or the number of pieces to split the chains into,
#'   run through the active [future::plan()] and merged exactly (see
#'   [scale_out]); `NULL` splits only when a parallel plan is active.
#' @param ... further arguments for methods.
#' @return An object of class `c("logz_ais", "logz_estimate")` (see
#'   [logz_estimate]) with, besides the common fields:
#' \describe{
#'   \item{`log_z`}{the AIS estimate \eqn{\log Z_0 + \log\mathrm{mean}(w)}.}
#'   \item{`se`}{delta-method standard error of `log_z`,
#'     \eqn{\mathrm{sd}(w) / (\sqrt{M}\,\mathrm{mean}(w))}.}
#'   \item{`bounds`}{`c(lower, upper)` = \eqn{\log(\hat Z \mp 3\,\mathrm{sd}(\hat Z))}
#'     as reported by Salakhutdinov & Murray; when the 3-sd interval of
#'     \eqn{\hat Z} reaches 0 the lower bound would be `-Inf`, and the
#'     delta-method (log-normal) bound `log_z - 3 * se` is given instead
#'     (`bounds_method` is then `"delta"`, else `"sm08"`).}
#'   \item{`ess_ratio`, `khat`}{ESS/M and the Pareto \eqn{\hat k} of the
#'     final weights (see [logz_reliability]); `flags` holds
#'     `"ESS/M = ... < 0.1"` and `"Pareto k-hat = ... > 0.7"` when crossed,
#'     and a warning (class `logz_unreliable`) is raised.}
#'   \item{`mode_check`}{RBMs with \eqn{n_h \le 64}: `bound` (a rigorous
#'     lower bound on log Z from the hidden states of largest mass),
#'     `short` (nats of their mass the final states missed) and `states`; an
#'     estimate more than 0.1 nats + 3 se below `bound`, or with `short` >
#'     0.25, is flagged (see [logz_base], "The mode check").}
#'   \item{`ess`}{effective sample size \eqn{(\sum w)^2/\sum w^2} of the final
#'     weights (between 1 and M).}
#'   \item{`log_weights`}{the M final log importance weights.}
#'   \item{`log_z0`}{log Z of the base distribution.}
#'   \item{`schedule`}{the schedule used.}
#'   \item{`diagnostics`}{data frame with one row per step: `step`, `beta`,
#'     `ess` (of the on-the-fly weights) and `log_z` (running estimate).}
#'   \item{`counts`}{`gibbs_sweeps` (chain-sweeps in total), `chains`, `steps`.}
#' }
#' @section The default schedule: [schedule_pilot()] runs a short pilot of
#'   equal (linear) steps and one of Salakhutdinov & Murray's SM08 steps
#'   (each 1,450 steps, 20 chains), keeps the shape whose pilot log weights
#'   vary less (see "Why this rule" in [schedule_pilot()]) and runs it with the steps
#'   the pilots left of the budget of `14500 * n_chains` chain-steps (with 100
#'   chains, 13,920 steps). The choice and the pilots' cost are in
#'   `attr(fit$schedule, "pilot")`, `"chosen"` and `"pilot_sweeps"`, and in
#'   `print(fit)`. Why a pilot and not one fixed shape: neither is best on
#'   every model. On 20-hidden MNIST RBMs with a known log Z and on Ising
#'   grids, SM08's error was several times linear's on some models (those whose
#'   curvature \eqn{g(\beta)} of \eqn{\log Z(\beta)} is large at small
#'   \eqn{\beta}, where SM08's steps are 100 times its last ones), while on a
#'   model whose curvature sits near \eqn{\beta = 1} SM08's fine steps there
#'   win; on the other trained RBMs measured, the two shapes' errors were
#'   within noise of each other. The pilot picks the better shape where they
#'   differ by much, and where they are close either choice costs little. A
#'   schedule fitted to a pilot run ([schedule_varopt()]) was within noise of
#'   linear at this budget, so its longer pilot does not pay. The figures are
#'   in `vignette("schedules", package = "logz")`. Give a schedule to skip the
#'   pilot.
#'
#' @section Errors: `model` not a supported model; a schedule that does not
#'   run from 0 to 1, leaves `[0, 1]` or decreases; `n_chains`, `sweeps_per_step` or `threads`
#'   not positive whole numbers; `n_chains` whose states need more than 16 GB
#'   (with the figure); a `base` of the wrong size or with couplings.
#' @references Neal, R. M. (2001). Annealed importance sampling. Statistics and
#'   Computing 11, 125-139.
#'   Salakhutdinov, R. and Murray, I. (2008). On the quantitative analysis of
#'   deep belief networks. ICML.
#' @seealso [schedule_linear()], [schedule_varopt()], [exact_log_z()], [log_likelihood()]
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:1000, ], n_hidden = 10, epochs = 2, progress = FALSE)
#' fit <- ais(m, schedule_linear(500), n_chains = 50, progress = FALSE)
#' fit
#' exact_log_z(m)
#' plot(fit, type = "ess")
#' @export
ais <- function(model, ...) UseMethod("ais")

#' @export
ais.default <- function(model, ...) {
  stop_no_call(sprintf("ais() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

#' @rdname ais
#' @export
ais.rbm <- function(model, schedule = NULL, n_chains = 100L, sweeps_per_step = 1L,
                    base = NULL, threads = 1L, progress = interactive(),
                    kernel = c("auto", "dense", "sparse"), workers = NULL, ...) {
  check_dots_used(...)
  validate_model(model)
  call <- match.call()
  if (!is.null(schedule)) schedule <- as_schedule(schedule)
  n_chains <- check_chains(n_chains, 8 * (model$n_visible + model$n_hidden))
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  kernel <- match_arg(kernel, "kernel")
  seed <- rng_state()
  base <- resolve_base(model, base, threads)   # R/base.R (may run a Gibbs pilot)
  if (is.null(schedule))
    schedule <- schedule_pilot(model, rbm_default_K, n_chains, base = base,
                               sweeps_per_step = sweeps_per_step, threads = threads)
  pieces <- resolve_pieces(workers, n_chains)
  if (pieces > 1L)
    return(with_base(ais_pieces(n_chains, pieces, schedule, call, function(size)
      ais.rbm(model, schedule, size, sweeps_per_step, base, threads, FALSE, kernel, workers = 1L),
      progress),
      base, seed))
  t0 <- proc.time()[["elapsed"]]
  run <- ais_rbm_engine(model, as.double(schedule), n_chains, sweeps_per_step, base$bias, threads,
                        progress, kernel)
  out <- with_base(new_ais_result(run$log_w, run$log_z0, schedule, run$trace, run$sweeps,
                                  n_chains, time = proc.time()[["elapsed"]] - t0, seed = seed,
                                  call = call), base)
  check_mode_occupancy(out, base, model, run$V)   # R/base_check.R
}

# The chunked driver of the C engine (arguments already validated). With
# `moments = TRUE` it also returns, per step k = 1..K, the importance-weighted
# mean and variance of D = d log f_beta(v) / d beta and the weighted mean of
# D2 = d^2 log f_beta(v) / d beta^2 at beta_k (a K x 3 matrix `moments`), from
# which schedule_varopt() gets g(beta) = Var[D] + E[D2].
ais_rbm_engine <- function(model, betas, n_chains, sweeps_per_step, a0, threads = 1L,
                           progress = FALSE, kernel = "auto", moments = FALSE) {
  validate_rbm(model)
  K <- length(betas) - 1L
  log_z0 <- sum(softplus(a0)) + model$n_hidden * log(2)
  mlist <- ais_rbm_model(model, a0)
  state <- ais_rbm_state(n_chains)
  run <- ais_run_chunks(betas, state, progress, function(b, state, final) {
    control <- list(threads = threads, sweeps = sweeps_per_step, final = final,
                    log_z0 = log_z0, kernel = kernel, moments = moments,
                    crossover = ais_crossover())
    res <- ais_rbm_chunk(mlist, b, state, control)
    list(state = list(V = res$V, log_w = res$log_w, streams = res$streams,
                      density = res$density),
         trace = res$trace, sweeps = res$sweeps, moments = res$moments)
  }, step_cost = as.double(n_chains) * sweeps_per_step * model$n_visible * (model$n_hidden + 1))
  mom <- run$moments
  if (moments) colnames(mom) <- c("mean_d", "var_d", "mean_d2")
  list(log_w = run$state$log_w, log_z0 = log_z0, trace = run$trace, sweeps = run$sweeps,
       moments = mom, V = run$state$V)
}

# How the AIS engine forms the products W'v and W h (enum logz_ais_kernel in
# src/logz.h): see the `kernel` argument of ais().
AIS_KERNEL <- c(auto = 0L, dense = 1L, sparse = 2L)

# The model list of the RBM AIS engine (src/ais.c) on the path from the base
# with visible biases `a0` to `model`: list(W, a, b, a0), plus the [W a a0] and
# blocked weight copies of ais_rbm_prepare(), made once per run.
ais_rbm_model <- function(model, a0) {
  mlist <- list(W = model$W, a = model$a, b = model$b, a0 = a0)
  c(mlist, ais_rbm_prepare(mlist))
}

# The state of M chains before the first chunk: states drawn from the base in
# C, zero log weights, fresh streams.
ais_rbm_state <- function(M) list(V = NULL, log_w = numeric(M), streams = rng_streams(M))

# list(W, a, b, a0) of an RBM path, checked and as doubles.
check_rbm_path <- function(model) {
  if (!is.list(model) || !is.matrix(model$W))
    internal_error("the RBM path must be list(W = matrix, a, b, a0).")
  nv <- nrow(model$W)
  nh <- ncol(model$W)
  model$W <- internal_double(model$W, "W")
  model$a <- internal_double(model$a, "a", nv)
  model$b <- internal_double(model$b, "b", nh)
  model$a0 <- internal_double(model$a0, "a0", nv)
  model
}

# [W a a0] (nv x (nh + 2)) and the blocked copies used by the sparse products
# of W'v and W h, for the RBM path list(W, a, b, a0): list(BX, BY, Wx).
ais_rbm_prepare <- function(model) {
  .Call(C_ais_rbm_prepare, check_rbm_path(model)[c("W", "a", "b", "a0")])
}

# One chunk of RBM AIS (src/ais.c): the steps betas[1] -> ... -> betas[L + 1]
# for all chains. model: from ais_rbm_model() (or list(W, a, b, a0)); state:
# list(V = NULL or nv x M chain states, log_w (M), streams (6 x M), density =
# NULL or the c(visible, hidden) fractions of active units the previous chunk
# returned); control: list(threads, sweeps (per step), final (no transition
# after the last step), log_z0, kernel (a name of AIS_KERNEL), moments (also
# return the weighted moments of d log f / d beta per step), crossover).
# Returns list(V, log_w, streams, trace (L x 2: ESS and running log Z), sweeps
# (per chain), density, moments (L x 3, or NULL)).
ais_rbm_chunk <- function(model, betas, state, control) {
  model[c("W", "a", "b", "a0")] <- check_rbm_path(model)[c("W", "a", "b", "a0")]
  nv <- length(model$a)
  M <- length(state$log_w)
  state <- list(V = internal_chains(state$V, "V", nv, M),
                log_w = internal_double(state$log_w, "log_w"),
                streams = internal_streams(state$streams, M),
                density = if (!is.null(state$density)) internal_double(state$density, "density", 2L))
  control <- c(internal_chunk_control(control), list(
                  kernel = internal_code(control$kernel, AIS_KERNEL, "kernel"),
                  moments = internal_flag(control$moments, "moments"),
                  crossover = internal_number(control$crossover, "crossover")))
  .Call(C_ais_rbm, model, internal_double(betas, "betas"), state, control)
}

# Fraction of active units below which kernel = "auto" uses the sparse product
# (option logz.ais_crossover); the default follows the instruction set of the
# sparse kernels (bench/ais/binary_crossover.R measures their products against
# dgemm); the portable one keeps auto sparse on MNIST-like visible layers.
ais_crossover <- function() {
  default <- c(portable = 0.35, avx2 = 0.5, avx512 = 1)[[kernel_isa()]]
  as.double(logz_option("ais_crossover", default, number = TRUE))
}

# Drive a chunked C AIS engine over `betas` (K + 1 values): at most 1% of the
# schedule per call, and at most about logz_option("chunk_work", 5e7)
# units of work (`step_cost` per step, e.g. chains x visible x hidden), so
# that the progress bar moves and interrupts and time limits are honoured
# between calls within a fraction of a second (the C engines run each chunk
# in one parallel region, where R cannot be called).
# `run_chunk(betas_chunk, state, final)` returns list(state, and optionally
# trace (rows of ESS and running log Z), sweeps, moments (rows per step)).
ais_run_chunks <- function(betas, state, progress, run_chunk, step_cost = 0) {
  K <- length(betas) - 1L
  budget <- logz_option("chunk_work", 5e7)
  max_steps <- if (step_cost > 0) max(1, floor(budget / step_cost)) else K
  n_chunks <- min(K, max(100L, ceiling(K / max_steps)))
  ends <- unique(round(seq(0, K, length.out = n_chunks + 1L)))
  trace <- matrix(NA_real_, K, 2L)
  moments <- NULL
  sweeps <- 0
  pb <- progress_bar(progress, K)
  for (i in seq_len(length(ends) - 1L)) {
    rows <- (ends[i] + 1L):ends[i + 1L]
    res <- run_chunk(betas[c(ends[i] + 1L, rows + 1L)], state, final = ends[i + 1L] == K)
    state <- res$state
    if (!is.null(res$trace)) trace[rows, ] <- res$trace
    if (!is.null(res$moments)) {
      if (is.null(moments)) moments <- matrix(NA_real_, K, ncol(res$moments))
      moments[rows, ] <- res$moments
    }
    if (!is.null(res$sweeps)) sweeps <- sweeps + res$sweeps
    pb$update(ends[i + 1L])
  }
  pb$close()
  list(state = state, trace = trace, sweeps = sweeps, moments = moments)
}

# Summaries of M log importance weights: the estimate, its delta-method se,
# Salakhutdinov & Murray's 3-sd bounds and the ESS.
ais_summary <- function(log_w, log_z0) {
  M <- length(log_w)
  mx <- max(log_w)
  w <- exp(log_w - mx)
  mw <- mean(w)
  rel_sd <- if (M > 1L) stats::sd(w) / mw else NA_real_
  log_z <- log_z0 + mx + log(mw)
  rel <- 3 * rel_sd / sqrt(M)
  # when 3 sd of Z-hat exceed Z-hat, log(Z-hat - 3 sd) is -Inf: use the
  # delta-method (log-normal) bound log Z-hat - 3 se instead, and say so
  delta <- !is.na(rel) && rel >= 1
  list(log_z = log_z, se = rel_sd / sqrt(M),
       bounds = c(lower = if (is.na(rel)) NA_real_ else if (delta) log_z - rel else log_z + log1p(-rel),
                  upper = log_z + log1p(rel)),
       bounds_method = if (delta) "delta" else "sm08",
       ess = sum(w)^2 / sum(w^2))
}

new_ais_result <- function(log_w, log_z0, schedule, trace, sweeps, n_chains, time, seed,
                           call, method = "AIS") {
  s <- ais_summary(log_w, log_z0)
  K <- length(schedule) - 1L
  diagnostics <- data.frame(step = seq_len(K), beta = as.double(schedule)[-1],
                            ess = trace[, 1], log_z = trace[, 2])
  wd <- weight_diagnostics(log_w)
  out <- new_logz_estimate(list(
    log_z = s$log_z, se = s$se, bounds = s$bounds, ess = s$ess, log_weights = log_w,
    log_z0 = log_z0, schedule = schedule, method = method, time = time,
    counts = c(gibbs_sweeps = sweeps * n_chains, chains = n_chains, steps = K),
    diagnostics = diagnostics, seed = seed, call = call,
    bounds_method = s$bounds_method, ess_ratio = wd$ess_ratio, khat = wd$khat,
    se_note = if (n_chains < 2L) "one chain; use n_chains >= 2",
    flags = weight_flags(wd)), "logz_ais")
  warn_unreliable(out)
}

# The visible biases of the base (see resolve_base() in R/base.R).
rbm_base_bias <- function(model, base) resolve_base(model, base)$bias

#' @export
print.logz_ais <- function(x, ...) {
  check_estimate(x, "x", fields = TRUE)
  check_dots_used(...)
  cat(sprintf("<logz_ais> %s estimate of log Z\n", x$method))
  cat(sprintf("  %s\n", format_log_z(x)))
  if (all(is.finite(x$bounds)))
    cat(sprintf("  3-sd bounds [%.4f, %.4f]%s\n", x$bounds[[1]], x$bounds[[2]],
                if (identical(x$bounds_method, "delta"))
                  " (lower: log Z - 3 se; the 3-sd interval of Z reaches 0)" else ""))
  cat(sprintf("  %d chains, %d steps (%s schedule); ESS %.1f of %d (ESS/M %.2f)%s\n",
              x$counts[["chains"]], x$counts[["steps"]], attr(x$schedule, "name"), x$ess,
              x$counts[["chains"]], x$ess / x$counts[["chains"]],
              if (is.null(x$khat) || is.na(x$khat)) "" else sprintf(", Pareto k-hat %.2f", x$khat)))
  cat(sprintf("  %s Gibbs sweeps in %.2f s%s\n", format(x$counts[["gibbs_sweeps"]], big.mark = ","),
              x$time, pieces_note(x)))
  cat(pilot_line(x$schedule))   # R/schedule_pilot.R
  cat(base_line(x))
  print_flags(x)
  invisible(x)
}

#' Plot an AIS run
#'
#' @param x a `logz_ais` result.
#' @param type `"ess"` (ESS of the on-the-fly weights as a fraction of the M
#'   chains against beta, with the 0.1 line under which the weights are
#'   unreliable), `"log_z"` (running estimate of log \eqn{Z_\beta} in nats
#'   against beta, with the final 3-sd bounds), `"weights"` (histogram of the
#'   final log weights relative to their maximum), `"schedule"` (beta against
#'   step) or `"estimate"` (see [plot.logz_estimate()]).
#' @param main the title; `NULL` for the default (method and key figures).
#' @param ... graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' m <- rbm(matrix(rnorm(40, sd = 0.3), 10, 4))
#' fit <- ais(m, schedule_linear(200), n_chains = 50, progress = FALSE)
#' plot(fit, type = "ess")
#' plot(fit, type = "log_z")
#' @export
plot.logz_ais <- function(x, type = c("ess", "log_z", "weights", "schedule", "estimate"),
                          main = NULL, ...) {
  check_estimate(x, "x", fields = TRUE)
  type <- match_arg(type, "type")
  d <- x$diagnostics
  M <- x$counts[["chains"]]
  switch(type,
    ess = {
      plot(d$beta, d$ess / M, type = "n", ylim = c(0, 1), xlab = expression(beta),
           ylab = "ESS / M (on-the-fly weights)",
           main = or_default(main, sprintf("%s: effective sample size (M = %d chains)",
                                           x$method, M)), ...)
      graphics::lines(d$beta, d$ess / M)
      graphics::abline(h = 0.1, lty = 2, col = "red")
      legend_free(list(list(x = d$beta, y = d$ess / M), list(h = 0.1)),   # R/plot_legend.R
                  c("ESS / M", "0.1 (unreliable below)"), lty = c(1, 2), col = c("black", "red"),
                  bty = "n")
    },
    log_z = {
      fin <- x$bounds[is.finite(x$bounds)]
      rng <- range(d$log_z, fin)
      plot(d$beta, d$log_z, type = "n", ylim = rng, xlab = expression(beta),
           ylab = expression("running estimate of log " * Z[beta] * " (nats)"),
           main = or_default(main, sprintf("%s: running log Z (final %.4f, se %.4f)", x$method,
                                           x$log_z, x$se)),
           ...)
      graphics::lines(d$beta, d$log_z)
      graphics::abline(h = fin, lty = 2, col = "grey40")
      legend_free(list(list(x = d$beta, y = d$log_z), list(h = fin)),
                  c("running estimate", "final 3-sd bounds"), lty = c(1, 2),
                  col = c("black", "grey40"), bty = "n")
    },
    weights = {
      lw <- x$log_weights - max(x$log_weights)
      graphics::hist(lw, breaks = "FD", xlab = "log weight - max log weight (nats)",
                     ylab = "chains",
                     main = or_default(main, sprintf("%s: final log weights (ESS %.1f of %d)",
                                                     x$method, x$ess, M)),
                     ...)
    },
    schedule = {
      plot(d$step, d$beta, type = "n", xlab = "step k", ylab = expression(beta[k]),
           main = or_default(main, sprintf("%s: %s schedule, %d steps", x$method,
                                          attr(x$schedule, "name"), nrow(d))), ...)
      graphics::lines(d$step, d$beta)
    },
    estimate = plot.logz_estimate(x, main = main, ...))
  invisible(x)
}
