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
