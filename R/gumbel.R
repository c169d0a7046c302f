#' The Gumbel distribution and the truncated Gumbel distribution
#'
#' Density, distribution function and random draws of the Gumbel distribution
#' with location \eqn{m} and scale \eqn{s} (default 1), \eqn{P(G \le g) =
#' \exp(-\exp(-(g - m)/s))}, mean \eqn{m + s\gamma} (\eqn{\gamma \approx
#' 0.5772}, Euler's constant) and variance \eqn{s^2\pi^2/6} (the
#' parametrisation of the `dgumbel()`/`pgumbel()`/`rgumbel()` of packages such
#' as evd and VGAM); and draws of the Gumbel truncated to be at most a
#' bound \eqn{b}, \eqn{P(G \le g) = \exp(-\exp(-(\min(g, b) - m))) /
#' \exp(-\exp(-(b - m)))} (scale 1, as A* sampling uses it). These are the building blocks of A* sampling
#' (Maddison, Tarlow & Minka 2014, Section 2 and footnote 1): by max-stability
#' the maximum of independent \eqn{\mathrm{Gumbel}(m_i)} is
#' \eqn{\mathrm{Gumbel}(\log\sum_i e^{m_i})}.
#'
#' Draws use R's RNG (so [set.seed()] reproduces them) in C:
#' \eqn{g = m - \log E} and, for the truncated case, the numerically stable
#' form \eqn{g = -\mathrm{logaddexp}(-b, -m + \log E)} with \eqn{E =
#' -\log U \sim \mathrm{Exp}(1)}, which stays finite and below \eqn{b} even
#' when \eqn{b \ll m}.
#'
#' @param n number of draws (a whole number >= 0).
#' @param location the location \eqn{m} (numeric, recycled to `n` or to the
#'   length of `x`/`q`); `-Inf` gives draws of `-Inf` (an empty region).
#' @param scale the scale \eqn{s > 0} (numeric, recycled like `location`;
#'   also for `rtruncgumbel()`, after `bound`).
#' @param bound the truncation point \eqn{b} (numeric, recycled; `Inf` means no
#'   truncation).
#' @param x,q vectors of quantiles.
#' @param log,log.p return logarithms.
#' @param lower.tail if `TRUE` (default) \eqn{P(G \le q)}, else \eqn{P(G > q)}.
#' @return `rgumbel()` and `rtruncgumbel()`: numeric vectors of length `n`;
#'   `dgumbel()`, `pgumbel()`: numeric vectors as long as the longer of their
#'   first two arguments.
#' @section Errors: `n` not a whole number >= 0; for the random draws,
#'   `location` or `bound` not numeric, empty, `NA`/`NaN`, or (`location`)
#'   `+Inf`; `scale` not numeric, or not positive and finite (`NA` values give
#'   `NA` in `dgumbel()` and `pgumbel()`); for `dgumbel()` and `pgumbel()`, `x`,
#'   `q` or `location` not numeric (`NA` values give `NA`), or a flag not
#'   `TRUE`/`FALSE`.
#' @references
#' * Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling. NIPS 27.
#' @seealso [astar_sample()]
#' @examples
#' set.seed(1)
#' g <- rgumbel(1000, location = 2)
#' mean(g) - 0.5772157          # about 2
#' rtruncgumbel(5, location = 0, bound = -3)   # all <= -3
#' pgumbel(0)                   # exp(-1)
#' pgumbel(3, location = 1, scale = 2)   # exp(-exp(-1))
#' integrate(dgumbel, -Inf, Inf)$value
#' @name gumbel
NULL

check_gumbel_arg <- function(x, name, allow_pos_inf) {
  if (!is.numeric(x) || length(x) == 0L)
    stop_no_call(sprintf("`%s` must be a non-empty numeric vector, not %s.", name, describe(x)))
  if (anyNA(x))
    stop_no_call(sprintf("`%s` must not contain NA or NaN.", name))
  if (!allow_pos_inf && any(x == Inf))
    stop_no_call(sprintf("`%s` must not be +Inf.", name))
  as.double(x)
}

# d/p functions: numeric input (NA propagates, as in dnorm/pnorm)
check_numeric_arg <- function(x, name) {
  if (!is.numeric(x))
    stop_no_call(sprintf("`%s` must be numeric, not %s.", name, describe(x)))
  invisible(x)
}

#' @rdname gumbel
#' @export
rgumbel <- function(n, location = 0, scale = 1) {
  n <- check_count(n, "n", min = 0L, bytes_each = 8)
  location <- check_gumbel_arg(location, "location", FALSE)
  scale <- check_scale(scale, TRUE)
  if (all(scale == 1)) return(gumbel_rand(n, location))
  # m + s Z with Z ~ Gumbel(0): the same uniforms as the scale-1 draws
  rep_len(location, n) + rep_len(scale, n) * gumbel_rand(n, 0)
}

# n draws of Gumbel(location), or of Gumbel(location) truncated to at most
# `bound` (src/gumbel.c); location and bound (non-empty) are recycled.
gumbel_rand <- function(n, location, bound = NULL) {
  location <- internal_double(location, "location")
  if (!length(location)) internal_error("`location` is empty.")
  if (!is.null(bound)) {
    bound <- internal_double(bound, "bound")
    if (!length(bound)) internal_error("`bound` is empty.")
  }
  .Call(C_gumbel_rand, internal_count(n, "n", min = 0L), location, bound)
}

check_scale <- function(scale, draws) {
  if (!is.numeric(scale) || length(scale) == 0L)
    stop_no_call(sprintf("`scale` must be a non-empty numeric vector, not %s.", describe(scale)))
  if (draws && anyNA(scale))
    stop_no_call("`scale` must not contain NA or NaN.")
  if (any(!is.na(scale) & (scale <= 0 | !is.finite(scale))))
    stop_no_call(sprintf("`scale` must be positive and finite, not %s.",
                         format(scale[which(!is.na(scale) & (scale <= 0 | !is.finite(scale)))[1]])))
  as.double(scale)
}

#' @rdname gumbel
#' @export
rtruncgumbel <- function(n, location = 0, bound, scale = 1) {
  n <- check_count(n, "n", min = 0L, bytes_each = 8)
  location <- check_gumbel_arg(location, "location", FALSE)
  if (missing(bound)) stop_no_call("`bound` is missing: give the truncation point.")
  bound <- check_gumbel_arg(bound, "bound", TRUE)
  scale <- check_scale(scale, TRUE)
  if (all(scale == 1)) return(gumbel_rand(n, location, bound))
  # m + s Z with Z ~ Gumbel(0) truncated at (b - m) / s: the same uniforms as at scale 1
  m <- rep_len(location, n)
  s <- rep_len(scale, n)
  m + s * gumbel_rand(n, 0, (rep_len(bound, n) - m) / s)
}

#' @rdname gumbel
#' @export
dgumbel <- function(x, location = 0, scale = 1, log = FALSE) {
  check_numeric_arg(x, "x")
  check_numeric_arg(location, "location")
  scale <- check_scale(scale, FALSE)
  check_flag(log, "log")
  z <- (x - location) / scale
  ld <- -z - exp(-z) - log(scale)
  ld[is.infinite(z)] <- -Inf
  if (log) ld else exp(ld)
}

#' @rdname gumbel
#' @export
pgumbel <- function(q, location = 0, scale = 1, lower.tail = TRUE, log.p = FALSE) {
  check_numeric_arg(q, "q")
  check_numeric_arg(location, "location")
  scale <- check_scale(scale, FALSE)
  check_flag(lower.tail, "lower.tail")
  check_flag(log.p, "log.p")
  z <- (q - location) / scale
  lp <- -exp(-z)                       # log P(G <= q)
  if (lower.tail) {
    if (log.p) lp else exp(lp)
  } else {
    p <- -expm1(lp)                    # P(G > q) = 1 - exp(-e^-z)
    if (!log.p) return(p)
    # far right tail: e^-z underflows (to subnormals near z = 708, to 0 after
    # 745) long before log P(G > q) = -z + log(1 - e^-z / 2 + ...) does
    far <- !is.na(z) & z > 30
    out <- log(p)
    out[far] <- -z[far] - exp(-z[far]) / 2
    out
  }
}
