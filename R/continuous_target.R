# Continuous targets written in R: a log density, its optional gradient, the
# evaluator the C kernels call back, and the check that the two agree.

# The kernel to use: `kernel` as given, else HMC when there is a gradient and
# random-walk Metropolis when there is none (with a message from 5 dimensions up).
resolve_kernel <- function(kernel, gradient, d) {
  if (is.null(kernel)) {
    if (!is.null(gradient)) return("hmc")
    if (d >= 5L)
      message(sprintf(paste0("no `gradient` given: using random-walk Metropolis (kernel = \"rwm\"), ",
                             "which mixes slowly in %d dimensions; give `gradient` for HMC."), d))
    return("rwm")
  }
  kernel <- match_arg(kernel, "kernel", names(CONT_KERNEL))
  if (kernel != "rwm" && is.null(gradient))
    stop_no_call(sprintf("`kernel = \"%s\"` needs `gradient`, a function returning the gradient of the log density.",
                         kernel))
  kernel
}

# The acceptance rate a kernel's step is adapted towards (random walk: `rwm`,
# which differs between the estimators) and its starting log step in units of
# the position scales (random walk 2.38 / sqrt(d), MALA/HMC d^(-1/4)).
kernel_target_accept <- function(kernel, rwm)
  c(rwm = rwm, mala = 0.57, hmc = 0.65)[[kernel]]
kernel_log_step0 <- function(kernel, d)
  if (kernel == "rwm") log(2.38 / sqrt(d)) else log(1 / d^0.25)

# Stop when `arg`, which tunes HMC only, was given with another kernel.
check_hmc_only <- function(kernel, arg) {
  if (kernel != "hmc")
    stop_no_call(sprintf("`%s` applies only to `kernel = \"hmc\"`, not to the kernel of this run, \"%s\"; leave it out.",
                         arg, kernel))
  invisible(TRUE)
}

check_gradient_arg <- function(gradient) {
  if (!is.null(gradient) && !is.function(gradient))
    stop_no_call(sprintf("`gradient` must be NULL or a function returning the gradient of the log density, not %s.",
                         describe(gradient)))
  gradient
}

format_point <- function(x) paste(format(x, digits = 4), collapse = ", ")

# log f at the rows of X (M x d), validated; NA, NaN, +Inf and wrong lengths are errors.
# Evaluate `expr`, a call of the user's function `what` on points of dimension
# d: an error inside it is reported as that function's, with the dimension (a
# `start` or base of the wrong length shows up here).
user_call <- function(what, d, expr) {
  withCallingHandlers(expr, error = function(e) {
    msg <- conditionMessage(e)
    if (!startsWith(msg, "`") && !msg %in% time_limit_messages()) stop_no_call(sprintf("`%s` failed on a point of dimension %d: %s",
                                                     what, as.integer(d), msg))
  })
}

eval_log_density <- function(model, X, vectorized, d, lenient = FALSE) {
  v <- user_call("model", d, if (vectorized) model(X)
                             else lapply(seq_len(nrow(X)), function(i) model(X[i, ])))
  if (!vectorized) {
    bad <- which(lengths(v) != 1L | !vapply(v, is.numeric, logical(1)))
    if (length(bad))
      stop_no_call(sprintf(paste0("`model` must return one number per point; at point (%s) it gave %s",
                                  "%s."), format_point(X[bad[1], ]), describe(v[[bad[1]]]),
                           if (length(v[[bad[1]]]) > 1L)
                             " (a function of a matrix of points, one per row, needs `vectorized = TRUE`)"
                           else ""))
    v <- unlist(v, use.names = FALSE)
  }
  if (!is.numeric(v) || length(v) != nrow(X))
    stop_no_call(sprintf(paste0("`model` (vectorized) must return %d log densities for a ",
                                "%d x %d matrix, not %s: with `vectorized = TRUE` it is given a ",
                                "matrix of points, one per row, and returns one log density per row."),
                         nrow(X), nrow(X), d, describe(v)))
  v <- as.double(v)
  bad <- which(is.na(v) | v == Inf)
  if (length(bad) && lenient) v[bad] <- NA_real_
  else if (length(bad))
    stop_no_call(sprintf(paste0("`model` must return a finite log density or -Inf; at point ",
                                "(%s) it gave %s."), format_point(X[bad[1], ]), format(v[bad[1]])))
  v
}

# The gradient of log f at the rows of X where `ok`, as an M x d matrix (0
# elsewhere); must be of the right shape, and finite unless `lenient` (then
# rows with a non-finite gradient are returned as NA rows).
eval_gradient <- function(gradient, X, ok, vectorized, d, lenient = FALSE) {
  G <- matrix(0, nrow(X), d)
  if (!any(ok)) return(G)
  rows <- which(ok)
  if (vectorized) {
    g <- user_call("gradient", d, gradient(X[rows, , drop = FALSE]))
    if (!is.numeric(g) || !identical(as.integer(dim(g)), c(length(rows), d)))
      stop_no_call(sprintf(paste0("`gradient` (vectorized) must return a %d x %d matrix (one ",
                                  "gradient per row), not %s."), length(rows), d, describe(g)))
  } else {
    g <- user_call("gradient", d, lapply(rows, function(i) gradient(X[i, ])))
    bad <- which(lengths(g) != d | !vapply(g, is.numeric, logical(1)))
    if (length(bad))
      stop_no_call(sprintf("`gradient` must return %d numbers per point; at point (%s) it gave %s.",
                           d, format_point(X[rows[bad[1]], ]), describe(g[[bad[1]]])))
    g <- matrix(unlist(g, use.names = FALSE), ncol = d, byrow = TRUE)
  }
  bad <- which(!is.finite(rowSums(g)))
  if (length(bad) && lenient) g[bad, ] <- NA_real_
  else if (length(bad))
    stop_no_call(sprintf(paste0("`gradient` must be finite where the log density is finite; at ",
                                "point (%s) it gave (%s)."), format_point(X[rows[bad[1]], ]),
                         format_point(g[bad[1], ])))
  G[rows, ] <- g
  G
}

# The callback handed to C: (X, gradient code) -> M validated log densities,
# with an M x d "gradient" attribute for codes 1 (the gradient must be finite
# where log f is) and 2 (points of an HMC trajectory: where log f is NaN or +Inf
# or the gradient is not finite, log f is returned as -Inf, a divergence the
# kernel rejects, and
# counted in `divergences()`). `tick(m)` is told of every m points evaluated.
cont_evaluator <- function(model, gradient, vectorized, d, tick = function(m) NULL) {
  force(model)
  force(gradient)
  n_div <- 0
  fn <- function(X, code = 0L) {
    tick(nrow(X))
    v <- eval_log_density(model, X, vectorized, d, lenient = code == 2L)
    if (code > 0L) {
      nan <- is.na(v)
      v[nan] <- -Inf
      G <- eval_gradient(gradient, X, v > -Inf, vectorized, d, lenient = code == 2L)
      bad <- is.na(G[, 1L]) | nan
      if (any(bad)) {
        n_div <<- n_div + sum(bad)
        v[bad] <- -Inf
        G[bad, ] <- 0
      }
      attr(v, "gradient") <- G
    }
    v
  }
  attr(fn, "divergences") <- function() n_div
  fn
}

# Stop unless `gradient` agrees with central finite differences of `model` at
# the points (rows of X) where the log density is finite: every coordinate
# within 1e-3 (1 + |g|) plus the differences' own rounding error.
check_gradient_fd <- function(model, gradient, X, vectorized, d) {
  lf <- eval_log_density(model, X, vectorized, d)
  G <- eval_gradient(gradient, X, lf > -Inf, vectorized, d)
  for (i in which(lf > -Inf)) {
    x <- X[i, ]
    h <- 1e-5 * pmax(1, abs(x))
    P <- rbind(t(x + diag(h, d)), t(x - diag(h, d)))
    if (d == 1L) P <- matrix(c(x + h, x - h), ncol = 1L)
    v <- eval_log_density(model, P, vectorized, d)
    if (any(!is.finite(v))) next
    fd <- (v[seq_len(d)] - v[d + seq_len(d)]) / (2 * h)
    tol <- 1e-3 * (1 + abs(G[i, ])) + 1e-10 * (abs(lf[i]) + 1) / h
    j <- which(abs(fd - G[i, ]) > tol)
    if (length(j))
      stop_no_call(sprintf(paste0("`gradient` disagrees with the log density at (%s): coordinate %d ",
                                  "is %.6g by `gradient` but %.6g by finite differences. Check that ",
                                  "`gradient` is the gradient of `model` (the log density, not the ",
                                  "density or its negative)."),
                           format_point(x), j[1], G[i, j[1]], fd[j[1]]))
  }
  invisible(TRUE)
}
