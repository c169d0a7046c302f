# ARM (Fraccaro, Paquet & Winther 2016, Figure 4) on the 784 x 500 PCD RBM of issue 18
# (bench/models/rbm500_pcd.rds, bench/training/train_rbm500.R's recipe), against AIS at equal work and
# the sandwich reference of bench/rts/rts_fig3_pcd500_ref.R. The 784 x 20 version with exact log Z
# is bench/arm/arm_rbm.R. ARM: variant "arm", 10 block-Gibbs steps per move, gamma threshold 0.7,
# i_max 3 (the paper's Figure 4 settings), pixels added most variable first (the default
# order from the model's base rates), rule "pool_ess" (the package default). AIS: base = the
# model's base_rate, linear schedule, 1 sweep per step, 100 chains.
# Work (both methods) in unit-updates: one block-Gibbs step of one particle on n visible units
# costs about n x H multiply-adds (h | x and x | h), so an ARM run's work is
# 10 x sum_k R_k (k - 1) over its iterations k (R_k: particles moved at iteration k, expansions
# included), and an AIS chain-sweep is 784 of them. "AIS at equal work" has K = ARM work /
# (784 x 100 chains) steps. CPU seconds are recorded too.
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/arm/arm_rbm500.R arm R SEED
#        ... ais K SEED; ... ais_eq R SEED (K = work of the first ARM run with R particles / 100 chains);  summary: Rscript bench/arm/arm_rbm500.R summary > bench/arm/arm_rbm500.out
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
task <- if (length(args)) args[1] else "summary"
runs_file <- "bench/arm/arm_rbm500_runs.csv"
obj <- readRDS("bench/models/rbm500_pcd.rds")
m <- obj$model
append_csv <- function(row, f) utils::write.table(format(row, digits = 10), f,
  append = file.exists(f), col.names = !file.exists(f), row.names = FALSE, sep = ",")
cpu <- function(t0) { tt <- proc.time() - t0; tt[["user.self"]] + tt[["sys.self"]] }
if (task %in% c("arm", "rm")) {
  R <- as.integer(args[2]); seed <- as.integer(args[3])
  set.seed(seed)
  t0 <- proc.time()
  fit <- withCallingHandlers(arm(m, particles = R, variant = task, i_max = 3L, move_steps = 10L,
                                 keep_particles = FALSE, progress = FALSE),
                             warning = function(w) invokeRestart("muffleWarning"))
  d <- fit$diagnostics
  work <- 10 * sum(d$particles[d$n > 1] * (d$n[d$n > 1] - 1))
  row <- data.frame(method = toupper(task), setting = sprintf("R=%d", R), seed = seed,
                    log_z = fit$log_z, work_sweeps = work / 784,
                    particle_moves = fit$counts[["particle_moves"]],
                    mean_particles = mean(d$particles), min_ess_ratio = min(d$gamma),
                    reliable = isTRUE(fit$reliable), cpu_s = cpu(t0))
  append_csv(row, runs_file)
  print(row, row.names = FALSE)
}
if (task %in% c("ais", "ais_eq")) {
  if (task == "ais_eq") {   # K from the work of the first ARM run with R particles
    prev <- utils::read.csv(runs_file)
    R <- as.integer(args[2]); seed <- as.integer(args[3])
    K <- as.integer(round(prev$work_sweeps[prev$method == "ARM" &
                                           prev$setting == sprintf("R=%d", R)][1] / 100))
  } else {
    K <- as.integer(args[2]); seed <- as.integer(args[3])
  }
  set.seed(seed)
  t0 <- proc.time()
  fit <- suppressWarnings(ais(m, schedule_linear(K), n_chains = 100L, progress = FALSE))
  row <- data.frame(method = "AIS", setting = sprintf("K=%d M=100", K), seed = seed,
                    log_z = fit$log_z, work_sweeps = 100 * K, particle_moves = NA,
                    mean_particles = NA, min_ess_ratio = fit$ess_ratio,
                    reliable = isTRUE(fit$reliable), cpu_s = cpu(t0))
  append_csv(row, runs_file)
  print(row, row.names = FALSE)
}
if (task == "summary") {
  cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
  cat(sprintf("R BLAS: %s\nR LAPACK: %s\n", extSoftVersion()[["BLAS"]], La_library()))
  cat(sprintf("model: bench/models/rbm500_pcd.rds (784 x 500; %s)\n", obj$recipe))
  ref <- if (file.exists("bench/rts/rts_fig3_pcd500_ref.rds")) readRDS("bench/rts/rts_fig3_pcd500_ref.rds")
  lz_ref <- if (!is.null(ref)) ref$mid else NA
  if (!is.null(ref))
    cat(sprintf(paste0("reference (bench/rts/rts_fig3_pcd500_ref.R, forward/reverse AIS sandwich): %.3f +/- %.3f\n",
                       "  (range %.3f to %.3f)\n\n"), lz_ref, ref$err, ref$lower_lo, ref$upper_hi))
  runs <- utils::read.csv(runs_file)
  print(runs, row.names = FALSE, digits = 6)
  set.seed(7)
  q <- function(x) stats::quantile(x, c(0.025, 0.975), names = FALSE, na.rm = TRUE)
  rmse <- function(e) sqrt(mean(e^2))
  cat("\nmethod setting        runs  work (chain-sweeps)  CPU s/run  mean - ref   sd     RMSE [95% bootstrap]\n")
  cells <- unique(runs[, c("method", "setting")])
  for (i in seq_len(nrow(cells))) {
    d <- runs[runs$method == cells$method[i] & runs$setting == cells$setting[i], ]
    e <- d$log_z - lz_ref
    ci <- if (nrow(d) > 1) q(replicate(4000, rmse(sample(e, replace = TRUE)))) else c(NA, NA)
    cat(sprintf("%-6s %-14s %4d  %18.0f  %9.1f  %+9.3f  %6.3f  %6.3f [%.3f, %.3f]\n", d$method[1],
                d$setting[1], nrow(d), mean(d$work_sweeps), mean(d$cpu_s), mean(e),
                if (nrow(d) > 1) sd(d$log_z) else NA, rmse(e), ci[1], ci[2]))
  }
}
if (task == "summary") {
  runs <- utils::read.csv(runs_file)
  a <- runs[runs$method == "ARM", ]
  for (st in unique(a$setting)) {
    x <- a[a$setting == st, ]
    y <- runs[runs$method == "AIS" & runs$work_sweeps == round(x$work_sweeps[1] / 100) * 100, ]
    if (!nrow(y)) next
    cat(sprintf(paste0("ARM %s against AIS at equal work (%s): RMSE ratio ARM/AIS %.2f, sd ratio %.2f, ",
                       "CPU ratio %.2f\n"), st, y$setting[1],
                sqrt(mean((x$log_z - lz_ref)^2)) / sqrt(mean((y$log_z - lz_ref)^2)),
                sd(x$log_z) / sd(y$log_z), mean(x$cpu_s) / mean(y$cpu_s)))
  }
  cat(paste0("\nPaper (Fraccaro, Paquet & Winther 2016, Figure 4; 784 x 500 PCD and CD25 MNIST RBMs; ARM with\n",
             "R = 10^2, 10^3, 10^4, t = 10, gamma_thr 0.7, i_max 3): ARM gets very close to AIS (5,000 chains,\n",
             "10^5 steps, from Grosse et al.) in under a minute, with smaller variance than RM at less cost;\n",
             "AIS costs O(tHNK) against ARM's O(tHN^2), so K >> N makes AIS the more expensive.\n"))
}
