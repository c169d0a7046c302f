# Simulated Bayesian logistic regressions for bench/smc/dimension.R and the
# evidence benchmark: n = 400 observations, an intercept and d - 1 standard
# normal covariates, coefficients drawn N(0, 1.5^2 / d) (so that the linear
# predictor has sd about 1.5 at every d), priors N(0, 1) on every coefficient.
# f and g take a matrix of points (one per row); f1 and g1 a single point.
logistic_model <- function(d, n = 400L, data_seed = 4200L + d) {
  set.seed(data_seed)
  X <- cbind(1, matrix(rnorm(n * (d - 1L)), n))
  beta <- rnorm(d, 0, 1.5 / sqrt(d))
  y <- rbinom(n, 1, plogis(drop(X %*% beta)))
  f <- function(B) {
    B <- matrix(B, ncol = d)
    E <- X %*% t(B)
    colSums(y * E - pmax(E, 0) - log1p(exp(-abs(E)))) - 0.5 * rowSums(B^2) - d / 2 * log(2 * pi)
  }
  g <- function(B) {
    B <- matrix(B, ncol = d)
    P <- stats::plogis(X %*% t(B))
    t(crossprod(X, y - P)) - B
  }
  list(name = sprintf("logistic d = %d", d), d = d, f = f, g = g,
       f1 = function(b) f(matrix(b, 1L)), g1 = function(b) drop(g(matrix(b, 1L))),
       start = rep(0, d))
}
