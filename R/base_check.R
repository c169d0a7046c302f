# The checks of an annealing estimate against its base: the pilot AIS runs of
# the auto base, the mode bound and the mode occupancy. Each adds a flag and
# warns; the estimate is unchanged.

# The pilots of the auto RBM base are AIS runs in their own right: each
# pilot's log Z hat is a stochastic lower bound (E log Z_hat <= log Z). An
# estimate more than 1 nat + 3 se below the highest of them has missed mass
# that a pilot found (as on the two-mode RBMs of test-base.R, where a pilot
# from the uniform base finds the sharp mode that the chosen base misses):
# flag it and warn. This only adds a flag; the estimate is unchanged.
check_against_pilot <- function(x, b) {
  if (is.null(b$pilot) || !is.numeric(x$log_z) || length(x$log_z) != 1L ||
      !is.finite(x$log_z)) return(x)
  top <- which.max(b$pilot$log_z)
  se <- if (is.numeric(x$se) && length(x$se) == 1L && is.finite(x$se)) x$se else 0
  gap <- b$pilot$log_z[top] - x$log_z
  if (gap <= 1 + 3 * se) return(x)
  try <- if (identical(b$pilot$type[top], b$type)) "a longer schedule, more chains"
         else sprintf("base = \"%s\"", b$pilot$type[top])
  warning(sprintf(paste0("the estimate %.2f is %.2f nats below the pilot AIS from the %s base ",
                         "(%.2f; > 1 nat + 3 se): the run missed mass the pilot found. Try ",
                         "%s or the training data's base rates."),
                  x$log_z, gap, b$pilot$type[top], b$pilot$log_z[top], try), call. = FALSE)
  add_flags(x, sprintf(paste0("estimate %.2f nats below the base pilot's log Z (> 1 nat + 3 se): ",
                              "the run missed mass that the pilot from the %s base found"),
                       gap, b$pilot$type[top]))
}


# The margin of the mode-bound check in nats (option logz.mode_check_margin).
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
