# GumbelMIP on tree-structured Ising models (Figure 1b of Kim, Sabharwal &
# Ermon 2016): CPU seconds per exact sample against n, min-cut LP bound (tight
# on trees, as the paper notes for its LP), one thread, with the paper's
# uniform base measure and with proposal = "tree" (issue 19).
# The paper gives the potential psi_ij = exp(w_ij x_i x_j + f_i x_i + f_j x_j),
# x in {-1, +1}, but no ranges for w and f and no tree shapes. Documented
# choice: random recursive trees (node i's parent uniform on 1..i-1), weights
# w ~ U[0, s] and fields f ~ U[-s, s], for scales s = 1, 2, 3.
# * uniform (Algorithm 1): per (s, n) 2 samples, each capped at 2 million
#   search nodes; a scale stops at its first inexact sample or at a mean above
#   60 CPU-s per sample. Its cost grows like exp(sum over free variables of the
#   gap between max and log-sum-exp of v): linear in n on trees too.
# * tree (A* sampling's base measure q = the model on its maximum spanning
#   forest, src/mip_tree.c): on a tree q IS the model, o = v - log q is
#   constant and the search ends at the root (1 node): this is what a
#   tree-shaped base measure buys, not the paper's oblivious search. 20
#   samples per (s, n), CPU-s include building q (Kruskal, sum-product); the
#   log Z estimate is checked against the junction tree's.
# * beyond trees: the s = 1 tree of n = 200 plus k random attractive edges
#   (weights U[0, 1]): what is left for the search is the k extra edges.
# Rows are appended to bench/gumbelmip/mip_trees_runs.csv as they finish.
# Committed result (2026-11-23, 3.7 CPU-min, load ~5.5 on 2 cores): tree
# proposal: every sample exact at the root (1 node) for n = 50-1000 at every
# scale, 0.1-0.8 CPU-ms per sample, log Z within 2 se of the junction tree's;
# uniform: n = 50 exact (0.04-0.45 CPU-s), n = 100 not within 2 million nodes
# (23-29 CPU-s): largest n 1000 (tree) vs 50 (uniform). Tree + k extra
# attractive edges (n = 200): 5, 16, 55, 1120 nodes for k = 5, 10, 20, 40
# (0.003-0.02 CPU-s), uniform not exact within 2e5 nodes at any k.
# Run: nice -n 10 Rscript bench/gumbelmip/mip_trees.R > bench/gumbelmip/mip_trees.out  (~5 CPU-min)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP on trees (Figure 1b)")
cat("\n")
cat("The paper (Figure 1b, text): on trees 'scalability is drastically improved with\n",
    "respect to Figure 1a' (cliques, exact up to n = 60 with CPLEX); no numbers in the text.\n\n")
csv <- "bench/gumbelmip/mip_trees_runs.csv"
if (file.exists(csv)) file.remove(csv)
limit <- 60
rows <- list()
add <- function(r) {
  rows[[length(rows) + 1L]] <<- r
  utils::write.table(r, csv, sep = ",", row.names = FALSE, append = file.exists(csv),
                     col.names = !file.exists(csv))
}
run <- function(m, ns, proposal, cap, label, s, k = 0L) {
  set.seed(1)
  c0 <- cpu()
  r <- suppressWarnings(mip_sample(m, ns, node_limit = cap, proposal = proposal, progress = FALSE))
  cs <- (cpu() - c0) / ns
  lz <- if (k == 0L) exact_log_z(m, progress = FALSE) else NA_real_
  d <- data.frame(proposal = proposal, scale = s, n = m$n, extra_edges = k, samples = ns,
                  exact = sum(r$exact), cpu_per_sample = signif(cs, 3),
                  wall_per_sample = signif(mean(r$sample_time), 3), nodes = mean(r$nodes),
                  max_nodes = max(r$nodes), log_z_hat = round(r$log_z, 3), se = round(r$se, 3),
                  log_z = round(lz, 3))
  add(d)
  cat(sprintf("%-8s s = %g, n = %4d%s: exact %2d/%2d, %8.4f CPU-s/sample, %9.0f nodes/sample%s\n",
              proposal, s, m$n, if (k) sprintf(" + %2d edges", k) else "", sum(r$exact), ns, cs,
              mean(r$nodes), if (!is.na(r$log_z) && !is.na(lz))
                sprintf(", log Z %.2f +- %.2f (exact %.2f)", r$log_z, r$se, lz) else ""))
  d
}
for (s in c(1, 2, 3)) {
  for (n in c(50, 100, 200, 400, 1000)) {
    set.seed(1000 + n)
    m <- random_tree(n, s)
    run(m, 20L, "tree", 2e6, "tree", s)
  }
  for (n in c(50, 100)) {
    set.seed(1000 + n)
    m <- random_tree(n, s)
    d <- run(m, 2L, "uniform", 2e6, "uniform", s)
    if (d$exact < 2 || d$cpu_per_sample > limit) break
  }
}
cat("\n== beyond trees: the s = 1 tree of n = 200 plus k attractive edges U[0, 1] ==\n")
set.seed(1200)
base <- random_tree(200, 1)
for (k in c(5L, 10L, 20L, 40L)) {
  set.seed(77 + k)
  e <- base$edges
  have <- paste(pmin(e$from, e$to), pmax(e$from, e$to))
  extra <- NULL
  while (is.null(extra) || nrow(extra) < k) {
    a <- sample.int(200, 1); b <- sample.int(200, 1)
    key <- paste(min(a, b), max(a, b))
    if (a == b || key %in% have) next
    have <- c(have, key)
    extra <- rbind(extra, data.frame(from = a, to = b, weight = stats::runif(1, 0, 1)))
  }
  m <- ising(rbind(e[, c("from", "to", "weight")], extra), field = base$field)
  for (pr in c("tree", "uniform")) {
    d <- run(m, 3L, pr, 2e5, pr, 1, k)
  }
}
tab <- do.call(rbind, rows)
cat("\n")
print(tab, row.names = FALSE)
cat("\nlargest n with all samples exact within 60 CPU-s each (mean), per scale s (trees):\n")
ok <- tab[tab$extra_edges == 0 & tab$exact == tab$samples & tab$cpu_per_sample <= limit, ]
print(tapply(ok$n, list(ok$proposal, ok$scale), max))
