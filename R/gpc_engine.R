# The engines behind ais() on a gpc model: the C chunk of AIS with Gibbs-like
# updates (src/gpc.c), and the pieces of AIS with HMC (the adaptive
# resample-move paper's AIS baselines) in the whitened coordinates v of
# f = A v, A = K^(1/2), where the prior is N(0, I); ais_gpc_hmc() in
# R/ais_function.R runs them through ais.function().

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

# One chunk of AIS with elliptical slice sampling for GP classification
# (src/gpc.c): the steps betas[1] -> ... -> betas[L + 1] for all chains. cm:
# list(A (n x n, A A' = K), y (n labels -1/+1)); state: list(F = NULL (drawn
# from the prior) or n x M latent values, log_w (M), streams (6 x M));
# control: list(threads, sweeps (per step), final, log_z0). Returns list(F,
# log_w, streams, trace (L x 2), sweeps (per chain), evals (likelihood
# evaluations)).
gpc_ais_chunk <- function(cm, betas, state, control) {
  y <- internal_double(cm$y, "y")
  n <- length(y)
  cm <- list(A = internal_double(cm$A, "A", as.double(n) * n), y = y)
  M <- length(state$log_w)
  state <- list(F = internal_chains(state$F, "F", n, M),
                log_w = internal_double(state$log_w, "log_w"),
                streams = internal_streams(state$streams, M))
  control <- internal_chunk_control(control)
  .Call(C_gpc_ais, cm, internal_double(betas, "betas"), state, control)
}
