# Figure 4 of Fraccaro, Paquet & Winther (2016) in miniature: ARM vs RM vs AIS
# on an MNIST RBM. The paper's RBMs are 784 x 500 (PCD, CD25); here, for the
# time budget of a shared 2-core machine, a 784 x 20 RBM trained by PCD for 5
# epochs (the test suite's model), whose exact log Z is known by enumeration
# over the hidden layer. ARM/RM: 10 block-Gibbs steps per move, pixels added
# most variable first, gamma threshold 0.7, i_max 3 (as the paper's Figure 4);
# AIS: base-rate start, linear schedule, 1 sweep per step. Work per run:
# particle-moves (one block-Gibbs step of one particle on the n units added so
# far) for ARM/RM, chain-sweeps (all 784 units) for AIS.
# Run: R_LIBS=... Rscript bench/arm/arm_rbm.R [repeats] > bench/arm/arm_rbm.out
# The paper-sized case, the 784 x 500 PCD RBM of issue 18 against a forward/reverse AIS
# reference: bench/arm/arm_rbm500.R (bench/arm/arm_rbm500.out).
library(logz)
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
args <- commandArgs(TRUE)
repeats <- if (length(args) >= 1) as.integer(args[1]) else 5L
model <- rbm_train(mnist$x[1:8000, ], n_hidden = 20, method = "pcd", epochs = 5, seed = 20,
                   progress = FALSE)
ex <- exact_log_z(model, threads = 2)
cat(sprintf("RBM 784 x 20 (PCD, 5 epochs); exact log Z = %.4f; %d repeats per setting\n",
            ex, repeats))
cat(sprintf("load average at start: %s\n\n", paste(readLines("/proc/loadavg", warn = FALSE),
                                                  collapse = "")))
source("bench/arm/report.R")
run <- function(label, fun) arm_bench_run(label, fun, repeats, 2000L, ref = ex)
res <- rbind(
  run("ARM R=30", function() arm(model, 30, i_max = 3, progress = FALSE)),
  run("ARM-anticipate R=30", function()
    arm(model, 30, variant = "anticipate", i_max = 3, progress = FALSE)),
  run("RM R=30", function() arm(model, 30, variant = "rm", progress = FALSE)),
  run("RM R=60", function() arm(model, 60, variant = "rm", progress = FALSE)),
  run("AIS M=50 K=2000", function()
    ais(model, schedule_linear(2000), n_chains = 50, progress = FALSE)),
  run("AIS M=50 K=10000", function()
    ais(model, schedule_linear(10000), n_chains = 50, progress = FALSE)))
cat("\n")
print(format(res, digits = 4), row.names = FALSE)
arm_bench_sd_ratios(res)
