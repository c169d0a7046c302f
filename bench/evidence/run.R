# The evidence benchmark, one model per run: every method of common.R's
# bench_methods over the seeds, appended to bench/evidence/runs_<model>.rds
# (seeds already there are skipped, so a run can be split and resumed).
# Run from the package root:
#   Rscript bench/evidence/run.R <model> [first_seed last_seed] [method regex]
# <model>: regression10, regression50, hierarchical, mixture, sonar, and the models on a
# bounded support poisson_gamma, beta_binomial, normal_scale, and logistic100.
# bench/evidence/summary.R prints the table from the saved runs.
source("bench/evidence/common.R")
args <- commandArgs(TRUE)
model <- if (length(args)) args[1] else "regression10"
seeds <- if (length(args) >= 3) as.integer(args[2]):as.integer(args[3]) else 1:20
pick <- if (length(args) >= 4) args[4] else "."
tg <- evidence_model(model)
bench_header(sprintf("evidence benchmark: %s, seeds %d-%d, methods /%s/", tg$name, min(seeds),
                     max(seeds), pick))
cat(sprintf("true log Z %.6f\n", tg$log_z))
t0 <- proc.time()
run_cells(tg, seeds, sprintf("bench/evidence/runs_%s.rds", model),
          bench_methods[grepl(pick, names(bench_methods))])
cat(sprintf("\nCPU %.0f s, elapsed %.0f s\n", sum((proc.time() - t0)[c(1, 2)]),
            (proc.time() - t0)[[3]]))
