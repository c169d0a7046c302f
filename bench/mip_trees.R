# GumbelMIP on tree-structured Ising models (Figure 1b of Kim, Sabharwal &
# Ermon 2016): seconds per exact sample against n, min-cut LP bound (tight
# on trees, as the paper notes for its LP), one thread.
# The paper gives the potential psi_ij = exp(w_ij x_i x_j + f_i x_i + f_j x_j),
# x in {-1, +1}, but no ranges for w and f and no tree shapes. Documented
# choice: random recursive trees (node i's parent uniform on 1..i-1), weights
# w ~ U[0, s] and fields f ~ U[-s, s], for scales s = 1, 2, 3. The cost of
# Algorithm 1 grows with the model's entropy (its bound is the subtree's
# maximum plus the Gumbel maximum of all its configurations, and that Gumbel
# maximum falls on a typical configuration), so weak fields and couplings
# (s = 1, bench/mip.R) stop near n = 50, while stronger ones go further.
# Per (s, n): 2 samples, each capped at 2 million search nodes (node_limit;
# 20-25 CPU-s at n = 100, also a memory cap: the wall-clock time_limit of the
# earlier version of this script measured the machine's load more than the
# search); a scale stops at its first inexact sample or at a mean above 60
# CPU-s per sample. Wall and CPU seconds both printed.
# Committed result (2026-11-23, after the issue-19 search changes): n = 50
# exact in 0.04-0.4 CPU-s (before: 0.2-2), n = 100 not exact within 2 million
# nodes at any scale. The issue's target (trees of n >= 100) is NOT met; the
# exact-marginal proposal saves up to 40 % of the nodes at n = 50
# (bench/mip_proposal.out), not the orders of magnitude n = 100 needs.
# Run: nice -n 10 Rscript bench/mip_trees.R > bench/mip_trees.out  (~5 CPU-min)
suppressPackageStartupMessages(library(logz))
source("bench/mip_common.R")
mip_bench_header("GumbelMIP on trees (Figure 1b)")
cat("\n")
cat("The paper (Figure 1b, text): on trees 'scalability is drastically improved with\n",
    "respect to Figure 1a' (cliques, exact up to n = 60 with CPLEX); no numbers in the text.\n\n")
limit <- 60
rows <- list()
for (s in c(1, 2, 3)) {
  for (n in c(50, 100, 200, 400)) {
    set.seed(1000 + n)
    m <- random_tree(n, s)
    set.seed(1)
    c0 <- cpu()
    r <- suppressWarnings(mip_sample(m, 2, node_limit = 2e6, progress = FALSE))
    cs <- (cpu() - c0) / 2
    rows[[length(rows) + 1L]] <- data.frame(scale = s, n = n, exact = sum(r$exact),
      sec_per_sample = mean(r$sample_time), cpu_per_sample = cs, nodes = mean(r$nodes))
    cat(sprintf("s = %g, n = %3d: exact %d/2, %6.2f s/sample (%5.2f CPU-s), %8.0f nodes/sample\n",
                s, n, sum(r$exact), mean(r$sample_time), cs, mean(r$nodes)))
    if (!all(r$exact) || cs > limit) break
  }
}
tab <- do.call(rbind, rows)
cat("\nlargest n with both samples exact within 60 CPU-s each (mean), per scale s:\n")
ok <- tab[tab$exact == 2 & tab$cpu_per_sample <= limit, ]
print(tapply(ok$n, ok$scale, max))
