# GP classification data and the exact orthant-probability log Z (test-gpc.R,
# test-ep_log_z.R).

gpc_data <- function(n, seed) {
  set.seed(seed)
  d <- data.frame(x1 = rnorm(n), x2 = rnorm(n))
  d$y <- ifelse(d$x1 + 0.7 * rnorm(n) > 0, 1, -1)
  d
}

# log P(y_i z_i > 0 for all i), z ~ N(0, K + I), by mvtnorm
orthant_log_z <- function(m) {
  lo <- ifelse(m$y > 0, 0, -Inf)
  up <- ifelse(m$y > 0, Inf, 0)
  p <- mvtnorm::pmvnorm(lo, up, sigma = m$sigma,
                        algorithm = mvtnorm::GenzBretz(maxpts = 2e6, abseps = 1e-8))
  log(as.numeric(p))
}
