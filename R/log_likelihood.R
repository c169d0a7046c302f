# log_likelihood() of an RBM on data, with an exact or estimated log Z.

#' Average log-likelihood of data under an RBM
#'
#' `mean(-free_energy(model, data)) - log_z`: the average log-probability per
#' example, in nats.
#'
#' With `method = "sandwich"`, log Z is estimated twice: by [ais()] (whose
#' estimate is stochastically too low, so the log-likelihood it implies is an
#' upper estimate) and by [raise()] from the examples themselves (a stochastic
#' lower bound of the log-likelihood), as Burda, Grosse & Salakhutdinov (2015)
#' propose. The pair brackets the truth on average when the annealed model
#' (the distribution of AIS's forward chain) fits `data` no worse than the model
#' does, which holds for data drawn from the model and usually for real data
#' with a long enough schedule, but not always: with a short schedule and a model
#' with mass far from the data, RAISE's bound can exceed the true
#' log-likelihood (see [raise()], "What it bounds").
#'
#' @param model an `rbm`.
#' @param data 0/1 matrix or data frame with `n_visible` columns.
#' @param log_z the log partition function: a number, or a `logz_estimate`
#'   (e.g. from [ais()]); when missing, [exact_log_z()] is used (small models
#'   only) with `method = "plain"`, and [ais()] is run with `method =
#'   "sandwich"` (an AIS estimate given here is used instead).
#' @param per_example if `TRUE`, return one log-likelihood per row instead of
#'   the average (with `method = "sandwich"`, the interval is then a matrix with
#'   one row per example).
#' @param method `"plain"` (one log Z) or `"sandwich"` (AIS and RAISE).
#' @param ... with `method = "sandwich"`: arguments for [ais()] and [raise()]
#'   (`schedule`, `n_chains`, `sweeps_per_step`, `base`, `threads`, `progress`;
#'   without `schedule`, RAISE runs the schedule AIS's pilot chose, see
#'   [schedule_pilot()]);
#'   `n_chains` is the number of AIS chains and `raise_chains` (default 10) the
#'   number of RAISE chains per example.
#' @return A number (or a vector with `per_example = TRUE`). When `log_z` is an
#'   AIS estimate with `bounds`, the attribute `"bounds"` gives the matching
#'   interval of the average log-likelihood (the lower log Z bound gives the upper
#'   log-likelihood bound). With `method = "sandwich"`, the number is the
#'   AIS-based value and the attributes are `"interval"` (`c(lower = <RAISE>,
#'   upper = <AIS>)`, or an `nrow(data)` x 2 matrix with columns `lower`,
#'   `upper` when `per_example = TRUE`), `"crossed"` (one value, or one per
#'   example with `per_example = TRUE`), `"flags"`, `"ais"` and `"raise"` (the
#'   two fits). Both ends are stochastic: they bracket the truth
#'   on average, and a single pair can cross when both are within their Monte
#'   Carlo error of the truth. An inverted interval is never returned: when the
#'   RAISE lower end comes out above the AIS upper end, `"crossed"` is `TRUE`,
#'   the interval is the union of the two ends widened by 2 se each
#'   (\eqn{[\min(l - 2 se_l, u - 2 se_u), \max(l + 2 se_l, u + 2 se_u)]}, with
#'   the AIS se as \eqn{se_u}; \eqn{se_l} is the RAISE se over examples for the
#'   average, and for each example with `per_example = TRUE` that example's own
#'   Monte Carlo se over its RAISE chains, the `se` column of the RAISE fit's
#'   `diagnostics`), and a "sandwich crossed" flag
#'   (in `"flags"`, warned with class `logz_unreliable`) says by how much and
#'   whether the crossing lies within 3 combined se (noise) or beyond (a bias;
#'   see [logz_reliability]).
#' @section Errors: bad `data` (see [free_energy()]); `log_z` not a finite
#'   number or estimate; a missing `log_z` for a model too large to enumerate;
#'   with `method = "sandwich"`, a `log_z` that is not an [ais()] estimate.
#' @references
#' * Burda, Y., Grosse, R. B. and Salakhutdinov, R. (2015). Accurate and conservative
#'   estimates of MRF log-likelihood using reverse annealing. AISTATS.
#' @examples
#' set.seed(1)
#' m <- rbm_train(mnist$x[1:500, ], n_hidden = 10, epochs = 2, progress = FALSE)
#' log_likelihood(m, mnist$x[501:600, ])
#' log_likelihood(m, mnist$x[501:510, ], method = "sandwich",
#'                schedule = schedule_linear(100), n_chains = 50, progress = FALSE)
#' @export
log_likelihood <- function(model, data, log_z, per_example = FALSE,
                           method = c("plain", "sandwich"), ...) {
  check_rbm(model)
  method <- match_arg(method, "method")
  if (method == "plain") check_dots_used(...)
  check_own_argument_names(...names(), c("per_example", "log_z", "data"), "log_likelihood")
  check_flag(per_example, "per_example")
  if (method == "sandwich")
    return(log_likelihood_sandwich(model, data, if (missing(log_z)) NULL else log_z,
                                   per_example = per_example, ...))
  bounds <- NULL
  if (missing(log_z)) {
    log_z <- exact_log_z(model)
  } else if (inherits(log_z, "logz_estimate")) {
    bounds <- log_z$bounds
    log_z <- log_z$log_z
  }
  check_number(log_z, "log_z")
  ll <- -free_energy(model, data) - log_z
  if (per_example) return(ll)
  out <- mean(ll)
  if (!is.null(bounds)) attr(out, "bounds") <- c(lower = out + log_z - bounds[[2]],
                                                 upper = out + log_z - bounds[[1]])
  out
}

log_likelihood_sandwich <- function(model, data, log_z, per_example = FALSE,
                                    schedule = NULL, n_chains = 100L,
                                    raise_chains = 10L, ...) {
  data <- as_binary_matrix(data, "data", n_col = model$n_visible)
  fit_ais <- if (is.null(log_z)) {
    ais(model, schedule = schedule, n_chains = n_chains, ...)
  } else if (inherits(log_z, "logz_ais")) {
    log_z
  } else {
    stop_no_call(sprintf(paste0("`log_z` must be an ais() estimate (or missing) with ",
                                "`method = \"sandwich\"`, not %s."), describe(log_z)))
  }
  # RAISE runs the schedule AIS ran (chosen by AIS's pilot by default)
  if (is.null(schedule)) schedule <- fit_ais$schedule
  fit_raise <- raise(model, data, schedule = schedule, n_chains = raise_chains, ...)
  neg_f <- -free_energy(model, data)
  avg <- sandwich_check(fit_raise$log_likelihood, mean(neg_f) - fit_ais$log_z, fit_raise$se,
                        fit_ais$se)
  if (per_example) {
    upper <- neg_f - fit_ais$log_z
    # per example: the RAISE end's own Monte Carlo se over its chains (R/raise.R),
    # and the AIS se (the upper ends share the one log Z estimate)
    pe <- sandwich_check(fit_raise$log_p, upper, fit_raise$diagnostics$se, fit_ais$se)
    interval <- pe$interval
    crossed <- pe$crossed
  } else {
    upper <- mean(neg_f) - fit_ais$log_z
    interval <- avg$interval[1, ]
    crossed <- avg$crossed
  }
  structure(upper, interval = interval, crossed = crossed, flags = avg$flag, ais = fit_ais,
            raise = fit_raise)
}
