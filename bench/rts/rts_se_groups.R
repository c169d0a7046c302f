# Does rts()'s reported se cover the spread of its estimates? Default rts()
# (K = 100, 100 chains, 1000 sweeps, pilot) on a 784 x 20 MNIST RBM from
# bench/models/ (exact log Z by enumeration of the 2^20 hidden states), 20
# seeds, once with all chains in one group (`groups = 1`: the se is Eq. 16 of
# Carlson et al. 2016) and once with the default independent groups (the se is
# the larger of Eq. 16 and the spread between the groups). Prints, per setting,
# RMSE against exact, the mean reported se, sd(z) and the share of runs with
# |z| <= 3 (z = error / se). The two settings run as two processes (one core
# each), then the summary:
#   nohup nice Rscript bench/rts/rts_se_groups.R run 1 > /tmp/g1.log 2>&1 &
#   nohup nice Rscript bench/rts/rts_se_groups.R run default > /tmp/gd.log 2>&1 &
#   Rscript bench/rts/rts_se_groups.R summary > bench/rts/rts_se_groups.out
# BENCH_MODEL (default cd25) picks bench/models/rbm20_<model>.rds; BENCH_SEEDS the seeds.
suppressPackageStartupMessages(library(logz))
args <- commandArgs(TRUE)
model_name <- Sys.getenv("BENCH_MODEL", "cd25")
seeds <- seq_len(as.integer(Sys.getenv("BENCH_SEEDS", "20")))
csv <- function(g) sprintf("bench/rts/rts_se_groups_%s_%s.csv", model_name, g)
if (args[1] == "run") {
  g <- args[2]
  d <- readRDS(file.path("bench/models", sprintf("rbm20_%s.rds", model_name)))
  ex <- as.numeric(exact_log_z(d$model, threads = 1L, progress = FALSE))
  rows <- list()
  for (s in seeds) {
    set.seed(2000 + s)
    t <- system.time(f <- suppressWarnings(
      rts(d$model, groups = if (g == "default") NULL else as.integer(g), estimators = "rts",
          progress = FALSE)))[["elapsed"]]
    rows[[length(rows) + 1L]] <- data.frame(
      seed = 2000 + s, groups = if (is.null(f$groups)) 1L else nrow(f$groups), exact = ex,
      log_z = f$log_z, se = f$se, se_eq16 = if (is.null(f$se_parts)) f$se else f$se_parts[["eq16"]],
      se_groups = if (is.null(f$se_parts)) NA_real_ else f$se_parts[["groups"]],
      flagged = length(f$flags) > 0, seconds = t)
    utils::write.csv(do.call(rbind, rows), csv(g), row.names = FALSE)
    cat(sprintf("seed %d: error %+.4f se %.4f (%.1f s)\n", 2000 + s, f$log_z - ex, f$se, t))
  }
} else {
  cat(sprintf("logz %s; R %s; BLAS: %s; LAPACK: %s\n", utils::packageVersion("logz"), getRversion(),
              extSoftVersion()[["BLAS"]], La_library()))
  cat(sprintf("default rts() on bench/models/rbm20_%s.rds (784 x 20), exact log Z by enumeration\n\n",
              model_name))
  for (g in c("1", "default")) {
    if (!file.exists(csv(g))) next
    r <- utils::read.csv(csv(g))
    err <- r$log_z - r$exact
    z <- err / r$se
    cat(sprintf(paste0("groups = %-7s (%d): %d runs, RMSE %.4f, mean error %+.4f, mean se %.4f ",
                       "(Eq. 16 part %.4f, group part %.4f), sd(z) %.2f, |z| <= 3 in %d/%d, ",
                       "|z| > 3 unflagged %d, mean %.1f s/run\n"),
                g, r$groups[1], nrow(r), sqrt(mean(err^2)), mean(err), mean(r$se), mean(r$se_eq16),
                mean(r$se_groups), sd(z), sum(abs(z) <= 3), nrow(r), sum(abs(z) > 3 & !r$flagged),
                mean(r$seconds)))
  }
}
