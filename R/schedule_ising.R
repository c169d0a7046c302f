# VAROPT and GMS13 schedules for Ising models (the estimates of g behind
# schedule_varopt() and schedule_gms13() when `model` is an ising model).
# On the AIS path of ais.ising(), log f_beta(x) = log f_0(x) + beta D(x) with
# D(x) = sum_(i,j) w_ij x_i x_j + (f - a0)'x, linear in beta, so the variance of
# a weight increment and d^2 log Z / d beta^2 are the same, g(beta) = Var_beta[D].

# D(x) for the columns of X (n x M).
ising_d <- function(model, a0, X) {
  e <- model$edges
  d <- drop(crossprod(model$field - a0, X))
  if (nrow(e)) d <- d + colSums(e$weight * X[e$from, , drop = FALSE] * X[e$to, , drop = FALSE])
  d
}

# n independent draws (columns) from the base with fields a0.
ising_base_draws <- function(model, a0, n) {
  v <- model$values
  p <- stats::plogis(a0 * (v[2] - v[1]))
  hi <- matrix(stats::runif(model$n * n) < p, model$n)
  hi * (v[2] - v[1]) + v[1]
}

# g(0) = Var_0[D] by Monte Carlo over base draws (exact would need the
# fourth moments of the couplings; 20,000 draws are cheap).
ising_g0 <- function(model, a0, n = 20000L) stats::var(ising_d(model, a0, ising_base_draws(model, a0, n)))

# The VAROPT pilot: AIS with the linear schedule `betas`, one step per call so
# that the weighted variance of D can be read after every transition.
ising_varopt_pilot <- function(model, betas, n_chains, sweeps_per_step, a0, threads, progress) {
  v <- model$values
  log_z0 <- sum(a0 * v[1] + softplus(a0 * (v[2] - v[1])))
  cm <- ising_c_model(model, order = ising_sweep_order(model), a0 = a0)
  K <- length(betas) - 1L
  state <- ising_ais_state(n_chains)
  g <- numeric(K + 1L)
  g[1] <- ising_g0(model, a0)
  mom <- matrix(0, K, 2L, dimnames = list(NULL, c("mean_d", "var_d")))
  pb <- progress_bar(progress, K)
  for (k in seq_len(K)) {
    if (k %% 50L == 0L) pb$update(k)
    control <- list(threads = threads, sweeps = sweeps_per_step, final = k == K, log_z0 = log_z0)
    res <- ising_ais_chunk(cm, betas[c(k, k + 1L)], state, control)
    state <- list(X = res$X, log_w = res$log_w, streams = res$streams)
    w <- exp(state$log_w - max(state$log_w))
    w <- w / sum(w)
    d <- ising_d(model, a0, state$X)
    m1 <- sum(w * d)
    mom[k, ] <- c(m1, sum(w * (d - m1)^2))
  }
  pb$close()
  # after the last increment the chains were not moved at beta = 1: their
  # weighted moments are still those of p_1
  g[-1] <- mom[, "var_d"]
  s <- ais_summary(state$log_w, log_z0)
  list(g = g, pilot = list(log_z = s$log_z, se = s$se, ess = s$ess, n_chains = n_chains,
                           moments = data.frame(beta = betas[-1], mom), g_type = "variance"))
}

# g at the GMS13 knots from Gibbs chains on the tempered model p_beta (an ising
# model with couplings beta w and fields beta f + (1 - beta) a0).
ising_g_knots <- function(model, kb, a0, n_chains, sweeps, burn_in, threads,
                          tick = function(i) NULL) {
  vapply(seq_along(kb), function(i) {
    beta <- kb[i]
    on.exit(tick(i))
    if (beta == 0) return(ising_g0(model, a0))
    e <- model$edges
    e$weight <- beta * e$weight
    mb <- new_ising(e, beta * model$field + (1 - beta) * a0, model$n, model$spins)
    x <- gibbs_sample(mb, n = n_chains * sweeps, sweeps = 1L, burn_in = burn_in,
                      n_chains = n_chains, threads = threads)
    stats::var(ising_d(model, a0, t(unclass(x))))
  }, numeric(1))
}

check_schedule_model <- function(model) {
  if (!is_rbm(model) && !is_ising(model))
    stop_no_call(sprintf("`model` must be an rbm or an ising model, not %s.", describe(model)))
  validate_model(model)
}
