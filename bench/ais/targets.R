# Continuous targets with a closed-form log Z, shared by the kernel benches
# (kernels.R, kernels_rts.R), the default-call bench (laplace_flag.R) and the
# evidence bench (bench/evidence/common.R). Each returns a list: name, d, log_z,
# f and g (log density and gradient of a matrix of points, one per row), and
# `wide`, the sd of a wide normal proposal that covers the target.
# Sourced from the package root: source("bench/ais/targets.R").

# Bayesian linear regression: n = 50 rows, beta ~ N(0, 2^2 I), unit noise; the
# data are drawn from seed 1000 + seed.
regression <- function(d, seed, n = 50) {
  set.seed(1000 + seed)
  X <- matrix(rnorm(n * d), n, d); y <- drop(X %*% rnorm(d) + rnorm(n))
  list(name = sprintf("regression d = %d", d), d = d,
       log_z = mvtnorm::dmvnorm(y, rep(0, n), diag(n) + 4 * tcrossprod(X), log = TRUE),
       f = function(B) colSums(matrix(dnorm(y, X %*% t(B), 1, log = TRUE), n)) +
         rowSums(dnorm(B, 0, 2, log = TRUE)),
       g = function(B) t(crossprod(X, y - X %*% t(B))) - B / 4, wide = 2)
}
# A banana: x1 ~ N(0, s1^2), x2 | x1 ~ N(b x1^2 - b s1^2, 1), unnormalised;
# `mean` and `sd` are the target's own (for an oracle base).
banana <- function(b, seed = NULL, s1 = 10) {
  list(name = sprintf("banana b = %g", b), d = 2L, log_z = log(2 * pi * s1),
       mean = c(0, 0), sd = c(s1, sqrt(2 * b^2 * s1^4 + 1)),
       f = function(X) -X[, 1]^2 / (2 * s1^2) - (X[, 2] - b * X[, 1]^2 + s1^2 * b)^2 / 2,
       g = function(X) {
         r <- X[, 2] - b * X[, 1]^2 + s1^2 * b
         cbind(-X[, 1] / s1^2 + 2 * b * X[, 1] * r, -r)
       }, wide = 15)
}
# An unnormalised Gaussian with unit variances and correlation rho.
correlated <- function(d = 10L, rho = 0.9) {
  S <- matrix(rho, d, d)
  diag(S) <- 1
  P <- solve(S)
  list(name = sprintf("Gaussian d = %d, rho = %g", d, rho), d = d,
       log_z = d / 2 * log(2 * pi) + 0.5 * determinant(S)$modulus[[1]],
       f = function(X) -0.5 * rowSums((X %*% P) * X), g = function(X) -X %*% P)
}
# Two d-dimensional Gaussians (sd 1) at -1.5 and +1.5 in every coordinate,
# weights 0.3 / 0.7, times 5: log Z = log 5.
mixture <- function(seed = NULL, d = 10L) {
  m <- rep(1.5, d)
  comp <- function(X, mu) -0.5 * rowSums(sweep(X, 2, mu)^2) - d / 2 * log(2 * pi)
  list(name = "Gaussian mixture d = 10", d = d, log_z = log(5),
       f = function(X) {
         a <- log(0.3) + comp(X, -m); b <- log(0.7) + comp(X, m); mx <- pmax(a, b)
         log(5) + mx + log(exp(a - mx) + exp(b - mx))
       },
       g = function(X) {
         a <- log(0.3) + comp(X, -m); b <- log(0.7) + comp(X, m); mx <- pmax(a, b)
         wa <- exp(a - mx) / (exp(a - mx) + exp(b - mx))
         -(wa * sweep(X, 2, -m) + (1 - wa) * sweep(X, 2, m))
       }, wide = 3)
}
