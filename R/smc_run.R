# smc() continued (smc.R is split to stay under 600 lines): the settings of a run,
# the replicated run with its merge into one result, and the run's reliability flags,
# shared by every smc() method.

# Checked settings of a run.
smc_control <- function(kernel, d, particles, replicates, cess, resample_threshold, move_steps,
                        n_leapfrog, target_accept, target_se, max_time, max_evaluations,
                        max_steps) {
  tse <- check_target_se(target_se, max_time, max_evaluations)
  n_leapfrog <- if (is.null(n_leapfrog)) NA_integer_ else
    check_count(n_leapfrog, "n_leapfrog", max = 10000L)
  list(kernel = kernel,
       particles = check_count(particles, "particles", min = 10L, max = 1e7),
       replicates = check_count(replicates, "replicates", max = 1e5),
       cess = check_number(cess, "cess", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE),
       resample = check_number(resample_threshold, "resample_threshold", lower = 0, upper = 1,
                               lower_open = TRUE),
       move_steps = check_count(move_steps, "move_steps", max = 10000L),
       n_leapfrog = if (kernel == "hmc") n_leapfrog else 1L,
       target_accept = if (is.null(target_accept)) kernel_target_accept(kernel, rwm = 0.3) else
         check_number(target_accept, "target_accept", lower = 0, upper = 1, lower_open = TRUE,
                      upper_open = TRUE),
       max_leapfrog = 100L, jitter = 0.2,
       log_step0 = kernel_log_step0(kernel, d), gain = 1,
       max_steps = check_count(max_steps, "max_steps", max = 1e6),
       target_se = tse$target_se, max_time = tse$max_time, max_evaluations = tse$max_evaluations)
}

# The replicates of a run (to a target se when asked) and the result; with
# `pilot_run` (a run of smc_once() on the same path), its schedule and steps.
smc_fit <- function(make_path, ctl, call, seed, progress, workers, extra, pilot_run = NULL) {
  t0 <- proc.time()[["elapsed"]]
  pilot <- ctl$schedule == "pilot"
  pb <- progress_bar(progress, (ctl$replicates + pilot) * 1000)
  on.exit(pb$close())
  if (pilot) {
    pr <- if (is.null(pilot_run)) smc_once(make_path(), ctl, function(beta) pb$update(floor(1000 * beta)))
      else pilot_run
    ctl$betas <- pr$trace$beta
    ctl$log_steps <- log(pr$trace$step_size)[-1L]
    extra <- extra + c(density = pr$evaluations, gradient = pr$gradient_evaluations)
  }
  run_one <- function(i) {
    path <- make_path()
    r <- smc_once(path, ctl, function(beta)
      if (i <= ctl$replicates) pb$update((i - 1 + pilot) * 1000 + floor(1000 * beta)))
    r$X <- unname(r$X)
    r
  }
  reps <- replicate_to_target(run_one, ctl$replicates, ctl$target_se, ctl$max_time,
                             ctl$max_evaluations, evals = function(r) r$evaluations,
                             log_z = function(r) r$log_z, workers = workers, progress = progress,
                             rel_var = function(r) r$rel_var)
  new_smc_result(reps, ctl, extra, call, seed, time = proc.time()[["elapsed"]] - t0)
}

new_smc_result <- function(reps, ctl, extra, call, seed, time) {
  runs <- reps$runs
  R <- length(runs)
  lz <- vapply(runs, `[[`, 0, "log_z")
  rv <- vapply(runs, `[[`, 0, "rel_var")
  comb <- combine_log_z(lz, rv)
  across <- function(v) {
    v[!is.finite(v)] <- NA_real_
    c(log_z = mean(v), se = if (R > 1L) stats::sd(v) / sqrt(R) else NA_real_)
  }
  diagnostics <- do.call(rbind, lapply(seq_len(R), function(j) data.frame(run = j, runs[[j]]$trace)))
  final <- diagnostics[diagnostics$beta == 1, ]
  new_logz_estimate(list(
    log_z = comb[["log_z"]], se = comb[["se"]], log_z_runs = lz, rel_var_runs = rv,
    se_parts = c(replicates = comb[["se_replicates"]], within = comb[["se_within"]]),
    ti = across(vapply(runs, `[[`, 0, "ti")),
    ti_corrected = across(vapply(runs, `[[`, 0, "ti_corrected")),
    stepping_stone = across(vapply(runs, `[[`, 0, "ss")),
    method = "SMC", kernel = ctl$kernel, schedule_from = ctl$schedule,
    n_leapfrog = if (ctl$kernel == "rwm") NA_integer_ else ctl$n_leapfrog, cess = ctl$cess,
    resample_threshold = ctl$resample,
    move_steps = ctl$move_steps, target_accept = ctl$target_accept, target_se = ctl$target_se,
    schedules = lapply(runs, function(r) r$trace$beta),
    ess = mean(final$ess), time = time,
    counts = c(density_evaluations = extra[["density"]] + sum(vapply(runs, `[[`, 0, "evaluations")),
               gradient_evaluations = extra[["gradient"]] +
                 sum(vapply(runs, `[[`, 0, "gradient_evaluations")),
               particles = ctl$particles, replicates = R,
               temperatures = mean(vapply(runs, function(r) nrow(r$trace) - 1, 0)),
               resamples = sum(diagnostics$resampled)),
    diagnostics = diagnostics,
    x = do.call(rbind, lapply(runs, `[[`, "X")),
    log_weights = unlist(lapply(runs, `[[`, "log_w"), use.names = FALSE),
    ell = unlist(lapply(runs, `[[`, "ell"), use.names = FALSE), estimator = "smc",
    replicate_evaluations = vapply(runs, function(r) r$evaluations + r$gradient_evaluations, 0),
    run = rep(seq_len(R), each = ctl$particles),
    stopped_by = reps$why,
    seed = seed, call = call,
    se_note = if (R < 2L) "one replicate; use replicates = 8 (or more) for an se"),
    "logz_smc")
}

# The flags of an SMC result (one warning for all): low acceptance, the
# target se not reached, and those carried from the base check.
smc_flag <- function(fit, carried) {
  acc <- fit$diagnostics$accept
  lo <- suppressWarnings(min(acc, na.rm = TRUE))
  if (is.finite(lo) && lo < 0.05)
    carried <- c(carried, sprintf("mean acceptance %.3f < 0.05 at some temperature: the particles hardly moved",
                                  lo))
  flag_target_se(fit, fit$target_se, fit$stopped_by, carried)
}

# A message, after a run of more than `threshold` density + gradient
# evaluations of a function given one point at a time, that `vectorized =
# TRUE` evaluates the particles in one call each step.
suggest_vectorized <- function(fit, vectorized, threshold = 1e5) {
  n <- sum(fit$counts[c("density_evaluations", "gradient_evaluations")])
  if (vectorized || !is.finite(n) || n <= threshold) return(invisible(FALSE))
  message(sprintf(paste0("the run called `model` and `gradient` %s times, one point a call (%.1f s): ",
                         "with `vectorized = TRUE` (`model` taking an M x d matrix, one point per row, ",
                         "and returning M log densities; `gradient` returning an M x d matrix) each ",
                         "step evaluates all the particles in one call."),
                  format(n, big.mark = ",", scientific = FALSE), fit$time))
  invisible(TRUE)
}
