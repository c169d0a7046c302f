# GumbelMIP, Figure 2b of Kim, Sabharwal & Ermon (2016) rerun with the LP
# bound by roof duality: the 10 x 10 mixed grid of bench/gumbelmip/mip_fig2.R
# (couplings U[-0.5, 0.5], fields U[-1, 1], set.seed(2)), 200 samples per
# run, GumbelMIP stopped early with the LP bound by GLPK (mip_fig2.R's bound)
# and by roof duality (the same bound, src/mip_roof.c), best first; Gibbs (200
# chains, one sample each) at the GumbelMIP run's CPU time; marginal error
# against the exact junction-tree marginals and Theorem 2's log Z bounds
# (delta = 0.1), as in mip_fig2.R. The paper (and mip_fig2.R) stop each
# search at a wall-clock time; on the shared machine (load 15-17 on 2 cores
# while this ran) a 0.05 s limit gave a sample about 5 ms of CPU, so the
# searches here stop at a node budget per sample instead, the same for both
# bounds, and the CPU seconds are measured (Gibbs gets those). Error: mean
# over variables of |estimated P(x_i = +1) - exact P(x_i = +1)|; 200 exact
# samples give about 0.02-0.03.
# Run: nice -n 10 Rscript bench/gumbelmip/mip_fig2_roof.R > bench/gumbelmip/mip_fig2_roof.out
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP Figure 2b (mixed grid) with the roof-dual LP bound")
cat("\n")
T <- 200L
budgets <- c(100, 1000)   # nodes per sample
set.seed(2)
g <- ising_grid(10, 10, coupling = 0.5, field = 1, type = "mixed")
truth <- exact_marginals(g)$node
lz <- exact_log_z(g)
err <- function(states) mean(abs(colMeans(states == 1) - truth))
rows <- list()
for (tl in budgets) {
  for (solver in c("glpk", "roof")) {
    set.seed(3)
    sec <- elapsed(s <- suppressWarnings(mip_sample(g, T, node_limit = tl, lp_solver = solver,
                                                    progress = FALSE)))
    b <- log_z_bounds(s, delta = 0.1)
    gb <- gibbs_equal_time(g, sec, T)
    rows[[length(rows) + 1L]] <- data.frame(
      node_budget = tl, solver = solver, mip_cpu = round(sec, 1), exact = sum(s$exact),
      nodes = round(mean(s$nodes)), mip_err = round(err(s$states), 4),
      gibbs_sweeps = gb$sweeps, gibbs_cpu = round(gb$sec, 1), gibbs_err = round(err(gb$states), 4),
      lower = round(b$lower, 2), upper = round(b$upper, 2))
    cat(sprintf(paste0("%5d nodes/sample %-4s: GumbelMIP %5.1f cpu-s (%3d/%d exact, %6.0f nodes) err %.4f | ",
                       "Gibbs %6d sweeps %5.1f cpu-s err %.4f | Thm 2: log Z in [%.2f, %.2f] (exact %.2f)\n"),
                tl, solver, sec, sum(s$exact), T, mean(s$nodes), err(s$states), gb$sweeps, gb$sec,
                err(gb$states), b$lower, b$upper, lz))
  }
}
tab <- do.call(rbind, rows)
tab$err_ratio_mip_over_gibbs <- round(tab$mip_err / tab$gibbs_err, 2)
cat("\nsummary (exact log Z", round(lz, 2), "; err ratio > 1: Gibbs better):\n")
print(tab, row.names = FALSE)
