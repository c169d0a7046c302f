# Shared by the run scripts of the Figure 3 rerun (bench/rts/rts_fig3_pcd500_run.R and
# bench/rts/rts_fig3_pcd500_alloc.R): source("bench/rts/rts_fig3_pcd500_common.R") after library(logz).
runs_file <- "bench/rts/rts_fig3_pcd500_runs.csv"
model <- readRDS("bench/models/rbm500_pcd.rds")$model

append_csv <- function(row, f) utils::write.table(format(row, digits = 10), f,
  append = file.exists(f), col.names = !file.exists(f), row.names = FALSE, sep = ",")

# Run fit_fun() under set.seed(seed) with its warnings muffled (they are kept in
# flags), append the run's line to runs_file and print it; returns the fit.
run_cell <- function(task, seed, fit_fun) {
  set.seed(seed)
  t0 <- proc.time()
  fit <- withCallingHandlers(fit_fun(), warning = function(w) invokeRestart("muffleWarning"))
  tt <- proc.time() - t0
  row <- data.frame(task = task, seed = seed,
                    sweeps = fit$counts[["gibbs_sweeps"]] / fit$counts[["chains"]],
                    log_z = fit$log_z, se = fit$se, reliable = isTRUE(fit$reliable),
                    cpu_s = tt[["user.self"]] + tt[["sys.self"]], time_s = tt[["elapsed"]],
                    flags = paste(fit$flags, collapse = "; "))
  append_csv(row, runs_file)
  print(row[, 1:8], row.names = FALSE)
  fit
}
