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
#' @return log Z (a number, in nats).
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
