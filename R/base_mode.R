# The mode search of the RBM bases: greedy ascent of the hidden marginal from
# random starts, the rigorous lower bound on log Z it gives, and the "mode" base.
#
# For an RBM, Z = sum_h f(h) with log f(h) = b'h + sum_i softplus(a_i + W_i h)
# (the visible units summed out exactly). Any set S of distinct hidden states
# gives log Z >= log sum_{h in S} f(h), with no sampling error. On RBMs whose
# hidden marginal has a few states of large mass, greedy ascent of log f(h)
# from random starts finds them, and the bound is close to log Z even where
# annealing from every product base ends its chains in one broad mode. An
# estimate more than `mode_check_margin()` nats + 3 se below the bound is
# provably too low, and is flagged (R/base_check.R). On models whose hidden
# marginal is spread (large n_h, where no single state matters) the bound is
# far below log Z and never fires.

# Greedy single-flip ascent of log f(h) from `starts` random hidden states
# (Bernoulli(1/2)); returns list(log_z = the bound, states = distinct local
# maxima, log_f = their log f, n_hidden_max) or NULL when the model has no
# hidden units or more than `max_hidden` of them (the ascent costs
# n_h * n_v * starts per step). R's RNG state is restored afterwards, so the
# check does not change the random numbers of the estimator that runs it.
rbm_mode_bound <- function(model, starts = mode_check_starts(), max_hidden = 64L) {
  nh <- model$n_hidden
  if (nh == 0L || nh > max_hidden || starts < 1L) return(NULL)
  H <- keep_rng_state(matrix(as.double(stats::runif(nh * starts) < 0.5), nh, starts))
  H <- hidden_ascent(model, H)
  H <- H[, !duplicated(t(H)), drop = FALSE]
  lf <- rbm_log_f_hidden(model, H)
  list(log_z = log_sum_exp(lf), n_states = ncol(H), states = H, log_f = lf, starts = starts,
       n_hidden = nh)
}

# log f(h) for the columns of H (n_h x S).
rbm_log_f_hidden <- function(model, H) {
  drop(crossprod(H, model$b)) + colSums(softplus(model$W %*% H + model$a))
}

# Best-improvement single-flip ascent of log f(h), all columns of H together;
# a column stops when no flip gains. Each step flips one unit per moving
# column, so a column takes at most 2^n_h steps and in practice about n_h / 2.
hidden_ascent <- function(model, H, max_steps = 10L * nrow(H)) {
  W <- model$W
  P <- W %*% H + model$a                         # n_v x S pre-activations
  active <- seq_len(ncol(H))
  for (step in seq_len(max_steps)) {
    if (!length(active)) break
    check_interrupt()   # a step is n_h passes over n_v x S: few, long evaluations
    Pa <- P[, active, drop = FALSE]
    base <- colSums(softplus(Pa))
    gain <- vapply(seq_len(nrow(H)), function(j) {
      s <- 1 - 2 * H[j, active]
      s * model$b[j] + colSums(softplus(Pa + outer(W[, j], s))) - base
    }, numeric(length(active)))
    gain <- matrix(gain, length(active))          # active x n_h
    best <- max.col(gain, ties.method = "first")
    up <- gain[cbind(seq_along(active), best)] > 1e-9
    for (i in which(up)) {
      s <- active[i]
      j <- best[i]
      d <- 1 - 2 * H[j, s]
      H[j, s] <- H[j, s] + d
      P[, s] <- P[, s] + d * W[, j]
    }
    active <- active[up]
  }
  H
}

# The "mode" base: the visible conditional sigmoid(a + W h*) of the hidden
# state h* of largest f(h) that the ascent found, smoothed.
mode_base <- function(model, mb, smooth) {
  top <- which.max(mb$log_f)
  p <- stats::plogis(drop(model$W %*% mb$states[, top]) + model$a)
  b <- new_logz_base(model, smooth_logit(p, smooth), "mode", sprintf(paste0(
    "visible conditional of the hidden state of largest mass (%.2f of the mode bound) found by ",
    "%d hill-climbing starts, smoothed (s = %g)"), exp(mb$log_f[top] - mb$log_z), mb$starts,
    smooth))
  b$mode_bound <- mb
  b
}


# Starts of the ascent (option logz.mode_check_starts; 0 turns the check off).
mode_check_starts <- function() {
  as.integer(logz_option("mode_check_starts", 30L, number = TRUE, lower = 0))
}
