# log_partition() on a GP classifier: which default gives an se at a sensible
# cost? One ARM run of R = 1000 (the old default; no se) against repeats = 4 of
# R = 250 (equal particles) and of R = 500 (twice the work), on Ionosphere
# (n = 60 and 120 points). Error against a reference: 4 pooled ARM runs of
# R = 4000. Reports the sd and RMSE of log Z over replicates, the mean reported
# se, and the fraction of replicates whose |error| < 2 se. Work is counted in
# particle-moves and in CPU seconds of this process (the machine is shared, so
# elapsed seconds are noisy).
# Run: R_LIBS=... nice -n 10 Rscript bench/arm/log_partition_gpc.R > bench/arm/log_partition_gpc.out
suppressMessages(library(logz))
source("bench/arm/gpc_problems.R")
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
reps <- as.integer(Sys.getenv("REPS", "6"))
for (n in c(60L, 120L)) {
  g <- ionosphere_gpc(n)
  set.seed(100)
  ref <- arm(g, particles = 4000, repeats = 4, progress = FALSE)
  cat(sprintf("\n== Ionosphere n = %d: reference log Z %.4f (se %.4f), EP %.4f\n", n, ref$log_z,
              ref$se, ep_log_z(g)))
  settings <- list(`R=1000 x1` = c(1000, 1), `R=250 x4` = c(250, 4), `R=500 x4` = c(500, 4))
  rows <- lapply(names(settings), function(nm) {
    s <- settings[[nm]]
    res <- t(vapply(seq_len(reps), function(r) {
      set.seed(r)
      t <- system.time(f <- arm(g, particles = s[1], repeats = s[2], progress = FALSE))
      c(f$log_z, f$se, t[["user.self"]] + t[["sys.self"]], f$counts[["particle_moves"]])
    }, numeric(4)))
    err <- res[, 1] - ref$log_z
    data.frame(setting = nm, cpu_s = mean(res[, 3]), moves = mean(res[, 4]), sd = stats::sd(res[, 1]),
               rmse = sqrt(mean(err^2)), bias = mean(err), mean_se = mean(res[, 2]),
               within_2se = if (all(is.na(res[, 2]))) NA else mean(abs(err) < 2 * res[, 2]))
  })
  print(do.call(rbind, rows), digits = 3, row.names = FALSE)
}
