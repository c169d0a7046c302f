# Independent replicates of a run, their combination into one log Z with an
# se, and running to a target se (smc(), and ais() on R log densities).

# log Z of replicates each unbiased for Z: log of the mean Z, with the se by
# the delta method, sd(Z_r) / (mean Z) / sqrt(R) (NA with one replicate).
# With `rel_var` (each replicate's own estimate of Var(Z_r) / Z_r^2, from its
# particles), the se is the larger of that and the se those give,
# sqrt(sum Z_r^2 rel_var_r) / (R mean Z): the spread of a few replicates
# understates the se when Z_r is right-skewed (its rare large values missing
# from most sets of replicates, whose mean is then low too), while the
# particles of all replicates see more of the weights' tail.
combine_log_z <- function(lz, rel_var = NULL) {
  R <- length(lz)
  lm <- log_sum_exp(lz) - log(R)
  se <- if (R > 1L && is.finite(lm)) sqrt(sum((exp(lz - lm) - 1)^2) / (R - 1L) / R) else NA_real_
  if (is.null(rel_var)) return(c(log_z = lm, se = se))
  within <- if (is.finite(lm)) sqrt(sum(exp(2 * (lz - lm)) * rel_var)) / R else NA_real_
  c(log_z = lm, se = max(se, within, na.rm = !is.na(se)), se_replicates = se, se_within = within)
}

# Run `run_one(i)` for replicates i in `idx`, in pieces on the active future
# plan when `workers` asks (see scale_out), else here with `tick(i)` after each.
run_replicates <- function(idx, run_one, workers, progress) {
  pieces <- resolve_pieces(workers, length(idx))
  if (pieces > 1L) {
    sizes <- piece_sizes(length(idx), pieces)
    starts <- cumsum(c(0L, sizes))
    out <- run_pieces(length(idx), pieces, function(size, i)
      lapply(idx[starts[i] + seq_len(size)], run_one), progress)
    return(unlist(out, recursive = FALSE))
  }
  lapply(idx, run_one)
}

# Replicates until the se of the combined log Z is below `target_se` (at least
# `first` of them, and 8; each round at most doubles their number, aiming at the
# count the se so far implies) or a cap is hit: `max_time` seconds or
# `max_evaluations` density evaluations (counted by `evals(run)`), or
# `max_replicates`. `target_se = NULL`: exactly `first` replicates.
# `rel_var(run)`: NULL, or the run's own relative variance (combine_log_z()).
# Returns list(runs, reached (NA without a target), why (the cap hit)).
replicate_to_target <- function(run_one, first, target_se, max_time, max_evaluations,
                                evals, log_z, workers, progress, max_replicates = 10000L,
                                rel_var = NULL) {
  t0 <- proc.time()[["elapsed"]]
  # an se from a handful of replicates is itself too noisy to stop on
  if (!is.null(target_se)) first <- max(first, 8L)
  runs <- run_replicates(seq_len(first), run_one, workers, progress)
  if (is.null(target_se)) return(list(runs = runs, reached = NA, why = NULL))
  repeat {
    se <- combine_log_z(vapply(runs, log_z, 0),
                        if (!is.null(rel_var)) vapply(runs, rel_var, 0))[["se"]]
    if (is.finite(se) && se <= target_se) return(list(runs = runs, reached = TRUE, why = NULL))
    R <- length(runs)
    spent <- proc.time()[["elapsed"]] - t0
    used <- sum(vapply(runs, evals, 0))
    why <- if (spent >= max_time) sprintf("the time cap max_time = %g s", max_time)
           else if (used >= max_evaluations)
             sprintf("the evaluation cap max_evaluations = %g", max_evaluations)
           else if (R >= max_replicates) sprintf("%d replicates", max_replicates)
    if (!is.null(why)) return(list(runs = runs, reached = FALSE, why = why))
    want <- if (is.finite(se)) ceiling(1.1 * R * (se / target_se)^2) else 2L * R
    add <- min(max(want - R, 1L), R, max_replicates - R)
    # keep within the caps: the cost of a replicate so far
    add <- min(add, max(1L, floor((max_time - spent) / (spent / R))),
               max(1L, floor((max_evaluations - used) / (used / R))))
    runs <- c(runs, run_replicates(R + seq_len(add), run_one, workers, progress))
  }
}

# Check the options of running to a target se; returns them cleaned.
# `max_time` and `max_evaluations` cap the replicates added to reach
# `target_se`: given without it (`given`: whether each was passed), they would
# do nothing, so that is an error.
check_caps_need_target <- function(target_se, given) {
  if (is.null(target_se) && any(given))
    stop_no_call(sprintf(paste0("`%s` applies only with `target_se` (it caps the replicates ",
                                "added to reach that se)."), names(given)[given][1]))
}

check_target_se <- function(target_se, max_time, max_evaluations) {
  if (!is.null(target_se))
    target_se <- check_number(target_se, "target_se", lower = 0, lower_open = TRUE)
  cap <- function(x, name) {
    if (is.numeric(x) && length(x) == 1L && identical(as.double(x), Inf)) return(Inf)
    if (!is.numeric(x) || length(x) != 1L || is.na(x) || x <= 0)
      stop_no_call(sprintf("`%s` must be a positive number (or Inf), not %s.", name, describe(x)))
    as.double(x)
  }
  list(target_se = target_se, max_time = cap(max_time, "max_time"),
       max_evaluations = cap(max_evaluations, "max_evaluations"))
}

# The flags of an estimate combined from replicates: those the replicates
# carried, and, when a cap stopped the run before the target se, that one
# (one warning for all).
flag_target_se <- function(fit, target_se, why, carried = character()) {
  flag <- carried
  if (!is.null(why))
    flag <- c(flag, sprintf("target se %g not reached: se %.3g after %d replicates (stopped by %s)",
                            target_se, fit$se, as.integer(fit$counts[["replicates"]]), why))
  flag_estimate(fit, unique(flag))
}
