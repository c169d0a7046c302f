# Where the evaluations of logz's default call (smc(f, gradient = g, start =)
# with HMC) go on the models of the evidence benchmark: per seed, the density
# + gradient evaluations of the multi-start mode search, of each run of
# smc_once() (the first pilot, on the Laplace base; when the base is refitted
# a second pilot on the new base; then the replicates), and their shares of
# the total. Run from the package root:
#   Rscript bench/evidence/cost_breakdown.R [seeds] [models]
source("bench/evidence/common.R")
args <- commandArgs(TRUE)
n_seeds <- if (length(args)) as.integer(args[1]) else 3L
models <- if (length(args) >= 2) strsplit(args[2], ",")[[1]] else
  c("hierarchical", "regression10", "regression50", "mixture", "sonar")
bench_header(sprintf("evidence benchmark: cost of the default call by step, seeds 1-%d", n_seeds))
runs <- NULL
search_evals <- NULL
ns <- asNamespace("logz")
invisible(suppressMessages({
  trace(logz:::smc_once, print = FALSE, where = ns, exit = quote(runs <<- rbind(runs, c(
    returnValue()$evaluations, returnValue()$gradient_evaluations))))
  trace(logz:::smc_mode_search, print = FALSE, where = ns,
        exit = quote(search_evals <<- sum(returnValue()$evaluations)))
}))
rows <- list()
for (m in models) {
  tg <- switch(m, hierarchical = model_hierarchical(), regression10 = model_regression(10L),
               regression50 = model_regression(50L), mixture = model_mixture(),
               sonar = model_sonar())
  for (s in seq_len(n_seeds)) {
    runs <- NULL
    set.seed(s)
    fit <- smc(tg$f, gradient = tg$g, vectorized = TRUE, start = tg$start, kernel = "hmc",
               progress = FALSE)
    total <- sum(fit$counts[c("density_evaluations", "gradient_evaluations")])
    per <- rowSums(runs)
    refit <- !is.null(fit$base$refit)
    R <- fit$counts[["replicates"]]
    pilots <- per[seq_len(length(per) - R)]
    rows[[length(rows) + 1L]] <- data.frame(
      model = tg$name, seed = s, refit = refit, total = total,
      search = search_evals / total, pilot_laplace = if (refit) pilots[1] / total else 0,
      pilot = pilots[length(pilots)] / total, replicates = sum(utils::tail(per, R)) / total,
      rest = (total - search_evals - sum(per)) / total)
  }
}
tab <- do.call(rbind, rows)
old <- options(width = 200, digits = 3)
cat("shares of the total evaluations (density + gradient): the mode search, the pilot on the Laplace\n",
    "base that a refit replaced (0 when the base was kept), the pilot whose schedule the replicates run\n",
    "on, the 8 replicates, the rest (the Laplace fit, the gradient check)\n\n", sep = "")
print(tab, row.names = FALSE)
cat("\nmeans per model\n")
print(stats::aggregate(cbind(total, search, pilot_laplace, pilot, replicates, rest) ~ model, tab,
                       mean), row.names = FALSE)
options(old)
