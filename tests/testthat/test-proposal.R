test_that("box log masses match the distribution functions, also far in the tails", {
  p <- proposal_normal(1, 2)
  expect_equal(proposal_log_mass(p, -1, 4), log(pnorm(4, 1, 2) - pnorm(-1, 1, 2)))
  expect_equal(proposal_log_mass(p), 0)
  expect_equal(proposal_log_mass(p, 81, Inf), pnorm(81, 1, 2, lower.tail = FALSE, log.p = TRUE))
  expect_equal(proposal_log_mass(p, -Inf, -79), pnorm(-79, 1, 2, log.p = TRUE))
  expect_equal(proposal_log_mass(p, 81, 82),
               pnorm(81, 1, 2, lower.tail = FALSE, log.p = TRUE) +
                 log(-expm1(pnorm(82, 1, 2, lower.tail = FALSE, log.p = TRUE) -
                              pnorm(81, 1, 2, lower.tail = FALSE, log.p = TRUE))))
  expect_equal(proposal_log_mass(p, 3, 3), -Inf)
  expect_equal(proposal_log_mass(proposal_exponential(2), 1, 3), log(exp(-2) - exp(-6)))
  expect_equal(proposal_log_mass(proposal_exponential(2), 500, Inf), -1000)
  expect_equal(proposal_log_mass(proposal_uniform(-1, 3), 0, 1), log(1 / 4))
  expect_equal(proposal_log_mass(proposal_cauchy(0, 2), 1e8, Inf),
               pcauchy(1e8, 0, 2, lower.tail = FALSE, log.p = TRUE))
  expect_equal(proposal_log_mass(proposal_student(3, 1, 2), -2, 0.5),
               log(pt(-0.25, 3) - pt(-1.5, 3)))
  # products: sums over dimensions, one box per row
  pp <- c(proposal_normal(0, 1), proposal_exponential(1))
  expect_equal(proposal_log_mass(pp, rbind(c(0, 1), c(-1, 0)), rbind(c(Inf, 2), c(1, Inf))),
               c(log(0.5) + log(exp(-1) - exp(-2)), log(pnorm(1) - pnorm(-1))))
})

test_that("truncated draws stay in the box and follow the truncated CDF", {
  set.seed(21)
  cases <- list(
    list(p = proposal_normal(0, 1), lo = -0.5, hi = 2),
    list(p = proposal_normal(0, 1), lo = 30, hi = Inf),        # far tail
    list(p = proposal_normal(0, 1), lo = -Inf, hi = -25),
    list(p = proposal_exponential(3), lo = 2, hi = 2.5),
    list(p = proposal_cauchy(1, 0.5), lo = -Inf, hi = -3),
    list(p = proposal_student(2.5, 0, 1), lo = -1, hi = 10),
    list(p = proposal_uniform(-2, 2), lo = -1, hi = 0.5))
  for (cs in cases) {
    x <- proposal_sample(cs$p, 2000, cs$lo, cs$hi)[, 1]
    expect_true(all(x >= cs$lo & x <= cs$hi))
    lm <- proposal_log_mass(cs$p, cs$lo, cs$hi)
    cdf <- function(q) exp(proposal_log_mass(cs$p, rep(cs$lo, length(q)), pmax(q, cs$lo)) - lm)
    expect_gt(ks.test(x, cdf)$p.value, 1e-3)
  }
  set.seed(5)
  a <- proposal_sample(c(proposal_normal(), proposal_exponential()), 10)
  set.seed(5)
  expect_identical(proposal_sample(c(proposal_normal(), proposal_exponential()), 10), a)
  expect_equal(dim(a), c(10L, 2L))
})

test_that("log densities and combination", {
  p <- c(proposal_normal(c(0, 1), 2), proposal_student(4, 0, 3))
  expect_s3_class(p, "logz_proposal")
  expect_equal(p$dim, 3L)
  x <- c(0.3, -1, 2)
  expect_equal(proposal_log_density(p, x),
               dnorm(0.3, 0, 2, log = TRUE) + dnorm(-1, 1, 2, log = TRUE) + dt(2 / 3, 4, log = TRUE) - log(3))
  expect_equal(proposal_log_density(proposal_exponential(2), c(-1, 1)), c(-Inf, log(2) - 2))
  expect_output(print(p), "Normal\\(1, sd 2\\)")
})

test_that("bad proposal parameters are errors that name the argument", {
  expect_error(proposal_normal(0, -1), "`sd`")
  expect_error(proposal_normal(Inf, 1), "`mean`")
  expect_error(proposal_normal(NA, 1), "`mean`")
  expect_error(proposal_normal(1:3, 1:2), "`sd`.*recycle")
  expect_error(proposal_uniform(1, 0), "`lower`")
  expect_error(proposal_exponential(0), "`rate`")
  expect_error(proposal_cauchy(0, "a"), "`scale`")
  expect_error(proposal_student(), "`df`")
  expect_error(proposal_student(-1), "`df`")
  expect_error(c(proposal_normal(), 3), "proposals only")
  expect_error(proposal_log_mass(proposal_normal(1:2), c(0, 1, 2), c(1, 2, 3)), "`box_lower` must have length 2")
  expect_error(proposal_log_mass(proposal_normal(), 1, 0), "`box_lower` must not exceed")
  expect_error(proposal_log_density(1, 1), "`proposal`")
})
