# ep_log_z(): EP's log Z of a GP classifier against the exact orthant probability.

test_that("EP log Z is close to the exact orthant probability", {
  skip_if_not_installed("mvtnorm")
  for (s in 1:3) {
    m <- gpc(y ~ x1 + x2, gpc_data(12, s), lengthscale = 1.5, amplitude = 2)
    ep <- ep_log_z(m)
    expect_true(attr(ep, "converged"))
    expect_lt(abs(ep - orthant_log_z(m)), 0.1)
  }
})

test_that("EP that stops at max_sweeps warns and says so", {
  set.seed(31)
  d <- data.frame(x = seq(-2, 2, length.out = 10), y = factor(rep(c("a", "b"), 5)))
  gp <- gpc(y ~ x, d, lengthscale = 1)
  expect_warning(z <- ep_log_z(gp, max_sweeps = 1), "did not converge")
  expect_false(attr(z, "converged"))
  expect_true(attr(suppressWarnings(ep_log_z(gp)), "converged"))
})

# EP's log Z with the second-order correction of Opper, Paquet & Winther (2013), against the
# exact orthant probability P(y_i z_i > 0), z ~ N(0, K + I).

orthant_closed_form <- function(m) {
  # n = 2 and 3: 1/4 + asin(r) / (2 pi) and 1/8 + sum asin(r_ij) / (4 pi), r the correlations
  # of y_i z_i
  S <- m$sigma * tcrossprod(m$y)
  R <- S / sqrt(tcrossprod(diag(S)))
  r <- R[upper.tri(R)]
  n <- nrow(R)
  log(if (n == 2L) 1 / 4 + asin(r) / (2 * pi) else 1 / 8 + sum(asin(r)) / (4 * pi))
}

test_that("for two points EP times (1 + R2) is the exact orthant probability", {
  for (s in 1:3) {
    set.seed(s)
    m <- gpc(y ~ x, data.frame(x = rnorm(2), y = c(-1, 1)), lengthscale = 1, amplitude = 1.5)
    e <- ep_log_z(m, correction = "second_order", progress = FALSE)
    ex <- orthant_closed_form(m)
    expect_gt(abs(attr(e, "ep") - ex), 1e-4)          # EP alone is off
    expect_equal(attr(e, "ep") + log1p(attr(e, "r2")), ex, tolerance = 1e-8)
    expect_equal(as.numeric(e), attr(e, "ep") + attr(e, "r2"))
    expect_true(attr(e, "series_converged"))
  }
})

test_that("the second-order correction brings EP much closer to the exact log Z", {
  for (s in 1:3) {
    set.seed(s)
    d <- data.frame(x1 = rnorm(3), x2 = rnorm(3), y = c(-1, 1, 1))
    m <- gpc(y ~ x1 + x2, d, lengthscale = 1.5, amplitude = 2)
    e <- ep_log_z(m, correction = "second_order", progress = FALSE)
    ex <- orthant_closed_form(m)
    expect_lt(abs(e - ex), abs(attr(e, "ep") - ex) / 20)
    expect_lt(abs(e - ex), 1e-4)
  }
  skip_if_not_installed("mvtnorm")
  set.seed(2)
  d <- data.frame(x1 = rnorm(10), x2 = rnorm(10))
  d$y <- ifelse(d$x1 + 0.7 * rnorm(10) > 0, 1, -1)
  m <- gpc(y ~ x1 + x2, d, lengthscale = 1.5, amplitude = 2)
  lo <- ifelse(m$y > 0, 0, -Inf)
  ex <- log(as.numeric(mvtnorm::pmvnorm(lo, ifelse(m$y > 0, Inf, 0), sigma = m$sigma,
                                        algorithm = mvtnorm::GenzBretz(maxpts = 2e6, abseps = 1e-9))))
  e <- ep_log_z(m, correction = "second_order", progress = FALSE)
  expect_lt(abs(e - ex), abs(attr(e, "ep") - ex) / 10)
})

test_that("ep_log_z() checks its correction arguments", {
  m <- gpc(y ~ x, data.frame(x = c(-1, 1, 0.5), y = c(-1, 1, 1)), lengthscale = 1)
  expect_null(attr(ep_log_z(m, progress = FALSE), "r2"))
  e <- ep_log_z(m, correction = "second_order", max_order = 4, progress = FALSE)
  expect_false(attr(e, "series_converged"))
  expect_identical(attr(e, "order"), 4L)
  expect_error(ep_log_z(m, correction = "third", progress = FALSE), "`correction`")
  expect_error(ep_log_z(m, correction = "second_order", max_order = 2, progress = FALSE),
               "`max_order`")
})
