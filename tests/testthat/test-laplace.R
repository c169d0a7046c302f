# laplace_base(): the mode, the Hessian fit and its errors; the Laplace base in ais().

test_that("a Gaussian target: the Laplace approximation is its exact log Z", {
  S <- matrix(c(2, 0.8, 0.8, 1), 2)
  Si <- solve(S)
  f <- function(x) -0.5 * sum((x - c(1, -1)) * (Si %*% (x - c(1, -1))))
  g <- function(x) -as.vector(Si %*% (x - c(1, -1)))
  truth <- log(2 * pi) + 0.5 * log(det(S))
  for (gr in list(g, NULL)) {
    lb <- laplace_base(f, c(0, 0), gr, df = Inf)
    expect_s3_class(lb, "logz_laplace")
    expect_equal(lb$mode, c(1, -1), tolerance = 1e-5)
    expect_equal(lb$chol_cov %*% t(lb$chol_cov), S, tolerance = 1e-4)
    expect_equal(lb$log_z_laplace, truth, tolerance = 1e-6)
  }
  expect_output(print(lb), "Gaussian base")
  expect_output(print(laplace_base(f, c(0, 0), g)), "Student-t \\(df 5\\)")
})

test_that("bad targets and arguments are clear errors", {
  f <- function(x) -sum(x^2) / 2
  expect_error(laplace_base(f), "`start` must be given")
  expect_error(laplace_base(f, c(NA, 1)), "`start`")
  expect_error(laplace_base("f", c(0, 1)), "`model` must be a function")
  expect_error(laplace_base(f, c(0, 1), gradient = 3), "`gradient` must be NULL or a function")
  expect_error(laplace_base(f, c(0, 1), df = -1), "`df`")
  expect_error(laplace_base(function(x) if (x[1] > 5) 0 else -Inf, c(0, 1)), "-Inf at `start`")
  # a flat direction: the Hessian is singular
  expect_error(laplace_base(function(x) -x[1]^2, c(0, 1), function(x) c(-2 * x[1], 0)),
               "not positive definite")
  # unbounded above: the mode search diverges or stops at a non-mode
  expect_error(laplace_base(function(x) sum(x), c(0, 1), function(x) c(1, 1)),
               "diverged|not positive definite")
  # gradients of the wrong shape or not finite
  expect_error(laplace_base(f, c(0, 1), function(x) 1), "must return 2 numbers")
  expect_error(laplace_base(f, c(0, 1), function(x) c(NA, 1)), "must be finite")
})

banana <- function(b, s1 = 10) {
  list(f = function(X) -X[, 1]^2 / (2 * s1^2) - (X[, 2] - b * X[, 1]^2 + s1^2 * b)^2 / 2,
       g = function(X) {
         r <- X[, 2] - b * X[, 1]^2 + s1^2 * b
         cbind(-X[, 1] / s1^2 + 2 * b * X[, 1] * r, -r)
       },
       log_z = log(2 * pi * s1))
}

test_that("ais() defaults with a gradient (Laplace base, HMC) on a banana: close, and flagged", {
  tg <- banana(0.03)
  set.seed(3)
  # the banana departs from its Laplace fit: flagged (ais.function's Reliability)
  expect_warning(fit <- ais(tg$f, gradient = tg$g, vectorized = TRUE, start = c(1, 1),
                            progress = FALSE),
                 "wider than its Laplace base", class = "logz_unreliable")
  expect_false(fit$reliable)
  expect_equal(fit$kernel, "hmc")
  expect_equal(fit$base$type, "laplace")
  expect_equal(attr(fit$schedule, "name"), "linear")
  expect_lt(abs(fit$log_z - tg$log_z), max(0.15, 3 * fit$se))
  expect_gt(fit$counts[["gradient_evaluations"]], 0)
  expect_equal(dim(fit$x), c(100L, 2L))
  expect_output(print(fit), "HMC \\(10 leapfrog steps\\)")
  expect_output(print(fit), "base: Student-t")
})

test_that("a Gaussian posterior from the Gaussian Laplace base is exact (constant weights)", {
  set.seed(5)
  n <- 30; d <- 4
  X <- matrix(rnorm(n * d), n, d); y <- drop(X %*% rnorm(d) + rnorm(n))
  truth <- mvtnorm::dmvnorm(y, rep(0, n), diag(n) + 4 * tcrossprod(X), log = TRUE)
  f <- function(b) sum(dnorm(y, X %*% b, 1, log = TRUE)) + sum(dnorm(b, 0, 2, log = TRUE))
  g <- function(b) drop(crossprod(X, y - X %*% b)) - b / 4
  fit <- ais(f, base = "laplace_normal", gradient = g, start = rep(0, d), n_chains = 20,
             schedule = schedule_linear(10), progress = FALSE)
  expect_equal(fit$log_z, truth, tolerance = 1e-6)
  expect_lt(fit$se, 1e-6)
  # the Student-t default: not exact, within its se
  fit_t <- ais(f, gradient = g, start = rep(0, d), progress = FALSE)
  expect_lt(abs(fit_t$log_z - truth), 4 * fit_t$se + 0.01)
})

test_that("rts() on an R log density: HMC from the Laplace base and MALA from a proposal", {
  tg <- banana(0.03)
  op <- options(logz.warn_unreliable = FALSE)  # short initial iterations: may flag ladder drift
  on.exit(options(op))
  set.seed(7)
  r <- rts(tg$f, gradient = tg$g, vectorized = TRUE, start = c(1, 1), K = 20, sweeps = 300,
           n_chains = 50, init_iter = 4, init_sweeps = 30, progress = FALSE)
  expect_equal(r$kernel, "hmc")
  expect_equal(r$base$type, "laplace")
  expect_lt(abs(r$log_z - tg$log_z), max(0.15, 3 * r$se))
  expect_gt(r$counts[["gradient_evaluations"]], 0)
  expect_equal(dim(r$x), c(50L, 2L))
  f <- function(X) -rowSums((X - 1)^2) / 2                # Z = 2 pi
  g <- function(X) -(X - 1)
  set.seed(8)
  r2 <- rts(f, proposal_normal(c(0, 0), 3), gradient = g, kernel = "mala", vectorized = TRUE,
            K = 20, sweeps = 300, n_chains = 50, init_sweeps = 100, progress = FALSE)
  expect_lt(abs(r2$log_z - log(2 * pi)), 4 * r2$se + 0.02)
  set.seed(8)
  again <- rts(f, proposal_normal(c(0, 0), 3), gradient = g, kernel = "mala", vectorized = TRUE,
               K = 20, sweeps = 300, n_chains = 50, init_sweeps = 100, progress = FALSE)
  expect_identical(again$log_z, r2$log_z)
  expect_error(rts(f, proposal_normal(c(0, 0), 3), kernel = "hmc", vectorized = TRUE,
                   progress = FALSE), "needs `gradient`")
  expect_error(rts(f, vectorized = TRUE, progress = FALSE), "with `start`")
})

test_that("a wrong gradient is named before the mode search can mislead", {
  f <- function(x) -sum(x^2) / 2
  expect_error(laplace_base(f, start = c(1, 2), gradient = function(x) x),
               "`gradient` disagrees with the log density at \\(1, 2\\)")
  expect_error(smc(f, start = c(1, 2), gradient = function(x) x, progress = FALSE),
               "`gradient` disagrees with the log density at \\(1, 2\\)")
})

test_that("a mode search that reaches the edge of the support says so", {
  # half-normal: the mode is at the bound 0, the gradient NaN beyond it
  f <- function(x) if (x > 0) -x^2 / 2 else -Inf
  g <- function(x) if (x > 0) -x else NaN
  expect_error(laplace_base(f, start = 1, gradient = g),
               "the mode search left the support.*`lower`/`upper`")
  expect_error(laplace_base(f, start = 1), "the mode search left the support")
  # stated bounds: no error, the fit is in log x
  set.seed(1)
  fit <- smc(f, gradient = g, start = 1, lower = 0, particles = 50, replicates = 2,
             progress = FALSE)
  expect_lt(abs(fit$log_z - log(sqrt(2 * pi) / 2)), 4 * fit$se + 0.01)
})
