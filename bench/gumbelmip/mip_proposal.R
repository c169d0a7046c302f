# GumbelMIP with a proposal (A* sampling's base measure q; mip_sample(proposal =)):
# cost of EXACT samples with the paper's uniform q against mean-field and exact
# (junction-tree) marginal proposals. Models as in bench/gumbelmip/mip_cliques.R
# (attractive cliques, weights U[0, 1/sqrt(n)], fields U[-1, 1]),
# bench/gumbelmip/mip_trees.R (random recursive trees, w ~ U[0, s], f ~ U[-s, s]) and
# bench/gumbelmip/mip_fig2.R (grids, couplings U[0, 0.5] / U[-0.5, 0.5], fields U[-1, 1]).
# Min-cut LP bound on attractive models, GLPK on the mixed grid; one thread;
# node_limit caps each sample (a capped sample is "not exact"). CPU seconds.
# Run: nice -n 10 Rscript bench/gumbelmip/mip_proposal.R > bench/gumbelmip/mip_proposal.out  (~3 CPU-min)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP: exact-sample cost by proposal")
cat("The paper: uniform sigma and Gumbel(|X_P| log 2) (Algorithm 1) only.\n\n")
cases <- list(
  list(label = "clique n=30", make = function() { set.seed(1030)
    ising_clique(30, coupling = 1 / sqrt(30), field = 1, type = "attractive") }, ns = 4, cap = 1e5),
  list(label = "clique n=40", make = function() { set.seed(1040)
    ising_clique(40, coupling = 1 / sqrt(40), field = 1, type = "attractive") }, ns = 4, cap = 1e5),
  list(label = "grid 6x6 attractive", make = function() { set.seed(2)
    ising_grid(6, 6, coupling = 0.5, field = 1, type = "attractive") }, ns = 4, cap = 1e5),
  list(label = "grid 6x6 mixed (GLPK)", make = function() { set.seed(2)
    ising_grid(6, 6, coupling = 0.5, field = 1, type = "mixed") }, ns = 4, cap = 3e4),
  list(label = "tree n=50 s=1", make = function() { set.seed(1050); random_tree(50, 1) }, ns = 2, cap = 3e5),
  list(label = "tree n=50 s=3", make = function() { set.seed(1050); random_tree(50, 3) }, ns = 2, cap = 3e5),
  list(label = "tree n=100 s=3", make = function() { set.seed(1100); random_tree(100, 3) }, ns = 2, cap = 6e5))
rows <- list()
for (cs in cases) {
  m <- cs$make()
  for (pr in c("uniform", "mean_field", "marginals")) {
    if (pr == "marginals" && m$n > 26 && grepl("clique", cs$label)) {
      cat(sprintf("%-22s %-10s (exact marginals infeasible: treewidth n - 1)\n", cs$label, pr))
      next
    }
    set.seed(1)
    c0 <- cpu()
    s <- suppressWarnings(mip_sample(m, cs$ns, node_limit = cs$cap, proposal = pr, progress = FALSE))
    sec <- (cpu() - c0) / cs$ns
    rows[[length(rows) + 1L]] <- data.frame(model = cs$label, proposal = pr, exact = sum(s$exact),
      samples = cs$ns, cpu_per_sample = round(sec, 2), nodes_per_sample = round(mean(s$nodes)))
    cat(sprintf("%-22s %-10s exact %d/%d  %6.2f CPU-s/sample  %8.0f nodes/sample (cap %g)\n",
                cs$label, pr, sum(s$exact), cs$ns, sec, mean(s$nodes), cs$cap))
  }
}
tab <- do.call(rbind, rows)
u <- tab[tab$proposal == "uniform", c("model", "nodes_per_sample")]
tab$nodes_ratio_to_uniform <- round(tab$nodes_per_sample /
                                      u$nodes_per_sample[match(tab$model, u$model)], 2)
cat("\n")
print(tab, row.names = FALSE)
