# The report loop shared by bench/arm/arm_gpc.R and bench/arm/arm_rbm.R: `repeats` runs of one
# setting (seed0 + 1, seed0 + 2, ...), one printed line and one data-frame row (time per run, work
# per run (particle-moves for ARM/RM, chain-sweeps for AIS), log of the mean Z, mean and sd of log Z,
# and the error of log mean Z against `ref` when given); `keep(label, fits)` sees the fits.
arm_bench_run <- function(label, fun, repeats, seed0, ref = NULL, keep = NULL) {
  t0 <- proc.time()[["elapsed"]]
  fits <- lapply(seq_len(repeats), function(r) { set.seed(seed0 + r); fun() })
  tm <- (proc.time()[["elapsed"]] - t0) / repeats
  lz <- vapply(fits, `[[`, 0, "log_z")
  work <- mean(vapply(fits, function(f) {
    cn <- f$counts
    if ("particle_moves" %in% names(cn)) cn[["particle_moves"]] else cn[["gibbs_sweeps"]]
  }, 0))
  lmz <- logz:::log_sum_exp(lz) - log(repeats)
  row <- data.frame(method = label, time = tm, work = work, log_mean_z = lmz, mean = mean(lz))
  if (!is.null(ref)) row$err <- lmz - ref
  row$sd <- sd(lz)
  cat(sprintf("  %-20s time %7.2f s  work %9.0f  log mean Z %9.3f  %s %9.3f  sd %7.3f\n",
              label, tm, work, lmz, if (is.null(ref)) "mean" else "error",
              if (is.null(ref)) row$mean else row$err, row$sd))
  if (!is.null(keep)) keep(label, fits)
  row
}

# ARM against RM at equal cost: every RM setting's sd moved to ARM's cost by sd ~ cost^(-1/2),
# averaged over the RM settings; cost = time and = work.
arm_bench_sd_ratios <- function(res) {
  rm <- grep("^RM", res$method)
  for (a in grep("^ARM", res$method)) {
    st <- mean(res$sd[rm] * sqrt(res$time[rm] / res$time[a]))
    sw <- mean(res$sd[rm] * sqrt(res$work[rm] / res$work[a]))
    cat(sprintf("  %-22s sd %.3f; RM sd at equal time %.3f (ratio %.2f), at equal work %.3f (ratio %.2f)\n",
                res$method[a], res$sd[a], st, st / res$sd[a], sw, sw / res$sd[a]))
  }
}
