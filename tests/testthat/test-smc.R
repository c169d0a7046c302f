# smc(): adaptive tempering SMC on R log densities and Bayesian models.

test_that("a correlated Gaussian: the estimate matches the closed form", {
  tg <- correlated_gaussian(4, rho = 0.9)
  set.seed(1)
  fit <- smc(tg$f, gradient = tg$g, vectorized = TRUE, base = proposal_normal(rep(0, 4), 3),
             particles = 200, progress = FALSE)
  expect_s3_class(fit, c("logz_smc", "logz_estimate"))
  expect_true(fit$reliable)
  expect_lt(fit$se, 0.1)
  expect_lt(abs(fit$log_z - tg$log_z), 3 * fit$se + 0.01)
  expect_equal(length(fit$log_z_runs), 8L)
  # the final particles are (weighted) draws from the target
  w <- exp(fit$log_weights - max(fit$log_weights))
  expect_lt(max(abs(colSums(w * fit$x) / sum(w) - tg$mu)), 0.15)
  # each replicate's schedule runs from 0 to 1, increasing
  for (b in fit$schedules) {
    expect_equal(b[c(1, length(b))], c(0, 1))
    expect_true(all(diff(b) > 0))
  }
  # from the default Laplace base (a point at a time), fewer temperatures are needed
  f1 <- function(x) tg$f(matrix(x, 1))
  g1 <- function(x) as.vector(tg$g(matrix(x, 1)))
  set.seed(2)
  lap <- smc(f1, gradient = g1, start = rep(0, 4), particles = 100, progress = FALSE)
  expect_lt(abs(lap$log_z - tg$log_z), 3 * lap$se + 0.01)
  expect_lt(lap$counts[["temperatures"]], fit$counts[["temperatures"]])
  expect_identical(lap$base$type, "laplace")
})

test_that("random-walk Metropolis and MALA reach the same answer", {
  tg <- correlated_gaussian(2, rho = 0.5)
  for (k in c("rwm", "mala")) {
    set.seed(3)
    fit <- smc(tg$f, gradient = if (k == "mala") tg$g, vectorized = TRUE, kernel = k,
               base = proposal_normal(c(0, 0), 3), particles = 200, move_steps = 3,
               progress = FALSE)
    expect_identical(fit$kernel, k)
    expect_lt(abs(fit$log_z - tg$log_z), 3 * fit$se + 0.01, label = k)
    acc <- mean(fit$diagnostics$accept, na.rm = TRUE)
    expect_gt(acc, 0.15)
  }
})

test_that("Bayesian linear regression (d = 10): SMC, TI and stepping-stone match the evidence", {
  r <- regression_model(1)
  set.seed(6)
  fit <- smc(r$model, particles = 200, progress = FALSE)
  expect_true(fit$reliable)
  expect_lt(abs(fit$log_z - r$exact), 3 * fit$se + 0.02)
  expect_lt(fit$se, 0.3)
  expect_lt(abs(fit$ti_corrected[["log_z"]] - r$exact), 3 * fit$ti_corrected[["se"]] + 0.05)
  expect_lt(abs(fit$stepping_stone[["log_z"]] - r$exact), 3 * fit$stepping_stone[["se"]] + 0.05)
  # the plain trapezoid is biased low on this path (E_beta[log L] is concave in beta);
  # the correction removes most of it
  expect_lt(fit$ti[["log_z"]], fit$ti_corrected[["log_z"]])
  # the posterior mean from the final particles
  post_mean <- solve(crossprod(r$A) + diag(10) / 4, crossprod(r$A, r$y))
  w <- exp(fit$log_weights - max(fit$log_weights))
  expect_lt(max(abs(colSums(w * fit$x) / sum(w) - post_mean)), 0.05)
  expect_gt(fit$counts[["gradient_evaluations"]], 0)
  expect_equal(fit$counts[["replicates"]], 8)
})

test_that("the se covers the truth over seeds (|z| <= 3)", {
  p <- normal_mean_model(7)
  z <- vapply(1:20, function(s) {
    set.seed(100 + s)
    fit <- smc(p$model, particles = 100, replicates = 8, progress = FALSE)
    (fit$log_z - p$exact) / fit$se
  }, numeric(1))
  expect_gte(mean(abs(z) <= 3), 0.95)
  # no bias beyond the se: the mean z is near 0
  expect_lt(abs(mean(z)), 3 / sqrt(20))
  # and is not vastly too wide
  expect_gt(max(abs(z)), 0.2)
})

test_that("set.seed() reproduces a run, and `seed` restores it", {
  p <- normal_mean_model(8, gradients = FALSE)
  set.seed(9)
  a <- smc(p$model, particles = 50, replicates = 2, progress = FALSE)
  set.seed(9)
  b <- smc(p$model, particles = 50, replicates = 2, progress = FALSE)
  expect_identical(a$log_z, b$log_z)
  expect_identical(a$diagnostics, b$diagnostics)
  assign(".Random.seed", a$seed, envir = globalenv())
  c2 <- smc(p$model, particles = 50, replicates = 2, progress = FALSE)
  expect_identical(c2$log_z_runs, a$log_z_runs)
})

test_that("target_se adds replicates until the se is reached, or flags the cap", {
  p <- normal_mean_model(10)
  set.seed(11)
  fit <- smc(p$model, particles = 100, target_se = 0.02, progress = FALSE)
  expect_lte(fit$se, 0.02)
  expect_gte(fit$counts[["replicates"]], 8)
  expect_lt(abs(fit$log_z - p$exact), 3 * 0.02)
  expect_true(fit$reliable)
  set.seed(11)
  expect_warning(capped <- smc(p$model, particles = 100, target_se = 1e-4, max_evaluations = 1e5,
                               progress = FALSE), class = "logz_unreliable")
  expect_false(capped$reliable)
  expect_match(capped$flags, "^target se (1e-04|0.0001) not reached: se [0-9.e-]+ after [0-9]+ replicates \\(stopped by the evaluation cap")
  expect_output(print(capped), "target se (1e-04|0.0001)")
})

test_that("target_se = 0.01 on the d = 10 regression ends within 0.03 nats", {
  # the posterior as an R function, from the default Laplace base
  r <- regression_model(12)
  f <- function(B) r$model$log_prior(B) + r$model$log_lik(B)
  g <- function(B) r$model$gradient_prior(B) + r$model$gradient_lik(B)
  for (s in 13:15) {
    set.seed(s)
    fit <- smc(f, gradient = g, start = rep(0, 10), vectorized = TRUE, target_se = 0.01,
               progress = FALSE)
    expect_lte(fit$se, 0.01)
    expect_gte(fit$counts[["replicates"]], 8)
    expect_lt(abs(fit$log_z - r$exact), 0.03)
  }
})

test_that("ais() on a function runs to a target se too", {
  tg <- correlated_gaussian(2, rho = 0.5)
  set.seed(14)
  fit <- ais(tg$f, proposal_normal(c(0, 0), 3), schedule_geometric(30), n_chains = 50,
             vectorized = TRUE, target_se = 0.03, progress = FALSE)
  expect_s3_class(fit, "logz_ais_function")
  expect_lte(fit$se, 0.03)
  expect_gte(fit$counts[["replicates"]], 8)
  expect_length(fit$log_z_runs, fit$counts[["replicates"]])
  expect_length(fit$log_weights, 50 * fit$counts[["replicates"]])
  expect_lt(abs(fit$log_z - tg$log_z), 3 * fit$se + 0.01)
  set.seed(14)
  expect_warning(capped <- ais(tg$f, proposal_normal(c(0, 0), 3), schedule_geometric(30),
                               n_chains = 50, vectorized = TRUE, target_se = 1e-5,
                               max_time = 0.5, progress = FALSE), class = "logz_unreliable")
  expect_match(capped$flags, "stopped by the time cap max_time = 0.5 s", all = FALSE)
  expect_error(ais(tg$f, proposal_normal(c(0, 0), 3), vectorized = TRUE, target_se = -1),
               "`target_se`")
  expect_error(ais(tg$f, proposal_normal(c(0, 0), 3), vectorized = TRUE, target_se = 0.1,
                   max_time = "a"), "`max_time` must be a positive number")
})

test_that("log_partition() reaches smc for functions and picks it for Bayesian models", {
  p <- normal_mean_model(15)
  set.seed(16)
  a <- log_partition(p$model, particles = 100, progress = FALSE)
  expect_s3_class(a, "logz_smc")
  tg <- correlated_gaussian(2)
  set.seed(16)
  b <- log_partition(tg$f, method = "smc", gradient = tg$g, vectorized = TRUE,
                     start = c(0, 0), particles = 100, progress = FALSE)
  expect_s3_class(b, "logz_smc")
  expect_lt(abs(b$log_z - tg$log_z), 3 * b$se + 0.01)
  expect_error(log_partition(p$model, method = "ais"), "does not apply to a bayes model")
  expect_error(log_partition(p$model, particels = 10), "particels")
})

test_that("bad input is an error naming the argument", {
  p <- normal_mean_model(17, gradients = FALSE)
  tg <- correlated_gaussian(2)
  expect_error(smc(1), "`model` to be a function returning a log density or a bayes_model")
  expect_error(smc(p$model, kernel = "hmc"), "needs the model's `gradient_prior` and `gradient_lik`")
  expect_error(smc(p$model, cess = 1), "`cess`")
  expect_error(smc(p$model, particles = 5), "`particles`")
  expect_error(smc(p$model, resample_threshold = 0), "`resample_threshold`")
  expect_error(smc(p$model, move_steps = 0), "`move_steps`")
  expect_error(smc(p$model, target_se = 0), "`target_se`")
  expect_error(smc(p$model, particels = 100), "particels")
  expect_error(smc(tg$f, vectorized = TRUE), "`start`")
  expect_error(smc(tg$f, vectorized = TRUE, start = c(0, 0), kernel = "mala"), "needs `gradient`")
  expect_error(smc(tg$f, gradient = function(X) -2 * tg$g(X), vectorized = TRUE,
                   base = proposal_normal(c(0, 0), 2)), "`gradient` disagrees")
  expect_error(smc(function(x) NaN, base = proposal_normal(0, 1), progress = FALSE),
               "finite log density or -Inf")
  expect_error(smc(function(x) -Inf, base = proposal_normal(0, 1), progress = FALSE),
               "-Inf at every particle")
})

test_that("print, summary, glance and every plot type work", {
  p <- normal_mean_model(18)
  set.seed(19)
  fit <- smc(p$model, particles = 60, replicates = 2, progress = FALSE)
  out <- capture.output(print(fit))
  expect_match(out[1], "adaptive tempering SMC estimate of log Z for a Bayesian model")
  expect_true(any(grepl("TI corrected", out)))
  expect_true(any(grepl("stepping-stone", out)))
  expect_output(print(summary(fit)), "SMC estimate of log Z")
  expect_equal(as.data.frame(fit)$log_z, fit$log_z)
  for (t in c("schedule", "ess", "log_z", "ti", "accept", "estimate"))
    expect_silent(plot(fit, type = t))
  expect_error(plot(fit, type = "nope"), "`type`")
  one <- smc(p$model, particles = 60, replicates = 1, progress = FALSE)
  expect_true(is.na(one$se))
  expect_output(print(one), "no se: one replicate")
})

test_that("vectorized = TRUE gives the estimate of the same function a point at a time", {
  # a skewed 3-d target: a logistic likelihood term times a Gaussian prior
  a <- c(1, -0.5, 2)
  f1 <- function(x) -0.5 * sum(x^2) - log1p(exp(-sum(a * x) - 1))
  g1 <- function(x) -x + a * stats::plogis(-sum(a * x) - 1)
  fv <- function(X) -0.5 * rowSums(X^2) - log1p(exp(-drop(X %*% a) - 1))
  gv <- function(X) -X + outer(stats::plogis(-drop(X %*% a) - 1), a)
  set.seed(11)
  s <- smc(f1, gradient = g1, start = c(0, 0, 0), particles = 60, replicates = 3, progress = FALSE)
  set.seed(11)
  v <- smc(fv, gradient = gv, vectorized = TRUE, start = c(0, 0, 0), particles = 60,
           replicates = 3, progress = FALSE)
  expect_equal(v$log_z, s$log_z, tolerance = 1e-8)
  expect_equal(v$se, s$se, tolerance = 1e-8)
  # the same arithmetic row by row: the same evaluations, to the count (BLAS and
  # rowSums() round differently from sum(), which can move the optimiser's path)
  fr <- function(X) vapply(seq_len(nrow(X)), function(i) f1(X[i, ]), 0)
  gr <- function(X) t(vapply(seq_len(nrow(X)), function(i) g1(X[i, ]), a))
  set.seed(11)
  r <- smc(fr, gradient = gr, vectorized = TRUE, start = c(0, 0, 0), particles = 60,
           replicates = 3, progress = FALSE)
  expect_identical(r$log_z, s$log_z)
  expect_identical(r$counts, s$counts)
  # a vectorized model returning the wrong length is an error naming `vectorized`
  expect_error(smc(function(X) -0.5 * sum(X^2), vectorized = TRUE, start = c(0, 0), progress = FALSE),
               "`vectorized = TRUE`")
  expect_error(smc(function(X) -0.5 * rowSums(X^2)[-1], vectorized = TRUE, start = c(0, 0),
                   progress = FALSE), "vectorized")
  # a function of a matrix given without it: the error says so
  expect_error(smc(function(x) -0.5 * x^2, start = c(0, 0), progress = FALSE),
               "needs `vectorized = TRUE`")
})

test_that("a long run of a function a point at a time suggests vectorized = TRUE", {
  long <- list(counts = c(density_evaluations = 2e5, gradient_evaluations = 1e5), time = 20)
  expect_message(logz:::suggest_vectorized(long, FALSE), "vectorized = TRUE")
  expect_silent(logz:::suggest_vectorized(long, TRUE))
  short <- list(counts = c(density_evaluations = 5e4, gradient_evaluations = 1e4), time = 1)
  expect_silent(logz:::suggest_vectorized(short, FALSE))
})
