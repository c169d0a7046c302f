# Figure 4 of Fraccaro, Paquet & Winther (2016) in miniature: ARM vs RM vs AIS
# on an MNIST RBM. The paper's RBMs are 784 x 500 (PCD, CD25); here, for the
# time budget of a shared 2-core machine, a 784 x 20 RBM trained by PCD for 5
# epochs (the test suite's model), whose exact log Z is known by enumeration
# over the hidden layer. ARM/RM: 10 block-Gibbs steps per move, pixels added
# most variable first; AIS: base-rate start, linear schedule, 1 sweep per step.
# Run: R_LIBS=... Rscript bench/arm_rbm.R > bench/arm_rbm.out
library(logz)
cat(logz:::blas_info(), "\n")
args <- commandArgs(TRUE)
repeats <- if (length(args) >= 1) as.integer(args[1]) else 5L
model <- rbm_train(mnist$x[1:8000, ], n_hidden = 20, method = "pcd", epochs = 5, seed = 20,
                   progress = FALSE)
ex <- exact_log_z(model, threads = 2)
cat(sprintf("RBM 784 x 20 (PCD, 5 epochs); exact log Z = %.4f; %d repeats per setting\n\n",
            ex, repeats))
run <- function(label, fun) {
  t0 <- proc.time()[["elapsed"]]
  lz <- vapply(seq_len(repeats), function(r) { set.seed(2000 + r); fun() }, 0)
  tm <- (proc.time()[["elapsed"]] - t0) / repeats
  row <- data.frame(method = label, time = tm,
                    log_mean_z = logz:::log_sum_exp(lz) - log(repeats),
                    err = logz:::log_sum_exp(lz) - log(repeats) - ex, sd = sd(lz))
  cat(sprintf("  %-20s time %7.2f s  log mean Z %9.3f  error %7.3f  sd %7.3f\n", label, tm,
              row$log_mean_z, row$err, row$sd))
  row
}
res <- rbind(
  run("ARM R=50", function() arm(model, 50, i_max = 3, progress = FALSE)$log_z),
  run("ARM-anticipate R=50", function()
    arm(model, 50, variant = "anticipate", i_max = 3, progress = FALSE)$log_z),
  run("RM R=50", function() arm(model, 50, variant = "rm", progress = FALSE)$log_z),
  run("RM R=100", function() arm(model, 100, variant = "rm", progress = FALSE)$log_z),
  run("AIS M=50 K=2000", function()
    ais(model, schedule_linear(2000), n_chains = 50, progress = FALSE)$log_z),
  run("AIS M=50 K=10000", function()
    ais(model, schedule_linear(10000), n_chains = 50, progress = FALSE)$log_z))
cat("\n")
print(format(res, digits = 4), row.names = FALSE)
for (a in grep("^ARM", res$method)) {
  rm <- grep("^RM", res$method)
  j <- rm[which.min(abs(log(res$time[rm] / res$time[a])))]
  cat(sprintf("  %s (%.2f s) vs %s (%.2f s): sd ratio RM / ARM = %.2f\n", res$method[a],
              res$time[a], res$method[j], res$time[j], res$sd[j] / res$sd[a]))
}
