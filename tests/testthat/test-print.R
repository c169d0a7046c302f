# print() and plot() of arm() results.

test_that("print and plot methods run", {
  set.seed(16)
  d <- data.frame(x1 = rnorm(10), x2 = rnorm(10))
  d$y <- ifelse(d$x1 + 0.7 * rnorm(10) > 0, 1, -1)
  m <- gpc(y ~ x1 + x2, d, lengthscale = 1.5, amplitude = 2)
  set.seed(17)
  a <- arm(m, particles = 60, progress = FALSE)
  expect_output(print(a), "ARM estimate")
  pdf(NULL)
  on.exit(dev.off())
  for (t in c("particles", "ess", "log_z")) expect_identical(plot(a, type = t), a)
})

test_that("print() reports the kept final particles, and only when kept", {
  set.seed(13)
  r <- random_rbm(8, 3, sd = 1)
  set.seed(14)
  fit <- arm(r, particles = 3000, move_steps = 3, progress = FALSE)
  set.seed(14)
  fit0 <- arm(r, particles = 3000, move_steps = 3, keep_particles = FALSE, progress = FALSE)
  expect_output(print(fit), "final weighted particles kept: 3000 x 8")
  expect_false(any(grepl("particles kept", capture.output(print(fit0)))))
})

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


test_that("an SMC run whose base reaches beta = 1 in one step prints no NaN", {
  S <- matrix(c(1, 0.9, 0.9, 1), 2)
  P <- solve(S)
  f <- function(x) -0.5 * sum(x * (P %*% x))
  g <- function(x) -as.vector(P %*% x)
  set.seed(1)
  fit <- smc(f, gradient = g, start = c(1, 1), particles = 200, progress = FALSE)
  expect_true(all(is.na(fit$diagnostics$accept)))   # the case: no move ran
  out <- capture.output(print(fit))
  expect_false(any(grepl("NaN", out)))
  expect_true(any(grepl("none run", out)))
})

test_that("an SMC run that moved its particles prints the kernel's acceptance", {
  f <- function(x) -sum((x - 3)^2) / 0.02
  set.seed(2)
  fit <- smc(f, gradient = function(x) -(x - 3) / 0.01, base = proposal_normal(c(0, 0), 3),
             particles = 100, progress = FALSE)
  out <- capture.output(print(fit))
  expect_true(any(grepl("mean acceptance [0-9]", out)))
  expect_false(any(grepl("NaN", out)))
})

test_that("an SMC print shows the path estimates only when finite and near log Z, else why not", {
  S <- matrix(c(1, 0.9, 0.9, 1), 2)
  P <- solve(S)
  f <- function(x) -0.5 * sum(x * (P %*% x))
  g <- function(x) -as.vector(P %*% x)
  set.seed(1)
  fit <- smc(f, gradient = g, start = c(1, 1), particles = 50, replicates = 2, progress = FALSE)
  out <- capture.output(print(fit))
  expect_true(any(grepl("same runs: TI [-0-9]", out)))
  expect_false(any(grepl("not shown", out)))
  # an absurd corrected TI (too few temperatures for its trapezoid rule) is not printed
  fit$ti_corrected <- c(log_z = 1549812763446, se = 2e11)
  fit$stepping_stone <- c(log_z = NA_real_, se = NA_real_)
  out <- capture.output(print(fit))
  expect_false(any(grepl("1549812763446|1.5498", out)))
  expect_true(any(grepl("TI corrected not shown: 1.55e\\+12 nats from log Z", out)))
  expect_true(any(grepl("stepping-stone NA", out)))
  expect_true(any(grepl("same runs: TI [-0-9]", out)))
})
