# Does rts()'s reported se cover the spread of its runs on the 784 x 500 RBMs?
# Default rts() (K = 100, 100 chains, 1000 sweeps, pilot, 4 independent groups
# of 25 chains; se the larger of Eq. 16 and the spread between the groups) on
# bench/models/rbm500_pcd.rds (reference log Z: the forward/reverse AIS
# sandwich of bench/rts/rts_fig3_pcd500_ref.rds, 430.588 +/- 0.166) and
# bench/models/rbm500_cd25.rds (reference: importance sampling around the
# blank image, bench/rts/rts_hard_is.rds). Runs append one row per seed to
# bench/rts/rts_se_500_<model>.csv and stop starting new seeds after
# BENCH_WALL seconds (default 1500); the summary prints, per model, the
# number of runs, the sd of the estimates against the mean se (and its Eq. 16
# and group parts), RMSE against the reference, z = (log Z - ref) / se and the
# share of |z| <= 2 and <= 3, with CPU seconds per run.
#   nohup nice Rscript bench/rts/rts_se_500.R run pcd > /tmp/r500.log 2>&1 &
#   Rscript bench/rts/rts_se_500.R summary > bench/rts/rts_se_500.out
suppressPackageStartupMessages(library(logz))
args <- commandArgs(TRUE)
csv <- function(m) sprintf("bench/rts/rts_se_500_%s.csv", m)
reference <- function(m) {
  if (m == "pcd") {
    r <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")
    c(log_z = r$mid, err = r$err)
  } else {
    r <- readRDS("bench/rts/rts_hard_is.rds")
    c(log_z = r$log_z, err = r$se)
  }
}
if (args[1] == "run") {
  m <- args[2]
  model <- readRDS(file.path("bench/models", sprintf("rbm500_%s.rds", m)))$model
  ref <- reference(m)
  wall <- as.numeric(Sys.getenv("BENCH_WALL", "1500"))
  first <- as.integer(Sys.getenv("BENCH_FIRST_SEED", "1"))
  t_start <- proc.time()[["elapsed"]]
  s <- first
  repeat {
    if (proc.time()[["elapsed"]] - t_start > wall) break
    set.seed(5000 + s)
    t0 <- proc.time()
    f <- suppressWarnings(rts(model, estimators = "rts", progress = FALSE),
                          classes = "logz_unreliable")
    dt <- proc.time() - t0
    row <- data.frame(seed = 5000 + s, ref = ref[["log_z"]], log_z = f$log_z, se = f$se,
                      se_eq16 = f$se_parts[["eq16"]], se_groups = f$se_parts[["groups"]],
                      group_log_z = paste(sprintf("%.4f", f$groups$log_z), collapse = " "),
                      group_se = paste(sprintf("%.4f", f$groups$se), collapse = " "),
                      flags = paste(f$flags, collapse = "; "),
                      cpu = sum(dt[c("user.self", "sys.self")]), elapsed = dt[["elapsed"]])
    utils::write.table(row, csv(m), sep = ",", row.names = FALSE, append = file.exists(csv(m)),
                       col.names = !file.exists(csv(m)))
    cat(sprintf("%s seed %d: error %+.3f se %.3f (Eq. 16 %.3f, groups %.3f); %.0f CPU s\n", m,
                5000 + s, f$log_z - ref[["log_z"]], f$se, row$se_eq16, row$se_groups, row$cpu))
    s <- s + 1L
  }
} else {
  cat(sprintf("logz %s; R %s; BLAS: %s; LAPACK: %s\n", utils::packageVersion("logz"), getRversion(),
              extSoftVersion()[["BLAS"]], La_library()))
  cat(sprintf("date %s; commit %s\n", format(Sys.time(), tz = "UTC", usetz = TRUE),
              tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) NA)))
  cat("default rts() (K = 100, 100 chains, 1000 sweeps, 4 groups of 25 chains), 784 x 500 RBMs\n\n")
  for (m in c("pcd", "cd25")) {
    if (!file.exists(csv(m))) {
      cat(sprintf("%s: no runs (none fitted the session's CPU and wall time)\n", m))
      next
    }
    r <- utils::read.csv(csv(m))
    ref <- reference(m)
    err <- r$log_z - r$ref
    z <- err / r$se
    z16 <- err / r$se_eq16
    cat(sprintf("%s (reference %.3f +/- %.3f): %d runs, %.0f CPU s per run (mean)\n", m,
                ref[["log_z"]], ref[["err"]], nrow(r), mean(r$cpu)))
    cat(sprintf(paste0("  sd of estimates %.3f; mean se %.3f (Eq. 16 part %.3f, group part %.3f); ",
                       "RMSE %.3f, mean error %+.3f\n"),
                if (nrow(r) > 1) sd(r$log_z) else NA, mean(r$se), mean(r$se_eq16),
                mean(r$se_groups), sqrt(mean(err^2)), mean(err)))
    cat(sprintf("  |z| <= 2: %d/%d, |z| <= 3: %d/%d (default se); with the Eq. 16 part alone %d/%d, %d/%d\n",
                sum(abs(z) <= 2), nrow(r), sum(abs(z) <= 3), nrow(r), sum(abs(z16) <= 2), nrow(r),
                sum(abs(z16) <= 3), nrow(r)))
    cat(sprintf("  per run: error %s\n", paste(sprintf("%+.3f", err), collapse = " ")))
    cat(sprintf("           z     %s\n", paste(sprintf("%+.2f", z), collapse = " ")))
    cat(sprintf("  root mean square se %.3f (RMSE / rms se %.2f); Eq. 16 part %.3f (RMSE / it %.2f)\n",
                sqrt(mean(r$se^2)), sqrt(mean(err^2)) / sqrt(mean(r$se^2)), sqrt(mean(r$se_eq16^2)),
                sqrt(mean(err^2)) / sqrt(mean(r$se_eq16^2))))
    cat(sprintf("  flagged runs: %d/%d\n", sum(nchar(r$flags) > 0, na.rm = TRUE), nrow(r)))
    fl <- table(unlist(lapply(strsplit(r$flags[nchar(r$flags) > 0], "; "),
                              function(f) unique(sub(":.*", "", f)))))
    for (nm in names(fl)) cat(sprintf("    %s: %d runs\n", nm, fl[[nm]]))
  }
}
