# print() methods of R/print.R beyond the snapshots of their estimators' tests.

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
