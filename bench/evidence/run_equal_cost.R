# bridgesampling at the measured cost of logz's default call: on one model,
# bridge_method() with as many HMC draws as make its mean total evaluations
# (density + gradient, draws and warmup included) equal to the mean of the
# "SMC hmc (default)" row saved in bench/evidence/runs_<model>.rds (fewer
# draws and a shorter warmup where the default costs less than bridgesampling's
# own 2,000 draws), over the same seeds; appended to that file as the method
# "bridgesampling at the default's cost". Run from the package root:
#   Rscript bench/evidence/run_equal_cost.R <model> [first_seed last_seed]
# <model>: regression10, regression50, hierarchical, mixture, sonar, and the models on a
# bounded support poisson_gamma, beta_binomial, normal_scale, and logistic100.
source("bench/evidence/common.R")
args <- commandArgs(TRUE)
model <- if (length(args)) args[1] else "hierarchical"
seeds <- if (length(args) >= 3) as.integer(args[2]):as.integer(args[3]) else 1:20
tg <- evidence_model(model)
out <- sprintf("bench/evidence/runs_%s.rds", model)
runs <- readRDS(out)
total <- function(meth) {
  x <- runs[runs$method == meth & !is.na(runs$log_z), ]
  c(n = nrow(x), evals = mean(x$density + x$gradient))
}
def <- total("SMC hmc (default)")
own <- total("bridgesampling (HMC draws)")
meth <- bridge_method_at(def[["evals"]], own[["evals"]])
bench_header(sprintf("evidence benchmark at equal cost: %s, seeds %d-%d", tg$name, min(seeds),
                     max(seeds)))
cat(sprintf(paste0("default: mean %.0f evaluations (%d runs); bridgesampling at its own cost: ",
                   "mean %.0f (%d runs); at the default's cost: %d draws after %d warmup ",
                   "sweeps (4 chains)\n"), def[["evals"]], def[["n"]], own[["evals"]],
            own[["n"]], attr(meth, "draws"), attr(meth, "warmup")))
cat(sprintf("true log Z %.6f\n", tg$log_z))
t0 <- proc.time()
run_cells(tg, seeds, out, list("bridgesampling at the default's cost" = meth))
cat(sprintf("\nCPU %.0f s, elapsed %.0f s\n", sum((proc.time() - t0)[c(1, 2)]),
            (proc.time() - t0)[[3]]))
