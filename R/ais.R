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
#'   every model. SM08's steps are 100 times larger at small \eqn{\beta} than
#'   near 1, which suits a model whose curvature \eqn{g(\beta)} of
#'   \eqn{\log Z(\beta)} sits near \eqn{\beta = 1} and hurts one where it is
#'   large at small \eqn{\beta}. The pilot picks the shape whose log weights
#'   vary less; `vignette("schedules", package = "logz")` says when to give
#'   another schedule. Give a schedule to skip the pilot.
#'
#' @section Errors: `model` not a supported model; a schedule that does not
#'   run from 0 to 1, leaves `[0, 1]` or decreases; `n_chains`, `sweeps_per_step` or `threads`
#'   not positive whole numbers; `n_chains` whose states need more than 16 GB
#'   (with the figure); a `base` of the wrong size or with couplings.
#' @references
#' * Neal, R. M. (2001). Annealed importance sampling. Statistics and Computing 11,
#'   125-139.
#' * Salakhutdinov, R. and Murray, I. (2008). On the quantitative analysis of deep
#'   belief networks. ICML.
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

#' AIS for Gaussian-process classification
#'
#' With `kernel = "slice"` (default), anneals from the GP prior
#' \eqn{N(f; 0, K)} (log Z = 0) to the posterior
#' along \eqn{N(f; 0, K) \prod_i \Phi(y_i f_i)^\beta}, with
#' `sweeps_per_step` elliptical slice sampling updates (Murray, Adams & MacKay
#' 2010) at each intermediate beta; the log weight of a chain gains
#' \eqn{(\beta_k - \beta_{k-1}) \sum_i \log\Phi(y_i f_i)}. Prior draws use a
#' symmetric square root of \eqn{K} (eigen-decomposition with round-off
#' negative eigenvalues set to zero), so near-singular RBF covariances are
#' fine. Each chain owns an MRG32k3a stream seeded from R's RNG: results are
#' reproducible under [set.seed()] and identical for any `threads`.
#'
#' With `kernel = "hmc"`, the baselines of Fraccaro et al. (2016, Section
#' 4.2): AIS with Hamiltonian Monte Carlo ([ais.function()]'s kernel, step
#' size and mass learnt in a pilot) in the coordinates \eqn{v} of
#' \eqn{f = A v}, \eqn{A = K^{1/2}}, where the prior is \eqn{N(0, I)} and
#' the target is \eqn{N(v; 0, I) \prod_i \Phi(y_i (Av)_i)} (the same
#' evidence), from the prior (`base = "prior"`, the geometric path) or from
#' EP's Gaussian approximation \eqn{q} (`base = "ep"`: in \eqn{v} its
#' precision is \eqn{I + A\,diag(\tilde\tau)A}, well conditioned however
#' near-singular \eqn{K} is).
#'
#' @inheritParams ais
#' @param kernel `"slice"` (elliptical slice sampling, C, threads) or
#'   `"hmc"` (Hamiltonian Monte Carlo in R-evaluated whitened coordinates).
#' @param base for `kernel = "hmc"`: `"prior"` or `"ep"` (EP's Gaussian
#'   approximation of the posterior, by [ep_log_z()]).
#' @param n_leapfrog leapfrog steps per HMC transition.
#' @param model a [gpc()] model.
#' @param schedule a schedule from 0 to 1 (default `schedule_geometric(1000)`,
#'   the geometric spacing the paper uses for its AIS baselines).
#' @return An object of class `c("logz_ais", "logz_estimate")` as for
#'   [ais()], with `counts` also holding `likelihood_evals` (slice-sampling
#'   likelihood evaluations); with `kernel = "hmc"` a
#'   `c("logz_ais_function", "logz_ais", "logz_estimate")` as [ais.function()]
#'   returns, whose `x` holds the final latent values \eqn{f} (one chain per
#'   row).
#' @section Errors: as [ais()]; `model` not a `gpc`; `base = "ep"` with
#'   `kernel = "slice"`; EP's errors for `base = "ep"`.
#' @references
#' * Murray, I., Adams, R. P. and MacKay, D. J. C. (2010). Elliptical slice sampling.
#'   AISTATS.
#' * Neal, R. M. (2001). Annealed importance sampling. Statistics and Computing 11,
#'   125-139.
#' * Fraccaro, M., Paquet, U. and Winther, O. (2016). An adaptive resample-move
#'   algorithm for estimating normalizing constants. arXiv 1604.01972, Section 4.2.
#' @seealso [gpc()], [arm()], [ep_log_z()]
#' @examples
#' d <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
#' m <- gpc(y ~ x, d, lengthscale = 1, amplitude = 2)
#' set.seed(1)
#' ais(m, schedule_geometric(100), n_chains = 50, progress = FALSE)
#' @export
ais.gpc <- function(model, schedule = schedule_geometric(1000L), n_chains = 100L,
                    sweeps_per_step = 1L, threads = 1L, progress = interactive(),
                    workers = NULL, kernel = c("slice", "hmc"), base = c("prior", "ep"),
                    n_leapfrog = 10L, ...) {
  check_dots_used(...)
  validate_model(model)
  call <- match.call()
  validate_gpc(model)
  kernel <- match_arg(kernel, "kernel")
  base <- match_arg(base, "base")
  if (kernel == "hmc")
    return(ais_gpc_hmc(model, base, schedule, n_chains, sweeps_per_step, n_leapfrog, progress,
                       call))
  if (base != "prior")
    stop_no_call(paste0("`base = \"ep\"` needs `kernel = \"hmc\"`: elliptical slice sampling ",
                        "anneals from the GP prior."))
  schedule <- as_schedule(schedule)
  n_chains <- check_chains(n_chains, 8 * 3 * model$n)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  pieces <- resolve_pieces(workers, n_chains)
  if (pieces > 1L)
    return(ais_pieces(n_chains, pieces, schedule, call, function(size)
      ais.gpc(model, schedule, size, sweeps_per_step, threads, FALSE, workers = 1L), progress))
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  e <- eigen(model$K, symmetric = TRUE)
  A <- e$vectors %*% (sqrt(pmax(e$values, 0)) * t(e$vectors))
  cm <- list(A = A, y = as.double(model$y))
  state <- list(F = NULL, log_w = numeric(n_chains), streams = rng_streams(n_chains))
  evals <- 0
  run <- ais_run_chunks(as.double(schedule), state, progress, function(b, state, final) {
    control <- list(threads = threads, sweeps = sweeps_per_step, final = final, log_z0 = 0)
    res <- gpc_ais_chunk(cm, b, state, control)
    evals <<- evals + res$evals
    list(state = list(F = res$F, log_w = res$log_w, streams = res$streams),
         trace = res$trace, sweeps = res$sweeps)
  }, step_cost = as.double(n_chains) * sweeps_per_step * 4 * length(model$y)^2)
  out <- new_ais_result(run$state$log_w, 0, schedule, run$trace, run$sweeps, n_chains,
                        time = proc.time()[["elapsed"]] - t0, seed = seed, call = call,
                        method = "AIS (elliptical slice)")
  out$counts <- c(out$counts, likelihood_evals = evals)
  out
}

#' Annealed importance sampling for Ising models
#'
#' Estimates log Z of an [ising] model by AIS (Neal 2001) on the path
#' \deqn{\log f_\beta(x) = \beta \sum_{(i,j)} w_{ij} x_i x_j + (1-\beta) a_0'x + \beta f'x}{log f_beta(x) = beta sum_edges w_ij x_i x_j + (1 - beta) a0'x + beta f'x}
#' from the independent model with fields \eqn{a_0} (\eqn{\log Z_0 =
#' \sum_i \log(e^{a_{0i} lo} + e^{a_{0i} hi})}) to the Ising model. Each chain
#' starts from the base; at step \eqn{k} its log weight gains
#' \eqn{(\beta_k - \beta_{k-1})(\sum w_{ij} x_i x_j + (f - a_0)'x)} and (for
#' \eqn{k < K}) it makes `sweeps_per_step` Gibbs sweeps at \eqn{\beta_k}
#' (checkerboard sweeps on bipartite graphs, see [gibbs_sample()]). Chains run
#' in C over `threads`, each on its own L'Ecuyer-CMRG stream seeded from R's
#' RNG, so `set.seed()` reproduces the result for any `threads`.
#'
#' @param model an [ising] model.
#' @param schedule a [logz_schedule][schedule] or numeric vector of betas from
#'   0 to 1 (default: 1000 linear steps).
#' @param n_chains number of independent AIS runs M (>= 1).
#' @param sweeps_per_step Gibbs sweeps at each intermediate beta (>= 1).
#' @param base the base distribution (see [logz_base]): `NULL` or `"field"`
#'   (the model's own fields without couplings, \eqn{a_0 = f}; the default),
#'   `"model"` (the moment-matched product of the model's marginals from a
#'   short Gibbs run), `"uniform"` (\eqn{a_0 = 0}), a [logz_base()], or a
#'   numeric vector \eqn{a_0} of length `n`. Recorded in the result's `base`
#'   field.
#' @param threads number of OpenMP threads (chains are split over them).
#' @param progress show a progress bar (default: in interactive sessions).
#' @param workers `NULL` or the number of pieces to split the chains into,
#'   run through the active [future::plan()] and merged exactly (see
#'   [scale_out]).
#' @param ... unused.
#' @return An object of class `c("logz_ais", "logz_estimate")`, as described
#'   in [ais()]: `log_z`, `se`, `bounds`, `ess`, `log_weights`, `log_z0`,
#'   `schedule`, `diagnostics` (per step: `step`, `beta`, `ess`, `log_z`),
#'   `counts` (`gibbs_sweeps`, `chains`, `steps`), `time`, `seed`, `call`.
#' @section Errors: `model` not an `ising`; a bad schedule; `n_chains`,
#'   `sweeps_per_step` or `threads` not positive whole numbers; `base` not
#'   one of the choices above or of the wrong length.
#' @references
#' * Neal, R. M. (2001). Annealed importance sampling. Statistics and Computing 11,
#'   125-139.
#' @seealso [ais()], [exact_log_z.ising()], [schedule_linear()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(6, 6, coupling = 0.4, field = 0.2)
#' fit <- ais(m, schedule_linear(200), n_chains = 50, progress = FALSE)
#' fit
#' exact_log_z(m)
#' plot(fit, type = "ess")
#' @export
ais.ising <- function(model, schedule = schedule_linear(1000L), n_chains = 100L,
                      sweeps_per_step = 1L, base = NULL, threads = 1L,
                      progress = interactive(), workers = NULL, ...) {
  check_dots_used(...)
  validate_model(model)
  call <- match.call()
  schedule <- as_schedule(schedule)
  n_chains <- check_chains(n_chains, 8 * model$n)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  seed <- rng_state()
  base <- resolve_base(model, base, threads)   # R/base.R (may run a Gibbs pilot)
  a0 <- base$bias
  pieces <- resolve_pieces(workers, n_chains)
  if (pieces > 1L)
    return(with_base(ais_pieces(n_chains, pieces, schedule, call, function(size)
      ais.ising(model, schedule, size, sweeps_per_step, base, threads, FALSE, workers = 1L),
      progress),
      base, seed))
  t0 <- proc.time()[["elapsed"]]

  v <- model$values
  log_z0 <- sum(a0 * v[1] + softplus(a0 * (v[2] - v[1])))
  betas <- as.double(schedule)
  K <- length(betas) - 1L
  cm <- ising_c_model(model, order = ising_sweep_order(model), a0 = a0)
  state <- ising_ais_state(n_chains)
  run <- ais_run_chunks(betas, state, progress, function(b, state, final) {
    control <- list(threads = threads, sweeps = sweeps_per_step, final = final,
                    log_z0 = log_z0)
    res <- ising_ais_chunk(cm, b, state, control)
    list(state = list(X = res$X, log_w = res$log_w, streams = res$streams),
         trace = res$trace, sweeps = res$sweeps)
  }, step_cost = as.double(n_chains) * sweeps_per_step * (8 * model$n + 2 * nrow(model$edges)))
  state <- run$state
  trace <- run$trace
  sweeps <- run$sweeps
  with_base(new_ais_result(state$log_w, log_z0, schedule, trace, sweeps, n_chains,
                           time = proc.time()[["elapsed"]] - t0, seed = seed, call = call), base)
}
