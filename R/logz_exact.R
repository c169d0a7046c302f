# The logz_exact class: an exact log Z that is a number in arithmetic and
# comparisons and carries the fields of a logz_estimate (print and format in
# R/print.R, as.data.frame in R/interop.R).

#' Exact values of log Z (class `logz_exact`)
#'
#' [exact_log_z()] and [log_partition()] (where it picks an exact method)
#' return log Z as an object of class `c("logz_exact", "logz_estimate")`: a
#' number (a double of length 1, `is.numeric()` is `TRUE`) that also carries
#' the fields of a [logz_estimate]. It can be used wherever a number is
#' expected: arithmetic and comparisons give plain numbers, `as.numeric()`,
#' `c()` and `unlist()` drop the fields, `format()`, `round()` and the other
#' maths functions act on the value, `all.equal()` and testthat's
#' `expect_equal()` compare the value, `sprintf("%.3f", x)` works, and
#' [log_likelihood()] takes it as `log_z`. As a `logz_estimate`, `x$log_z` is
#' the value, `x$se` is 0, `x$method` is `"exact"`, `x$how` says how it was
#' computed (enumeration of which layer, or a junction tree), and `print()`,
#' [compare_estimates()], `glance()` and `plot()` treat it as the exact
#' reference. `new_logz_exact()` makes one from a known value (e.g. a
#' published log Z), for [compare_estimates()].
#'
#' @param x for `new_logz_exact()`: log Z (one finite number, nats); for the
#'   methods: a `logz_exact`.
#' @param how a short description of where the value comes from.
#' @param time elapsed seconds (`NA` if unknown).
#' @param call the call that computed it, or `NULL`.
#' @param ... for `print()` and `format()`: passed on to `format()` of the
#'   value.
#' @return `new_logz_exact()`: a `logz_exact`. `print()` returns `x`
#'   invisibly.
#' @section Errors: `x` not one finite number.
#' @seealso [exact_log_z()], [log_partition()], [compare_estimates()]
#' @examples
#' g <- ising_grid(3, 3, coupling = 0.4)
#' z <- exact_log_z(g)
#' z
#' z$how
#' z + 1          # a plain number
#' sprintf("%.3f", z)
#' all.equal(z, as.numeric(z))
#' new_logz_exact(123.4, how = "published value")
#' @name logz_exact
NULL

#' @rdname logz_exact
#' @export
new_logz_exact <- function(x, how = "given", time = NA_real_, call = NULL) {
  if (inherits(x, "logz_exact")) x <- exact_value(x)
  logz_exact_of(check_number(x, "x"), how, time, call)
}

# The logz_exact of a computed value (not checked: an engine's answer).
logz_exact_of <- function(x, how, time = NA_real_, call = NULL) {
  structure(as.double(x), se = 0, method = "exact", how = as.character(how)[1],
            time = as.double(time)[1], counts = c(evaluations = NA_real_),
            diagnostics = data.frame(), seed = NULL, call = call, flags = character(0),
            reliable = TRUE, base = NULL, class = c("logz_exact", "logz_estimate"))
}

# The number without the fields.
exact_value <- function(x) if (inherits(x, "logz_exact")) as.vector(unclass(x)) else x

# Fields: x$log_z is the value, the rest are attributes.
#' @export
`$.logz_exact` <- function(x, name) {
  if (identical(name, "log_z")) exact_value(x) else attr(x, name, exact = TRUE)
}

#' @export
`[[.logz_exact` <- function(x, i, ...) {
  if (is.character(i)) return(`$.logz_exact`(x, i))
  exact_value(x)[[i, ...]]
}

#' @export
`$<-.logz_exact` <- function(x, name, value) {
  if (identical(name, "log_z")) {
    if (!is.numeric(value) || length(value) != 1L || is.na(value))
      stop_no_call(sprintf("`log_z` of a logz_exact must be one number, not %s.", describe(value)))
    attrs <- attributes(x)
    x <- as.double(value)
    attributes(x) <- attrs
    return(x)
  }
  attr(x, name) <- value
  x
}

#' @export
Ops.logz_exact <- function(e1, e2) {
  f <- get(.Generic, envir = baseenv(), mode = "function")
  if (missing(e2)) f(exact_value(e1)) else f(exact_value(e1), exact_value(e2))
}

#' @export
Math.logz_exact <- function(x, ...) {
  get(.Generic, envir = baseenv(), mode = "function")(exact_value(x), ...)
}

#' @export
Summary.logz_exact <- function(..., na.rm = FALSE) {
  args <- lapply(list(...), exact_value)
  do.call(.Generic, c(args, na.rm = na.rm))
}

#' @method all.equal logz_exact
#' @export
all.equal.logz_exact <- function(target, current, ...) {
  all.equal(exact_value(target), exact_value(current), ...)
}

#' @export
as.double.logz_exact <- function(x, ...) exact_value(x)

# testthat's expect_equal() (waldo) compares the value.
#' @exportS3Method waldo::compare_proxy
compare_proxy.logz_exact <- function(x, path) list(object = exact_value(x), path = path)
