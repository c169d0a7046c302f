# R log densities and their gradients: bad gradients are clear errors.

test_that("gradient problems are clear errors; a missing gradient is said", {
  f <- function(x) -sum(x^2) / 2
  b <- proposal_normal(c(0, 0), 1)
  expect_error(ais(f, b, gradient = function(x) -x * 2, progress = FALSE),
               "`gradient` disagrees with the log density")
  expect_error(ais(f, b, gradient = function(x) -x[1], progress = FALSE), "must return 2 numbers")
  expect_error(ais(f, b, gradient = function(x) c(NaN, 1), progress = FALSE), "must be finite")
  expect_error(ais(function(X) -rowSums(X^2) / 2, b, gradient = function(X) X,
                   vectorized = TRUE, progress = FALSE), "disagrees")
  expect_error(ais(function(X) -rowSums(X^2) / 2, b, vectorized = TRUE,
                   gradient = function(X) -X[, 1], progress = FALSE), "must return a 10 x 2 matrix|x 2 matrix")
  expect_error(ais(f, b, kernel = "hmc", progress = FALSE), "needs `gradient`")
  expect_error(ais(f, b, kernel = "nuts", progress = FALSE), "kernel")
  expect_error(ais(f, b, gradient = "g", progress = FALSE), "`gradient` must be NULL or a function")
  expect_error(ais(f, b, gradient = function(x) -x, n_leapfrog = 0, progress = FALSE), "n_leapfrog")
  expect_message(ais(function(x) -sum(x^2) / 2, proposal_normal(rep(0, 5), 1), n_chains = 10,
                     schedule = schedule_linear(5), progress = FALSE), "no `gradient` given")
  expect_error(ais(f, "laplace", progress = FALSE), "with `start`")
  expect_error(ais(f, "laplac", start = c(0, 0), progress = FALSE), "`base` must be")
})
