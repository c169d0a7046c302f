# Reliability of estimates: importance-weight diagnostics (ESS/M, Pareto k-hat),
# the flags they raise, the warning, and the reason an estimate has no se.

#' Reliability flags of log Z estimates
#'
#' Every [logz_estimate] carries `flags`, a character vector of the reasons the
#' estimate may be unreliable (each naming the threshold it crossed), and
#' `reliable = length(flags) == 0`. `print()` shows them. The check that sets a
#' flag raises an R warning of class `logz_unreliable` (the importance-weight
#' flags of one run share one warning; the mode checks warn only for an
#' estimate with no flag yet).
#'
#' **Importance weights** (AIS on every model type, RAISE, ARM). For the
#' \eqn{M} final log weights of an AIS run, `weight_diagnostics()` gives the
#' effective sample size \eqn{ESS = (\sum w)^2 / \sum w^2} of the normalised
#' weights, \eqn{ESS/M} (between \eqn{1/M} and 1), and the Pareto
#' \eqn{\hat k} of the upper tail of the weights (Vehtari, Simpson, Gelman,
#' Yao and Gabry 2024): a generalized Pareto distribution is fitted to the
#' largest \eqn{M_{tail} = \lceil\min(M/5, 3\sqrt M)\rceil} weights in excess
#' of the next largest by the method of Zhang & Stephens (2009), with the
#' weakly informative prior of Vehtari et al. that shrinks \eqn{\hat k}
#' towards 0.5 by \eqn{(M_{tail} \hat k + 5) / (M_{tail} + 10)}, as loo's
#' `psis()` does. `posterior::pareto_khat()` is used instead where the
#' installed posterior has it (version >= 1.5); `weight_diagnostics(method =
#' "logz")` forces the in-house fit. \eqn{\hat k} needs \eqn{M_{tail} \ge 5}
#' (\eqn{M \ge 25}); below that it is `NA` and not flagged.
#'
#' The thresholds, from loo and posterior:
#' \describe{
#'   \item{`ESS/M < 0.1`}{fewer than one chain in ten carries the estimate:
#'     the se itself is unreliable and log Z is likely too low (AIS
#'     underestimates log Z when the weights are degenerate).}
#'   \item{`Pareto k-hat > 0.7`}{the weights' variance is effectively
#'     infinite at this sample size: the mean converges too slowly for the
#'     central limit theorem and its se to be trusted (k-hat > 0.5 already
#'     means infinite variance; 0.7 is loo's practical limit).}
#' }
#' What to do: a longer schedule (more intermediate distributions, e.g.
#' [schedule_sm08()], [schedule_varopt()]), more Gibbs sweeps per step
#' (`sweeps_per_step`), a better base distribution (`base`), or more chains
#' (more chains lower the se but do not remove the bias of a poor schedule).
#' For RAISE the flag uses the mean ESS/M over the examples; for ARM the
#' smallest ESS/R_n over iterations (after expansion), for which more
#' `particles`, `move_steps` or a larger `i_max` help. ARM-reseed with
#' importance weights is also flagged when its fresh blocks lowered log Z by
#' more than 1 nat in total (see [arm()]).
#'
#' **Other flags.** GumbelMIP samples that stopped at the time or node limit
#' before being proved exact ("not exact within the time/node limit"): log Z
#' is then only bounded ([log_z_bounds()]). EP that did not converge. RTS
#' flags visit deficits, outlier chains and ladder drift (see [rts()]), and
#' the log Z it tracks during training a tracking visit deficit, lag or
#' large innovations (see
#' [rbm_train()], `track_log_z`). The
#' AIS/RAISE sandwich of [log_likelihood()] flags "sandwich crossed" when the
#' RAISE lower bound comes out above the AIS upper bound (saying whether by
#' less than 3 combined se, i.e. noise, or more). On RBMs with at most
#' 64 hidden units every annealing estimate is checked against a rigorous lower
#' bound from the hidden states of largest mass, and [ais()] also checks that
#' its final states visit those states in proportion to their known mass
#' ("mode bound" and "mode occupancy" flags; see [logz_base], "The mode
#' check"). Exact results
#' (enumeration, junction tree, A* and exact GumbelMIP samples) have no weight
#' flags.
#'
#' **No se.** Where an estimate has no standard error, `print()` says why and
#' how to get one (e.g. ARM with one run: `repeats = 4`; EP is deterministic:
#' `method = "ais"`).
#'
#' **Turning the warning off.** The flags are always recorded; every one of
#' these warnings (and that of [ep_log_z()] when EP does not converge) is
#' silenced with `options(logz.warn_unreliable = FALSE)`, or for one call with
#' `suppressWarnings(..., classes = "logz_unreliable")`.
#'
#' @param log_w numeric vector of log importance weights (any additive
#'   constant); `-Inf` entries are weights of zero.
#' @param method `"auto"` (posterior's `pareto_khat()` where it exists, else
#'   the in-house fit), `"logz"` (the in-house fit) or `"posterior"`.
#' @param diagnostics a list from `weight_diagnostics()`.
#' @param ess_min,khat_max the thresholds (defaults 0.1 and 0.7).
#' @return `weight_diagnostics()`: a list with `n` (M), `ess`, `ess_ratio`
#'   (ESS/M), `khat` and `khat_method`. `weight_flags()`: a character vector of
#'   flags such as `"ESS/M = 0.04 < 0.1"` and `"Pareto k-hat = 0.83 > 0.7"`
#'   (empty when the weights pass).
#' @references
#' * Zhang, J. and Stephens, M. A. (2009). A new and efficient estimation method for
#'   the generalized Pareto distribution. Technometrics 51, 316-325.
#' * Vehtari, A., Simpson, D., Gelman, A., Yao, Y. and Gabry, J. (2024). Pareto
#'   smoothed importance sampling. JMLR 25(72).
#' * Kong, A. (1992). A note on importance sampling using standardized weights (ESS).
#' @seealso [logz_estimate], [ais()]
#' @examples
#' set.seed(1)
#' weight_diagnostics(rnorm(200))           # light tail: k-hat well below 0.5
#' lw <- -2 * log(runif(200))                # weights Pareto with k = 2
#' weight_flags(weight_diagnostics(lw))
#' @name logz_reliability
NULL

#' @rdname logz_reliability
#' @export
weight_diagnostics <- function(log_w, method = c("auto", "logz", "posterior")) {
  method <- match_arg(method, "method")
  if (!is.numeric(log_w) || length(log_w) < 1L || anyNA(log_w) || any(log_w == Inf))
    stop_no_call(sprintf("`log_w` must be a numeric vector without NA or +Inf, not %s.",
                         describe(log_w)))
  M <- length(log_w)
  mx <- max(log_w)
  if (mx == -Inf) return(list(n = M, ess = 0, ess_ratio = 0, khat = NA_real_, khat_method = NA))
  w <- exp(log_w - mx)
  ess <- sum(w)^2 / sum(w^2)
  # equal weights (to rounding) have no tail to fit: k-hat is not defined
  kh <- if (mx - min(log_w) < 1e-8) list(khat = NA_real_, method = NA) else
    pareto_khat_log(log_w, method)
  list(n = M, ess = ess, ess_ratio = ess / M, khat = kh$khat, khat_method = kh$method)
}

#' @rdname logz_reliability
#' @export
weight_flags <- function(diagnostics, ess_min = 0.1, khat_max = 0.7) {
  out <- character()
  if (is.finite(diagnostics$ess_ratio) && diagnostics$ess_ratio < ess_min)
    out <- c(out, sprintf("ESS/M = %s < %g", format_ratio(diagnostics$ess_ratio), ess_min))
  if (!is.na(diagnostics$khat) && diagnostics$khat > khat_max)
    out <- c(out, sprintf("Pareto k-hat = %.2f > %g", diagnostics$khat, khat_max))
  out
}

format_ratio <- function(x) if (x >= 0.01) sprintf("%.2f", x) else sprintf("%.2g", x)

# The tail length of PSIS: ceiling(min(M / 5, 3 sqrt(M))).
pareto_tail_length <- function(M) as.integer(ceiling(min(0.2 * M, 3 * sqrt(M))))

# Pareto k-hat of the right tail of the weights exp(log_w).
pareto_khat_log <- function(log_w, method = "auto") {
  M <- length(log_w)
  if (method != "logz" && has_posterior_khat()) {
    khat_fn <- getExportedValue("posterior", "pareto_khat")   # posterior >= 1.5 only
    k <- catch_error(as.numeric(khat_fn(exp(log_w - max(log_w)), tail = "right", r_eff = 1))[1],
                     function(e) NA_real_)
    if (!is.na(k) || method == "posterior") return(list(khat = k, method = "posterior"))
  } else if (method == "posterior") {
    stop_no_call("`method = \"posterior\"` needs posterior >= 1.5 (with pareto_khat()).")
  }
  list(khat = pareto_khat_inhouse(log_w), method = "logz")
}

has_posterior_khat <- function() {
  namespace_available("posterior") &&
    "pareto_khat" %in% getNamespaceExports("posterior")
}

# loo's psis tail fit: the M_tail largest weights in excess of the largest
# weight outside the tail, fitted by gpd_fit().
pareto_khat_inhouse <- function(log_w) {
  M <- length(log_w)
  m_tail <- pareto_tail_length(M)
  if (m_tail < 5L || m_tail >= M) return(NA_real_)
  lw <- sort(log_w - max(log_w))
  cutoff <- lw[M - m_tail]
  tail <- lw[(M - m_tail + 1L):M]
  x <- exp(tail) - exp(cutoff)
  if (!any(x > 0)) return(NA_real_)
  gpd_fit(x)$k
}

# Generalized Pareto fit (shape k, scale sigma) to exceedances x >= 0 by the
# empirical Bayes method of Zhang & Stephens (2009), with the weakly
# informative prior of Vehtari et al. (2024) on k (`wip`), as loo::gpdfit().
gpd_fit <- function(x, wip = TRUE, min_grid_pts = 30L) {
  x <- sort(x)
  N <- length(x)
  prior <- 3
  m <- min_grid_pts + floor(sqrt(N))
  jj <- seq_len(m)
  xstar <- x[floor(N / 4 + 0.5)]
  theta <- 1 / x[N] + (1 - sqrt(m / (jj - 0.5))) / prior / xstar
  l_theta <- N * vapply(theta, function(t) {
    a <- -t
    k <- mean(log1p(a * x))
    log(a / k) - k - 1
  }, numeric(1))
  w_theta <- exp(l_theta - log_sum_exp(l_theta))
  theta_hat <- sum(theta * w_theta)
  k <- mean(log1p(-theta_hat * x))
  sigma <- -k / theta_hat
  if (wip) k <- (k * N + 10 * 0.5) / (N + 10)
  if (is.nan(k)) k <- Inf
  list(k = k, sigma = sigma)
}

# The one path of a reliability flag: add `flag` (reasons, each naming the
# threshold it crossed) to `x` and raise `message` as a warning of class
# logz_unreliable, unless options(logz.warn_unreliable = FALSE). `x` is an
# estimate (its `reliable` becomes FALSE), a logz_base (every estimate that
# uses the base inherits its flags), or the character vector of flags of a
# result not built yet (new_logz_estimate() sets `reliable` from them).
# `message = NULL` lists every flag of `x`. `warn`: "always"; "first" (only
# when `x` had no flag yet, so that a call warns once and print() lists the
# rest); "never" (the flag was warned about where it arose, as a base's flags
# carried into an estimate). Returns `x`.
flag_estimate <- function(x, flag, message = NULL, warn = c("always", "first", "never")) {
  warn <- match.arg(warn)
  flag <- as.character(flag)
  if (!length(flag)) return(x)
  old <- if (is.character(x)) x else as.character(x$flags)
  flags <- unique(c(old, flag))
  if (is.character(x)) {
    x <- flags
  } else {
    x$flags <- flags
    if (!inherits(x, "logz_base")) x$reliable <- FALSE
  }
  if (warn == "always" || (warn == "first" && !length(old))) {
    if (is.null(message))
      message <- sprintf("%s estimate of log Z may be unreliable: %s. See ?logz_reliability.",
                         x$method, paste(flags, collapse = "; "))
    unreliable_warning(message)
  }
  x
}

# The warning for the flags an estimator set when it built its result (the
# weight, exactness and convergence checks): one warning listing them all,
# through flag_estimate(). Returns x.
warn_unreliable <- function(x) {
  flags <- x$flags
  if (!length(flags)) return(x)
  x$flags <- character()
  flag_estimate(x, flags)
}

# Raise `message` as a warning of class logz_unreliable (so that it is muffled
# in the pieces of a split run and can be caught by class), unless
# options(logz.warn_unreliable = FALSE).
unreliable_warning <- function(message) {
  if (isTRUE(logz_option("warn_unreliable", TRUE)))
    warning(structure(class = c("logz_unreliable", "warning", "condition"),
                      list(message = message, call = NULL)))
  invisible(message)
}

# Evaluate expr with logz_unreliable warnings muffled (pieces of a split run:
# the merged result warns once).
muffle_unreliable <- function(expr) {
  withCallingHandlers(expr, logz_unreliable = function(w) invokeRestart("muffleWarning"))
}

# Flags of AIS log weights (all model types).
ais_flags <- function(log_w) weight_flags(weight_diagnostics(log_w))

# "log Z = X nats (se Y)" or "log Z = X nats (exact)" or "log Z = X nats (no se: why)".
format_log_z <- function(x, digits = 4L) {
  if (is.null(x$log_z) || is.na(x$log_z)) return("log Z not available")
  lz <- formatC(x$log_z, format = "f", digits = digits)
  se <- if (identical(x$method, "exact") || isTRUE(x$exact_value)) "exact"
        else if (!is.null(x$se) && !is.na(x$se))
          sprintf("se %s", formatC(x$se, format = "f", digits = digits))
        else sprintf("no se: %s", se_reason(x))
  sprintf("log Z = %s nats (%s)", lz, se)
}

# Why an estimate has no se, and how to get one.
se_reason <- function(x) {
  if (!is.null(x$se_note)) return(x$se_note)
  "not available for this estimator"
}

# The "  flags: ..." lines of print methods (nothing when reliable).
print_flags <- function(x) {
  if (length(x$flags)) {
    cat("  unreliable (see ?logz_reliability):\n")
    for (f in x$flags) cat("    - ", f, "\n", sep = "")
  }
  invisible(x)
}
