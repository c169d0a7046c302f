# The built-in A* targets (R/astar_models.R): closed forms, rejection sampling and
# the bounds of every built-in model.

support <- function(tg) logz:::proposal_support(tg$proposal)

test_that("Gaussian mean: closed-form posterior and evidence for every bound type", {
  set.seed(371)
  x <- rnorm(200, 0.5, 1)
  prec <- 1 / 100 + length(x)                       # prior N(0, 10^2), unit noise
  post_mean <- sum(x) / prec
  log_z <- -0.5 * length(x) * log(2 * pi) - 0.5 * sum(x^2) + 0.5 * sum(x)^2 / prec -
    0.5 * log(100 * prec)
  lik <- numeric(3)
  for (i in 1:3) {
    b <- c("constant", "linear", "quadratic")[i]
    tg <- astar_target(proposal_normal(0, 10), "gaussian_mean", data = list(x = x, bound = b))
    s <- astar_sample(tg, 400, reuse_bounds = FALSE)
    expect_gt(ks.test(s$samples[, 1], pnorm, post_mean, 1 / sqrt(prec))$p.value, 1e-3)
    expect_lt(abs(s$log_z - log_z), 4 * s$se)
    lik[i] <- mean(s$cost$likelihood)
  }
  # tighter bounds, fewer likelihood evaluations (Figure 2b, large N)
  expect_true(lik[3] < lik[2] && lik[2] < lik[1])
  # the bounds are ordered on finite boxes: quadratic (tight) <= linear, constant
  tgs <- lapply(c("constant", "linear", "quadratic"), function(b)
    astar_target(proposal_normal(0, 10), "gaussian_mean", data = list(x = x, bound = b)))
  lo <- runif(50, -1, 1)
  hi <- lo + rexp(50)
  M <- sapply(tgs, astar_bound, lower = lo, upper = hi)
  expect_true(all(M[, 3] <= M[, 2] + 1e-9 & M[, 3] <= M[, 1] + 1e-9))
  grid_max <- mapply(function(l, h) max(astar_log_lik(tgs[[1]], seq(l, h, length.out = 2001))),
                     lo, hi)
  expect_equal(M[, 3], grid_max, tolerance = 1e-6)
})

test_that("nonlinear regression built-ins: A* agrees with rejection sampling", {
  tg <- astar_example("nonlinear", model = "rational", sd = 0.5, seed = 3)
  expect_output(print(tg), "built-in \"nonlinear_regression\"")
  expect_named(tg$theta, c("a", "b", "c"))
  set.seed(381)
  a <- astar_sample(tg, 400, reuse_bounds = FALSE)
  r <- rejection_sample(tg, 400)
  for (j in 1:3) expect_gt(suppressWarnings(ks.test(a$samples[, j], r$samples[, j]))$p.value, 1e-3)
  expect_lt(abs(a$log_z - r$log_z), 4 * sqrt(a$se^2 + r$se^2))
  # every model builds with the dimension of its parameter box and samples
  for (m in names(nonlinear_models())) {
    tg <- astar_example("nonlinear", model = m, sd = 1)
    expect_equal(tg$dim, length(nonlinear_models()[[m]]$params))
    s <- astar_sample(tg, 3)
    expect_true(all(is.finite(s$gumbel)))
  }
})

test_that("built-in bounds really bound the log-likelihood on random boxes", {
  set.seed(501)
  targets <- c(list(astar_example("peaky", a = 7), astar_example("clutter", D = 2),
                    astar_example("clutter", D = 3), astar_example("cauchy_regression", D = 2)),
               lapply(c("constant", "linear", "quadratic"),
                      function(b) astar_example("gaussian_mean", N = 50, bound = b)),
               lapply(names(nonlinear_models()),
                      function(m) astar_example("nonlinear", model = m, sd = 0.3)))
  for (tg in targets) {
    d <- tg$dim
    sup <- support(tg)
    ok <- vapply(1:200, function(k) {
      a <- proposal_sample(tg$proposal, 2)
      lo <- pmin(a[1, ], a[2, ])
      hi <- pmax(a[1, ], a[2, ])
      open <- runif(d) < 0.2                       # some sides run to the support's end
      lo[open] <- sup[1, open]
      hi[rev(open)] <- sup[2, rev(open)]
      M <- astar_bound(tg, lo, hi)
      x <- proposal_sample(tg$proposal, 20, lo, hi)
      all(astar_log_lik(tg, x) <= M + 1e-9 * (1 + abs(M)))
    }, logical(1))
    expect_true(all(ok), label = tg$name)
    # a point box: the bound is the value there
    x0 <- proposal_sample(tg$proposal, 1)[1, ]
    expect_equal(astar_bound(tg, x0, x0), astar_log_lik(tg, x0))
  }
})
