# GumbelMIP beyond Figure 1a's n = 60: attractive cliques (bench/gumbelmip/mip.R's
# models: weights U[0, 1/sqrt(n)], fields U[-1, 1]), min-cut LP bound, one
# thread, 3 exact samples per n, the default (uniform) proposal -- the
# mean-field proposal is far slower on these bimodal models
# (bench/gumbelmip/mip_proposal.out: no sample of n = 30 exact within 1e5 nodes).
# CPU seconds per sample (process user + system time around each one-sample
# call): on the shared 2-core machine wall-clock seconds were up to 3-6x the
# CPU seconds, and mip_sample()'s time_limit is wall-clock, so the search is
# capped by nodes instead (node_limit 2e6, about 60-80 CPU-s at n = 90-100 since the 2026-11-26 speed-up). A size
# counts as done when all 3 samples are exact within 60 CPU-s each; the sweep
# stops at the first size that is not.
# Committed result (2026-11-26, after dropping the simple-bound check before
# each min cut, 1.5-1.6x per node): n = 80 in 13-15 CPU-s per sample, n = 85
# in 13-18, n = 90 in 35-40, n = 95 in 29-37; n = 100 not exact within 2e6
# nodes (85 CPU-s): largest n = 95. Earlier: 2026-11-23 (branching on the
# largest single-flip loss, min cut on the free variables only; the samples
# have changed since, with the node-keyed random streams) n = 85 in 13-32 and
# n = 90 in 40-62 CPU-s, largest n = 85; 2026-11-22 n = 70 in 27-30 CPU-s,
# n = 75 not exact within 0.6M nodes. The issue's target (n = 80 within 60 s
# per sample) is met.
# Run: nice -n 10 Rscript bench/gumbelmip/mip_cliques.R > bench/gumbelmip/mip_cliques.out  (~5 CPU-min)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP on large attractive cliques")
cat("The paper: exact samples up to n = 60 (CPLEX, up to 48 threads).\n\n")
best <- NA
for (n in c(60, 65, 70, 75, 80, 85, 90, 95, 100)) {
  m <- fig1a_clique(n)
  set.seed(1)
  sec <- nodes <- numeric(0)
  ex <- logical(0)
  for (k in 1:3) {
    c0 <- cpu()
    s <- suppressWarnings(mip_sample(m, 1, node_limit = 2e6, progress = FALSE))
    sec <- c(sec, cpu() - c0)
    nodes <- c(nodes, s$nodes)
    ex <- c(ex, s$exact)
    if (!s$exact || sec[k] > 60) break
  }
  cat(sprintf("n = %d: exact %d/%d, CPU-s per sample %s, nodes %s\n", n, sum(ex), length(ex),
              paste(sprintf("%.1f", sec), collapse = " "), paste(nodes, collapse = " ")))
  if (length(ex) < 3 || !all(ex) || any(sec > 60)) break
  best <- n
}
cat(sprintf("\nlargest n with 3/3 samples exact within 60 CPU-s each: %s\n", best))
