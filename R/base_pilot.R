# The pilot runs behind the bases of logz_base(): the Gibbs marginals of the
# "model" base and the pilot AIS runs that choose the "auto" base of an RBM.

# The "auto" base of an RBM without base_rate: the model, visible, uniform
# and (n_h <= 64) mode bases, each scored by its own short AIS pilot on
# schedule_sm08(pilot_steps) (a third of `pilot_chains` chains each, the rest
# for the candidates within 5 nats + 3 se of the best); the one with the
# highest mean log weight is kept. The pilots draw from R's RNG before the
# estimator seeds its own streams, so the choice is independent of the main
# run, which stays unbiased for Z. A kept base whose pilot sd of log weights
# exceeds 2 gets a flag (added to every result by with_base()) and a warning.
rbm_auto_base <- function(model, n_chains, sweeps, smooth, threads, pilot_chains, pilot_steps) {
  mb <- rbm_mode_bound(model)   # R/base_mode.R (NULL when n_h > 64)
  cands <- list(model = logz_base(model, "model", n_chains, sweeps, smooth, threads),
                visible = logz_base(model, "visible", smooth = smooth),
                uniform = logz_base(model, "uniform"))
  if (!is.null(mb)) cands$mode <- mode_base(model, mb, smooth)
  betas <- as.double(schedule_sm08(pilot_steps))
  # Successive halving: every candidate gets a third of the chains; those more
  # than 5 nats + 3 se below the best mean log weight are dropped, the rest
  # get the remaining chains. log Z0 + log w of every chain, per candidate:
  pilot <- function(b, chains) {
    r <- ais_rbm_engine(model, betas, chains, 1L, b$bias, threads)
    r$log_z0 + r$log_w
  }
  first <- max(2L, pilot_chains %/% 3L)
  lw <- lapply(cands, pilot, first)
  mu <- vapply(lw, mean, 0)
  se <- vapply(lw, function(l) stats::sd(l) / sqrt(length(l)), 0)
  top <- which.max(mu)
  keep <- mu >= mu[top] - 5 - 3 * sqrt(se[top]^2 + se^2)
  if (pilot_chains > first)
    for (k in which(keep)) lw[[k]] <- c(lw[[k]], pilot(cands[[k]], pilot_chains - first))
  score <- vapply(lw, function(l) {
    w <- exp(l - max(l))
    c(elbo = mean(l), log_z = max(l) + log(mean(w)), ess = sum(w)^2 / sum(w^2),
      sd = stats::sd(l), chains = length(l))
  }, numeric(5))
  best <- which.max(ifelse(keep, score["elbo", ], -Inf))
  b <- cands[[best]]
  b$mode_bound <- mb
  other <- names(cands)[-best]
  sd_best <- score["sd", best]
  b$pilot <- data.frame(type = names(cands), mean_log_w = score["elbo", ],
                        log_z = score["log_z", ], ess = score["ess", ], sd_log_w = score["sd", ],
                        chains = score["chains", ], steps = pilot_steps, row.names = NULL)
  b$how <- sprintf(paste0("%s; chosen over the %s bases by pilot AIS (%d chains, %d steps; ",
                          "mean log weight %.2f vs %s), pilot sd of log weights %.2f"),
                   b$how, paste(other, collapse = ", "), pilot_chains, pilot_steps,
                   score["elbo", best], paste(sprintf("%.2f", score["elbo", other]),
                                              collapse = ", "), sd_best)
  if (sd_best > 2) {
    b <- flag_estimate(b, sprintf(paste0(
      "base pilot sd of log weights = %.2f > 2 (log-normal ESS/M ",
      "exp(-sd^2) < 0.02): the %s base may miss modes of the model and ",
      "the estimate be far too low; give the training data's base rates ",
      "(base = rbm_base_rate(data))"), sd_best, b$type),
      sprintf(paste0("logz_base(): the pilot AIS from the default (%s) base has sd of log ",
                     "weights %.2f > 2 (ESS %.1f of %d chains): the base misses the model's ",
                     "mass and the estimate may be far too low. Give the training data's ",
                     "base rates: base = rbm_base_rate(data)."),
              b$type, sd_best, score["ess", best], pilot_chains))
  }
  b
}

# Visible marginals of an RBM at beta = 1 from `chains` block-Gibbs chains of
# `sweeps` sweeps: the first half anneals from the uniform distribution to
# beta = 1 (the AIS engine, weights unused; it spreads the chains over the
# modes better than Gibbs from noise at beta = 1), the second half runs at
# beta = 1 and is Rao-Blackwellized: the mean of sigmoid(a + W h) over hidden
# states drawn from p(h | v).
rbm_pilot_marginals <- function(model, chains, sweeps, threads = 1L) {
  nv <- model$n_visible
  if (model$n_hidden == 0L) return(stats::plogis(model$a))
  mlist <- ais_rbm_model(model, numeric(nv))
  state <- ais_rbm_state(chains)
  control <- list(threads = threads, sweeps = 1L, final = FALSE, log_z0 = 0, kernel = "sparse",
                  moments = FALSE, crossover = ais_crossover())
  burn <- sweeps %/% 2L
  acc <- numeric(nv)
  kept <- 0L
  step <- function(betas) {
    res <- ais_rbm_chunk(mlist, betas, state, control)
    state <<- list(V = res$V, log_w = numeric(chains), streams = res$streams,
                   density = res$density)
  }
  step(seq(0, 1, length.out = burn + 1L))   # anneal from uniform
  for (s in seq_len(sweeps - burn)) {
    step(c(1, 1))
    pre <- crossprod(model$W, state$V) + model$b                  # n_h x chains
    H <- matrix(as.double(stats::runif(length(pre)) < stats::plogis(pre)), nrow(pre))
    acc <- acc + rowSums(stats::plogis(model$W %*% H + model$a))
    kept <- kept + chains
  }
  acc / kept
}

# Marginals P(x_i = hi) of an Ising model at beta = 1 from `chains` Gibbs
# chains of `sweeps` sweeps: the first half anneals from the uniform
# distribution to beta = 1 (the AIS engine, weights unused), the states of the
# second half are averaged.
ising_pilot_marginals <- function(model, chains, sweeps, threads = 1L) {
  burn <- sweeps %/% 2L
  order <- ising_sweep_order(model)
  ann <- ising_ais_chunk(ising_c_model(model, order = order, a0 = numeric(model$n)),
                         seq(0, 1, length.out = burn + 1L), ising_ais_state(chains),
                         list(threads = threads, sweeps = 1L, final = FALSE, log_z0 = 0))
  state <- list(X = ann$X, streams = ann$streams)
  control <- list(n_per = as.integer(sweeps - burn), sweeps = 1L, burn_in = 0L,
                  threads = threads)
  res <- ising_gibbs_chunk(ising_c_model(model, order = order), state, control)
  colMeans(res$samples == model$values[2])
}
