# The region bounds of the built-in Cauchy regression target (src/astar_cauchy.c)
# and OS* with a refinement rate: validity of the bounds and exactness of the
# samples against quadrature.

cauchy_targets <- function(D, N = 10, seed = 1L)
  lapply(c(constant = "constant", linear = "linear", quadratic = "quadratic"), function(b)
    astar_example("cauchy_regression", D = D, N = N, bound = b, seed = seed))

test_that("linear and quadratic Cauchy bounds are upper bounds on random boxes", {
  set.seed(611)
  for (D in 1:3) for (tg in cauchy_targets(D, N = 12)) {
    gap <- vapply(1:150, function(k) {
      # boxes of all scales, centred near the modes (+-2) or anywhere
      ctr <- if (k %% 2) sample(c(-2, 2), 1) + rnorm(D, 0, 0.5) else runif(D, -10, 10)
      half <- 10^runif(D, -3, 1)
      lo <- pmax(ctr - half, -10)
      hi <- pmin(ctr + half, 10)
      P <- matrix(runif(40 * D, rep(lo, each = 40), rep(hi, each = 40)), 40, D)
      P <- rbind(P, lo, hi)                                  # corners too
      max(astar_log_lik(tg, P)) - astar_bound(tg, lo, hi)
    }, numeric(1))
    expect_true(all(gap <= 1e-9), label = sprintf("%s, D = %d: max(o - M) = %g", tg$name, D, max(gap)))
  }
  # on a box shrunk to a point every bound type is tight
  for (tg in cauchy_targets(2)) {
    x <- c(1.3, -0.7)
    expect_equal(astar_bound(tg, x, x), astar_log_lik(tg, x), tolerance = 1e-12)
  }
  # on small boxes the linear and quadratic bounds are tighter than the constant one
  tgs <- cauchy_targets(2)
  lo <- c(1.9, 1.9)
  hi <- c(2.1, 2.1)
  M <- vapply(tgs, astar_bound, 1, lower = lo, upper = hi)
  expect_lt(M[["linear"]], M[["constant"]] - 0.05)
  expect_lte(M[["quadratic"]], M[["linear"]] + 1e-12)
})

test_that("A* and OS* samples with every Cauchy bound type match quadrature (1-D and 2-D)", {
  # 1-D: the exact CDF by integration on [-10, 10]
  for (tg in cauchy_targets(1)) {
    f <- function(w) exp(astar_log_density(tg, w))
    Z <- integrate(f, -10, 10, subdivisions = 2000L, rel.tol = 1e-10)$value
    cdf <- function(q) vapply(q, function(v)
      integrate(f, -10, v, subdivisions = 2000L, rel.tol = 1e-10)$value / Z, 1)
    set.seed(621)
    for (s in list(astar_sample(tg, 500, reuse_bounds = FALSE),
                   os_star_sample(tg, 300, refine_rate = 0.3),
                   os_star_sample(tg, 300, refine_rate = 0.5, reuse_bounds = FALSE)))
      expect_gt(ks.test(s$samples[, 1], cdf)$p.value, 1e-3)
  }
  # 2-D (bimodal): the first coordinate's marginal CDF from a fine grid
  g <- seq(-10, 10, length.out = 801)
  for (tg in cauchy_targets(2)[c("linear", "quadratic")]) {
    ld <- matrix(astar_log_density(tg, as.matrix(expand.grid(g, g))), length(g))
    marg <- rowSums(exp(ld - max(ld)))
    cdf <- stats::approxfun(g, cumsum(marg) / sum(marg), yleft = 0, yright = 1)
    set.seed(622)
    s <- astar_sample(tg, 400)
    expect_gt(ks.test(s$samples[, 1], cdf)$p.value, 1e-3)
    expect_true(any(s$samples[, 1] < 0) && any(s$samples[, 1] > 0))   # both modes
    s <- os_star_sample(tg, 200, refine_rate = 0.2)
    expect_gt(ks.test(s$samples[, 1], cdf)$p.value, 1e-3)
  }
})

test_that("with reused bounds later samples cost about one likelihood evaluation and stay exact", {
  tg <- astar_example("cauchy_regression", D = 1, N = 20, bound = "quadratic", seed = 2001L)
  f <- function(w) exp(astar_log_density(tg, w))
  Z <- integrate(f, -10, 10, subdivisions = 2000L, rel.tol = 1e-10)$value
  cdf <- function(q) vapply(q, function(v)
    integrate(f, -10, v, subdivisions = 2000L, rel.tol = 1e-10)$value / Z, 1)
  set.seed(641)
  s <- astar_sample(tg, 600)
  expect_gt(ks.test(s$samples[, 1], cdf)$p.value, 1e-3)
  expect_gt(suppressWarnings(ks.test(s$gumbel, pgumbel, location = log(Z)))$p.value, 1e-3)
  # regions of the stored partition are walked without evaluating o, and a
  # leaf whose children are both pruned is not split: once the partition is
  # refined, a sample is about one likelihood and few bound evaluations
  late <- s$cost[301:600, ]
  expect_lt(mean(late$likelihood), 1.5)
  expect_lt(mean(late$bound), 0.5)
  set.seed(642)
  p <- astar_sample(tg, 400, lower_bounds_per_node = 3)
  expect_gt(ks.test(p$samples[, 1], cdf)$p.value, 1e-3)
  expect_gt(suppressWarnings(ks.test(p$gumbel, pgumbel, location = log(Z)))$p.value, 1e-3)
})

test_that("tighter Cauchy bounds cost fewer likelihood evaluations", {
  tgs <- cauchy_targets(2, N = 20)
  lik <- vapply(tgs, function(tg) {
    set.seed(631)
    mean(astar_sample(tg, 40, reuse_bounds = FALSE)$cost$likelihood)
  }, 1)
  expect_lt(lik[["linear"]], 0.8 * lik[["constant"]])
  expect_lt(lik[["quadratic"]], 0.8 * lik[["constant"]])
  # OS* refining on a fraction of rejections: fewer bound evaluations per sample
  set.seed(632)
  full <- os_star_sample(tgs$constant, 40, reuse_bounds = FALSE)
  set.seed(632)
  part <- os_star_sample(tgs$constant, 40, reuse_bounds = FALSE, refine_rate = 0.1)
  expect_lt(mean(part$cost$bound), mean(full$cost$bound))
  expect_gt(mean(part$cost$likelihood), mean(full$cost$likelihood))
  expect_match(part$method, "rate 0.1")
})

test_that("bad bound types and refinement rates are errors naming the argument", {
  expect_error(astar_example("cauchy_regression", D = 1, bound = "cubic"), "bound")
  dat <- list(X = matrix(1, 2, 1), y = c(1, -1), prior_sd = 2, bound = "cubic")
  expect_error(astar_target(proposal_uniform(-10, 10), "cauchy_regression", data = dat),
               "`data\\$bound` must be one of")
  tg <- astar_example("cauchy_regression", D = 1)
  for (r in list(0, 1.5, -1, NA, "a", c(0.5, 0.5)))
    expect_error(os_star_sample(tg, 1, refine_rate = r), "`refine_rate`")
  bad <- tg
  bad$par[3] <- 7
  expect_error(astar_sample(bad, 1), "par")
})
