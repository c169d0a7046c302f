# Fixtures of the SMC and bayes_model tests: models whose evidence is known in
# closed form.

# Bayesian linear regression y = A b + e, e ~ N(0, sigma^2 I), b ~ N(0, tau^2
# I): the evidence is the N(0, sigma^2 I + tau^2 A A') density of y.
regression_model <- function(seed, n = 50, d = 10, tau = 2, sigma = 1) {
  set.seed(seed)
  A <- matrix(stats::rnorm(n * d), n, d)
  y <- as.vector(A %*% stats::rnorm(d, 0, tau) + stats::rnorm(n, 0, sigma))
  V <- sigma^2 * diag(n) + tau^2 * A %*% t(A)
  exact <- -0.5 * (n * log(2 * pi) + as.numeric(determinant(V)$modulus) + sum(y * solve(V, y)))
  resid <- function(B) matrix(y, nrow(B), n, byrow = TRUE) - B %*% t(A)
  model <- bayes_model(
    log_prior = function(B) -0.5 * rowSums(B^2) / tau^2 - d / 2 * log(2 * pi * tau^2),
    log_lik = function(B) -0.5 * rowSums(resid(B)^2) / sigma^2 - n / 2 * log(2 * pi * sigma^2),
    prior_sampler = function(k) matrix(stats::rnorm(k * d, 0, tau), k, d),
    gradient_prior = function(B) -B / tau^2,
    gradient_lik = function(B) resid(B) %*% A / sigma^2,
    vectorized = TRUE)
  list(model = model, exact = exact, y = y, A = A)
}

# y_i ~ N(theta, 1), i = 1..n, theta ~ N(0, tau^2): one parameter, a point at a time.
normal_mean_model <- function(seed, n = 20, tau = 2, gradients = TRUE) {
  set.seed(seed)
  y <- stats::rnorm(n, 0.5)
  V <- diag(n) + tau^2
  exact <- -0.5 * (n * log(2 * pi) + as.numeric(determinant(V)$modulus) + sum(y * solve(V, y)))
  model <- bayes_model(
    log_prior = function(th) stats::dnorm(th, 0, tau, log = TRUE),
    log_lik = function(th) sum(stats::dnorm(y, th, 1, log = TRUE)),
    prior_sampler = function(k) stats::rnorm(k, 0, tau),
    gradient_prior = if (gradients) function(th) -th / tau^2,
    gradient_lik = if (gradients) function(th) sum(y - th))
  list(model = model, exact = exact, y = y)
}

# A correlated Gaussian log density (vectorized) with its gradient and log Z.
correlated_gaussian <- function(d = 4, rho = 0.9, mu = seq_len(d) / d) {
  S <- rho^abs(outer(seq_len(d), seq_len(d), "-"))
  P <- solve(S)
  list(f = function(X) {
         D <- sweep(matrix(X, ncol = d), 2L, mu)
         -0.5 * rowSums((D %*% P) * D)
       },
       g = function(X) -sweep(matrix(X, ncol = d), 2L, mu) %*% P,
       log_z = 0.5 * d * log(2 * pi) + 0.5 * as.numeric(determinant(S)$modulus), d = d, mu = mu)
}
