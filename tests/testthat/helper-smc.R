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

# The hierarchical normal model of bridgesampling's examples with n groups:
# y_i ~ N(theta_i, 1), theta_i ~ N(mu, tau2), mu ~ N(0, 1), tau2 ~
# InvGamma(1, 1), on (mu, log tau2, theta) with the Jacobian of log tau2
# (vectorized, with its gradient). Its mode lies in the funnel's neck (small
# tau2), away from the posterior's mass. log Z: theta and mu integrated out
# in closed form (y ~ N(0, (tau2 + 1) I + J)), tau2 by quadrature.
hierarchical_normal <- function(n = 8, seed = 12345) {
  set.seed(seed)
  y <- stats::rnorm(n, stats::rnorm(n, 0, sqrt(0.5)), 1)
  ldig <- function(x) -2 * log(x) - 1 / x
  lz_int <- function(l) vapply(l, function(v) {
    s <- exp(v) + 1
    q <- (sum(y^2) - sum(y)^2 / (s + n)) / s
    -n / 2 * log(2 * pi) - (n - 1) / 2 * log(s) - 0.5 * log(s + n) - q / 2 + ldig(exp(v)) + v
  }, 0)
  m <- max(lz_int(seq(-10, 6, by = 0.01)))
  log_z <- m + log(stats::integrate(function(l) exp(lz_int(l) - m), -25, 10,
                                    rel.tol = 1e-12)$value)
  f <- function(P) {
    mu <- P[, 1]; lt <- P[, 2]; th <- P[, -(1:2), drop = FALSE]; t2 <- exp(lt)
    stats::dnorm(mu, 0, 1, log = TRUE) + ldig(t2) + lt +
      rowSums(stats::dnorm(th, mu, sqrt(t2), log = TRUE)) +
      rowSums(stats::dnorm(sweep(th, 2, y), 0, 1, log = TRUE))
  }
  g <- function(P) {
    mu <- P[, 1]; lt <- P[, 2]; th <- P[, -(1:2), drop = FALSE]; t2 <- exp(lt)
    r <- th - mu
    cbind(-mu + rowSums(r) / t2, -1 + 1 / t2 - n / 2 + rowSums(r^2) / (2 * t2),
          -r / t2 - sweep(th, 2, y))
  }
  list(f = f, g = g, log_z = log_z, start = c(0, log(0.5), rep(0, n)), d = n + 2L)
}

# A two-mode Gaussian mixture in d dimensions, weights 0.3 and 0.7 at -1.5
# and +1.5 in every coordinate, scaled so that log Z = log 5 (vectorized).
two_mode_mixture <- function(d = 6) {
  m <- rep(1.5, d)
  comp <- function(X, mu) -0.5 * rowSums(sweep(X, 2, mu)^2) - d / 2 * log(2 * pi)
  parts <- function(X) {
    a <- log(0.3) + comp(X, -m)
    b <- log(0.7) + comp(X, m)
    list(a = a, b = b, mx = pmax(a, b))
  }
  list(f = function(X) {
         p <- parts(X)
         log(5) + p$mx + log(exp(p$a - p$mx) + exp(p$b - p$mx))
       },
       g = function(X) {
         p <- parts(X)
         wa <- exp(p$a - p$mx) / (exp(p$a - p$mx) + exp(p$b - p$mx))
         -(wa * sweep(X, 2, -m) + (1 - wa) * sweep(X, 2, m))
       }, log_z = log(5), d = d, start = rep(0.1, d))
}
