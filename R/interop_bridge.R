# A logz_estimate where bridgesampling results go: logml(), error_measures()
# and bf() (methods registered when bridgesampling is installed).

#' Log Z estimates as `bridgesampling` marginal likelihoods
#'
#' A [logz_estimate] is a log normalising constant, i.e. a log marginal
#' likelihood (model evidence) when the unnormalised target is prior times
#' likelihood (e.g. [gpc()] models, [astar_target()]s). These methods of the
#' \pkg{bridgesampling} generics let it stand where a `bridge` object does:
#' `logml()` returns `x$log_z`; `error_measures()` the relative mean-squared
#' error `re2` of the estimate of \eqn{Z} (not of log Z), its coefficient of
#' variation `cv` and `cv` as a percentage, by the delta method \eqn{cv
#' \approx se(\log \hat Z)}; `bf(x1, x2)` the Bayes factor \eqn{Z_1 / Z_2}
#' (or its log with `log = TRUE`) as the same `bf_bridge` object
#' `bridgesampling::bf()` returns for two `bridge` objects, with `x2` a
#' `logz_estimate`, a `bridge` or a `bridge_list` object (for the reverse
#' order use `bf(x2, x1)` and invert).
#'
#' The methods are registered when \pkg{bridgesampling} is installed (a
#' suggested package).
#'
#' @param x,x1 a `logz_estimate`.
#' @param x2 a `logz_estimate` or a \pkg{bridgesampling} `bridge` /
#'   `bridge_list` object.
#' @param log return the log Bayes factor.
#' @param ... unused (an error if given).
#' @return `logml()`: a number; `error_measures()`: a list with `re2`, `cv`
#'   and `percentage` (`NA` where the estimate has no standard error, 0 for
#'   exact values); `bf()`: a list of class `bf_bridge` with `bf` and `log`,
#'   and attribute `model_names`.
#' @section Errors: `x2` of another class; `log` not `TRUE`/`FALSE`; unused
#'   arguments.
#' @references
#' * Gronau, Q. F., Singmann, H. and Wagenmakers, E.-J. (2020). bridgesampling: an R
#'   package for estimating normalizing constants. Journal of Statistical Software
#'   92(10).
#' @examples
#' if (requireNamespace("bridgesampling", quietly = TRUE)) {
#'   set.seed(1)
#'   g1 <- ising_grid(3, 3, coupling = 0.2)
#'   g2 <- ising_grid(3, 3, coupling = 0.4)
#'   a1 <- ais(g1, schedule_linear(100), n_chains = 50, progress = FALSE)
#'   a2 <- ais(g2, schedule_linear(100), n_chains = 50, progress = FALSE)
#'   bridgesampling::logml(a1)
#'   bridgesampling::error_measures(a1)$percentage
#'   bridgesampling::bf(a1, a2, log = TRUE)
#' }
#' @name logml.logz_estimate
NULL

#' @rdname logml.logz_estimate
#' @exportS3Method bridgesampling::logml
logml.logz_estimate <- function(x, ...) {
  check_dots_used(...)
  as.double(x$log_z)
}

#' @rdname logml.logz_estimate
#' @exportS3Method bridgesampling::error_measures
error_measures.logz_estimate <- function(x, ...) {
  check_dots_used(...)
  se <- if (is.null(x$se)) NA_real_ else as.double(x$se)
  list(re2 = se^2, cv = se,
       percentage = if (is.na(se)) NA_character_ else paste0(format(signif(100 * se, 2)), "%"))
}

#' @rdname logml.logz_estimate
#' @exportS3Method bridgesampling::bf
bf.logz_estimate <- function(x1, x2, log = FALSE, ...) {
  check_dots_used(...)
  check_flag(log, "log")
  if (!inherits(x2, c("logz_estimate", "bridge", "bridge_list")))
    stop_no_call(sprintf("`x2` must be a logz_estimate or a bridgesampling bridge/bridge_list, not %s.",
                         describe(x2)))
  b <- logml.logz_estimate(x1) - bridgesampling::logml(x2)
  out <- structure(list(bf = if (log) b else exp(b), log = log), class = "bf_bridge")
  mc <- match.call()
  attr(out, "model_names") <- c(deparse(mc[["x1"]]), deparse(mc[["x2"]]))
  out
}
