# Numerics at the edges of the double range.

test_that("EP's log Z does not change when every input is shifted by 1e8", {
  set.seed(3)
  d <- data.frame(x1 = rnorm(25), x2 = rnorm(25))
  d$y <- ifelse(d$x1 + 0.5 * d$x2 + rnorm(25, sd = 0.3) > 0, 1, -1)
  m <- gpc(y ~ x1 + x2, d, lengthscale = 0.8, amplitude = 2)
  s <- transform(d, x1 = x1 + 1e8, x2 = x2 - 1e8)
  ms <- gpc(y ~ x1 + x2, s, lengthscale = 0.8, amplitude = 2)
  # the shifted inputs are the same points up to their rounding (1e8 * 2^-52)
  expect_lt(max(abs(ms$K - m$K)), 1e-6)
  expect_equal(as.numeric(ep_log_z(ms)), as.numeric(ep_log_z(m)), tolerance = 1e-6)
})

test_that("inputs near the double range are accepted: the kernel is then the identity", {
  d <- data.frame(x = c(-3e200, -1e200, 2e200, 5e200), y = c(-1, 1, -1, 1))
  m <- gpc(y ~ x, d, lengthscale = 1, amplitude = 1.5)
  expect_equal(unname(m$K), diag(1.5^2, 4))
  # independent sites: p(y) = prod Phi(0) = 2^-n, which EP gets exactly
  expect_equal(as.numeric(ep_log_z(m)), 4 * log(0.5), tolerance = 1e-8)
  # on the scale of the inputs the kernel is the usual one
  m2 <- gpc(y ~ x, d, lengthscale = 2e200, amplitude = 1)
  expect_equal(unname(m2$K[1, 2]), exp(-0.5), tolerance = 1e-12)   # |x1 - x2| = lengthscale
  d$x <- d$x * 3e107   # |x| up to 1.5e308
  expect_true(all(is.finite(gpc(y ~ x, d, lengthscale = 1e308)$K)))
})

test_that("a uniform proposal whose width overflows has finite densities, masses and draws", {
  p <- proposal_uniform(-1e308, 1e308)
  expect_equal(proposal_log_density(p, c(-1e308, 0, 5e307)), rep(-log(2) - 308 * log(10), 3),
               tolerance = 1e-12)
  expect_equal(proposal_log_mass(p, 0, Inf), log(0.5), tolerance = 1e-12)
  expect_equal(proposal_log_mass(p, 5e307, 1e308), log(0.25), tolerance = 1e-12)
  set.seed(1)
  x <- proposal_sample(p, 2000)
  expect_true(all(x >= -1e308 & x <= 1e308))
  expect_gt(stats::ks.test(x / 1e308, "punif", -1, 1)$p.value, 1e-3)
  # and an ordinary uniform is unchanged
  expect_identical(proposal_log_density(proposal_uniform(2, 5), 3), -log(3))
  tg <- astar_target(p, log_lik = function(x) 0, bound = function(l, u) 0)
  expect_true(is.finite(astar_log_density(tg, 1e300)))
})

test_that("A* targets with infinite mass are refused at construction", {
  expect_error(astar_target(proposal_normal(0, 1), log_lik = function(x) Inf,
                            bound = function(l, u) Inf), "`log_lik` is \\+Inf")
  expect_error(astar_target(proposal_normal(0, 1), log_lik = function(x) -x^2,
                            bound = function(l, u) Inf), "`bound` must be a finite number")
})

test_that("random Ising generators name `coupling` and `field` when they are too large", {
  for (call in list(quote(ising_random(10, n_edges = 5, coupling = 1e308)),
                    quote(ising_grid(3, 3, coupling = 1e308, type = "mixed")),
                    quote(ising_clique(4, field = 1e308)))) {
    err <- tryCatch(eval(call), error = conditionMessage)
    expect_match(err, "`coupling`", fixed = TRUE)
    expect_false(grepl("edges$weight", err, fixed = TRUE))
  }
  expect_error(ising_random(10, n_edges = 5, coupling = 1e298), NA)
})

test_that("astar_example() names its own arguments, not the data it builds from them", {
  expect_error(astar_example("peaky", a = -1), "^`a` must")
  expect_error(astar_example("cauchy_regression", prior_sd = -1), "^`prior_sd` must")
  expect_error(astar_example("clutter", prior_sd = 0), "^`prior_sd` must")
})
