support <- function(tg) logz:::proposal_support(tg$proposal)

# Exact normalised CDF of a 1-D target, by numerical integration (of the
# density scaled by its maximum on a grid, so integrate() sees values near 1).
exact_cdf <- function(tg, lower = -Inf, upper = Inf) {
  g <- seq(max(lower, -50), min(upper, 50), length.out = 20001L)
  shift <- max(astar_log_density(tg, g))
  f <- function(x) exp(astar_log_density(tg, x) - shift)
  Z <- integrate(f, lower, upper, rel.tol = 1e-10, subdivisions = 2000L)$value
  list(log_z = log(Z) + shift,
       cdf = function(q) vapply(q, function(v) {
         if (v <= lower) return(0)
         integrate(f, lower, v, rel.tol = 1e-10, subdivisions = 2000L)$value / Z
       }, numeric(1)))
}

# A smooth 1-D R-function target: N(0, 1) proposal, o(x) = -2 (x - 1)^2 (so
# p is N(0.8, 0.2) exactly and Z = exp(-0.4) / sqrt(5)).
bump_target <- function() {
  astar_target(proposal_normal(0, 1), log_lik = function(x) -2 * (x - 1)^2,
               bound = function(lower, upper) -2 * (min(max(1, lower), upper) - 1)^2,
               name = "bump")
}

test_that("A* samples from 1-D targets pass KS tests against the exact CDF", {
  peaky <- astar_example("peaky", a = 10)
  ex <- exact_cdf(peaky, 0, Inf)
  set.seed(101)
  for (s in list(astar_sample(peaky, 1000, method = "drill_down"),
                 astar_sample(peaky, 1000),
                 astar_sample(peaky, 1000, reuse_bounds = FALSE),
                 rejection_sample(peaky, 500),
                 os_star_sample(peaky, 500),
                 os_star_sample(peaky, 500, refine = "largest_mass", reuse_bounds = FALSE))) {
    expect_gt(ks.test(s$samples[, 1], ex$cdf)$p.value, 1e-3)
  }
  clutter <- astar_example("clutter", D = 1)           # bimodal
  ex <- exact_cdf(clutter)
  set.seed(102)
  s <- astar_sample(clutter, 1000)
  expect_gt(ks.test(s$samples[, 1], ex$cdf)$p.value, 1e-3)
  expect_true(any(s$samples < -2) && any(s$samples > 1))   # both modes
  s <- os_star_sample(clutter, 500)
  expect_gt(ks.test(s$samples[, 1], ex$cdf)$p.value, 1e-3)
  cauchy <- astar_example("cauchy_regression", D = 1, N = 10)
  ex <- exact_cdf(cauchy, -10, 10)
  set.seed(103)
  s <- astar_sample(cauchy, 1000, reuse_bounds = FALSE)
  expect_gt(ks.test(s$samples[, 1], ex$cdf)$p.value, 1e-3)
  bump <- bump_target()
  set.seed(104)
  s <- astar_sample(bump, 1000)
  expect_gt(ks.test(s$samples[, 1], pnorm, 0.8, sqrt(0.2))$p.value, 1e-3)
})

test_that("Gumbel values are Gumbel(log Z) and log_z agrees with integration", {
  set.seed(201)
  for (tg in list(astar_example("peaky", a = 10), astar_example("clutter", D = 1), bump_target())) {
    lim <- support(tg)[, 1]
    truth <- exact_cdf(tg, lim[1], lim[2])$log_z
    s <- astar_sample(tg, 2000)
    expect_equal(s$se, pi / sqrt(6 * 2000))
    expect_lt(abs(s$log_z - truth), 4 * s$se)
    expect_gt(suppressWarnings(ks.test(s$gumbel, pgumbel, location = truth))$p.value, 1e-3)
    o <- os_star_sample(tg, 300)
    expect_lt(abs(o$log_z - truth), 4 * o$se + 1e-3)
  }
  expect_equal(exact_cdf(bump_target())$log_z, -0.4 - 0.5 * log(5), tolerance = 1e-6)
})

test_that("drill-down and A* give the same distribution", {
  tg <- astar_example("peaky", a = 50)
  set.seed(301)
  a <- astar_sample(tg, 1500, reuse_bounds = FALSE)
  b <- astar_sample(tg, 1500, method = "drill_down")
  expect_gt(suppressWarnings(ks.test(a$samples[, 1], b$samples[, 1]))$p.value, 1e-3)
  expect_gt(suppressWarnings(ks.test(a$gumbel, b$gumbel))$p.value, 1e-3)
  # drill-down needs a single live region per step
  expect_lt(mean(b$cost$likelihood), 10)
})

test_that("several lower bounds per node: same distribution, fewer bound evaluations", {
  tg <- astar_example("clutter", D = 1)
  ex <- exact_cdf(tg)
  set.seed(351)
  a <- astar_sample(tg, 1000, reuse_bounds = FALSE)
  b <- astar_sample(tg, 1000, reuse_bounds = FALSE, lower_bounds_per_node = 5)
  expect_gt(ks.test(b$samples[, 1], ex$cdf)$p.value, 1e-3)
  expect_gt(suppressWarnings(ks.test(b$gumbel, pgumbel, location = ex$log_z))$p.value, 1e-3)
  expect_lt(mean(b$cost$bound), mean(a$cost$bound))
  expect_gt(mean(b$cost$likelihood), mean(a$cost$likelihood))
  tg <- astar_example("cauchy_regression", D = 2, N = 10)
  set.seed(352)
  s <- astar_sample(tg, 400, lower_bounds_per_node = 3)
  expect_lt(abs(s$log_z - astar_sample(tg, 400, reuse_bounds = FALSE)$log_z), 5 * s$se)
  expect_error(astar_sample(tg, 5, lower_bounds_per_node = 0), "`lower_bounds_per_node`")
})

test_that("Poisson lower bounds per node: same distribution, mean count as asked", {
  tg <- astar_example("clutter", D = 1)
  ex <- exact_cdf(tg)
  set.seed(361)
  a <- astar_sample(tg, 800, reuse_bounds = FALSE)
  p <- astar_sample(tg, 800, reuse_bounds = FALSE, lower_bounds_per_node = 4.5,
                    lower_bounds_dist = "poisson")
  expect_gt(ks.test(p$samples[, 1], ex$cdf)$p.value, 1e-3)
  expect_gt(suppressWarnings(ks.test(p$gumbel, pgumbel, location = ex$log_z))$p.value, 1e-3)
  expect_gt(mean(p$cost$likelihood), mean(a$cost$likelihood))
  expect_lt(mean(p$cost$bound), mean(a$cost$bound))
  # the mean 1 with "poisson" is Algorithm 2 itself, draw for draw
  set.seed(362)
  f <- astar_sample(tg, 50, reuse_bounds = FALSE)
  set.seed(362)
  q <- astar_sample(tg, 50, reuse_bounds = FALSE, lower_bounds_dist = "poisson")
  expect_identical(f$samples, q$samples)
  expect_error(astar_sample(tg, 5, lower_bounds_per_node = 2.5), "`lower_bounds_per_node`")
  expect_error(astar_sample(tg, 5, lower_bounds_per_node = 0.5, lower_bounds_dist = "poisson"),
               "`lower_bounds_per_node`")
  expect_error(astar_sample(tg, 5, lower_bounds_dist = "binomial"), "`lower_bounds_dist`")
})

test_that("2-D samples match cell probabilities by grid integration (chi-square)", {
  tg <- astar_example("cauchy_regression", D = 2, N = 10)  # bimodal, support [-10, 10]^2
  h <- 0.02
  g <- seq(-10 + h / 2, 10 - h / 2, by = h)
  grid <- as.matrix(expand.grid(g, g))
  w <- exp(astar_log_density(tg, grid)) * h^2
  truth <- log(sum(w))
  cuts <- c(-10, -2.5, -1.5, 0, 1.5, 2.5, 10)
  cell <- function(x) interaction(cut(x[, 1], cuts), cut(x[, 2], cuts))
  prob <- tapply(w, cell(grid), sum) / sum(w)
  keep <- prob * 2000 >= 5
  set.seed(401)
  for (s in list(astar_sample(tg, 2000), os_star_sample(tg, 2000))) {
    counts <- table(cell(s$samples))
    obs <- c(counts[keep], sum(counts[!keep]))
    p <- c(prob[keep], sum(prob[!keep]))
    expect_gt(suppressWarnings(chisq.test(obs, p = p / sum(p)))$p.value, 1e-3)
  }
  s <- astar_sample(tg, 2000, reuse_bounds = FALSE)
  expect_lt(abs(s$log_z - truth), 4 * s$se)
  # marginals of the clutter posterior in 2-D against a 1-D grid marginal
  tg <- astar_example("clutter", D = 2)
  g <- seq(-10, 10, by = 0.02)
  grid <- as.matrix(expand.grid(g, g))
  w <- matrix(exp(astar_log_density(tg, grid)), length(g))
  set.seed(402)
  s <- astar_sample(tg, 1000)
  for (j in 1:2) {
    m <- if (j == 1) rowSums(w) else colSums(w)
    cdf <- stats::approxfun(g, cumsum(m) / sum(m), yleft = 0, yright = 1)
    expect_gt(suppressWarnings(ks.test(s$samples[, j], cdf))$p.value, 1e-3)
  }
})

test_that("runs are reproducible under set.seed and from the stored seed", {
  tg <- astar_example("clutter", D = 2)
  set.seed(601)
  a <- astar_sample(tg, 30)
  set.seed(601)
  b <- astar_sample(tg, 30)
  expect_identical(a$samples, b$samples)
  expect_identical(a$gumbel, b$gumbel)
  expect_identical(a$cost, b$cost)
  .Random.seed <<- a$seed
  expect_identical(astar_sample(tg, 30)$samples, a$samples)
  set.seed(602)
  o1 <- os_star_sample(tg, 10)
  set.seed(602)
  expect_identical(os_star_sample(tg, 10)$samples, o1$samples)
})

test_that("result objects have the documented structure and methods", {
  set.seed(701)
  s <- astar_sample(astar_example("clutter", D = 2), 25)
  expect_s3_class(s, c("logz_astar", "logz_samples", "logz_estimate"), exact = TRUE)
  expect_equal(dim(s$samples), c(25L, 2L))
  expect_named(s$cost, c("likelihood", "bound", "nodes"))
  # the root's point is fresh for every sample; with reused bounds a later
  # sample may need no new bound at all
  expect_true(all(s$cost$likelihood >= 1) && all(s$cost$bound >= 0) && s$cost$bound[1] >= 1)
  expect_equal(s$counts[["likelihood"]], sum(s$cost$likelihood))
  expect_equal(s$log_z, mean(s$gumbel) - 0.5772156649)
  expect_output(print(s), "25 exact samples by A\\*")
  expect_output(print(summary(s)), "evaluations per sample")
  expect_equal(nrow(log_z_trace(s)), 25L)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(s))
  expect_silent(plot(s, type = "cost"))
  expect_silent(plot(astar_sample(astar_example("peaky", a = 3), 50)))
  r <- rejection_sample(astar_example("peaky", a = 3), 20)
  expect_s3_class(r, "logz_rejection")
  expect_true(all(is.na(r$gumbel)))
  expect_equal(sum(r$cost$bound), 1)                  # one global bound
})

test_that("bad input errors name the argument", {
  tg <- astar_example("peaky", a = 2)
  expect_error(astar_sample(1, 5), "`target`")
  expect_error(astar_sample(tg, 0), "`n`")
  expect_error(astar_sample(tg, 5, method = "bfs"), "`method`")
  expect_error(astar_sample(tg, 5, reuse_bounds = NA), "`reuse_bounds`")
  expect_error(astar_sample(astar_example("clutter", D = 2), 5, method = "drill_down"), "1-D")
  expect_error(os_star_sample(tg, 5, refine = "x"), "`refine`")
  expect_error(astar_target(3, "peaky"), "`proposal`")
  expect_error(astar_target(proposal_normal(c(0, 0)), function(x) 0, function(l, u) 0, dim = 3),
               "`dim` is 3")
  expect_error(astar_target(proposal_normal()), "`log_lik` is missing")
  expect_error(astar_target(proposal_normal(), "nope"), "`log_lik` must be")
  expect_error(astar_target(proposal_normal(), function(x) 0), "`bound` must be a function")
  expect_error(astar_target(proposal_normal(), function(x) c(0, 1), function(l, u) 0),
               "single number")
  expect_error(astar_target(proposal_normal(), "peaky", data = list(a = 1)), "\\[0, Inf\\)")
  expect_error(astar_target(proposal_exponential(), "peaky", data = list(a = -1)), "`data\\$a`")
  expect_error(astar_target(proposal_exponential(), "peaky"), "`data\\$a` is missing")
  expect_error(astar_target(proposal_normal(c(0, 0)), "clutter", data = list(y = matrix(0, 3, 3))),
               "`data\\$y` must have 2 columns")
  expect_error(astar_target(proposal_normal(), "clutter", data = list(y = c(1, NA))), "`data\\$y`")
  expect_error(astar_target(proposal_normal(), "cauchy_regression",
                            data = list(X = matrix(1, 4, 1), y = 1:3)), "`data\\$y`")
  expect_error(astar_target(proposal_normal(), "cauchy_regression",
                            data = list(X = matrix(1, 3, 1), y = 1:3, prior_sd = 1)), "uniform")
  expect_error(astar_target(proposal_normal(), "gaussian_mean", data = list(x = 1, bound = "cubic")),
               "`data\\$bound`")
  expect_error(astar_target(proposal_normal(), "gaussian_mean", data = list(x = 1, sd = 0)),
               "`data\\$sd`")
  expect_error(astar_target(proposal_normal(c(0, 0)), "gaussian_mean", data = list(x = 1)), "1-D")
  expect_error(astar_target(proposal_uniform(0, 1), "nonlinear_regression",
                            data = list(f = "quartic", t = 1, y = 1)), "`data\\$f`")
  expect_error(astar_target(proposal_uniform(0, 1), "nonlinear_regression",
                            data = list(f = "cubic", t = 1, y = 1)), "3 parameters")
  expect_error(astar_target(proposal_uniform(c(0, 0, 0), c(1, 1, 1)), "nonlinear_regression",
                            data = list(f = "cubic", t = 1:2, y = 1)), "`data\\$y`")
  expect_error(astar_example("nonlinear", sd = -1), "`sd`")
  expect_error(astar_log_lik(astar_example("clutter", D = 2), c(1, 2, 3)), "`x`")
  expect_error(astar_bound(tg, 2, 1), "`lower` must not exceed")
  expect_error(astar_sample(tg, 1, max_nodes = NA), "`max_nodes`")
  # a bound of 0 for a log_lik of -20 everywhere: the search would be long
  flat <- astar_target(proposal_normal(), function(x) -20, function(l, u) 0, name = "flat")
  expect_error(astar_sample(flat, 1, max_nodes = 100), "target 'flat': more than max_nodes")
  expect_error(os_star_sample(flat, 1, max_nodes = 100), "target 'flat': more than max_nodes")
  expect_error(rejection_sample(astar_target(proposal_normal(), function(x) 0,
                                             function(l, u) if (is.finite(l + u)) 0 else Inf), 1),
               "finite bound")
})
