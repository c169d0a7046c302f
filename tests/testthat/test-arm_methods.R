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
