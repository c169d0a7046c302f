# Run under valgrind by bench/gumbelmip/mip_threads_glpk_valgrind.out (its header gives the command):
# GLPK-bounded exact samples on 2 threads and GLPK errors provoked on either thread.
library(logz)
set.seed(1)
n <- 8
ed <- expand.grid(from = 1:n, to = 1:n); ed <- ed[ed$from < ed$to, ]
ed$weight <- rnorm(nrow(ed), 0, 0.8)
m <- ising(ed, field = rnorm(n, 0, 0.5))
p <- logz:::mip_problem(m)
ctl <- list(bound_lp = 1L, best_first = 1L, branching = logz:::MIP_BRANCHING[["auto"]],
            perturb = 1L, node_limit = Inf, time_limit = Inf, cut = FALSE, threads = 2L)
for (k in 1:3) {
  s <- mip_sample(m, 30, threads = 2, progress = FALSE)
  stopifnot(all(s$exact), s$threads == 2L)
  print(try(logz:::mip_run(p, 6L, ctl, selftest = 2L), silent = TRUE))
  print(try(logz:::mip_run(p, 6L, ctl, selftest = 1L), silent = TRUE))
}; cat("done\n")
