# The targets of bench/smc/se_calibration.R, written as a user would (one
# point in, one log density out, with a gradient), each with its log Z:
# closed form where there is one, else a reference computed two independent
# ways (importance sampling from a Student-t at the Laplace fit with many
# draws, and a long smc() run), cached in bench/smc/calibration_refs.rds.
# Each is list(name, d, f, g (or NULL), start, log_z, harsh, args (extra
# arguments of smc())).

cal_gauss_ill <- function(d = 20, cond = 1e4) {
  set.seed(20)
  Q <- qr.Q(qr(matrix(rnorm(d * d), d)))
  ev <- exp(seq(0, log(cond), length.out = d))
  S <- Q %*% (ev * t(Q))
  S <- (S + t(S)) / 2
  P <- solve(S)
  m <- seq(-1, 1, length.out = d)
  # vectorised (one point a row) only to keep the bench's time down
  list(name = sprintf("Gaussian d %d, condition %g", d, cond), d = d,
       f = function(X) {
         D <- sweep(X, 2L, m)
         -0.5 * rowSums((D %*% P) * D)
       },
       g = function(X) -sweep(X, 2L, m) %*% P, start = rep(0, d),
       log_z = 0.5 * d * log(2 * pi) + 0.5 * sum(log(ev)), harsh = FALSE,
       args = list(vectorized = TRUE))
}

# y_i ~ N(x_i' b, 1), b ~ N(0, 4 I): the evidence in closed form
cal_conjugate_regression <- function(n = 40, d = 4) {
  set.seed(41)
  A <- cbind(1, matrix(rnorm(n * (d - 1)), n))
  y <- as.vector(A %*% c(1, -0.5, 0.3, 0)[seq_len(d)] + rnorm(n))
  V <- diag(n) + 4 * tcrossprod(A)
  list(name = sprintf("conjugate normal regression d %d", d), d = d,
       f = function(b) sum(dnorm(y, A %*% b, 1, log = TRUE)) + sum(dnorm(b, 0, 2, log = TRUE)),
       g = function(b) as.vector(crossprod(A, y - A %*% b)) - b / 4, start = rep(0, d),
       log_z = -0.5 * (n * log(2 * pi) + as.numeric(determinant(V)$modulus) + sum(y * solve(V, y))),
       harsh = FALSE)
}

# Poisson counts with a Gamma(a, b) prior on the rate, on the log-rate scale
# (unconstrained; Jacobian included): closed form
cal_poisson_gamma <- function() {
  y <- c(3, 1, 4, 1, 5, 9, 2, 6)
  a <- 2
  b <- 1
  n <- length(y)
  S <- sum(y)
  list(name = "Poisson-Gamma on log rate", d = 1L,
       f = function(u) sum(dpois(y, exp(u), log = TRUE)) + dgamma(exp(u), a, b, log = TRUE) + u,
       g = function(u) S - n * exp(u) + (a - 1) - b * exp(u) + 1, start = 0,
       log_z = a * log(b) - lgamma(a) + lgamma(a + S) - (a + S) * log(b + n) - sum(lgamma(y + 1)),
       harsh = FALSE)
}

glm_target <- function(name, X, y, link) {
  d <- ncol(X)
  sdp <- c(5, rep(2.5, d - 1))
  F <- if (link == "logit") stats::plogis else stats::pnorm
  dens <- if (link == "logit") stats::dlogis else stats::dnorm
  f <- function(b) {
    eta <- as.vector(X %*% b)
    sum(F(eta[y == 1], log.p = TRUE)) + sum(F(eta[y == 0], lower.tail = FALSE, log.p = TRUE)) +
      sum(dnorm(b, 0, sdp, log = TRUE))
  }
  g <- function(b) {
    eta <- as.vector(X %*% b)
    r <- ifelse(y == 1, exp(log(dens(eta)) - F(eta, log.p = TRUE)),
                -exp(log(dens(eta)) - F(eta, lower.tail = FALSE, log.p = TRUE)))
    as.vector(crossprod(X, r)) - b / sdp^2
  }
  list(name = name, d = d, f = f, g = g, start = rep(0, d), log_z = NA_real_, harsh = FALSE)
}

cal_logistic_infert <- function() {
  X <- cbind(1, scale(as.matrix(datasets::infert[, c("age", "parity", "induced", "spontaneous")])))
  glm_target("logistic regression (infert) d 5", X, datasets::infert$case, "logit")
}

cal_probit_pima <- function() {
  p <- MASS::Pima.tr
  X <- cbind(1, scale(as.matrix(p[, 1:7])))
  glm_target("probit regression (MASS::Pima.tr) d 8", X, as.integer(p$type == "Yes"), "probit")
}

# eight schools, non-centred: theta_j = mu + tau eta_j, tau on the log scale
# (half-Cauchy(0, 5) prior, Jacobian included), mu ~ N(0, 5^2); log Z by
# quadrature over log tau of the evidence with mu and eta integrated out
cal_schools <- function() {
  y <- c(28, 8, -3, 7, -1, 1, 18, 12)
  s <- c(15, 10, 16, 11, 9, 11, 10, 18)
  J <- 8
  f <- function(p) {
    mu <- p[1]
    lt <- p[2]
    eta <- p[3:(J + 2)]
    tau <- exp(lt)
    sum(dnorm(y, mu + tau * eta, s, log = TRUE)) + sum(dnorm(eta, log = TRUE)) +
      dnorm(mu, 0, 5, log = TRUE) + log(2) + dcauchy(tau, 0, 5, log = TRUE) + lt
  }
  g <- function(p) {
    mu <- p[1]
    lt <- p[2]
    eta <- p[3:(J + 2)]
    tau <- exp(lt)
    r <- (y - mu - tau * eta) / s^2
    c(sum(r) - mu / 25, sum(r * eta) * tau - 2 * tau^2 / (25 + tau^2) + 1, r * tau - eta)
  }
  lev <- function(lt) {
    tau <- exp(lt)
    v <- s^2 + tau^2
    # y ~ N(mu 1, diag(v)), mu ~ N(0, 25): integrate mu out
    V <- diag(v) + 25
    -0.5 * (J * log(2 * pi) + as.numeric(determinant(V)$modulus) + sum(y * solve(V, y))) +
      log(2) + dcauchy(tau, 0, 5, log = TRUE) + lt
  }
  grid <- seq(-15, 10, length.out = 20001)
  lv <- vapply(grid, lev, 0)
  h <- grid[2] - grid[1]
  lz <- log(sum(exp(lv - max(lv))) * h) + max(lv)
  list(name = "eight schools non-centred d 10", d = J + 2L, f = f, g = g,
       start = c(5, 1, rep(0, J)), log_z = lz, harsh = FALSE)
}

# harsh targets
cal_cauchy <- function(d = 2) {
  list(name = sprintf("product of Cauchy d %d", d), d = d,
       f = function(x) -sum(log1p(x^2)), g = function(x) -2 * x / (1 + x^2),
       start = rep(0.1, d), log_z = d * log(pi), harsh = TRUE)
}

cal_banana <- function(d = 5, b = 0.03) {
  # Haario et al.: x1 ~ N(0, 100), x2 + b (x1^2 - 100) ~ N(0, 1), the rest N(0, 1)
  list(name = sprintf("Haario banana b %g d %d", b, d), d = d,
       f = function(x) {
         y2 <- x[2] + b * (x[1]^2 - 100)
         -0.5 * (x[1]^2 / 100 + y2^2 + sum(x[-(1:2)]^2))
       },
       g = function(x) {
         y2 <- x[2] + b * (x[1]^2 - 100)
         c(-x[1] / 100 - y2 * 2 * b * x[1], -y2, -x[-(1:2)])
       },
       start = rep(0, d), log_z = 0.5 * d * log(2 * pi) + log(10), harsh = TRUE)
}

cal_student <- function(d = 4, nu = 3) {
  list(name = sprintf("multivariate t (%g df) d %d", nu, d), d = d,
       f = function(x) -(nu + d) / 2 * log1p(sum(x^2) / nu),
       g = function(x) -(nu + d) / (nu + sum(x^2)) * x, start = rep(0, d),
       log_z = lgamma(nu / 2) + d / 2 * log(nu * pi) - lgamma((nu + d) / 2), harsh = TRUE)
}

cal_rwm <- function() {
  m <- cal_conjugate_regression()
  m$name <- "conjugate regression d 4, no gradient (random walk)"
  m$g <- NULL
  m$harsh <- TRUE
  m
}

calibration_models <- function() list(
  gauss = cal_gauss_ill(), conj = cal_conjugate_regression(), poisgam = cal_poisson_gamma(),
  logit = cal_logistic_infert(), probit = cal_probit_pima(), schools = cal_schools(),
  cauchy = cal_cauchy(), banana = cal_banana(), student = cal_student(), rwm = cal_rwm())

# Importance sampling from a Student-t (4 df) at the Laplace fit: log Z and se
cal_is_reference <- function(m, n = 4e5, chunk = 2e4) {
  o <- stats::optim(m$start, function(b) -m$f(b), function(b) -m$g(b), method = "BFGS",
                    hessian = TRUE, control = list(reltol = 1e-12, maxit = 1000))
  C <- chol(solve(o$hessian))
  d <- m$d
  nu <- 4
  lw <- unlist(lapply(seq_len(n / chunk), function(k) {
    Zs <- matrix(rnorm(chunk * d), chunk) / sqrt(rchisq(chunk, nu) / nu)
    X <- sweep(Zs %*% C, 2L, o$par, "+")
    lq <- lgamma((nu + d) / 2) - lgamma(nu / 2) - d / 2 * log(nu * pi) - sum(log(diag(C))) -
      (nu + d) / 2 * log1p(rowSums(Zs^2) / nu)
    apply(X, 1L, m$f) - lq
  }))
  mx <- max(lw)
  w <- exp(lw - mx)
  c(log_z = log(mean(w)) + mx, se = sd(w) / mean(w) / sqrt(n))
}
