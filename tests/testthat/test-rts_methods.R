# print() and plot() of rts() results.

test_that("print and plot methods run", {
  set.seed(51)
  m <- ising_random(20, 40, coupling = 0.5, field = 0.3)
  set.seed(1)
  fit <- rts(m, K = 8, n_chains = 8, sweeps = 100, progress = FALSE)
  expect_output(print(fit), "RTS estimate")
  expect_output(print(fit), "log Z = [0-9.-]+ nats \\(se [0-9.]+ nats")
  expect_error(print(fit, digts = 3), "unused argument `digts`")
  pdf(NULL)
  on.exit(dev.off())
  for (type in c("ladder", "c_hat", "trace")) expect_identical(plot(fit, type = type), fit)
  expect_identical(plot(fit, exact = fit$log_z_k$log_z), fit)
})

test_that("plot() rejects a bad `exact`", {
  set.seed(61)
  m <- ising_random(20, 40, coupling = 0.5, field = 0.3)
  pdf(NULL)
  on.exit(dev.off())
  set.seed(1)
  fit <- rts(m, K = 6, n_chains = 6, sweeps = 20, progress = FALSE)
  expect_error(plot(fit, exact = 1:3), "`exact`")
})
