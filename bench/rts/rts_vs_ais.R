# RTS against AIS and RAISE on a 784 x 100 MNIST RBM at matched Gibbs sweeps
# (Carlson et al. 2016, Figure 3), and the RMSE of RTS, TS, TI, TI-RB and MBAR
# against the number of temperatures K (their Figure 4).
# Every method runs 100 parallel chains; "sweeps" is the number of Gibbs sweeps
# per chain, RTS's 10 initial iterations of 50 sweeps included (tol is set tiny
# so that all 10 run and the count is exact). AIS and RAISE use a linear
# schedule with one sweep per step (RAISE: 100 test digits, one chain each).
# Reference log Z: the mean of a long AIS run and a long RTS run (as in the
# paper); both are printed.
# RAISE on test digits comes out below the reference here: its p_hat is unbiased
# for the annealed model, which fits digits better than this PCD model does, so
# its implied log Z is not an upper bound on real data (bench/archive/raise_annealed.R
# shows the effect against exact log Z, and the upper bound on model samples).
# Run: Rscript bench/rts/rts_vs_ais.R   (about 15-20 minutes on 2 shared cores)
# Environment: RTS_BENCH_REPEATS (default 3), RTS_BENCH_QUICK=1 for a smoke test,
# RTS_BENCH_FOCUS=1 for only the headline comparison (RTS at 10^3 sweeps, paper's
# initial iterations and with the annealing pilot, against AIS at 10^4) with its
# own reference (about 12 minutes); output committed as bench/rts/rts_vs_ais_focus.out.
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("cores:", parallel::detectCores(), "\n\n")
quick <- nzchar(Sys.getenv("RTS_BENCH_QUICK"))
R <- as.integer(Sys.getenv("RTS_BENCH_REPEATS", if (quick) "2" else "3"))
threads <- 2L
M <- 100L

t0 <- proc.time()[[3]]
model <- rbm_train(mnist$x[1:8000, ], n_hidden = 100, method = "pcd", epochs = if (quick) 1 else 5,
                   learning_rate = 0.05, seed = 100, progress = FALSE)
cat(sprintf("trained a 784 x 100 RBM by PCD-1 (%d epochs, 8000 digits) in %.1f s\n\n",
            if (quick) 1L else 5L, proc.time()[[3]] - t0))
test <- mnist$x[9001:9100, ]

if (nzchar(Sys.getenv("RTS_BENCH_FOCUS"))) {
  # reference: the mean of a long AIS run and a long RTS run (as in the paper)
  set.seed(1)
  t0 <- proc.time()[[3]]
  ref_ais <- ais(model, schedule_linear(40000L), n_chains = M, threads = threads, progress = FALSE)
  t_ais <- proc.time()[[3]] - t0
  t0 <- proc.time()[[3]]
  ref_rts <- rts(model, K = 100, n_chains = M, sweeps = 20000L, init_iter = 0, pilot_sweeps = 1000L,
                 estimators = "rts", threads = threads, progress = FALSE)
  t_rts <- proc.time()[[3]] - t0
  truth <- (ref_ais$log_z + ref_rts$log_z) / 2
  cat(sprintf("reference: AIS (40000 linear steps, %d chains) %.4f (se %.4f) in %.0f s\n",
              M, ref_ais$log_z, ref_ais$se, t_ais))
  cat(sprintf("           RTS (K = 100, 1000 pilot + 20000 sweeps)  %.4f (se %.4f) in %.0f s\n",
              ref_rts$log_z, ref_rts$se, t_rts))
  cat(sprintf("           reference = their mean %.4f (difference %.4f)\n\n", truth,
              ref_ais$log_z - ref_rts$log_z))
  R <- as.integer(Sys.getenv("RTS_BENCH_REPEATS", "6"))
  focus <- list(
    "RTS (10 x 50 initial + 500)" = function() rts(model, K = 100, n_chains = M, sweeps = 500L,
      init_iter = 10, init_sweeps = 50, tol = 1e-9, estimators = "rts", threads = threads,
      progress = FALSE),
    "RTS (200 pilot + 800)" = function() rts(model, K = 100, n_chains = M, sweeps = 800L,
      init_iter = 0, pilot_sweeps = 200L, estimators = "rts", threads = threads, progress = FALSE),
    "RTS (500 pilot + 500)" = function() rts(model, K = 100, n_chains = M, sweeps = 500L,
      init_iter = 0, pilot_sweeps = 500L, estimators = "rts", threads = threads, progress = FALSE),
    "AIS (10^4 linear)" = function() ais(model, schedule_linear(10000L), n_chains = M,
      threads = threads, progress = FALSE))
  set.seed(2018)
  rows <- list()
  for (nm in names(focus)) {
    res <- sapply(seq_len(R), function(i) {
      t0 <- proc.time()[[3]]
      f <- focus[[nm]]()
      c(log_z = f$log_z, sweeps = f$counts[["gibbs_sweeps"]] / M, time = proc.time()[[3]] - t0)
    })
    err <- res["log_z", ] - truth
    rows[[nm]] <- data.frame(method = nm, sweeps = res["sweeps", 1], repeats = R,
      bias = mean(err), sd = stats::sd(res["log_z", ]), rmse = sqrt(mean(err^2)),
      time_s = mean(res["time", ]))
    cat(sprintf("  %s: log Z - reference %s\n", nm, paste(sprintf("%+.3f", err), collapse = " ")))
  }
  tab <- do.call(rbind, rows)
  cat(sprintf("\nRTS at 10^3 sweeps against AIS at 10^4 (%d chains, %d repeats)\n", M, R))
  print(format(tab, digits = 3), row.names = FALSE)
  quit(save = "no")
}

# ---- reference ---------------------------------------------------------------
set.seed(1)
ref_steps <- if (quick) 5000L else 20000L
ref_sweeps <- if (quick) 2000L else 10000L
t0 <- proc.time()[[3]]
ref_ais <- ais(model, schedule_linear(ref_steps), n_chains = M, threads = threads,
               progress = FALSE)
t_ais <- proc.time()[[3]] - t0
t0 <- proc.time()[[3]]
ref_rts <- rts(model, K = 100, n_chains = M, sweeps = ref_sweeps, estimators = "rts",
               threads = threads, progress = FALSE)
t_rts <- proc.time()[[3]] - t0
truth <- (ref_ais$log_z + ref_rts$log_z) / 2
cat(sprintf("reference: AIS (%d linear steps, %d chains) %.4f (se %.4f) in %.0f s\n",
            ref_steps, M, ref_ais$log_z, ref_ais$se, t_ais))
cat(sprintf("           RTS (K = 100, %d sweeps, %d chains)   %.4f (se %.4f) in %.0f s\n",
            ref_sweeps, M, ref_rts$log_z, ref_rts$se, t_rts))
cat(sprintf("           reference = their mean %.4f (difference %.4f)\n\n", truth,
            ref_ais$log_z - ref_rts$log_z))

# ---- Figure 3: matched sweeps ------------------------------------------------
levels <- if (quick) c(1000L, 2000L) else c(1000L, 3000L, 10000L)
run_one <- function(method, S) {
  t0 <- proc.time()[[3]]
  lz <- switch(method,
    RTS = rts(model, K = 100, n_chains = M, sweeps = S - 500L, init_iter = 10, init_sweeps = 50,
              tol = 1e-9, estimators = "rts", threads = threads, progress = FALSE)$log_z,
    AIS = ais(model, schedule_linear(S), n_chains = M, threads = threads,
              progress = FALSE)$log_z,
    RAISE = raise(model, test, schedule_linear(S), n_chains = 1L, threads = threads,
                  progress = FALSE)$log_z)
  c(log_z = lz, time = proc.time()[[3]] - t0)
}
rows <- list()
set.seed(2016)
for (S in levels) for (method in c("RTS", "AIS", "RAISE")) {
  res <- sapply(seq_len(R), function(i) run_one(method, S))
  err <- res["log_z", ] - truth
  rows[[length(rows) + 1L]] <- data.frame(method = method, sweeps = S, repeats = R,
    mean = mean(res["log_z", ]), bias = mean(err), rmse = sqrt(mean(err^2)),
    sd = stats::sd(res["log_z", ]), time_s = mean(res["time", ]))
  cat(sprintf("  done %s at %d sweeps\n", method, S))
}
fig3 <- do.call(rbind, rows)
cat(sprintf("\nFigure 3: log Z of the 784 x 100 RBM, %d chains, %d repeats per cell\n", M, R))
print(format(fig3, digits = 4), row.names = FALSE)
rm_at <- function(m, S) fig3$rmse[fig3$method == m & fig3$sweeps == S]
S_hi <- max(levels)
cat(sprintf(paste0("\nRMSE ratios: AIS/RTS at %d sweeps %.2f, RAISE/RTS %.2f; ",
                   "RTS at 1000 vs AIS at %d: %.4f vs %.4f (target: RTS <= AIS): %s\n"),
            S_hi, rm_at("AIS", S_hi) / rm_at("RTS", S_hi), rm_at("RAISE", S_hi) / rm_at("RTS", S_hi),
            S_hi, rm_at("RTS", 1000L), rm_at("AIS", S_hi),
            if (rm_at("RTS", 1000L) <= rm_at("AIS", S_hi)) "met" else "NOT met"))

# ---- Figure 4: RMSE against K ------------------------------------------------
Ks <- if (quick) c(10L, 50L) else c(10L, 30L, 100L, 300L)
S4 <- if (quick) 500L else 1000L
rows <- list()
set.seed(2017)
for (K in Ks) {
  t0 <- proc.time()[[3]]
  est <- sapply(seq_len(R), function(i)
    rts(model, K = K, n_chains = M, sweeps = S4, threads = threads, mbar_samples = 5000L,
        progress = FALSE)$estimates$log_z)
  rownames(est) <- c("RTS", "TS", "TI_riemann", "TI_trapezoid", "TI_friel", "TI_RB", "MBAR")
  rmse <- sqrt(rowMeans((est - truth)^2))
  rows[[length(rows) + 1L]] <- data.frame(K = K, t(rmse), time_s = (proc.time()[[3]] - t0) / R)
  cat(sprintf("  done K = %d\n", K))
}
fig4 <- do.call(rbind, rows)
cat(sprintf(paste0("\nFigure 4: RMSE of log Z against K (%d chains, 500 initial + %d final sweeps, ",
                   "%d repeats; MBAR on 5000 stored samples)\n"), M, S4, R))
print(format(fig4, digits = 3), row.names = FALSE)
