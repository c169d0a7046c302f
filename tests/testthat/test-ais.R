test_that("AIS is unbiased for Z on a small RBM (mean of Z_hat / Z is 1)", {
  set.seed(10)
  m <- random_rbm(8, 5, sd = 0.8)
  truth <- exact_log_z(m)
  est <- vapply(1:40, function(i) {
    ais(m, schedule_linear(50), n_chains = 20, base = rep(0, 8), progress = FALSE)$log_z
  }, numeric(1))
  ratio <- exp(est - truth)
  # mean of the ratio within 4 standard errors of 1
  expect_lt(abs(mean(ratio) - 1), 4 * sd(ratio) / sqrt(length(ratio)))
  expect_lt(abs(mean(est) - truth), 0.05)
})

test_that("AIS matches the exact log Z on small RBMs within its standard error", {
  set.seed(11)
  for (dims in list(c(10, 6), c(6, 12))) {
    m <- random_rbm(dims[1], dims[2], sd = 0.6)
    fit <- ais(m, schedule_sigmoid(1000), n_chains = 200, progress = FALSE)
    truth <- exact_log_z(m)
    expect_lt(abs(fit$log_z - truth), max(4 * fit$se, 0.01))
    expect_true(fit$bounds[["lower"]] <= fit$log_z && fit$log_z <= fit$bounds[["upper"]])
  }
})

test_that("AIS with 100 chains and 10^4 betas is within 0.05 nats on a 20-hidden MNIST RBM", {
  fx <- mnist_rbm20()
  set.seed(12)
  # (on this model the linear schedule beats SM08 at K = 10^4: se 0.015 vs 0.038)
  fit <- ais(fx$model, schedule_linear(10000), n_chains = 100, threads = 2, progress = FALSE)
  expect_lt(abs(fit$log_z - fx$log_z), 0.05)
  expect_lt(fit$se, 0.025)          # 0.05 is beyond 2 se: the agreement is not luck
  expect_gt(fit$ess, 80)
  expect_equal(fit$counts[["gibbs_sweeps"]], 100 * 9999)
  # the bounds bracket the truth
  expect_true(fit$bounds[["lower"]] < fx$log_z && fx$log_z < fit$bounds[["upper"]])
  # the running estimate ends at the final estimate
  d <- log_z_trace(fit)
  expect_equal(nrow(d), 10000L)
  expect_equal(d$log_z[10000], fit$log_z)
  expect_equal(d$beta[10000], 1)
})

test_that("AIS results are identical for any thread count and kernel under set.seed", {
  fx <- mnist_rbm20()
  runs <- list()
  for (th in 1:2) for (kernel in c("dense", "sparse", "auto")) {
    set.seed(13)
    runs[[paste(th, kernel)]] <- ais(fx$model, schedule_linear(300), n_chains = 37,
                                     threads = th, kernel = kernel, progress = FALSE)
  }
  ref <- runs[[1]]
  for (r in runs[-1]) {
    # same chains, same draws: weights agree to rounding of the matrix products
    expect_equal(r$log_weights, ref$log_weights, tolerance = 1e-9)
  }
  # the default (auto, here sparse) and sparse kernels: bit-for-bit for any
  # thread count (dense: to rounding of BLAS blocking, checked above)
  expect_identical(runs[["1 sparse"]]$log_weights, runs[["2 sparse"]]$log_weights)
  expect_identical(runs[["1 auto"]]$log_weights, runs[["2 auto"]]$log_weights)
  expect_identical(runs[["1 auto"]]$log_z, runs[["2 auto"]]$log_z)
  # and the seed stored in the result reproduces the run
  assign(".Random.seed", ref$seed, envir = globalenv())
  again <- ais(fx$model, schedule_linear(300), n_chains = 37, kernel = "dense", progress = FALSE)
  expect_identical(again$log_weights, ref$log_weights)
  # different seeds give different runs
  set.seed(14)
  other <- ais(fx$model, schedule_linear(300), n_chains = 37, progress = FALSE)
  expect_false(isTRUE(all.equal(other$log_weights, ref$log_weights)))
})

test_that("sweeps_per_step and the base distribution are honoured", {
  set.seed(15)
  m <- random_rbm(9, 4, sd = 0.7)
  truth <- exact_log_z(m)
  fit <- ais(m, schedule_linear(200), n_chains = 100, sweeps_per_step = 3,
             base = rbm_base_rate(matrix(rbinom(90, 1, 0.3), 10, 9)), progress = FALSE)
  expect_equal(fit$counts[["gibbs_sweeps"]], 100 * 199 * 3)
  expect_lt(abs(fit$log_z - truth), max(4 * fit$se, 0.01))
  # K = 1: plain importance sampling from the base, exact log Z0 at beta = 0
  is1 <- ais(m, c(0, 1), n_chains = 5000, base = numeric(9), progress = FALSE)
  expect_equal(is1$log_z0, 9 * log(2) + 4 * log(2))
  expect_lt(abs(is1$log_z - truth), max(4 * is1$se, 0.02))
  # a model with zero couplings: every weight equals Z / Z0, so AIS is exact
  flat <- rbm(matrix(0, 5, 3), a = c(1, -1, 0, 2, 0.5), b = c(0, 1, -1))
  ex <- ais(flat, schedule_linear(10), n_chains = 7, base = flat$a, progress = FALSE)
  expect_equal(ex$log_z, exact_log_z(flat), tolerance = 1e-12)
  expect_equal(ex$ess, 7)
})

test_that("print, summary, confint, as.data.frame and plot methods", {
  set.seed(16)
  m <- random_rbm(6, 3)
  fit <- ais(m, schedule_linear(100), n_chains = 30, progress = FALSE)
  expect_s3_class(fit, c("logz_ais", "logz_estimate"))
  expect_output(print(fit), "AIS estimate of log Z")
  expect_output(print(fit), "30 chains, 100 steps \\(linear schedule\\)")
  expect_output(print(summary(fit)), "95% CI")
  ci <- confint(fit)
  expect_equal(unname(ci[1, ]), fit$log_z + c(-1, 1) * qnorm(0.975) * fit$se)
  expect_named(log_z_trace(fit), c("step", "beta", "ess", "log_z"))
  expect_true(all(c("log_z", "se", "method", "time", "counts", "diagnostics", "seed", "call")
                  %in% names(fit)))
  pdf(NULL)
  on.exit(dev.off())
  for (type in c("ess", "log_z", "weights", "schedule")) expect_silent(plot(fit, type = type))
  expect_identical(withVisible(print(fit))$visible, FALSE) |> capture.output() |> invisible()
})

test_that("ais() rejects bad input with a message naming the argument", {
  m <- rbm(matrix(0.1, 4, 2))
  expect_error(ais(m, schedule = c(0.2, 1)), "`schedule` must start at 0 and end at 1")
  expect_error(ais(m, schedule = c(0, 0.5, 0.4, 1)), "`schedule` must be non-decreasing")
  expect_error(ais(m, schedule = c(0, NA, 1)), "`schedule` must not contain NA")
  expect_error(ais(m, schedule_linear(10), n_chains = -5), "`n_chains` must be a whole number")
  expect_error(ais(m, schedule_linear(10), n_chains = 0), "`n_chains` must be a whole number")
  expect_error(ais(m, schedule_linear(10), n_chains = NA), "`n_chains` must be a whole number")
  expect_error(ais(m, schedule_linear(10), sweeps_per_step = 0), "`sweeps_per_step`")
  expect_error(ais(m, schedule_linear(10), threads = 0), "`threads` must be a whole number")
  expect_error(ais(m, schedule_linear(10), base = 1:3), "`base` must have length 4")
  expect_error(ais(m, schedule_linear(10), base = c(0, NA, 0, 0)), "`base` must not contain NA")
  expect_error(ais(m, schedule_linear(10), base = rbm(matrix(1, 4, 1))),
               "`base` must be a product of Bernoullis")
  expect_error(ais(m, schedule_linear(10), base = rbm(matrix(0, 3, 1))),
               "`base` has 3 visible units but `model` has 4")
  expect_error(ais(m, schedule_linear(10), base = "x"), "`base` must be NULL")
  expect_error(ais(m, schedule_linear(10), kernel = "fast"), "`kernel`")
  expect_error(ais(list(1)), "ais\\(\\) does not know how to handle `model`")
})
