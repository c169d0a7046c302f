# The checks of an annealing estimate against its base: the pilot AIS runs of
# the auto base, the mode bound and the mode occupancy. Each adds a flag and
# warns; the estimate is unchanged.

# The margin of the mode-bound check in nats (option logz.mode_check_margin).
mode_check_margin <- function() {
  as.double(logz_option("mode_check_margin", 0.1, number = TRUE, lower = 0))
}

# An estimate provably or probably too low for its base: more than a margin +
# 3 se below a log Z that the base's pilot work already reached. Two bounds:
# * the pilots of the auto RBM base are AIS runs in their own right, each a
#   stochastic lower bound (E log Z_hat <= log Z): an estimate more than 1 nat
#   + 3 se below the highest has missed mass that a pilot found (a pilot from
#   the uniform base finds a sharp mode that the chosen base misses);
# * the mode bound of an RBM (R/base.R) is a rigorous lower bound: an
#   estimate more than mode_check_margin() + 3 se below it missed modes.
# Each adds a flag and warns (the mode bound only when the estimate had no
# flag yet); the estimate is unchanged.
check_against_base <- function(x, b) {
  if (!is.numeric(x$log_z) || length(x$log_z) != 1L || !is.finite(x$log_z)) return(x)
  se <- if (is.numeric(x$se) && length(x$se) == 1L && is.finite(x$se)) x$se else 0
  below <- function(bound, margin) {
    gap <- bound - x$log_z
    if (gap > margin + 3 * se) gap else NA_real_
  }
  if (!is.null(b$pilot)) {
    top <- which.max(b$pilot$log_z)
    gap <- below(b$pilot$log_z[top], 1)
    if (!is.na(gap)) {
      try <- if (identical(b$pilot$type[top], b$type)) "a longer schedule, more chains"
             else sprintf("base = \"%s\"", b$pilot$type[top])
      x <- flag_estimate(x, sprintf(paste0(
        "estimate %.2f nats below the base pilot's log Z (> 1 nat + 3 se): ",
        "the run missed mass that the pilot from the %s base found"), gap, b$pilot$type[top]),
        sprintf(paste0("the estimate %.2f is %.2f nats below the pilot AIS from the %s base ",
                       "(%.2f; > 1 nat + 3 se): the run missed mass the pilot found. Try ",
                       "%s or the training data's base rates."),
                x$log_z, gap, b$pilot$type[top], b$pilot$log_z[top], try))
    }
  }
  mb <- b$mode_bound
  if (!is.null(mb)) {
    margin <- mode_check_margin()
    gap <- below(mb$log_z, margin)
    if (!is.na(gap)) {
      exact <- if (mb$n_hidden <= 25L) " or exact_log_z(model) (n_h <= 25)" else ""
      x <- flag_estimate(x, sprintf(paste0(
        "estimate %.2f nats below the mode bound log Z >= %.2f (> %g nats + 3 se): the run ",
        "missed modes that hill climbing on the hidden states found"), gap, mb$log_z, margin),
        sprintf(paste0(
          "the estimate %.2f is %.2f nats below the lower bound log Z >= %.2f from %d hidden ",
          "states of large mass (> %g nats + 3 se): the run missed modes of the model. Try a ",
          "much longer schedule%s."), x$log_z, gap, mb$log_z, mb$n_states, margin, exact),
        warn = "first")
    }
  }
  x
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
  flag_estimate(x, sprintf(paste0(
    "mode occupancy: the final states miss hidden states of known mass, ",
    "log(1 + D) = %.2f > %g nats (a state with f(h) / Z_hat = %.2f ",
    "held %.2f of the weights)"), short, margin, s[i], m[i]),
    sprintf(paste0(
      "the run is short of the mass of hidden states it never reached by %.2f nats (> %g): e.g. ",
      "a state holding %.2f of Z_hat (f(h) / Z_hat) held %.2f of the final weights. The ",
      "estimate %.2f is too low; try a much longer schedule%s."), short, margin, s[i], m[i],
      x$log_z, exact),
    warn = "first")
}

occupancy_margin <- function() {
  as.double(logz_option("mode_check_occupancy", 0.25, number = TRUE, lower = 0))
}
