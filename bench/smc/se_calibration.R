# Calibration of the se of log_partition()'s defaults (smc() on an R log
# density with its gradient) over many seeds: z = (log_z - truth) / se on
# well-behaved targets (closed-form Gaussians incl. condition 1e4 in d = 20,
# conjugate models, logistic and probit regressions on data shipped with R
# with references computed two independent ways, a non-centred hierarchical
# model) and harsher ones (a product of Cauchy densities, Haario's banana,
# a multivariate t, the random-walk route); the share of runs flagged, on
# accurate runs (|error| <= 2 x the sd of the errors over seeds, and at most
# 0.05 nats) the false-positive rate of each flag.
# Run from the package root:
#   Rscript bench/smc/se_calibration.R [seeds well-behaved] [seeds harsh] [models]
# writes bench/smc/se_calibration.rds (raw runs) and prints the summary.
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)
source("bench/smc/calibration_models.R")
args <- commandArgs(TRUE)
n_good <- if (length(args) >= 1) as.integer(args[1]) else 30L
n_harsh <- if (length(args) >= 2) as.integer(args[2]) else 20L
ms <- calibration_models()
if (length(args) >= 3) ms <- ms[strsplit(args[3], ",")[[1]]]
out_rds <- Sys.getenv("CAL_OUT", "bench/smc/se_calibration.rds")
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("command: Rscript bench/smc/se_calibration.R %s; commit %s; %s; load average %s\n\n",
            paste(args, collapse = " "), system("git rev-parse --short HEAD", intern = TRUE),
            format(Sys.time()), paste(utils::head(strsplit(readLines("/proc/loadavg"), " ")[[1]], 3),
                                      collapse = " ")))

# references of the models without a closed form: importance sampling (4e5
# draws from a Student-t at the Laplace fit) and a long smc() run (estimator
# "smc", 2000 particles x 16 replicates); their mean is the reference
ref_file <- "bench/smc/calibration_refs.rds"
refs <- if (file.exists(ref_file)) readRDS(ref_file) else list()
for (k in names(ms)) if (is.na(ms[[k]]$log_z)) {
  if (is.null(refs[[k]])) {
    set.seed(99)
    is <- cal_is_reference(ms[[k]])
    set.seed(98)
    long <- smc(ms[[k]]$f, gradient = ms[[k]]$g, start = ms[[k]]$start, particles = 2000L,
                replicates = 16L, estimator = "smc", progress = FALSE)
    refs[[k]] <- rbind(is = is, smc = c(long$log_z, long$se))
    saveRDS(refs, ref_file)
  }
  r <- refs[[k]]
  cat(sprintf("reference %s: importance sampling %.5f (se %.5f), long SMC %.5f (se %.5f), differ by %.1f se\n",
              k, r[1, 1], r[1, 2], r[2, 1], r[2, 2], abs(r[1, 1] - r[2, 1]) / sqrt(sum(r[, 2]^2))))
  ms[[k]]$log_z <- mean(r[, 1])
}

one <- function(m, seed) {
  set.seed(seed)
  t0 <- proc.time()[["elapsed"]]
  fit <- do.call(log_partition, c(list(m$f, gradient = m$g, start = m$start, progress = FALSE),
                                  m$args))
  list(seed = seed, log_z = fit$log_z, se = fit$se, err = fit$log_z - m$log_z,
       estimator = fit$estimator, smc = fit$smc, se_parts = fit$se_parts, bridge = fit$bridge,
       log_z_runs = fit$log_z_runs, rel_var_runs = fit$rel_var_runs, bridge_runs = fit$bridge_runs,
       flags = fit$flags, pfit = fit$bridge_proposal_fit, time = proc.time()[["elapsed"]] - t0,
       evals = sum(fit$counts[c("density_evaluations", "gradient_evaluations")]))
}
runs <- list()
for (k in names(ms)) {
  seeds <- seq_len(if (ms[[k]]$harsh) n_harsh else n_good)
  runs[[k]] <- lapply(seeds, function(s) one(ms[[k]], s))
  saveRDS(list(models = lapply(ms, function(m) m[c("name", "d", "log_z", "harsh")]), runs = runs),
          out_rds)
}

flag_kind <- function(f) sub("^(.{0,40}).*", "\\1", f)
cat(sprintf("%-46s %5s %8s %8s %8s %6s %7s %7s %7s %7s\n", "target", "runs", "bias", "RMSE",
            "mean se", "sd(z)", "|z|<=2", "flagged", "acc.", "FP"))
for (k in names(runs)) {
  r <- runs[[k]]
  err <- vapply(r, `[[`, 0, "err")
  se <- vapply(r, `[[`, 0, "se")
  z <- err / se
  flagged <- vapply(r, function(x) length(x$flags) > 0L, TRUE)
  acc <- abs(err) <= pmin(0.05, 2 * max(sqrt(mean(err^2)), 1e-4)) & abs(z) <= 2
  cat(sprintf("%-46s %5d %+8.4f %8.4f %8.4f %6.2f %7s %7d %7d %7d\n", ms[[k]]$name, length(r),
              mean(err), sqrt(mean(err^2)), mean(se), sd(z),
              sprintf("%d/%d", sum(abs(z) <= 2), length(z)), sum(flagged), sum(acc),
              sum(flagged & acc)))
}
cat("\n(acc.: accurate runs, |error| <= min(0.05, 2 RMSE) and |z| <= 2; FP: those flagged)\n")
cat("\nflags fired (count over runs, first 40 characters):\n")
fl <- unlist(lapply(names(runs), function(k) {
  f <- unlist(lapply(runs[[k]], `[[`, "flags"))
  if (length(f)) paste(k, flag_kind(f))
}))
if (length(fl)) print(sort(table(fl), decreasing = TRUE)) else cat("none\n")
