# AIS with HMC for GP probit classification (the adaptive resample-move
# paper's AIS baselines), through ais.function() in the whitened coordinates
# v of f = A v, A = K^(1/2): the prior is N(0, I) there.

# The symmetric square root of K (round-off negative eigenvalues set to 0).
gpc_sqrt_k <- function(K) {
  e <- eigen(K, symmetric = TRUE)
  e$vectors %*% (sqrt(pmax(e$values, 0)) * t(e$vectors))
}

# log N(v; 0, I) + sum log Phi(y_i (A v)_i) at the rows of V, and its gradient.
gpc_v_target <- function(model, A) {
  y <- as.double(model$y)
  n <- length(y)
  list(f = function(V) {
         Fy <- (V %*% A) * rep(y, each = nrow(V))       # A symmetric: rows of V A are (A v)'
         rowSums(stats::pnorm(Fy, log.p = TRUE)) - rowSums(V^2) / 2 - n / 2 * log(2 * pi)
       },
       g = function(V) {
         Fy <- (V %*% A) * rep(y, each = nrow(V))
         r <- exp(stats::dnorm(Fy, log = TRUE) - stats::pnorm(Fy, log.p = TRUE))
         far <- Fy < -30                                 # Mills ratio: phi/Phi ~ -z - 1/z
         r[far] <- -Fy[far] - 1 / Fy[far]
         (r * rep(y, each = nrow(V))) %*% A - V
       })
}

# EP's Gaussian approximation in v: precision P = I + A diag(tau) A, mean
# P^-1 A nu, as a logz_laplace (Gaussian) for ais.function().
gpc_ep_base <- function(model, A) {
  ep <- ep_log_z(model, progress = FALSE)
  tau <- attr(ep, "site_tau")
  nu <- attr(ep, "site_nu")
  n <- length(tau)
  P <- diag(n) + A %*% (tau * A)
  R <- chol((P + t(P)) / 2)
  mode <- backsolve(R, backsolve(R, drop(A %*% nu), transpose = TRUE))
  C <- backsolve(R, diag(n))
  structure(list(mode = mode, chol_cov = C, log_det = sum(log(diag(C))), df = Inf,
                 log_f_mode = NA_real_, log_z_laplace = as.numeric(ep), converged = TRUE,
                 dim = n, evaluations = c(density = 0, gradient = 0)),
            class = "logz_laplace")
}

ais_gpc_hmc <- function(model, base, schedule, n_chains, sweeps_per_step, n_leapfrog,
                        progress, call) {
  A <- gpc_sqrt_k(model$K)
  tg <- gpc_v_target(model, A)
  n <- model$n
  b <- if (base == "ep") gpc_ep_base(model, A) else proposal_normal(rep(0, n), 1)
  fit <- ais.function(tg$f, base = b, schedule = schedule, n_chains = n_chains,
                      sweeps_per_step = sweeps_per_step, vectorized = TRUE, gradient = tg$g,
                      kernel = "hmc", n_leapfrog = n_leapfrog, progress = progress)
  fit$x <- fit$x %*% A
  fit$method <- sprintf("AIS (HMC from %s)", if (base == "ep") "EP's q" else "the prior")
  fit$base <- list(type = base, how = "given")
  fit$target <- "a GP classifier"
  fit$call <- call
  fit
}
