# Exact GumbelMIP samples on Ising grids (Figure 2's models: couplings
# U[0, 0.5] (attractive) or U[-0.5, 0.5] (mixed), fields U[-1, 1]) with the tree
# proposal (proposal = "tree", issue 19: q = the model on its maximum
# spanning tree, so the search is left with the other (N - 1)^2 edges of an
# N x N grid) against the paper's uniform base measure. Min-cut LP bound on
# attractive grids, GLPK on mixed ones; one thread; 4 samples per (grid,
# proposal), each capped at node_limit nodes; a proposal stops at its first
# inexact sample. CPU seconds per sample (user + system around each call).
# Rows are appended to bench/gumbelmip/mip_grids_tree_runs.csv as they finish.
# Committed result (2026-11-23, 0.9 CPU-min): attractive grids: tree 96 nodes
# (6 x 6) and 3,300 (10 x 10, 0.02-0.12 CPU-s) per exact sample, uniform 3,800
# (6 x 6) and not exact within 500,000 at 10 x 10; neither exact at 15 x 15
# within 500,000 nodes. Mixed grids (GLPK, cap 20,000): tree 88 (6 x 6) and
# 890 (8 x 8) nodes, uniform 2,970 (6 x 6) and not exact at 8 x 8; at 10 x 10
# the first tree sample was not exact within 20,000 nodes (in
# bench/gumbelmip/mip_fig2_paper.out 140 of 200 were exact within 3 s).
# Run: nice -n 10 Rscript bench/gumbelmip/mip_grids_tree.R > bench/gumbelmip/mip_grids_tree.out  (<= 8 CPU-min)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP: exact samples on grids, tree proposal vs uniform")
cat("The paper: no exact samples on the 10 x 10 grids of Figure 2 (early-stopped only).\n\n")
csv <- "bench/gumbelmip/mip_grids_tree_runs.csv"
if (file.exists(csv)) file.remove(csv)
for (type in c("attractive", "mixed")) {
  sizes <- if (type == "attractive") c(6, 10, 15, 20, 25, 30) else c(6, 8, 10, 12)
  cap <- if (type == "attractive") 5e5 else 2e4
  done <- c(uniform = FALSE, tree = FALSE)
  for (N in sizes) {
    set.seed(2)
    g <- ising_grid(N, N, coupling = 0.5, field = 1, type = type)
    lz <- if (N <= 12) exact_log_z(g, progress = FALSE) else NA_real_   # junction tree: 2^N
    for (pr in c("uniform", "tree")) {
      if (done[[pr]]) next
      set.seed(1)
      val <- numeric(0)
      for (k in 1:4) {
        c0 <- cpu()
        s <- suppressWarnings(mip_sample(g, 1, node_limit = cap, proposal = pr, progress = FALSE))
        sec <- cpu() - c0
        d <- data.frame(type = type, N = N, proposal = pr, sample = k, exact = s$exact,
                        cpu = round(sec, 3), nodes = s$nodes, value = round(s$value, 3),
                        log_z = round(lz, 3))
        utils::write.table(d, csv, sep = ",", row.names = FALSE, append = file.exists(csv),
                           col.names = !file.exists(csv))
        cat(sprintf("%-10s %2d x %2d %-8s sample %d: exact %-5s %8.3f CPU-s %8.0f nodes\n", type, N,
                    N, pr, k, s$exact, sec, s$nodes))
        if (!s$exact) { done[[pr]] <- TRUE; break }
      }
    }
  }
}
tab <- utils::read.csv(csv)
cat("\n")
agg <- aggregate(cbind(cpu, nodes, exact) ~ type + N + proposal, tab, mean)
print(agg[order(agg$type, agg$proposal, agg$N), ], row.names = FALSE)
