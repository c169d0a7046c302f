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

# The fields of each estimate class that its methods read, beyond the common
# ones: numeric vectors (`numeric`), c(value, se) pairs (`pairs`), data frames
# (`frames`) and the columns of `diagnostics` (`diag`).
estimate_fields <- list(
  logz_smc = list(numeric = "log_z_runs", pairs = c("ti", "ti_corrected", "stepping_stone"),
                  diag = c("run", "step", "beta", "ess", "log_z")),
  logz_arm = list(numeric = "log_z_runs", diag = c("run", "n", "ess", "log_z")),
  logz_rts = list(numeric = "betas", frames = c("log_z_k", "estimates"), diag = c("sweep", "log_z")),
  logz_ais = list(numeric = "log_weights", diag = c("step", "beta", "ess", "log_z")),
  logz_raise = list(numeric = "log_p", diag = c("example", "log_p", "log_z")),
  logz_astar = list(numeric = "gumbel"))

# A result of an estimator (class logz_estimate) as the methods need it: one
# log Z, an se that is NA or >= 0, the method's name, the time, counts, flags,
# a diagnostics data frame or NULL, and with `fields` the fields of its class
# (estimate_fields) that its print and plot methods read.
validate_estimate <- function(x, name = "x", fields = TRUE) {
  if (inherits(x, "logz_exact")) {
    v <- exact_value(x)
    if (!is.numeric(v) || length(v) != 1L || is.na(v))
      stop_no_call(sprintf("`%s` must be one number (a logz_exact), not %s.", name,
                           describe(unclass(v))))
    if (!identical(as.double(attr(x, "se")), 0))
      stop_no_call(sprintf("`%s$se` must be 0 (an exact value), not %s.", name, describe(attr(x, "se"))))
    return(invisible(x))
  }
  need_list(x, name, "an estimator such as ais(), rts(), arm() or smc()")
  lz <- x$log_z
  if (!is.numeric(lz) || length(lz) != 1L || is.nan(lz))
    bad_field(name, "log_z", "be one number", lz)
  se <- x$se
  if (!(is.numeric(se) || (is.logical(se) && all(is.na(se)))) || length(se) != 1L ||
      (!is.na(se) && se < 0))
    bad_field(name, "se", "be one number >= 0 or NA", se)
  need_string(x, name, "method")
  tm <- x$time
  if (!is.null(tm) && (!is.numeric(tm) && !(is.logical(tm) && all(is.na(tm))) || length(tm) != 1L))
    bad_field(name, "time", "be one number (seconds)", tm)
  if (!is.null(x$counts) && !is.numeric(x$counts))
    bad_field(name, "counts", "be a named numeric vector", x$counts)
  if (!is.character(x$flags)) bad_field(name, "flags", "be a character vector", x$flags)
  r <- x$reliable
  if (!is.logical(r) || length(r) != 1L || is.na(r)) bad_field(name, "reliable", "be TRUE or FALSE", r)
  spec <- if (fields) estimate_fields[[intersect(class(x), names(estimate_fields))[1]]]
  d <- x$diagnostics
  if (!is.data.frame(d) && !(is.null(d) && is.null(spec$diag)))
    bad_field(name, "diagnostics", "be a data frame", d)
  if (is.null(spec)) return(invisible(x))
  for (f in spec$numeric) {
    v <- x[[f]]
    if (!is.numeric(v) || !length(v)) bad_field(name, f, "be a numeric vector", v)
  }
  for (f in spec$pairs) {
    v <- x[[f]]
    if (!is.numeric(v) || length(v) != 2L) bad_field(name, f, "be c(log_z, se)", v)
  }
  for (f in spec$frames) if (!is.data.frame(x[[f]])) bad_field(name, f, "be a data frame", x[[f]])
  miss <- setdiff(spec$diag, names(d))
  if (length(miss))
    stop_no_call(sprintf("`%s$diagnostics` lacks the column%s %s.", name,
                         if (length(miss) > 1L) "s" else "", paste0("`", miss, "`", collapse = ", ")))
  invisible(x)
}
