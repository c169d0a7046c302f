# The mode check of the annealing estimators on RBMs: a rigorous lower bound
# on log Z from the hidden states of largest mass, found by hill climbing on the
# hidden marginal, against which an estimate that missed modes is flagged.
#
# For an RBM, Z = sum_h f(h) with log f(h) = b'h + sum_i softplus(a_i + W_i h)
# (the visible units summed out exactly). Any set S of distinct hidden states
# gives log Z >= log sum_{h in S} f(h), with no sampling error. On RBMs whose
# hidden marginal has a few states of large mass (the small MNIST RBMs of the
# benches) greedy ascent of log f(h) from random starts finds them: on Kiwaki's
# CD-1 model (bench/models/rbm20_cd1_v1.rds, log Z 194.198) the four largest
# hidden states hold 0.44, 0.23, 0.22 and 0.07 of Z; forward AIS from every
# base tried ends 98% of its chains in the second (the broad one, visible
# entropy 197 nats against 154 for the first) and is 1.2 to 1.45 nats low with
# ESS near M, while 30 ascents give a bound 0.11 nats below log Z. An estimate
# more than `mode_check_margin()` nats + 3 se below the bound is provably too
# low, and is flagged. On models whose hidden marginal is spread (large n_h,
# where no single state matters) the bound is far below log Z and never fires.

# Greedy single-flip ascent of log f(h) from `starts` random hidden states
# (Bernoulli(1/2)); returns list(log_z = the bound, states = distinct local
# maxima, log_f = their log f, n_hidden_max) or NULL when the model has no
# hidden units or more than `max_hidden` of them (the ascent costs
# n_h * n_v * starts per step). R's RNG state is restored afterwards, so the
# check does not change the random numbers of the estimator that runs it.
rbm_mode_bound <- function(model, starts = mode_check_starts(), max_hidden = 64L) {
  nh <- model$n_hidden
  if (nh == 0L || nh > max_hidden || starts < 1L) return(NULL)
  had_seed <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had_seed) {
    old_seed <- get(".Random.seed", envir = globalenv(), inherits = FALSE)
    on.exit(assign(".Random.seed", old_seed, envir = globalenv()), add = TRUE)
  } else {
    on.exit(if (exists(".Random.seed", envir = globalenv(), inherits = FALSE))
      rm(".Random.seed", envir = globalenv()), add = TRUE)
  }
  H <- matrix(as.double(stats::runif(nh * starts) < 0.5), nh, starts)
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

log_sum_exp <- function(x) {
  mx <- max(x)
  if (!is.finite(mx)) return(mx)
  mx + log(sum(exp(x - mx)))
}

# Starts of the ascent (option logz.mode_check_starts; 0 turns the check off)
# and the margin in nats (option logz.mode_check_margin).
mode_check_starts <- function() {
  x <- getOption("logz.mode_check_starts", 30L)
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x < 0) 30L else as.integer(x)
}
mode_check_margin <- function() {
  x <- getOption("logz.mode_check_margin", 0.1)
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x < 0) 0.1 else as.double(x)
}

# Flag (and warn about) an estimate more than margin + 3 se below the base's
# mode bound. The estimate is unchanged.
check_against_modes <- function(x, b) {
  mb <- b$mode_bound
  if (is.null(mb) || !is.numeric(x$log_z) || length(x$log_z) != 1L ||
      !is.finite(x$log_z)) return(x)
  se <- if (is.numeric(x$se) && length(x$se) == 1L && is.finite(x$se)) x$se else 0
  gap <- mb$log_z - x$log_z
  margin <- mode_check_margin()
  if (gap <= margin + 3 * se) return(x)
  exact <- if (mb$n_hidden <= 25L) " or exact_log_z(model) (n_h <= 25)" else ""
  warn_new_flag(x, sprintf(paste0(
    "the estimate %.2f is %.2f nats below the lower bound log Z >= %.2f from %d hidden states ",
    "of large mass (> %g nats + 3 se): the run missed modes of the model. Try a much longer ",
    "schedule%s."), x$log_z, gap, mb$log_z, mb$n_states, margin, exact))
  add_flags(x, sprintf(paste0("estimate %.2f nats below the mode bound log Z >= %.2f (> %g nats ",
                              "+ 3 se): the run missed modes that hill climbing on the hidden ",
                              "states found"), gap, mb$log_z, margin))
}

# The occupancy check of ais() on an RBM: for each hidden state h_i that the
# mode search found, E_p[p(h_i | v)] = f(h_i) / Z exactly, so the
# importance-weighted mean m_i of p(h_i | v) over the run's final states should
# match s_i = f(h_i) / Z_hat. A run that never reaches a mode has m_i near 0
# where s_i is large. The mass of found states that the run did not see, in
# units of Z_hat, is D = sum_i max(0, s_i - m_i - 3 sd_i) (sd_i the
# self-normalised importance sampling sd of m_i, so that noise in m_i on a
# good run does not count); log(1 + D) is how many nats the estimate is
# demonstrably short of the found states' mass. Flag when it exceeds
# `occupancy_margin` (0.25 nats; option logz.mode_check_occupancy).
check_mode_occupancy <- function(x, b, model, V) {
  mb <- b$mode_bound
  if (is.null(mb) || is.null(V) || !is.finite(x$log_z) || ncol(V) != length(x$log_weights))
    return(x)
  lw <- x$log_weights
  w <- exp(lw - max(lw))
  w <- w / sum(w)
  pre <- crossprod(model$W, V) + model$b                         # n_h x M
  lp <- crossprod(mb$states, pre) -
    matrix(colSums(softplus(pre)), ncol(mb$states), ncol(pre), byrow = TRUE)  # S x M

  P <- exp(lp)
  m <- drop(P %*% w)
  sd <- sqrt(drop(((P - m)^2) %*% (w^2)))
  s <- exp(mb$log_f - x$log_z)
  deficit <- pmax(0, s - m - 3 * sd)
  short <- log1p(sum(deficit))
  margin <- occupancy_margin()
  x$mode_check <- list(bound = mb$log_z, short = short, states = mb$n_states)
  if (short <= margin) return(x)
  i <- which.max(deficit)
  exact <- if (mb$n_hidden <= 25L) " or exact_log_z(model) (n_h <= 25)" else ""
  warn_new_flag(x, sprintf(paste0(
    "the run is short of the mass of hidden states it never reached by %.2f nats (> %g): e.g. ",
    "a state holding %.2f of Z_hat (f(h) / Z_hat) held %.2f of the final weights. The ",
    "estimate %.2f is too low; try a much longer schedule%s."), short, margin, s[i], m[i],
    x$log_z, exact))
  add_flags(x, sprintf(paste0("mode occupancy: the final states miss hidden states of known mass, ",
                              "log(1 + D) = %.2f > %g nats (a state with f(h) / Z_hat = %.2f ",
                              "held %.2f of the weights)"), short, margin, s[i], m[i]))
}

occupancy_margin <- function() {
  x <- getOption("logz.mode_check_occupancy", 0.25)
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x < 0) 0.25 else as.double(x)
}
