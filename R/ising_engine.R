# Annealed importance sampling for Ising models (ais.ising) and its base field.

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
#' @references Neal, R. M. (2001). Annealed importance sampling. Statistics and
#'   Computing 11, 125-139.
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

# The base fields (see resolve_base() in R/base.R).
ising_base_field <- function(model, base) {
  check_ising(model)
  resolve_base(model, base)$bias
}

# The state of M chains before the first chunk: states drawn from the base in
# C, zero log weights, fresh streams.
ising_ais_state <- function(M) list(X = NULL, log_w = numeric(M), streams = rng_streams(M))

# One chunk of Ising AIS (src/ising.c): the steps betas[1] -> ... ->
# betas[L + 1] for all chains. cm: ising_c_model() with order and a0 (the base
# field); state: list(X = NULL or n x M chain states, log_w (M), streams (6 x
# M)); control: list(threads, sweeps (per step), final (no transition after the
# last step), log_z0). Returns list(X, log_w, streams, trace (L x 2: ESS and
# running log Z), sweeps (per chain)).
ising_ais_chunk <- function(cm, betas, state, control) {
  cm <- internal_ising_model(cm, order = TRUE, a0 = TRUE)
  M <- length(state$log_w)
  state <- list(X = internal_chains(state$X, "X", cm$n, M),
                log_w = internal_double(state$log_w, "log_w"),
                streams = internal_streams(state$streams, M))
  control <- internal_chunk_control(control)
  .Call(C_ising_ais, cm, internal_double(betas, "betas"), state, control)
}
