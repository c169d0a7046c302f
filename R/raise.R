#' Reverse annealed importance sampling (RAISE)
#'
#' Estimates the log-likelihood of data points under an RBM from below, and so
#' log Z from above, by running AIS backwards from each data point (Burda,
#' Grosse & Salakhutdinov 2015). Together with [ais()], whose log Z estimate is
#' stochastically too low, it sandwiches the truth; see
#' `log_likelihood(method = "sandwich")`.
#'
#' The path and transitions are those of [ais()] (hidden units summed out,
#' \eqn{\log f_\beta(v) = (1-\beta) v'a_0 + \beta v'a + \sum_j
#' \mathrm{softplus}(\beta (b_j + v'W_j))}, block-Gibbs transitions \eqn{T_k}
#' at \eqn{\beta_k}, reversible on \eqn{v}). Let the forward chain be
#' \eqn{v_0 \sim p_0}, \eqn{v_k \sim T_k(\cdot | v_{k-1})} for \eqn{k = 1..K};
#' its last state has the "annealed model" distribution \eqn{p_{ann}}. Each
#' RAISE chain starts at a test point, \eqn{v_K = v_{test}}, and draws
#' \eqn{v_{k-1} \sim T_k(\cdot | v_k)} for \eqn{k = K..1} (the first half of
#' the first transition is \eqn{h_K \sim p_K(h | v_{test})}). Importance
#' sampling of the forward chain with this reverse chain as proposal gives
#' \deqn{\hat p(v_{test}) = p_0(v_0) \prod_{k=1}^K \frac{f_k(v_k)}{f_k(v_{k-1})}
#'   = \frac{f_K(v_{test})}{Z_0} \prod_{k=1}^K \frac{f_{k-1}(v_{k-1})}{f_k(v_{k-1})},}{p_hat(v_test) = p_0(v_0) prod_k f_k(v_k) / f_k(v_{k-1}) = f_K(v_test) / Z_0 * prod_k f_{k-1}(v_{k-1}) / f_k(v_{k-1}),}
#' with \eqn{E[\hat p(v_{test})] = p_{ann}(v_{test})} exactly; by Jensen,
#' \eqn{E[\log \hat p] \le \log p_{ann}(v_{test})}. The weights are derived
#' here from the reversal identity \eqn{\tilde T_k(x'|x) f_k(x) = T_k(x|x')
#' f_k(x')} rather than copied from the paper (a published correction, Upadhya &
#' Sastry 2015 Eq. 10, notes a typo in the original weights); they are the joint
#' space weights of Burda et al. Rao-Blackwellized over the hidden units, since
#' \eqn{f_K(v, h_K)/p_K(h_K | v) = f_K(v)}. The tests check them by
#' \eqn{\sum_v E[\hat p(v)] = 1} on a model small enough to enumerate, and the
#' sandwich against exact log Z.
#'
#' **What it bounds.** The bound is on the annealed model \eqn{p_{ann}}, not
#' on the model \eqn{p}. The implied log Z is therefore above the truth on
#' average only where \eqn{p_{ann}} fits the examples no better than \eqn{p}:
#' \eqn{E_q[\log p_{ann}(v) - \log p(v)] = KL(q \| p) - KL(q \| p_{ann})},
#' which is \eqn{\le 0} for examples drawn from the model itself (\eqn{q =
#' p}), but can be positive for real data when the model has mass that a short
#' annealing run does not reach (e.g. spurious modes of a PCD-trained RBM).
#' Then RAISE's implied log Z falls below the truth, as AIS's does. A longer
#' schedule moves \eqn{p_{ann}} to \eqn{p}.
#'
#' With `n_chains` chains per example, the per-example estimate is
#' \eqn{\log \mathrm{mean}_c\, \hat p_c(v)}, a stochastic lower bound of
#' \eqn{\log p(v)}; the implied \eqn{\log Z_i = -F(v_i) - \log \hat p(v_i)} is
#' biased upward.
#'
#' @param model an [rbm()].
#' @param data 0/1 matrix or data frame with `n_visible` columns (or one 0/1
#'   vector): the test points.
#' @param schedule a [logz_schedule][schedule] (or numeric vector of betas from
#'   0 to 1); it is run from 1 down to 0. `NULL` (the default): the shape
#'   (linear or SM08) chosen by forward pilots of [schedule_pilot()] within a
#'   budget of 14,500 steps for all `n_chains * nrow(data)` chains, as
#'   [ais()] does (see its "The default schedule").
#' @param n_chains number of RAISE chains per example (>= 1).
#' @param sweeps_per_step Gibbs sweeps per transition (>= 1).
#' @param base the base distribution, as in [ais()] (default: the model's
#'   `base_rate`, else the model-derived base; see [logz_base]); recorded in
#'   the result's `base` field.
#' @param threads OpenMP threads for the per-unit work.
#' @param progress show a progress bar.
#' @param workers `NULL` or the number of pieces to split the data points
#'   into, run through the active [future::plan()] and merged exactly (see
#'   [scale_out]).
#' @param ... further arguments for methods.
#' @return An object of class `c("logz_raise", "logz_estimate")` (see
#'   [logz_estimate]) with, besides the common fields:
#' \describe{
#'   \item{`log_z`}{the implied (upward-biased) estimate of log Z,
#'     `mean(-free_energy(model, data)) - log_likelihood`.}
#'   \item{`se`}{standard error of `log_z` over the examples (NA for one).}
#'   \item{`log_likelihood`}{the stochastic lower bound of the average
#'     log-likelihood of `data` (nats per example).}
#'   \item{`log_p`}{per-example lower bounds \eqn{\log \hat p(v_i)}.}
#'   \item{`log_weights`}{`n_chains` x `nrow(data)` matrix of per-chain
#'     \eqn{\log \hat p}.}
#'   \item{`log_z0`, `schedule`}{the base's log Z and the schedule.}
#'   \item{`diagnostics`}{data frame: `example`, `log_p`, `log_z` (implied per
#'     example), `ess` (of the chains' \eqn{\hat p} for that example), `se`
#'     (the Monte Carlo standard error of that example's \eqn{\log \hat p} over
#'     its `n_chains` chains, by the delta method:
#'     \eqn{\mathrm{sd}(w) / (\sqrt{n}\,\bar w) = \sqrt{(n/\mathrm{ESS} - 1)/(n - 1)}}
#'     for the chains' weights \eqn{w = \hat p}; NA for one chain).}
#'   \item{`counts`}{`gibbs_sweeps`, `chains`, `examples`, `steps`.}
#'   \item{`ess_ratio`}{mean over the examples of ESS / `n_chains`; below
#'     0.1 it is flagged in `flags` with a warning (see [logz_reliability]).}
#' }
#' @section Errors: `model` not an rbm; bad `data` (NA, non-binary, wrong
#'   number of columns); a bad `schedule`; `n_chains`, `sweeps_per_step`,
#'   `threads` not positive whole numbers; a bad `base`.
#' @references
#' * Burda, Y., Grosse, R. B. and Salakhutdinov, R. (2015). Accurate and conservative
#'   estimates of MRF log-likelihood using reverse annealing. AISTATS.
#' * Upadhya, V. and Sastry, P. S. (2015), Eq. 10 (correction).
#' @seealso [ais()], [log_likelihood()]
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 10, epochs = 2, progress = FALSE)
#' r <- raise(m, mnist$x[501:520, ], schedule_linear(200), n_chains = 5, progress = FALSE)
#' r
#' exact_log_z(m)
#' @export
raise <- function(model, ...) UseMethod("raise")

#' @export
raise.default <- function(model, ...) {
  stop_no_call(sprintf("raise() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

#' @rdname raise
#' @export
raise.rbm <- function(model, data, schedule = NULL, n_chains = 10L,
                      sweeps_per_step = 1L, base = NULL, threads = 1L,
                      progress = interactive(), workers = NULL, ...) {
  check_dots_used(...)
  call <- match.call()
  validate_rbm(model)
  data <- as_binary_matrix(data, "data", n_col = model$n_visible)
  if (!is.null(schedule)) schedule <- as_schedule(schedule)
  n_chains <- check_chains(n_chains, 8 * (model$n_visible + model$n_hidden) * nrow(data))
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  seed <- rng_state()
  base <- resolve_base(model, base, threads)   # R/base.R (may run a Gibbs pilot)
  if (is.null(schedule))
    schedule <- schedule_pilot(model, rbm_default_K, n_chains * nrow(data), base = base,
                               sweeps_per_step = sweeps_per_step, threads = threads)
  a0 <- base$bias
  t0 <- proc.time()[["elapsed"]]
  N <- nrow(data)
  pieces <- resolve_pieces(workers, N)
  if (pieces > 1L) {
    rows <- split(seq_len(N), rep(seq_len(pieces), piece_sizes(N, pieces)))
    parts <- run_pieces(N, pieces, function(size, i)
      raise.rbm(model, data[rows[[i]], , drop = FALSE], schedule, n_chains, sweeps_per_step,
                base, threads, FALSE, workers = 1L), progress)
    out <- new_raise_result(
      log_p = unlist(lapply(parts, `[[`, "log_p")),
      log_z_i = unlist(lapply(parts, function(p) p$diagnostics$log_z)),
      ess = unlist(lapply(parts, function(p) p$diagnostics$ess)),
      log_weights = do.call(cbind, lapply(parts, `[[`, "log_weights")),
      log_z0 = parts[[1]]$log_z0, schedule = schedule,
      sweeps = sum(vapply(parts, function(p) p$counts[["gibbs_sweeps"]], numeric(1))),
      n_chains = n_chains, time = proc.time()[["elapsed"]] - t0, seed = seed, call = call)
    out$pieces <- pieces
    return(with_base(out, base))
  }

  M <- N * n_chains
  betas <- rev(as.double(schedule))
  K <- length(betas) - 1L
  log_z0 <- sum(softplus(a0)) + model$n_hidden * log(2)
  mlist <- list(W = model$W, a = model$a, b = model$b, a0 = a0)
  # chains of example i are columns (i - 1) * n_chains + 1:n_chains; the
  # first chunk replicates each example into its n_chains columns
  state <- list(V = t(data), copies = n_chains, log_w = numeric(M), streams = rng_streams(M))
  control <- list(threads = threads, sweeps = sweeps_per_step)
  state <- ais_run_chunks(betas, state, progress, function(b, state, final) {
    res <- raise_rbm_chunk(mlist, b, state, control)
    list(state = list(V = res$V, log_w = res$log_w, streams = res$streams))
  }, step_cost = rbm_step_cost(M, sweeps_per_step, model))$state

  neg_f <- -free_energy(model, data)
  # per chain: log p_hat = log f_K(v) - log Z_0 - log_w (log f_1 = -F)
  lw <- matrix(rep(neg_f, each = n_chains) - log_z0 - state$log_w, n_chains, N)
  log_p <- apply(lw, 2L, function(x) log_sum_exp(x) - log(length(x)))
  ess <- apply(lw, 2L, function(x) {
    w <- exp(x - max(x))
    sum(w)^2 / sum(w^2)
  })
  with_base(new_raise_result(log_p, neg_f - log_p, ess, lw, log_z0, schedule,
                             sweeps = K * sweeps_per_step * M, n_chains = n_chains,
                             time = proc.time()[["elapsed"]] - t0, seed = seed, call = call),
            base)
}
