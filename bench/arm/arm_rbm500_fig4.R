# Fraccaro, Paquet & Winther 2016, Figures 4 and 5 on the two 784 x 500 MNIST RBMs of bench/models/:
# PCD(500) (bench/training/train_rbm500.R) and CD25(500) (bench/archive/train_rbm500_cd25.R).
# Figure 4: RM / ARM / ARM-anticipate / ARM-reseed at base R particles, t = 10 block-Gibbs steps per
# move, gamma_thr 0.7, i_max 3 (reseed: i_max 2, fresh particles from the base moved `reseed_steps`
# times), pixels most variable first; AIS (linear schedule, 100 chains, base = the model's base
# rate) at equal work. Work in unit-updates as in bench/arm/arm_rbm500.R: ARM 10 x sum_k R_k (k - 1)
# (fresh-particle moves of reseed added), AIS 784 per chain-sweep; reported in chain-sweeps.
# References: PCD(500) the forward/reverse AIS sandwich of bench/rts/rts_fig3_pcd500_ref.R;
# CD25(500) the importance-sampling reference of bench/rts/rts_hard.out (542.0785, se 0.0003).
# Figure 5: the particles after n = 200 and n = 784 of one ARM run on PCD(500) (`keep_particles`).
# Usage (one process at a time, each < 10 min):
#   R_LIBS=<lib> OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/arm/arm_rbm500_fig4.R run MODEL VARIANT R SEED
#   ... ais_eq MODEL R SEED       (K = mean work of the ARM runs with R / 100 chains)
#   ... fig5 SEED                 (writes bench/arm/arm_rbm500_fig5.png)
#   ARM_PROGRESS=1 (env) shows arm()'s progress bar (iterations done), to time a long run from its progress
#   ... summary > bench/arm/arm_rbm500_fig4.out  (also writes inst/extdata/arm_rbm500_fig4_runs.csv,
#       the runs with log Z minus the reference, which vignette("arm") reads)
# MODEL: pcd or cd25; VARIANT: rm, arm, anticipate, reseed (fresh particles from the base),
# reseed_digits (from a mixture centred on 1,000 training digits); RESEED_STEPS (env, default 20);
# a suffix _eq weights the fresh particles 1/S (reseed_weights = "equal", the paper's) instead of
# by importance weights. reseed_shift: how far the fresh blocks moved log Z in total (flagged < -1).
# VARIANT may list variants joined by "+" (e.g. arm+rm+anticipate), run in turn from the same seed;
# when the first is arm and its run made no expansion, the rm and anticipate runs of that seed take
# the same path with the same random numbers (arm() with no expansion is rm), so their rows are that
# run's, marked in `flags`, and not run again.
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
task <- if (length(args)) args[1] else "summary"
runs_file <- "bench/arm/arm_rbm500_fig4_runs.csv"
model_file <- function(k) c(pcd = "bench/models/rbm500_pcd.rds", cd25 = "bench/models/rbm500_cd25.rds")[[k]]
load_model <- function(k) { o <- readRDS(model_file(k)); if (inherits(o, "rbm")) o else o$model }
append_csv <- function(row, f) utils::write.table(format(row, digits = 10), f,
  append = file.exists(f), col.names = !file.exists(f), row.names = FALSE, sep = ",")
cpu <- function(t0) { tt <- proc.time() - t0; tt[["user.self"]] + tt[["sys.self"]] }
rs_steps <- as.integer(Sys.getenv("RESEED_STEPS", "20"))
if (task == "run") {
  mk <- args[2]; variants <- strsplit(args[3], "+", fixed = TRUE)[[1]]; R <- as.integer(args[4])
  seed <- as.integer(args[5])
  m <- load_model(mk)
  shared <- NULL   # the row of an arm run without expansion, which rm and anticipate repeat exactly
  for (variant in variants) {
    if (!is.null(shared) && variant %in% c("rm", "anticipate")) {
      row <- shared
      row$method <- variant
      row$flags <- sprintf("the arm run of seed %d (no expansion, so the same path)", seed)
      append_csv(row, runs_file)
      print(row, row.names = FALSE)
      next
    }
    set.seed(seed)
    t0 <- proc.time()
    # reseed_digits: fresh particles from a mixture centred on 1,000 training digits (package data)
    digits <- if (grepl("^reseed_digits", variant)) mnist$x[sample.int(nrow(mnist$x), 1000L), ]
    fit <- suppressWarnings(arm(m, particles = R, variant = sub("_.*$", "", variant),
                                i_max = if (grepl("^reseed", variant)) 2L else 3L, move_steps = 10L,
                                reseed_steps = rs_steps, reseed_data = digits,
                                reseed_weights = if (grepl("_eq$", variant)) "equal" else "importance",
                                keep_particles = FALSE, progress = Sys.getenv("ARM_PROGRESS") == "1"))
    d <- fit$diagnostics
    # unit-updates: 10 sweeps of the R_k particles at n = k - 1 units (for reseed the fresh block is
    # moved reseed_steps instead of 10 times: counted from particle_moves)
    per_sweep <- sum(d$particles[d$n > 1] * (d$n[d$n > 1] - 1)) / sum(d$particles[d$n > 1])
    work <- 10 * sum(d$particles[d$n > 1] * (d$n[d$n > 1] - 1))
    if (grepl("^reseed", variant))   # particle_moves counts sweeps; the extra fresh sweeps at about mean n
      work <- fit$counts[["particle_moves"]] * per_sweep
    row <- data.frame(model = mk, method = variant, R = R, seed = seed, log_z = fit$log_z,
                      work_sweeps = work / 784, mean_particles = mean(d$particles),
                      expansions = fit$counts[["expansions"]], min_ess_ratio = min(d$gamma),
                      reseed_steps = if (grepl("^reseed", variant)) rs_steps else NA, cpu_s = cpu(t0),
                      reseed_shift = if (is.null(fit$reseed_shift)) NA else fit$reseed_shift,
                      flags = paste(fit$flags, collapse = "; "))
    append_csv(row, runs_file)
    print(row, row.names = FALSE)
    if (variant == "arm" && variant == variants[1] && fit$counts[["expansions"]] == 0) shared <- row
  }
}
if (task == "ais_eq") {
  mk <- args[2]; R <- as.integer(args[3]); seed <- as.integer(args[4])
  prev <- utils::read.csv(runs_file)
  w <- prev$work_sweeps[prev$model == mk & prev$method == "arm" & prev$R == R]
  K <- as.integer(round(mean(w) / 100))
  m <- load_model(mk)
  set.seed(seed)
  t0 <- proc.time()
  fit <- suppressWarnings(ais(m, schedule_linear(K), n_chains = 100L, progress = FALSE))
  row <- data.frame(model = mk, method = "ais", R = R, seed = seed, log_z = fit$log_z,
                    work_sweeps = 100 * K, mean_particles = NA, expansions = NA,
                    min_ess_ratio = fit$ess_ratio, reseed_steps = NA, cpu_s = cpu(t0),
                    reseed_shift = NA, flags = paste(fit$flags, collapse = "; "))
  append_csv(row, runs_file)
  print(row, row.names = FALSE)
}
if (task == "fig5") {
  seed <- as.integer(args[2])
  m <- load_model("pcd")
  set.seed(seed)
  fit <- suppressWarnings(arm(m, particles = 50, keep_particles = c(200L, 784L), progress = FALSE))
  png("bench/arm/arm_rbm500_fig5.png", width = 900, height = 240)
  op <- par(mfrow = c(2, 10), mar = c(0.2, 0.2, 0.2, 0.2))
  for (n in c("200", "784")) {
    k <- fit$particles_at[[n]]
    pick <- sample.int(nrow(k$states), 10, prob = exp(k$log_weights))
    for (i in pick) {
      img <- rep(0.5, 784)   # pixels not yet added are grey
      img[match(colnames(k$states), paste0("x", 1:784))] <- 1 - k$states[i, ]
      image(matrix(img, 28, 28)[, 28:1], col = gray.colors(256, 0, 1), axes = FALSE, zlim = c(0, 1))
    }
  }
  par(op)
  dev.off()
  cat(sprintf("fig5: ARM R = 50 on PCD(500), seed %d, log Z %.3f; 10 particles drawn by weight at n = 200 (top) and 784\n",
              seed, fit$log_z))
}
if (task == "summary") {
  cat(sprintf("R BLAS: %s\nR LAPACK: %s\n", extSoftVersion()[["BLAS"]], La_library()))
  ref <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")
  refs <- c(pcd = ref$mid, cd25 = 542.0785)
  cat(sprintf("references: PCD(500) %.3f (AIS sandwich, bench/rts/rts_fig3_pcd500_ref.R); CD25(500) %.4f (bench/rts/rts_hard.out)\n\n",
              refs[["pcd"]], refs[["cd25"]]))
  runs <- utils::read.csv(runs_file)
  # reseed runs with other than the default 20 fresh moves form cells of their own
  other <- grepl("^reseed", runs$method) & !is.na(runs$reseed_steps) & runs$reseed_steps != 20
  runs$method[other] <- paste0(runs$method[other], "_", runs$reseed_steps[other])
  # the PCD(500) ARM and AIS runs of bench/arm/arm_rbm500.R beside these: its ARM runs are the runs
  # of `run pcd arm` with the same R and seed (seed 1 at R = 50 gives the same log Z to all digits),
  # so they join the arm cells (a seed run here too is counted once); its AIS runs (K from the
  # first ARM run, not the mean) stay apart as ais*
  old <- utils::read.csv("bench/arm/arm_rbm500_runs.csv")
  old$R <- ifelse(old$setting %in% c("R=50", "K=1983 M=100"), 50L, 200L)
  old <- old[!(old$method == "ARM" & paste(old$R, old$seed) %in%
               paste(runs$R, runs$seed)[runs$model == "pcd" & runs$method == "arm"]), ]
  runs <- rbind(runs, data.frame(model = "pcd", method = ifelse(old$method == "ARM", "arm", "ais*"),
                                 R = old$R,
                                 seed = old$seed, log_z = old$log_z, work_sweeps = old$work_sweeps,
                                 mean_particles = old$mean_particles, expansions = NA,
                                 min_ess_ratio = old$min_ess_ratio, reseed_steps = NA, cpu_s = old$cpu_s,
                                 reseed_shift = NA, flags = NA))
  # the merged runs, with log Z minus the reference, for vignette("arm")
  ext <- data.frame(runs[, c("model", "method", "R", "seed", "log_z", "work_sweeps", "expansions",
                             "reseed_shift")], error = runs$log_z - refs[runs$model],
                    reseed_flag = grepl("fresh reseed blocks", runs$flags))
  utils::write.csv(ext, "inst/extdata/arm_rbm500_fig4_runs.csv", row.names = FALSE)
  set.seed(7)
  rmse <- function(e) sqrt(mean(e^2))
  cat("(ais = AIS at the mean work of the ARM runs with that R; ais* = runs of bench/arm/arm_rbm500.R, K from\n",
      "its first ARM run; pcd arm also holds that script's ARM runs, the same runs as this script's)\n", sep = "")
  cat("model method             R  runs  work (chain-sweeps)  CPU s/run  mean - ref     sd    RMSE [95% bootstrap]\n")
  cells <- unique(runs[, c("model", "method", "R")])
  cells <- cells[order(cells$model, cells$R, cells$method), ]
  for (i in seq_len(nrow(cells))) {
    d <- merge(runs, cells[i, ])
    e <- d$log_z - refs[[d$model[1]]]
    ci <- if (nrow(d) > 1) stats::quantile(replicate(4000, rmse(sample(e, replace = TRUE))), c(0.025, 0.975))
          else c(NA, NA)
    cat(sprintf("%-5s %-15s %4d %5d  %18.0f  %9.1f  %+10.3f  %6.3f  %6.3f [%.3f, %.3f]\n", d$model[1],
                d$method[1], d$R[1], nrow(d), mean(d$work_sweeps), mean(d$cpu_s), mean(e),
                if (nrow(d) > 1) sd(d$log_z) else NA, rmse(e), ci[1], ci[2]))
  }
  rs <- runs[grepl("^reseed", runs$method) & !is.na(runs$reseed_shift), ]
  if (nrow(rs)) {
    cat("\nreseed runs: reseed_shift (nats the fresh blocks moved log Z; flagged below -1), flagged\n")
    for (i in seq_len(nrow(rs)))
      cat(sprintf("  %-5s %-18s R %4d seed %2d  log Z - ref %+8.3f  expansions %3d  reseed_shift %+8.3f  %s\n",
                  rs$model[i], rs$method[i], rs$R[i], rs$seed[i], rs$log_z[i] - refs[[rs$model[i]]],
                  rs$expansions[i], rs$reseed_shift[i],
                  if (grepl("fresh reseed blocks", rs$flags[i])) "flagged" else "not flagged"))
  }
  cat(paste0("\nPaper (Figure 4; 50 runs a cell; ARM / anticipate R = 10^2, 10^3, 10^4, i_max 3; RM up to 1.2 x 10^4;\n",
             "reseed R = 10^2, 10^3, 6 x 10^3 (PCD) / 10^4 (CD25), i_max 2, 3000 (PCD) / 1500 (CD25) Gibbs\n",
             "transitions from training digits, weights 1/S): ARM close to AIS (5,000 chains, 10^5 steps) in under\n",
             "a minute; anticipate lower variance than ARM; reseed clearly better on PCD at R = 10^3, no better on CD25.\n"))
}
