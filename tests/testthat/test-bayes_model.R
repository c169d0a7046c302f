# bayes_model(): a Bayesian model as prior + likelihood, checked at prior draws.

test_that("a valid model records its dimension, functions and gradients", {
  p <- normal_mean_model(1)
  expect_s3_class(p$model, "logz_bayes_model")
  expect_identical(p$model$dim, 1L)
  expect_true(p$model$has_gradient)
  expect_output(print(p$model), "prior x likelihood in 1 dimension")
  r <- regression_model(2, n = 10, d = 3)
  expect_identical(r$model$dim, 3L)
  expect_true(r$model$vectorized)
  nog <- normal_mean_model(1, gradients = FALSE)
  expect_false(nog$model$has_gradient)
  expect_output(print(nog$model), "random-walk Metropolis")
})

test_that("a prior sampler of the wrong shape or values is an error naming it", {
  lp <- function(x) sum(stats::dnorm(x, log = TRUE))
  ll <- function(x) -sum(x^2)
  expect_error(bayes_model(lp, ll, function(n) matrix(0, n, 3), dim = 2),
               "`prior_sampler\\(20\\)` must return a 20 x 2 matrix .* not a 20 x 3 matrix")
  expect_error(bayes_model(lp, ll, function(n) matrix(0, n - 1, 2)),
               "`prior_sampler\\(20\\)` must return a 20 x dim matrix")
  expect_error(bayes_model(lp, ll, function(n) letters[1:n]), "`prior_sampler\\(20\\)` must return")
  expect_error(bayes_model(lp, ll, function(n) rep(NaN, n)), "returned non-finite values")
  expect_error(bayes_model(lp, ll, function(n) stats::rnorm(n), dim = 2), "must return a 20 x 2 matrix")
})

test_that("a log-likelihood that is NaN (or -Inf everywhere) at prior draws is an error", {
  lp <- function(x) stats::dnorm(x, log = TRUE)
  smp <- function(n) stats::rnorm(n)
  set.seed(1)
  expect_error(bayes_model(lp, function(x) if (x > 0) NaN else -x^2, smp),
               "`log_lik` must be a finite number or -Inf at every prior draw; at \\(.*\\) it gave NaN")
  expect_error(bayes_model(lp, function(x) -Inf, smp), "`log_lik` is -Inf at all 20 prior draws")
  expect_error(bayes_model(lp, function(x) c(1, 2), smp), "`log_lik` must return one number per point")
  # a likelihood of zero at some draws is allowed
  expect_s3_class(bayes_model(lp, function(x) if (x > 0) -x^2 else -Inf, smp), "logz_bayes_model")
})

test_that("a log prior that is not finite at its own draws is an error", {
  expect_error(bayes_model(function(x) if (x > 0) -Inf else 0, function(x) 0,
                           function(n) stats::rnorm(n)),
               "`log_prior` is -Inf at the prior draw")
})

test_that("bad functions and gradients are errors naming the argument", {
  lp <- function(x) stats::dnorm(x, log = TRUE)
  ll <- function(x) -x^2
  smp <- function(n) stats::rnorm(n)
  expect_error(bayes_model(1, ll, smp), "`log_prior` must be a function, not")
  expect_error(bayes_model(lp, "a", smp), "`log_lik` must be a function")
  expect_error(bayes_model(lp, ll, NULL), "`prior_sampler` must be a function")
  expect_error(bayes_model(lp, ll, smp, gradient_prior = function(x) -x),
               "give both `gradient_prior` and `gradient_lik`")
  expect_error(bayes_model(lp, ll, smp, gradient_prior = 3, gradient_lik = function(x) -2 * x),
               "`gradient_prior` must be NULL or a function")
  expect_error(bayes_model(lp, ll, smp, gradient_prior = function(x) -x,
                           gradient_lik = function(x) 2 * x),
               "`gradient_lik` disagrees with the log density")
  expect_error(bayes_model(lp, ll, smp, n_check = 1), "`n_check`")
  expect_error(bayes_model(lp, ll, smp, vectorized = NA), "`vectorized`")
})

test_that("log_partition() without gradients takes the log joint from the Laplace base", {
  # y_i ~ N(theta, 1), theta ~ N(0, 2^2): log Z in closed form
  y <- c(0.3, 1.2, -0.4, 0.8)
  m <- bayes_model(function(th) stats::dnorm(th, 0, 2, log = TRUE),
                   function(th) sum(stats::dnorm(y, th, 1, log = TRUE)),
                   function(n) stats::rnorm(n, 0, 2))
  S <- diag(4) + 4
  exact <- -0.5 * (4 * log(2 * pi) + as.numeric(determinant(S)$modulus) + sum(y * solve(S, y)))
  set.seed(1)
  fit <- log_partition(m, particles = 100, replicates = 4, progress = FALSE)
  expect_identical(fit$target, "a Bayesian model (prior x likelihood, from a Laplace base)")
  expect_lt(abs(fit$log_z - exact), 3 * fit$se)
})

test_that("where the Laplace fit of the log joint fails, \"auto\" runs the power posteriors and says why", {
  # a flat likelihood under a uniform prior: log Z = 0, the Hessian is 0
  m <- bayes_model(function(th) if (th > 0 && th < 1) 0 else -Inf, function(th) 0,
                   function(n) stats::runif(n))
  set.seed(1)
  fit <- log_partition(m, particles = 50, replicates = 2, progress = FALSE)
  expect_identical(fit$target, "a Bayesian model (power posteriors from the prior)")
  expect_match(fit$base$how, "chosen because the Laplace fit of the log joint failed: the (Hessian|mode search)")
  expect_equal(fit$log_z, 0, tolerance = 1e-8)
})
