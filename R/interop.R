# One-row summaries (generics::glance), per-step traces (generics::tidy,
# log_z_trace), and tables/plots comparing several estimates.

#' One-row summaries, traces and comparisons of log Z estimates
#'
#' `glance()` gives one row per [logz_estimate] (the figures you compare
#' across methods); `tidy()` and `log_z_trace()` give the per-step trace (the
#' estimate's `diagnostics`: AIS steps, ARM iterations, RTS initial
#' iterations, samples ...). `as.data.frame()` of an estimate is the same one
#' row as `glance()`, so `do.call(rbind, lapply(fits, as.data.frame))` tabulates
#' several estimates; `compare_estimates()` does that for you (naming the rows)
#' and its `plot()` method draws log Z \eqn{\pm} 2 se by method.
#'
#' The columns of the one-row summary are
#' \describe{
#'   \item{`method`}{the estimator (`x$method`, e.g. `"AIS"`, `"exact"`).}
#'   \item{`log_z`}{the estimate of log Z (nats).}
#'   \item{`se`}{its standard error (0 for exact values, `NA` where none).}
#'   \item{`conf.low`, `conf.high`}{the normal interval `log_z -/+ qnorm(1 -
#'     (1 - conf.level) / 2) * se` (as [confint()][logz_estimate]).}
#'   \item{`ess`}{the effective sample size `x$ess` where the estimator
#'     reports one (AIS), else `NA`.}
#'   \item{`reliable`}{`x$reliable`: `TRUE` when no reliability flag was
#'     raised (see `x$flags`).}
#'   \item{`flags`}{the flags joined by `"; "` (`""` when none).}
#'   \item{`time`}{elapsed seconds.}
#'   \item{`seed`}{a list column holding the RNG state at entry (`x$seed`,
#'     `NULL` for deterministic methods): assign it to `.Random.seed` and
#'     repeat `x$call` to reproduce the estimate.}
#' }
#'
#' @param x a `logz_estimate`; for `plot()` a `logz_comparison`.
#' @param conf.level confidence level of `conf.low`/`conf.high` (in (0, 1)).
#' @param ... for `compare_estimates()`: `logz_estimate`s, named or not, or
#'   lists of them; otherwise unused (an error if given).
#' @param exact for `compare_estimates()`: a known log Z (one number, or a
#'   [logz_exact] from [exact_log_z()] or [log_partition()]), shown as the
#'   first row (`name` `"exact"`, se 0) and as a line on the plot; each
#'   estimate then gets its `error` (estimate - exact, nats) and `z`
#'   (error / se).
#' @param truth for `plot()`: a reference value of log Z drawn as a
#'   horizontal line (default: the comparison's `exact`).
#' @param main for `plot()`: the title; `NULL` for the default.
#' @return `glance()` and `as.data.frame()`: a one-row data frame with the
#'   columns above; `tidy()` and `log_z_trace()`: the trace data frame (zero
#'   rows for methods without one, e.g. exact values and EP);
#'   `compare_estimates()`: a data frame of class `logz_comparison`, one row per
#'   estimate, the glance columns preceded by `name` (with `exact`: the
#'   reference row first, and the columns `error` and `z`); its `print()` shows
#'   log Z, se, interval and error with the decimals the smallest se calls for
#'   (two significant figures of it); its `plot()` returns it invisibly.
#' @section Errors: `x` (or an element of `...`) not a `logz_estimate`;
#'   `conf.level` not a number in (0, 1); `compare_estimates()` with nothing to
#'   compare; unused arguments in `...`.
#' @seealso [logz_estimate], [log_partition()]
#' @examples
#' set.seed(1)
#' g <- ising_grid(3, 3, coupling = 0.4)
#' fit <- ais(g, schedule_linear(100), n_chains = 50, progress = FALSE)
#' as.data.frame(fit)
#' head(log_z_trace(fit))
#' tab <- compare_estimates(ais = fit,
#'                          rts = rts(g, K = 10, n_chains = 10, sweeps = 200, progress = FALSE),
#'                          exact = exact_log_z(g))
#' tab
#' plot(tab)
#' @name glance.logz_estimate
NULL

estimate_row <- function(x, conf.level = 0.95) {
  check_estimate(x)
  conf.level <- check_number(conf.level, "conf.level", lower = 0, upper = 1, lower_open = TRUE,
                             upper_open = TRUE)
  se <- if (is.null(x$se)) NA_real_ else as.double(x$se)[1]
  z <- stats::qnorm(1 - (1 - conf.level) / 2)
  ess <- if (is.numeric(x$ess) && length(x$ess) == 1L) as.double(x$ess) else NA_real_
  flags <- as.character(x$flags)
  reliable <- if (is.logical(x$reliable) && length(x$reliable) == 1L) x$reliable
              else length(flags) == 0L
  out <- data.frame(method = as.character(x$method)[1], log_z = as.double(x$log_z)[1], se = se,
                    conf.low = x$log_z - z * se, conf.high = x$log_z + z * se, ess = ess,
                    reliable = reliable, flags = paste(flags, collapse = "; "),
                    time = if (is.null(x$time)) NA_real_ else as.double(x$time)[1],
                    stringsAsFactors = FALSE)
  out$seed <- I(list(x$seed))
  out
}

#' @rdname glance.logz_estimate
#' @exportS3Method generics::glance
glance.logz_estimate <- function(x, conf.level = 0.95, ...) {
  check_dots_used(...)
  estimate_row(x, conf.level)
}

#' @rdname glance.logz_estimate
#' @exportS3Method generics::tidy
tidy.logz_estimate <- function(x, ...) {
  check_dots_used(...)
  log_z_trace(x)
}

#' @rdname glance.logz_estimate
#' @export
log_z_trace <- function(x) {
  check_estimate(x)
  d <- x$diagnostics
  if (is.null(d)) return(data.frame())
  as.data.frame(d, stringsAsFactors = FALSE)
}

#' @rdname glance.logz_estimate
#' @export
compare_estimates <- function(..., exact = NULL, conf.level = 0.95) {
  fits <- list(...)
  nms <- names(fits)
  if (is.null(nms)) nms <- character(length(fits))
  # a known value or a number under a misspelt `exact` or `conf.level`
  stray <- vapply(fits, function(f) inherits(f, "logz_exact") || !inherits(f, "logz_estimate") &&
                    !is.list(f), logical(1))
  check_own_argument_names(nms[stray], c("exact", "conf.level"), "compare_estimates")
  # flatten lists of estimates, keeping their names
  flat <- list()
  flat_names <- character()
  for (i in seq_along(fits)) {
    f <- fits[[i]]
    if (is.list(f) && !inherits(f, "logz_estimate")) {
      inner <- names(f)
      if (is.null(inner)) inner <- character(length(f))
      flat <- c(flat, f)
      flat_names <- c(flat_names, ifelse(nzchar(inner), inner,
                                         if (nzchar(nms[i])) paste0(nms[i], seq_along(f)) else ""))
    } else {
      flat <- c(flat, list(f))
      flat_names <- c(flat_names, nms[i])
    }
  }
  ref <- compare_reference(exact)
  if (!length(flat) && is.null(ref))
    stop_no_call("compare_estimates() needs at least one logz_estimate in `...`.")
  for (i in seq_along(flat))
    check_estimate(flat[[i]], if (nzchar(flat_names[i])) flat_names[i] else sprintf("..%d", i))
  if (!is.null(ref)) {
    flat <- c(list(ref), flat)
    flat_names <- c("exact", flat_names)
  }
  rows <- lapply(flat, estimate_row, conf.level = conf.level)
  tab <- do.call(rbind, rows)
  auto <- !nzchar(flat_names)
  flat_names[auto] <- make.unique(tab$method[auto])
  tab <- cbind(data.frame(name = flat_names, stringsAsFactors = FALSE), tab)
  if (!is.null(ref)) {
    err <- tab$log_z - exact_value(ref)
    err[1] <- NA_real_
    tab$error <- err
    tab$z <- ifelse(is.finite(tab$se) & tab$se > 0, err / tab$se, NA_real_)
    tab <- tab[, c(setdiff(names(tab), c("error", "z", "seed")), "error", "z", "seed")]
  }
  rownames(tab) <- NULL
  structure(tab, conf.level = conf.level, exact = if (!is.null(ref)) exact_value(ref),
            class = c("logz_comparison", "data.frame"))
}

# The reference of compare_estimates(exact =): NULL, or a logz_exact made of a
# number or of an exact result.
compare_reference <- function(exact) {
  if (is.null(exact)) return(NULL)
  if (inherits(exact, "logz_exact")) return(exact)
  if (inherits(exact, "logz_estimate"))
    stop_no_call(sprintf(paste0("`exact` must be a known log Z (a number, or a logz_exact from ",
                                "exact_log_z() or log_partition()), not a %s estimate with se %s; ",
                                "pass it in `...` to compare it."), exact$method, format(exact$se)))
  if (!is.numeric(exact) || length(exact) != 1L || !is.finite(exact))
    stop_no_call(sprintf(paste0("`exact` must be a known log Z (one finite number, or a logz_exact ",
                                "from exact_log_z() or log_partition()), not %s."), describe(exact)))
  new_logz_exact(as.double(exact), how = "given")
}

# Decimals for log Z values whose standard errors are `se`: enough that the
# smallest positive se shows two significant figures (at least 2, at most 10;
# 4 when no se is known).
se_decimals <- function(se) {
  se <- se[is.finite(se) & se > 0]
  if (!length(se)) return(4L)
  as.integer(min(10, max(2, 1 - floor(log10(min(se))))))
}

# The reference line of a comparison's plot: NULL or one finite number (a
# logz_exact counts as its value).
check_truth <- function(truth) {
  if (is.null(truth)) return(NULL)
  v <- exact_value(truth)
  if (!is.numeric(v) || length(v) != 1L || !is.finite(v))
    stop_no_call(sprintf("`truth` must be NULL or one finite number, not %s.", describe(v)))
  as.double(v)
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

# In data.frame(col = x) (optional = TRUE) a logz_exact is a number; on its own,
# as.data.frame() gives the one-row summary of every logz_estimate.
#' @export
as.data.frame.logz_exact <- function(x, row.names = NULL, optional = FALSE, ...) {
  if (isTRUE(optional))
    return(as.data.frame(exact_value(x), row.names = row.names, optional = TRUE, ...))
  as.data.frame.logz_estimate(x, row.names = row.names, optional = optional, ...)
}
