#' Annealing schedule chosen by a pilot run
#'
#' Runs a short AIS pilot of each candidate shape on `model` and returns the
#' shape whose pilot log weights have the smallest variance (or, with
#' `criterion = "mean"`, the largest mean), at the length that keeps the pilot
#' and the main run within one budget.
#'
#' @section Why this rule: under log-normal weights
#'   \eqn{\mathrm{ESS}/M \approx \exp(-\mathrm{Var}[\log w])} and, under
#'   perfect transitions, \eqn{\mathrm{Var}[\log w] \approx J[b]/K} (Kiwaki
#'   2015, Eq. 7), so the ranking of two shapes at the pilot's length predicts
#'   their ranking at the full length; the pilot also sees how well the chains
#'   keep up with each shape, which the theory leaves out. The mean log weight
#'   (`criterion = "mean"`) estimates \eqn{E[\log w] = \log Z - \log Z_0 - D},
#'   with \eqn{D \ge 0} the Kullback-Leibler divergence between the forward
#'   chains' path and the reverse one (Neal 2001; Grosse et al. 2015), a
#'   stochastic lower bound whose gap is \eqn{\mathrm{Var}[\log w]/2} under
#'   log-normal weights; it is less sensitive to a few extreme chains. On
#'   trained RBMs neither premise holds exactly: the log weights have heavy
#'   tails, and chains that lag behind \eqn{\beta} near 1 make
#'   \eqn{K \mathrm{Var}[\log w]} grow with \eqn{K}, faster for equal steps
#'   than for SM08's fine ones there, so the ranking at a tenth of the length
#'   can differ from the full run's; where the two shapes differ by much the
#'   short pilots rank them as the full runs do.
#'
#' The budget is `K * n_chains` chain-steps (`K * n_chains * sweeps_per_step`
#' Gibbs sweeps), the cost of `ais(model, schedule_linear(K), n_chains)`.
#' Each pilot runs `round(pilot_fraction * K)` steps with `pilot_chains`
#' chains; their cost, divided by `n_chains`, is taken off the returned
#' schedule's steps.
#'
#' @param model an [rbm()] or an [ising] model.
#' @param K the budget in steps of a run of `n_chains` chains (>= 10).
#' @param n_chains number of chains of the main run the budget is shared with
#'   (>= 1; for [raise()] the chains of all examples together).
#' @param shapes the candidate shapes, two or more of `"linear"`, `"sm08"`,
#'   `"sigmoid"`, `"geometric"` (the constructors of [schedule] with their
#'   default shape parameters).
#' @param pilot_fraction each pilot's steps as a fraction of `K`, in (0, 0.5].
#' @param pilot_chains chains of each pilot (>= 2).
#' @param base the AIS base distribution, as in [ais()].
#' @param sweeps_per_step Gibbs sweeps per step, pilot and main run alike.
#' @param threads OpenMP threads for the pilots.
#' @param criterion `"variance"` (default): keep the shape whose pilot log
#'   weights have the smallest variance; `"mean"`: the largest mean.
#' @return A [logz_schedule][schedule] of the chosen shape (named after it)
#'   with attributes `pilot`, a data frame with one row per shape (`shape`,
#'   `mean_log_w`, `var_log_w`, `ess` of `pilot_chains`, `steps`, `sweeps`),
#'   `chosen` (the shape), `criterion`, `pilot_sweeps` (Gibbs sweeps spent by
#'   the pilots) and `budget`
#'   (`K * n_chains * sweeps_per_step`; AIS makes one sweep fewer than steps
#'   per chain, so pilots and main run together use slightly less).
#' @section Errors: `model` not an rbm or ising model; `K` below 10 or not a
#'   whole number; `n_chains`, `pilot_chains`, `sweeps_per_step` or `threads`
#'   not positive whole numbers; an unknown or single shape; an unknown
#'   `criterion`; `pilot_fraction`
#'   outside (0, 0.5]; a pilot so costly that fewer than `K / 2` steps would be
#'   left for the main run.
#' @references
#' * Kiwaki, T. (2015). Variational optimization of annealing schedules.
#'   arXiv:1502.05313 (Eq. 7).
#' * Neal, R. M. (2001). Annealed importance sampling. Statistics and Computing 11,
#'   125-139.
#' * Grosse, R. B., Ghahramani, Z. and Adams, R. P. (2015). Sandwiching the marginal
#'   likelihood using bidirectional Monte Carlo. arXiv:1511.02543.
#' * Salakhutdinov, R. and Murray, I. (2008). On the quantitative analysis of deep
#'   belief networks. ICML.
#' @seealso [ais()] (whose default for RBMs is this choice), [schedule_varopt()]
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 10, epochs = 2, progress = FALSE)
#' s <- schedule_pilot(m, K = 1000, n_chains = 50)
#' s
#' attr(s, "pilot")
#' @export
schedule_pilot <- function(model, K = 14500L, n_chains = 100L, shapes = c("linear", "sm08"),
                           pilot_fraction = 0.1, pilot_chains = 20L, base = NULL,
                           sweeps_per_step = 1L, threads = 1L,
                           criterion = c("variance", "mean")) {
  check_schedule_model(model)
  criterion <- match_arg(criterion, "criterion")
  K <- check_count(K, "K", min = 10L)
  n_chains <- check_count(n_chains, "n_chains")
  if (!is.character(shapes) || length(shapes) < 2L || anyNA(shapes) ||
      !all(shapes %in% names(pilot_shapes)) || anyDuplicated(shapes))
    stop_no_call(sprintf("`shapes` must name two or more different shapes among %s, not %s.",
                         paste0('"', names(pilot_shapes), '"', collapse = ", "),
                         describe(shapes)))
  pilot_fraction <- check_number(pilot_fraction, "pilot_fraction", lower = 0, upper = 0.5,
                                 lower_open = TRUE)
  pilot_chains <- check_count(pilot_chains, "pilot_chains", min = 2L)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  Kp <- max(3L, as.integer(round(pilot_fraction * K)))
  pilot_steps <- as.double(length(shapes)) * Kp * pilot_chains
  K_main <- K - as.integer(ceiling(pilot_steps / n_chains))
  if (K_main < K / 2)
    stop_no_call(sprintf(paste0("The pilots (%d shapes x %d steps x %d chains) would leave %d of ",
                                "`K` = %d steps for %d chains; lower `pilot_fraction` or ",
                                "`pilot_chains`, or raise `K`."), length(shapes), Kp,
                         pilot_chains, K_main, K, n_chains))
  run_pilot <- function(shape) {
    s <- pilot_shapes[[shape]](Kp)
    fit <- if (is_rbm(model))
      ais.rbm(model, s, n_chains = pilot_chains, sweeps_per_step = sweeps_per_step, base = base,
              threads = threads, progress = FALSE)
    else ais(model, s, n_chains = pilot_chains, sweeps_per_step = sweeps_per_step, base = base,
             progress = FALSE)
    data.frame(shape = shape, mean_log_w = mean(fit$log_weights),
               var_log_w = stats::var(fit$log_weights), ess = fit$ess,
               steps = Kp, sweeps = fit$counts[["gibbs_sweeps"]])
  }
  # the pilots are short on purpose: their weights are expected to be uneven
  pilot <- suppressWarnings(do.call(rbind, lapply(shapes, run_pilot)))
  chosen <- shapes[if (criterion == "mean") which.max(pilot$mean_log_w) else
                      which.min(pilot$var_log_w)]
  out <- pilot_shapes[[chosen]](K_main)
  attr(out, "pilot") <- pilot
  attr(out, "chosen") <- chosen
  attr(out, "criterion") <- criterion
  attr(out, "pilot_sweeps") <- sum(pilot$sweeps)
  attr(out, "budget") <- as.double(K) * n_chains * sweeps_per_step
  out
}

pilot_shapes <- list(linear = function(K) schedule_linear(K),
                     sm08 = function(K) schedule_sm08(K),
                     sigmoid = function(K) schedule_sigmoid(K),
                     geometric = function(K) schedule_geometric(K))

# One line for print methods: which shape the pilot chose and what it cost.
pilot_line <- function(schedule) {
  p <- attr(schedule, "pilot")
  if (is.null(attr(schedule, "chosen")) || !is.data.frame(p)) return("")
  by_mean <- identical(attr(schedule, "criterion"), "mean")
  sprintf("  schedule chosen by pilot: %s (%s %s; pilots %s sweeps, %.1f%% of the budget)\n",
          attr(schedule, "chosen"), if (by_mean) "mean log w" else "Var[log w]",
          paste(sprintf(if (by_mean) "%s %.4g" else "%s %.3g", p$shape,
                        if (by_mean) p$mean_log_w else p$var_log_w), collapse = ", "),
          format(attr(schedule, "pilot_sweeps"), big.mark = ","),
          100 * attr(schedule, "pilot_sweeps") / attr(schedule, "budget"))
}

# The budget of a default ais() / raise() call on an RBM, in steps: the length
# of Salakhutdinov & Murray's schedule.
rbm_default_K <- 14500L
