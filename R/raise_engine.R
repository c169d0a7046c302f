# The engine of raise() (src/raise.c) and its result.

# The RAISE result from per-example log p-hat, log Z estimates (-F - log p)
# and ESS, and the n_chains x N matrix of log weights.
new_raise_result <- function(log_p, log_z_i, ess, log_weights, log_z0, schedule, sweeps,
                             n_chains, time, seed, call) {
  N <- length(log_p)
  out <- new_logz_estimate(list(
    log_z = mean(log_z_i), se = if (N > 1L) stats::sd(log_z_i) / sqrt(N) else NA_real_,
    log_likelihood = mean(log_p), log_p = log_p, log_weights = log_weights, log_z0 = log_z0,
    schedule = schedule, method = "RAISE", time = time,
    counts = c(gibbs_sweeps = sweeps, chains = n_chains, examples = N,
               steps = length(schedule) - 1L),
    diagnostics = data.frame(example = seq_len(N), log_p = log_p, log_z = log_z_i, ess = ess,
                             se = raise_example_se(log_weights)),
    seed = seed, call = call, ess_ratio = mean(ess) / n_chains,
    se_note = if (N < 2L) "one example; pass >= 2 rows of `data`",
    flags = if (n_chains > 1L)
      weight_flags(list(ess_ratio = mean(ess) / n_chains, khat = NA))), "logz_raise")
  if (n_chains > 1L && length(out$flags))
    out$flags <- sub("^ESS/M", "mean ESS/M over examples", out$flags)
  out$reliable <- length(out$flags) == 0L
  warn_unreliable(out)
}

# The Monte Carlo se of each example's log p-hat = log mean_c w_c over its n
# chains (columns of log_weights, n x N), by the delta method:
#   se(log p-hat) = sd_c(w) / (sqrt(n) mean_c(w)) = sqrt((n / ESS - 1) / (n - 1)),
# with ESS = (sum w)^2 / sum w^2 and sd the sample sd (n - 1); NA for n = 1.
raise_example_se <- function(log_weights) {
  n <- nrow(log_weights)
  if (n < 2L) return(rep(NA_real_, ncol(log_weights)))
  apply(log_weights, 2L, function(x) {
    w <- exp(x - max(x))
    sqrt(max(0, n * sum(w^2) / sum(w)^2 - 1) / (n - 1))
  })
}

# One chunk of RAISE for RBMs (src/raise.c): transitions at the descending
# betas[1] > ... > betas[L + 1] for all chains. model: list(W, a, b, a0) (see
# check_rbm_path()); state: list(V (nv x M / copies chain states, started at
# the data; column i starts chains (i - 1) * copies + 1:copies), log_w (M),
# streams (6 x M), copies (optional, 1)); control: list(threads, sweeps (per
# step)). Returns list(V (nv x M), log_w, streams).
raise_rbm_chunk <- function(model, betas, state, control) {
  model <- check_rbm_path(model)
  betas <- internal_double(betas, "betas")
  if (is.unsorted(rev(betas))) internal_error("RAISE `betas` must descend.")
  M <- length(state$log_w)
  copies <- if (is.null(state$copies)) 1L else internal_count(state$copies, "copies")
  if (M %% copies != 0L) internal_error("`copies` must divide the number of chains.")
  state <- list(V = internal_double(state$V, "V", as.double(length(model$a)) * (M %/% copies)),
                log_w = internal_double(state$log_w, "log_w"),
                streams = internal_streams(state$streams, M), copies = copies)
  control <- list(threads = internal_count(control$threads, "threads"),
                  sweeps = internal_count(control$sweeps, "sweeps"))
  .Call(C_raise_rbm, model, betas, state, control)
}

# The AIS/RAISE sandwich of a log-likelihood: `lower` from RAISE (stochastic
# lower bound, se `se_lower`) and `upper` from AIS (stochastic upper bound, se
# `se_upper`), vectors of the same length (one average, or one per example).
# The bounds are stochastic, so within their noise the lower one can come out
# above the upper one; such an inverted interval is never returned: rows that
# cross become the union of the two points widened by 2 se each,
# [min(l - 2 se_l, u - 2 se_u), max(l + 2 se_l, u + 2 se_u)], and the
# crossing of the average (the first row) is flagged. Returns list(interval
# (cbind(lower, upper)), crossed (logical per row), flag).
sandwich_check <- function(lower, upper, se_lower, se_upper) {
  sl <- ifelse(is.finite(se_lower), se_lower, 0)
  su <- ifelse(is.finite(se_upper), se_upper, 0)
  crossed <- lower > upper
  lo <- ifelse(crossed, pmin(lower - 2 * sl, upper - 2 * su), lower)
  hi <- ifelse(crossed, pmax(lower + 2 * sl, upper + 2 * su), upper)
  flag <- character(0)
  if (isTRUE(crossed[1])) {
    gap <- lower[1] - upper[1]
    s <- sqrt(sl[1]^2 + su[1]^2)
    noise <- s > 0 && gap <= 3 * s
    flag <- flag_estimate(character(0), sprintf(
      "sandwich crossed: RAISE lower bound - AIS upper bound = %.3g nats > 0 (%s)", gap,
      if (noise) sprintf("within 3 combined se = %.3g", 3 * s)
      else sprintf("beyond 3 combined se = %.3g", 3 * s)), sprintf(paste0(
      "The AIS/RAISE bounds crossed: the RAISE lower bound %.4f lies %.3g nats above the AIS ",
      "upper bound %.4f, %s. Both bounds are stochastic; the interval returned is their union ",
      "widened by 2 se each, [%.4f, %.4f]. %s"), lower[1], gap, upper[1],
      if (noise) sprintf("within their noise (3 combined se = %.3g)", 3 * s)
      else sprintf("more than their noise (3 combined se = %.3g) allows", 3 * s),
      lo[1], hi[1],
      if (noise) "The log-likelihood is pinned down to about that width; more chains narrow it."
      else "A bias is likely: use a longer schedule or more chains for both."))
  }
  list(interval = cbind(lower = lo, upper = hi), crossed = crossed, flag = flag)
}
