# R's own value of an expression at a point (data columns are vectors, so
# sum() over them is the sum over rows).
r_value <- function(expr, params, x, data = list()) {
  env <- if (identical(params, "x")) list(x = x) else as.list(stats::setNames(x, params))
  eval(expr, c(env, as.list(data)), baseenv())
}

exprs <- list(
  quote(x[1] * x[2] - x[3] / (1 + x[1]^2)),
  quote(exp(-abs(x[1] - 0.3)) + log(1 + x[2]^2) - sqrt(abs(x[3]))),
  quote(sin(3 * x[1]) * cos(x[2] - 1) + tanh(2 * x[3])),
  quote(-(x[1] - x[2])^3 + x[3]^-2),
  quote(abs(x[1])^1.5 - (x[2]^2 + 1)^x[3]),
  quote(sum(-0.5 * ((y - x[1] * exp(-x[2] * t)) / s)^2) + x[3] * pi),
  quote(sum(log(1 + (y - x[1] * t - x[2])^2)) - x[3]^4))
dat <- list(t = c(0.2, 1, 2.5, 4), y = c(1.9, 1.2, 0.4, -0.3), s = 0.5)

test_that("expressions evaluate at points as R evaluates them", {
  set.seed(1)
  for (e in exprs) {
    tg <- astar_target(proposal_uniform(rep(-3, 3), rep(3, 3)), expr = e, data = dat)
    x <- matrix(runif(30, -3, 3), 10)
    x[, 3] <- x[, 3] + (x[, 3] == 0)
    expect_equal(astar_log_lik(tg, x), apply(x, 1, r_value, expr = e, params = "x", data = dat),
                 tolerance = 1e-12)
  }
  tg <- astar_target(proposal_normal(c(0, 0)), expr = quote(-a^2 * b - exp(b)), params = c("a", "b"))
  expect_equal(astar_log_lik(tg, c(1.5, -0.5)), -1.5^2 * -0.5 - exp(-0.5))
})

test_that("interval enclosures contain the expression on random boxes", {
  set.seed(2)
  for (e in exprs) {
    tg <- astar_target(proposal_uniform(rep(-3, 3), rep(3, 3)), expr = e, data = dat)
    ok <- vapply(1:200, function(k) {
      a <- matrix(runif(6, -3, 3), 2)
      if (k %% 4 == 0) a[2, ] <- a[1, ] + 1e-3 * runif(3)        # small boxes
      lo <- pmin(a[1, ], a[2, ])
      hi <- pmax(a[1, ], a[2, ])
      iv <- logz:::interval_eval(tg$program, lo, hi)
      x <- proposal_sample(tg$proposal, 30, lo, hi)
      v <- apply(x, 1, r_value, expr = e, params = "x", data = dat)
      v <- v[is.finite(v)]
      tol <- 1e-9 * (1 + abs(v))
      all(v <= iv[, 2] + tol & v >= iv[, 1] - tol) && astar_bound(tg, lo, hi) == iv[, 2]
    }, logical(1))
    expect_true(all(ok), label = deparse(e)[1])
  }
})

test_that("enclosures are exact for monotone functions and find interior extrema", {
  p <- logz:::compile_expr(quote(exp(x) + 0), "x", 1L, NULL)
  expect_equal(logz:::interval_eval(p, -1, 2)[1, ], c(exp(-1), exp(2)))
  p <- logz:::compile_expr(quote(sin(x)), "x", 1L, NULL)
  expect_equal(logz:::interval_eval(p, 0, 2)[1, ], c(0, 1))
  expect_equal(logz:::interval_eval(p, 4, 5)[1, ], c(-1, sin(4)))
  expect_equal(logz:::interval_eval(p, -Inf, 0)[1, ], c(-1, 1))
  p <- logz:::compile_expr(quote(cos(x)), "x", 1L, NULL)
  expect_equal(logz:::interval_eval(p, 3, 3.5)[1, ], c(-1, cos(3.5)))
  p <- logz:::compile_expr(quote(x^2), "x", 1L, NULL)
  expect_equal(logz:::interval_eval(p, -1, 2)[1, ], c(0, 4))
  expect_equal(logz:::interval_eval(p, -Inf, -2)[1, ], c(4, Inf))
  p <- logz:::compile_expr(quote(1 / x), "x", 1L, NULL)
  expect_equal(logz:::interval_eval(p, -1, 2)[1, ], c(-Inf, Inf))
  p <- logz:::compile_expr(quote(-x^2 * 0 + log(x)), "x", 1L, NULL)
  expect_equal(logz:::interval_eval(p, -1, Inf)[1, ], c(-Inf, Inf))
})

test_that("expression targets sample correctly", {
  # o(x) = -2 (x - 1)^2 with a N(0, 1) proposal: exactly N(0.8, 0.2), Z = exp(-0.4)/sqrt(5)
  tg <- astar_target(proposal_normal(0, 1), expr = quote(-2 * (x - 1)^2))
  set.seed(3)
  s <- astar_sample(tg, 2000)
  expect_gt(ks.test(s$samples[, 1], pnorm, 0.8, sqrt(0.2))$p.value, 1e-3)
  expect_lt(abs(s$log_z - (-0.4 - 0.5 * log(5))), 4 * s$se)
  # a bimodal nonlinear regression in 2-D (Section 6.3): y = a sin(b t) + noise
  dat <- data.frame(t = c(0.5, 1.3, 2.1), y = c(0.9, 1.6, 0.2))
  tg <- astar_target(proposal_uniform(c(-3, 0), c(3, 3)),
                     expr = quote(sum(-0.5 * ((y - a * sin(b * t)) / 0.3)^2)),
                     params = c("a", "b"), data = dat)
  h <- 0.01
  g1 <- seq(-3 + h / 2, 3 - h / 2, by = h)
  g2 <- seq(h / 2, 3 - h / 2, by = h)
  grid <- as.matrix(expand.grid(g1, g2))
  w <- exp(astar_log_density(tg, grid)) * h^2
  set.seed(4)
  s <- astar_sample(tg, 2000)
  expect_lt(abs(s$log_z - log(sum(w))), 4 * s$se)
  cdf <- stats::approxfun(g1 + h / 2, cumsum(tapply(w, grid[, 1], sum)) / sum(w), yleft = 0, yright = 1)
  expect_gt(suppressWarnings(ks.test(s$samples[, 1], cdf))$p.value, 1e-3)
})

test_that("bad expressions are errors that say what is wrong", {
  p3 <- proposal_uniform(rep(0, 3), rep(1, 3))
  expect_error(astar_target(p3, expr = quote(lgamma(x[1]))), "`lgamma` with 1 argument")
  expect_error(astar_target(p3, expr = quote(x[1] + z)), "unknown symbol `z`")
  expect_error(astar_target(p3, expr = quote(x + 1)), "x\\[1\\], ..., x\\[3\\]")
  expect_error(astar_target(p3, expr = quote(x[4])), "literal j in 1..3")
  expect_error(astar_target(p3, expr = quote(y * x[1]), data = list(y = 1:3)),
               "data column `y` is used outside sum")
  expect_error(astar_target(p3, expr = quote(sum(sum(y))), data = list(y = 1:3)), "nested")
  expect_error(astar_target(p3, expr = quote(a), params = c("a", "b")), "`params` must be 3")
  expect_error(astar_target(p3, function(x) 0, expr = quote(x[1])), "not both")
  expect_error(astar_target(p3, expr = "x[1]"), "`expr` must be an R expression")
  expect_error(astar_target(p3, expr = quote(sum(y)), data = list(y = c(1, NA))), "`data\\$y`")
  expect_error(astar_target(p3, expr = quote(sum(y + w)), data = list(y = 1:3, w = 1:2)),
               "same length")
  # log of a negative number at a sampled point: NaN, an error naming the target
  tg <- astar_target(proposal_normal(0, 1), expr = quote(log(x)), name = "logx")
  expect_error(for (i in 1:10) astar_sample(tg, 10), "target 'logx'")
})

# TwoSum (Knuth): a + b = s + e exactly, with s = fl(a + b).
two_sum_err <- function(a, b) {
  s <- a + b
  bb <- s - a
  (a - (s - bb)) + (b - bb)
}

test_that("enclosures round outward: they hold the exact real value, not its rounding", {
  # a degenerate box [a, a] for x + b: round-to-nearest gives [fl(a + b), fl(a + b)],
  # which misses the exact sum whenever the addition rounds (most random pairs)
  set.seed(2)
  a <- rnorm(200)
  b <- rnorm(200) / 3
  inexact <- 0
  for (i in seq_along(a)) {
    tg <- astar_target(proposal_uniform(-10, 10), expr = bquote(x + .(b[i])), params = "x")
    iv <- logz:::interval_eval(tg$program, a[i], a[i])
    s <- a[i] + b[i]
    e <- two_sum_err(a[i], b[i])
    inexact <- inexact + (e != 0)
    expect_true(iv[1] < s || (iv[1] == s && e >= 0), label = sprintf("lower end, pair %d", i))
    expect_true(iv[2] > s || (iv[2] == s && e <= 0), label = sprintf("upper end, pair %d", i))
    expect_lte(iv[2] - iv[1], 4 * .Machine$double.eps * abs(s))   # and stay tight
  }
  expect_gt(inexact, 100)   # the test exercises rounded sums
  # libm results (exp, log, sin) are widened too: the point value lies strictly inside
  for (e in list(quote(exp(x)), quote(log(x)), quote(sin(x)), quote(sqrt(x)))) {
    tg <- astar_target(proposal_uniform(0.1, 10), expr = e, params = "x")
    x <- c(0.3, 1.7, 2.9)
    iv <- logz:::interval_eval(tg$program, x, x)
    v <- astar_log_lik(tg, matrix(x))
    expect_true(all(iv[, 1] < v & v < iv[, 2]), label = deparse(e))
  }
})
