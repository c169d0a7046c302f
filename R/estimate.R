#' Log Z estimates: the common result class
#'
#' Every estimator in logz returns a list with class `c("logz_<method>",
#' "logz_estimate")` holding at least:
#' \describe{
#'   \item{`log_z`}{the estimate of log Z (nats).}
#'   \item{`se`}{its standard error (`NA` where none is available; then
#'     `se_note` says why and how to get one).}
#'   \item{`method`}{a short name, e.g. `"AIS"`.}
#'   \item{`time`}{elapsed seconds.}
#'   \item{`counts`}{named numeric vector of work done (Gibbs sweeps, ...).}
#'   \item{`diagnostics`}{a data frame of traces (step, beta, ess, log_z, ...).}
#'   \item{`seed`}{the RNG state (`.Random.seed`) at entry: assigning it back
#'     to `.Random.seed` and repeating the call reproduces the result.}
#'   \item{`call`}{the matched call.}
#'   \item{`flags`}{character vector: the reasons the estimate may be unreliable,
#'     each naming the threshold it crossed (empty when none).}
#'   \item{`reliable`}{logical: `length(flags) == 0`. The thresholds and what
#'     to do are in [logz_reliability].}
#'   \item{`base`}{`NULL`, or a list (`type`, `how`) saying which base
#'     distribution the estimator started from and how it was chosen.}
#' }
#' Methods: `print()`, `summary()`, `as.data.frame()` (one row: method, log Z,
#' se, interval, ESS, reliable, time, seed; see [glance.logz_estimate()]; the
#' per-step trace is [log_z_trace()]), `confint()` (normal interval from
#' `se`), and `plot()` for the subclasses.
#'
#' @param object,x a `logz_estimate`.
#' @param parm ignored (there is one parameter, log Z).
#' @param level confidence level.
#' @param row.names,optional passed on to [as.data.frame()].
#' @param ... for `as.data.frame()`, passed on; for the other methods, must be
#'   empty (an unused argument is an error naming it).
#' @return `confint()`: a 1 x 2 matrix; `as.data.frame()`: a one-row data
#'   frame (as `generics::glance()`); `summary()`: an object of class `summary.logz_estimate`.
#' @name logz_estimate
NULL

new_logz_estimate <- function(x, subclass) {
  stopifnot(is.list(x), all(c("log_z", "se", "method", "time", "counts", "diagnostics",
                              "seed", "call") %in% names(x)))
  x$flags <- as.character(x$flags)
  x$reliable <- length(x$flags) == 0L
  structure(x, class = c(subclass, "logz_estimate"))
}

#' @rdname logz_estimate
#' @export
print.logz_estimate <- function(x, ...) {
  check_estimate(x, "x")
  check_dots_used(...)
  cat(sprintf("<%s> %s estimate of log Z\n", class(x)[1], x$method))
  cat(sprintf("  %s\n", format_log_z(x)))
  cat(sprintf("  %.2f s\n", x$time))
  cat(base_line(x))
  print_flags(x)
  invisible(x)
}

#' @rdname logz_estimate
#' @export
summary.logz_estimate <- function(object, ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  structure(list(method = object$method, class = class(object)[1], log_z = object$log_z,
                 se = object$se, ci = stats::confint(object), counts = object$counts,
                 time = object$time, ess = object$ess, se_note = object$se_note,
                 flags = object$flags),
            class = "summary.logz_estimate")
}

#' @export
print.summary.logz_estimate <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("%s estimate of log Z (%s)\n", x$method, x$class))
  cat(sprintf("  log Z    %.6f nats\n", x$log_z))
  cat(sprintf("  se       %s\n", if (!is.na(x$se)) sprintf("%.6f", x$se)
                                    else sprintf("NA (%s)", se_reason(x))))
  if (all(is.finite(x$ci)))
    cat(sprintf("  95%% CI   [%.6f, %.6f]\n", x$ci[1], x$ci[2]))
  if (!is.null(x$ess)) cat(sprintf("  ESS      %.1f\n", x$ess))
  cat(sprintf("  time     %.3f s\n", x$time))
  cnt <- x$counts
  for (nm in names(cnt)) cat(sprintf("  %-8s %s\n", nm, format(cnt[[nm]], big.mark = ",")))
  if (length(x$flags)) cat(sprintf("  flag     %s\n", x$flags), sep = "")
  invisible(x)
}

#' @rdname logz_estimate
#' @export
confint.logz_estimate <- function(object, parm, level = 0.95, ...) {
  check_estimate(object, "object")
  check_dots_used(...)
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE,
                        upper_open = TRUE)
  z <- stats::qnorm(1 - (1 - level) / 2)
  ci <- object$log_z + c(-1, 1) * z * object$se
  matrix(ci, 1L, 2L, dimnames = list("log_z", sprintf("%g %%", 100 * c(1 - level, 1 + level) / 2)))
}

#' @rdname logz_estimate
#' @export
as.data.frame.logz_estimate <- function(x, row.names = NULL, optional = FALSE, ...) {
  out <- estimate_row(x, ...)
  if (!is.null(row.names)) rownames(out) <- row.names
  out
}
