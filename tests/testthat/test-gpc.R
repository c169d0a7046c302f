# GP probit classification: the model, EP and AIS with elliptical slice sampling.

test_that("gpc() builds the RBF covariance, K + I and its Cholesky factor", {
  d <- gpc_data(8, 1)
  m <- gpc(y ~ x1 + x2, d, lengthscale = 0.7, amplitude = 1.3)
  X <- as.matrix(d[, c("x1", "x2")])
  K <- 1.3^2 * exp(-as.matrix(dist(X))^2 / (2 * 0.7^2))
  expect_equal(unname(m$K), unname(K), tolerance = 1e-12)
  expect_equal(m$sigma, m$K + diag(8))
  expect_equal(crossprod(m$chol), m$sigma, tolerance = 1e-12)
  expect_equal(m$y, d$y)
  expect_output(print(m), "8 points, 2 inputs")
})

test_that("factor, logical and -1/+1 responses give the same labels; factor inputs expand", {
  d <- gpc_data(8, 2)
  d$f <- factor(d$y, labels = c("neg", "pos"))
  d$l <- d$y > 0
  d$g <- factor(rep(c("u", "v"), 4))
  m1 <- gpc(y ~ x1, d, lengthscale = 1)
  m2 <- gpc(f ~ x1, d, lengthscale = 1)
  m3 <- gpc(l ~ x1, d, lengthscale = 1)
  expect_equal(m1$y, m2$y)
  expect_equal(m1$y, m3$y)
  expect_equal(m2$levels, c("neg", "pos"))
  m4 <- gpc(y ~ x1 + g, d, lengthscale = 1)
  expect_equal(ncol(m4$x), 3L)   # x1 and the two indicator columns of g (no intercept)
  m5 <- gpc(y ~ x1, d, lengthscale = 1, subset = 1:6)
  expect_equal(m5$n, 6L)
})

test_that("AIS with elliptical slice sampling agrees with the exact log Z", {
  skip_if_not_installed("mvtnorm")
  m <- gpc(y ~ x1 + x2, gpc_data(10, 4), lengthscale = 1.5, amplitude = 2)
  ex <- orthant_log_z(m)
  set.seed(10)
  fit <- ais(m, schedule_geometric(200), n_chains = 200, progress = FALSE)
  expect_s3_class(fit, "logz_ais")
  expect_lt(abs(fit$log_z - ex), 4 * fit$se + 0.02)
  expect_gt(fit$counts[["likelihood_evals"]], 0)
})

test_that("AIS for gpc is reproducible under set.seed and independent of threads", {
  m <- gpc(y ~ x1 + x2, gpc_data(10, 5), lengthscale = 1, amplitude = 1)
  set.seed(3)
  a <- ais(m, schedule_geometric(30), n_chains = 20, progress = FALSE)
  set.seed(3)
  b <- ais(m, schedule_geometric(30), n_chains = 20, threads = 2, progress = FALSE)
  expect_identical(a$log_weights, b$log_weights)
})

test_that("gpc() rejects bad input, naming the argument", {
  d <- gpc_data(8, 6)
  expect_error(gpc(y ~ x1, d, lengthscale = 0), "lengthscale")
  expect_error(gpc(y ~ x1, d, lengthscale = -1), "lengthscale")
  expect_error(gpc(y ~ x1, d), "lengthscale")
  expect_error(gpc(y ~ x1, d, lengthscale = 1, amplitude = 0), "amplitude")
  one <- d
  one$y <- 1
  expect_error(gpc(y ~ x1, one, lengthscale = 1), "two classes")
  one$f <- factor(rep("a", 8), levels = c("a", "b"))
  expect_error(gpc(f ~ x1, one, lengthscale = 1), "response")
  bad <- d
  bad$y[1] <- 2
  expect_error(gpc(y ~ x1, bad, lengthscale = 1), "-1/\\+1")
  na <- d
  na$x1[3] <- NA
  expect_error(gpc(y ~ x1, na, lengthscale = 1), "na.action")
  m <- gpc(y ~ x1, na, lengthscale = 1, na.action = na.omit)
  expect_equal(m$n, 7L)
  expect_error(ep_log_z(list()), "model")
  expect_error(ais(structure(list(), class = "gpc_not")), "model")
})

test_that("AIS with HMC from the prior and from EP's q match the orthant probability", {
  m <- gpc(y ~ x1 + x2, gpc_data(12, 3), lengthscale = 1, amplitude = 2)
  ex <- orthant_log_z(m)
  set.seed(1)
  fit_ep <- ais(m, schedule_geometric(100), n_chains = 100, kernel = "hmc", base = "ep",
                progress = FALSE)
  expect_s3_class(fit_ep, "logz_ais_function")
  expect_match(fit_ep$method, "EP")
  expect_lt(abs(fit_ep$log_z - ex), 4 * fit_ep$se + 0.02)
  expect_gt(fit_ep$ess, 80)                  # EP's q is close to the posterior
  expect_equal(dim(fit_ep$x), c(100L, 12L))
  set.seed(2)
  fit_pr <- ais(m, schedule_geometric(200), n_chains = 100, kernel = "hmc", base = "prior",
                progress = FALSE)
  expect_lt(abs(fit_pr$log_z - ex), 4 * fit_pr$se + 0.02)
  expect_output(print(fit_ep), "GP classifier")
  expect_error(ais(m, base = "ep", progress = FALSE), "needs `kernel = \"hmc\"`")
  expect_error(ais(m, kernel = "rwm", progress = FALSE), "kernel")
})
