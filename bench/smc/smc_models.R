# The targets of bench/smc/smc.R and smc_coverage.R, with closed-form log Z.
regression <- function(seed, n = 50, d = 10, tau = 2) {
  set.seed(1000 + seed)
  A <- matrix(rnorm(n * d), n, d)
  y <- as.vector(A %*% rnorm(d, 0, tau) + rnorm(n))
  V <- diag(n) + tau^2 * tcrossprod(A)
  resid <- function(B) matrix(y, nrow(B), n, byrow = TRUE) - B %*% t(A)
  lp <- function(B) -0.5 * rowSums(B^2) / tau^2 - d / 2 * log(2 * pi * tau^2)
  ll <- function(B) -0.5 * rowSums(resid(B)^2) - n / 2 * log(2 * pi)
  gp <- function(B) -B / tau^2
  gl <- function(B) resid(B) %*% A
  list(d = d, log_z = -0.5 * (n * log(2 * pi) + as.numeric(determinant(V)$modulus) +
                                sum(y * solve(V, y))),
       f = function(B) lp(B) + ll(B), g = function(B) gp(B) + gl(B),
       model = bayes_model(lp, ll, function(k) matrix(rnorm(k * d, 0, tau), k, d), gp, gl,
                           vectorized = TRUE))
}
gaussian <- function(seed, d = 10, rho = 0.8) {
  S <- rho^abs(outer(seq_len(d), seq_len(d), "-")) * rep(seq(0.5, 2, length.out = d), each = d)
  S <- (S + t(S)) / 2
  P <- solve(S)
  list(d = d, log_z = 0.5 * d * log(2 * pi) + 0.5 * as.numeric(determinant(S)$modulus),
       f = function(X) -0.5 * rowSums((X %*% P) * X), g = function(X) -X %*% P)
}

