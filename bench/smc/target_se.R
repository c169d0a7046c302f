# smc(target_se = 0.01) on the Bayesian linear regression of smc_models.R
# (n = 50, d = 10, closed-form log Z; new data each seed), as a function from
# the Laplace base with HMC: per seed the error, the se, z = error / se, the
# replicates it took and its cost; then the fraction of runs within 0.03 nats
# and the distribution of z. Saves the runs (with each run's replicate log Z)
# in bench/smc/target_se_<particles>.rds.
# Run from the package root: Rscript bench/smc/target_se.R [first_seed last_seed [particles]]
suppressPackageStartupMessages(library(logz))
source("bench/smc/smc_models.R")
args <- commandArgs(TRUE)
seeds <- if (length(args) >= 2) as.integer(args[1]):as.integer(args[2]) else 1:50
particles <- if (length(args) >= 3) as.integer(args[3]) else 250L
options(logz.warn_unreliable = FALSE)
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("smc(target_se = 0.01, particles = %d), regression d = 10, seeds %d-%d; %s; logz %s\n\n",
            particles, min(seeds), max(seeds), format(Sys.time()), packageVersion("logz")))
out <- sprintf("bench/smc/target_se_%d.rds", particles)
runs <- if (file.exists(out)) readRDS(out) else list()
for (s in seeds) {
  key <- as.character(s)
  if (!is.null(runs[[key]])) next
  tg <- regression(100 + s)
  set.seed(s)
  t0 <- proc.time()
  fit <- smc(tg$f, gradient = tg$g, start = rep(0, tg$d), vectorized = TRUE, target_se = 0.01,
             particles = particles, progress = FALSE)
  runs[[key]] <- list(seed = s, truth = tg$log_z, log_z = fit$log_z, se = fit$se,
                      log_z_runs = fit$log_z_runs, reliable = fit$reliable,
                      evals = fit$counts[["density_evaluations"]] + fit$counts[["gradient_evaluations"]],
                      cpu = sum((proc.time() - t0)[c("user.self", "sys.self")]))
  saveRDS(runs, out)
}
tab <- do.call(rbind, lapply(runs[as.character(seeds)], function(r) data.frame(
  seed = r$seed, error = r$log_z - r$truth, se = r$se, z = (r$log_z - r$truth) / r$se,
  replicates = length(r$log_z_runs), flagged = !r$reliable, evals = r$evals, cpu = r$cpu)))
old <- options(width = 200, digits = 4)
print(tab, row.names = FALSE)
cat(sprintf(paste0("\n%d runs: within 0.03 nats %d (%.2f); max |error| %.4f; RMSE %.4f; mean se %.4f; ",
                   "|z| <= 2: %.2f, |z| <= 3: %.2f; sd(z) %.2f\n"),
            nrow(tab), sum(abs(tab$error) <= 0.03), mean(abs(tab$error) <= 0.03),
            max(abs(tab$error)), sqrt(mean(tab$error^2)), mean(tab$se), mean(abs(tab$z) <= 2),
            mean(abs(tab$z) <= 3), sd(tab$z)))
cat("z quantiles (0, 2.5, 25, 50, 75, 97.5, 100%):",
    format(round(stats::quantile(tab$z, c(0, 0.025, 0.25, 0.5, 0.75, 0.975, 1)), 2)), "\n")
cat("replicates taken:", paste(names(table(tab$replicates)), table(tab$replicates), sep = ": ",
                              collapse = ", "), "\n")
cat(sprintf("mean CPU %.2f s a run\n", mean(tab$cpu)))
options(old)
