# A continuous target on a box (known bounds, some infinite) moved to the
# unconstrained space, as Stan does: coordinate j with only a lower bound l
# is x = l + exp(y), with only an upper bound u is x = u - exp(y), with both
# is x = l + (u - l) plogis(y), and without bounds x = y. The log density in
# y adds the log Jacobian, so its integral, log Z, is the same; the gradient
# follows by the chain rule. The estimators then never propose a point
# outside the support.

# `lower` and `upper` recycled to length d and checked: numbers (-Inf and
# Inf allowed, not NA), lower < upper everywhere.
check_bounds <- function(lower, upper, d) {
  one <- function(b, name, default) {
    if (is.null(b)) return(rep(default, d))
    if (!is.numeric(b) || anyNA(b) || !length(b) %in% c(1L, d))
      stop_no_call(sprintf("`%s` must be a number or a numeric vector of length %d (the dimension), with no NA; got %s.",
                           name, d, describe(b)))
    rep_len(as.double(b), d)
  }
  lower <- one(lower, "lower", -Inf)
  upper <- one(upper, "upper", Inf)
  bad <- which(!(lower < upper))
  if (length(bad))
    stop_no_call(sprintf("`lower` must be below `upper` in every coordinate; coordinate %d has lower %g and upper %g.",
                         bad[1], lower[bad[1]], upper[bad[1]]))
  list(lower = lower, upper = upper)
}

# The target in unconstrained coordinates: list(model, gradient (NULL
# without one), to_x (rows of Y -> rows of X), to_y (a point inside the box
# -> y; an error naming `start` outside), log_jac (rows of Y)). `model` and
# `gradient` keep the caller's `vectorized` contract.
bounded_target <- function(model, gradient, vectorized, lower, upper) {
  force(model)
  force(gradient)
  d <- length(lower)
  lo <- is.finite(lower) & !is.finite(upper)
  up <- !is.finite(lower) & is.finite(upper)
  two <- is.finite(lower) & is.finite(upper)
  width <- upper - lower
  as_rows <- function(Y) if (is.matrix(Y)) Y else matrix(Y, 1L)
  cols <- function(Y, j, v) rep(v[j], each = nrow(Y))
  to_x <- function(Y) {
    Y <- as_rows(Y)
    X <- Y
    if (any(lo)) X[, lo] <- cols(Y, lo, lower) + exp(Y[, lo])
    if (any(up)) X[, up] <- cols(Y, up, upper) - exp(Y[, up])
    if (any(two)) X[, two] <- cols(Y, two, lower) + cols(Y, two, width) * stats::plogis(Y[, two])
    X
  }
  log_jac <- function(Y) {
    Y <- as_rows(Y)
    J <- matrix(0, nrow(Y), d)
    if (any(lo | up)) J[, lo | up] <- Y[, lo | up]
    if (any(two)) J[, two] <- cols(Y, two, log(width)) + stats::plogis(Y[, two], log.p = TRUE) +
      stats::plogis(-Y[, two], log.p = TRUE)
    rowSums(J)
  }
  # dx/dy and d log J / dy, elementwise
  dx_dy <- function(Y) {
    D <- matrix(1, nrow(Y), d)
    if (any(lo)) D[, lo] <- exp(Y[, lo])
    if (any(up)) D[, up] <- -exp(Y[, up])
    if (any(two)) {
      p <- stats::plogis(Y[, two])
      D[, two] <- cols(Y, two, width) * p * (1 - p)
    }
    D
  }
  djac_dy <- function(Y) {
    D <- matrix(0, nrow(Y), d)
    if (any(lo | up)) D[, lo | up] <- 1
    if (any(two)) D[, two] <- 1 - 2 * stats::plogis(Y[, two])
    D
  }
  to_y <- function(x) {
    out <- which(!(x > lower & x < upper))
    if (length(out))
      stop_no_call(sprintf(paste0("`start` must lie strictly inside the bounds; coordinate %d is %g, ",
                                  "outside (%g, %g)."), out[1], x[out[1]], lower[out[1]], upper[out[1]]))
    y <- x
    y[lo] <- log(x[lo] - lower[lo])
    y[up] <- log(upper[up] - x[up])
    y[two] <- stats::qlogis((x[two] - lower[two]) / width[two])
    y
  }
  f <- if (vectorized) function(Y) model(to_x(Y)) + log_jac(Y)
       else function(y) model(as.vector(to_x(y))) + log_jac(y)
  g <- if (is.null(gradient)) NULL
       else if (vectorized) function(Y) {
         Y <- as_rows(Y)
         G <- gradient(to_x(Y))
         G <- if (is.matrix(G)) G else matrix(G, nrow(Y))
         G * dx_dy(Y) + djac_dy(Y)
       } else function(y) {
         Y <- as_rows(y)
         as.vector(gradient(as.vector(to_x(Y))) * dx_dy(Y) + djac_dy(Y))
       }
  list(model = f, gradient = g, to_x = to_x, to_y = to_y, log_jac = log_jac)
}

# The target of smc.function() moved off the bounds `lower`/`upper` (see
# bounded_target()), with `start` moved too: needs a Laplace base and `start`.
smc_bounds <- function(model, gradient, vectorized, lower, upper, base, start) {
  if (!(identical(base, "laplace") || identical(base, "laplace_normal")))
    stop_no_call(paste0("`lower`/`upper` need `base` = \"laplace\" or \"laplace_normal\" (fitted in ",
                        "the unconstrained coordinates); for a proposal `base`, leave them out and ",
                        "give a base that is 0 outside the support."))
  if (!is.numeric(start) || !length(start) || anyNA(start))
    stop_no_call(sprintf("`lower`/`upper` need `start`, a point inside the bounds, not %s.",
                         describe(start)))
  box <- check_bounds(lower, upper, length(start))
  bt <- bounded_target(model, gradient, vectorized, box$lower, box$upper)
  bt$start <- bt$to_y(as.double(start))
  bt$box <- box
  bt
}
