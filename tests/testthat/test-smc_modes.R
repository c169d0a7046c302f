# The multi-start mode search of smc() (R/smc_modes.R): a narrow mode far
# from the Laplace fit, found from the screen of over-dispersed points.

# 0.7 N(0, I) + 0.3 N(far, s^2 I) in d dimensions, vectorized, with its gradient
narrow_mixture <- function(d, dist, s) {
  far <- c(dist, rep(0, d - 1))
  comp <- function(X, mu, sd) -0.5 * rowSums(sweep(X, 2, mu)^2) / sd^2 - d / 2 * log(2 * pi * sd^2)
  parts <- function(X) {
    a <- log(0.7) + comp(X, rep(0, d), 1)
    b <- log(0.3) + comp(X, far, s)
    list(a = a, b = b, mx = pmax(a, b))
  }
  list(f = function(X) { p <- parts(X); p$mx + log(exp(p$a - p$mx) + exp(p$b - p$mx)) },
       g = function(X) {
         p <- parts(X)
         wa <- exp(p$a - p$mx) / (exp(p$a - p$mx) + exp(p$b - p$mx))
         -(wa * X + (1 - wa) * sweep(X, 2, far) / s^2)
       }, far = far, start = rep(0.1, d))
}

test_that("a narrow far mode is found from the screen, its share near 0.3", {
  m <- narrow_mixture(2, 5, 0.1)
  lb <- laplace_base(m$f, m$start, m$g, vectorized = TRUE, df = Inf)
  for (s in 1:4) {
    set.seed(s)
    r <- logz:::smc_mode_search(m$f, m$g, TRUE, lb, 24L)
    modes <- do.call(rbind, lapply(r$modes, `[[`, "mode"))
    expect_false(is.null(modes), info = paste("seed", s))
    hit <- which(sqrt(rowSums(sweep(modes, 2, m$far)^2)) < 0.01)
    expect_length(hit, 1L)
    lz <- vapply(c(list(lb), r$modes), `[[`, 0, "log_z_laplace")
    expect_equal(exp(lz[hit + 1L] - logz:::log_sum_exp(lz)), 0.3, tolerance = 0.02)
    # the search ran a second batch after finding it, and counted the screen
    expect_equal(r$search[["batches"]], 2)
    expect_gte(r$evaluations[["density"]], r$search[["screened"]])
  }
})

test_that("without another mode the search stops after one batch and the result says so", {
  f <- function(X) -rowSums(X^2) / 2
  g <- function(X) -X
  set.seed(1)
  fit <- smc(f, gradient = g, vectorized = TRUE, start = c(1, 1), particles = 50, replicates = 2,
             progress = FALSE)
  expect_identical(fit$modes_found, 0L)
  expect_equal(fit$mode_search[["batches"]], 1)
  expect_match(fit$mode_search_note, "found no other mode \\(24 starts from 4400 over-dispersed points")
})
