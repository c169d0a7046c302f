# rts()'s default groups: one run of all chains (one pilot, initial iterations, ladder and final
# run), split into 4 groups of chains only for the se (group_start = "shared", the default: the
# estimate is that of groups = 1, the se the larger of Eq. 16 and the groups' spread), against
# wholly independent groups (group_start = "own", each with its own pilot, initial iterations and
# ladder: the previous default) and, where run, all chains in one group (groups = 1) and
# "lastupd" (rows of a design tried first and dropped: a shared start, but the last ladder
# update and the final run per group, from an earlier build of this branch). Default rts()
# otherwise (K = 100, 100 chains, 1000 sweeps, 4 groups of 25 chains), 2 threads, on the
# 784 x 500 PCD RBM (bench/models/rbm500_pcd.rds, reference log Z 430.588 +/- 0.166 from the
# forward/reverse AIS sandwich of bench/rts/rts_fig3_pcd500_ref.rds) and the 784 x 20 PCD and
# CD-25 RBMs (exact log Z by enumeration). Per model and call: errors, RMSE, mean se, z =
# error / se and the share with |z| <= 2 and <= 3, flagged runs, CPU s per run. Runs append one
# row each to bench/rts/rts_default_groups_runs.csv (seeds in turn, the three calls interleaved).
#   nohup nice Rscript bench/rts/rts_default_groups.R run 500 1:4 > /tmp/g500.log 2>&1 &
#   nohup nice Rscript bench/rts/rts_default_groups.R run 20 1:4 > /tmp/g20.log 2>&1 &
#   Rscript bench/rts/rts_default_groups.R summary > bench/rts/rts_default_groups.out
# BENCH_CALLS (default "shared,own"; also "one") picks the calls a run makes, BENCH_MODELS
# (e.g. "rbm20_cd25") the models. Run with
# OMP_WAIT_POLICY=PASSIVE on a loaded machine: spinning OpenMP threads inflate CPU times.
suppressPackageStartupMessages(library(logz))
args <- commandArgs(TRUE)
csv <- "bench/rts/rts_default_groups_runs.csv"
calls <- list(shared = list(), one = list(groups = 1), own = list(group_start = "own"))
run_calls <- strsplit(Sys.getenv("BENCH_CALLS", "shared,own"), ",")[[1]]
if (args[1] == "run") {
  models <- if (args[2] == "500") "rbm500_pcd" else c("rbm20_pcd", "rbm20_cd25")
  if (nzchar(Sys.getenv("BENCH_MODELS")))
    models <- intersect(models, strsplit(Sys.getenv("BENCH_MODELS"), ",")[[1]])
  seeds <- eval(parse(text = args[3]))
  for (m in models) {
    model <- readRDS(file.path("bench/models", paste0(m, ".rds")))$model
    ref <- if (m == "rbm500_pcd") readRDS("bench/rts/rts_fig3_pcd500_ref.rds")$mid else
      as.numeric(exact_log_z(model))
    for (s in seeds) for (cl in run_calls) {
      set.seed(7000 + s)
      t0 <- proc.time()
      f <- suppressWarnings(do.call(rts, c(list(model, estimators = "rts", threads = 2,
                                                progress = FALSE), calls[[cl]])),
                            classes = "logz_unreliable")
      dt <- proc.time() - t0
      row <- data.frame(model = m, call = cl, seed = 7000 + s, ref = ref, log_z = f$log_z,
                        se = f$se, se_eq16 = if (is.null(f$se_parts)) f$se else
                          f$se_parts[["eq16"]],
                        se_groups = if (is.null(f$se_parts)) NA else f$se_parts[["groups"]],
                        flags = paste(f$flags, collapse = "; "),
                        cpu = sum(dt[c("user.self", "sys.self")]), elapsed = dt[["elapsed"]])
      utils::write.table(row, csv, sep = ",", row.names = FALSE, append = file.exists(csv),
                         col.names = !file.exists(csv))
      cat(sprintf("%s %s seed %d: error %+.3f se %.3f; %.0f CPU s\n", m, cl, 7000 + s,
                  f$log_z - ref, f$se, row$cpu))
    }
  }
} else {
  cat(sprintf("logz %s; R %s; BLAS: %s; LAPACK: %s\n", utils::packageVersion("logz"), getRversion(),
              extSoftVersion()[["BLAS"]], La_library()))
  cat(sprintf("date %s; commit %s; load average at summary %s\n",
              format(Sys.time(), tz = "UTC", usetz = TRUE),
              tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) NA),
              paste(readLines("/proc/loadavg"), collapse = "")))
  cat("rts(model, estimators = \"rts\", threads = 2) and the same with groups = 1 or",
      "group_start = \"own\"\n")
  cat("shared: default (one run, 4 groups of its chains for the se); one: groups = 1;\n",
      "own: 4 wholly independent groups (the previous default); lastupd: shared start, per-group\n",
      "last ladder update and final run (a design tried first on an earlier build, dropped)\n\n")
  r <- utils::read.csv(csv, stringsAsFactors = FALSE)
  for (m in unique(r$model)) {
    cat(sprintf("%s (reference log Z %.3f)\n", m, r$ref[r$model == m][1]))
    for (cl in c(names(calls), "lastupd")) {
      d <- r[r$model == m & r$call == cl, ]
      if (!nrow(d)) next
      err <- d$log_z - d$ref
      z <- err / d$se
      cat(sprintf(paste0("  %-6s %d runs: RMSE %.3f, mean error %+.3f, mean se %.3f (Eq. 16 %.3f, ",
                         "groups %s); |z| <= 2: %d/%d, |z| <= 3: %d/%d; flagged %d/%d; CPU s %.1f ",
                         "(range %.1f-%.1f)\n"), cl, nrow(d), sqrt(mean(err^2)), mean(err),
                  mean(d$se), mean(d$se_eq16),
                  if (all(is.na(d$se_groups))) "NA" else sprintf("%.3f", mean(d$se_groups)),
                  sum(abs(z) <= 2), nrow(d), sum(abs(z) <= 3), nrow(d), sum(nzchar(d$flags) &
                  !is.na(d$flags)), nrow(d), mean(d$cpu), min(d$cpu), max(d$cpu)))
      cat(sprintf("         errors %s\n         z      %s\n",
                  paste(sprintf("%+.3f", err), collapse = " "),
                  paste(sprintf("%+.2f", z), collapse = " ")))
      fl <- unlist(strsplit(d$flags[nzchar(d$flags) & !is.na(d$flags)], "; "))
      if (length(fl)) {
        tab <- table(sub(":.*", "", fl))
        cat(sprintf("         flags: %s\n", paste(sprintf("%s %d", names(tab), tab), collapse = ", ")))
      }
    }
    cat("\n")
  }
}
