# The exact_log_z() generic: log Z by exact summation, with methods for rbm
# (R/rbm.R) and ising (R/ising_exact.R) models.

#' Exact log partition function by enumeration
#'
#' `exact_log_z()` computes log Z by exact summation; the methods are for
#' RBMs (below) and Ising models ([exact_log_z.ising()]). For an RBM, it sums
#' out one layer analytically and enumerates all \eqn{2^n} states of the
#' other (the smaller one by default), in C with Gray-code updates and a
#' streaming log-sum-exp, split over `threads`.
#'
#' @param model a model: an `rbm`.
#' @param ... further arguments for methods.
#' @param layer which layer to enumerate: `"auto"` (the smaller), `"hidden"`
#'   or `"visible"`. The answer does not depend on it (up to rounding).
#' @param max_states refuse to enumerate more than this many states
#'   (default `2^26`).
#' @param threads number of OpenMP threads.
#' @param progress show progress (default: in interactive sessions). From
#'   \eqn{2^{22}} states on, the enumeration then runs in 64 to 256 chunks
#'   (the first units of the enumerated layer fixed in each), reporting after
#'   each; the answer is the same up to rounding.
#' @return log Z in nats: a [logz_exact], a number (usable as one in
#'   arithmetic, comparisons, `format()`, `sprintf()`, `all.equal()`, as
#'   `log_z` of [log_likelihood()]) that carries the fields of a
#'   [logz_estimate] (`se = 0`, `method = "exact"`, `how`, `time`), as
#'   [log_partition()] returns it.
#' @section Errors: a model whose smaller layer has more than
#'   `log2(max_states)` units; `progress` not `TRUE`/`FALSE`.
#' @examples
#' set.seed(1)
#' m <- rbm(matrix(rnorm(20 * 8), 20, 8), rnorm(20), rnorm(8))
#' exact_log_z(m)
#' exact_log_z(m, layer = "visible")
#' @export
exact_log_z <- function(model, ...) UseMethod("exact_log_z")

#' @export
exact_log_z.default <- function(model, ...) {
  stop_no_call(sprintf("exact_log_z() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

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

#' @rdname logz_exact
#' @export
format.logz_exact <- function(x, ...) format(exact_value(x), ...)

#' @rdname logz_exact
#' @export
print.logz_exact <- function(x, ...) {
  check_dots_used(...)
  check_estimate(x, "x")
  cat(sprintf("<logz_exact> log Z = %s nats (exact%s)\n",
              formatC(exact_value(x), format = "f", digits = 6L),
              if (!is.null(x$how) && nzchar(x$how)) paste0(": ", x$how) else ""))
  invisible(x)
}

#' @method all.equal logz_exact
#' @export
all.equal.logz_exact <- function(target, current, ...) {
  all.equal(exact_value(target), exact_value(current), ...)
}

#' @export
as.double.logz_exact <- function(x, ...) exact_value(x)

# In data.frame(col = x) (optional = TRUE) a logz_exact is a number; on its own,
# as.data.frame() gives the one-row summary of every logz_estimate.
#' @export
as.data.frame.logz_exact <- function(x, row.names = NULL, optional = FALSE, ...) {
  if (isTRUE(optional))
    return(as.data.frame(exact_value(x), row.names = row.names, optional = TRUE, ...))
  as.data.frame.logz_estimate(x, row.names = row.names, optional = optional, ...)
}

# testthat's expect_equal() (waldo) compares the value.
#' @exportS3Method waldo::compare_proxy
compare_proxy.logz_exact <- function(x, path) list(object = exact_value(x), path = path)
