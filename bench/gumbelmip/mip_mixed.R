# GumbelMIP on models with couplings of both signs: the local-polytope LP bound
# by GLPK's dual simplex against the same bound by roof duality (one max-flow on
# two nodes per free variable, src/mip_roof.c), side by side in one run.
# Models: mixed-sign cliques (weights U[-1.5, 1.5]/sqrt(n), fields U[-1, 1],
# drawn under set.seed(2000 + n)) and RBMs with n/2 visible and n/2 hidden
# units, weights of both signs U[-1.5, 1.5]/sqrt(n/2) and biases U[-1, 1]
# (set.seed(3000 + n)). One thread, uniform proposal, 3 samples per n and
# solver (seeds 1, 2, 3). The two solvers give the same bound but branch
# differently among ties (roof duality: the static order), so their searches
# and samples differ.
# CPU seconds per sample (process user + system around each one-sample call).
# mip_sample()'s time_limit is wall-clock, and on the shared machine (load
# 10-15 on 2 cores while this ran) wall seconds were many times the CPU
# seconds, so each search is capped by nodes instead: a pilot of a few nodes
# per model and solver measures CPU-s per node, and the cap is the nodes of
# 60 CPU-s at that rate (x 1.5). A sample counts as exact when its search
# finished and took at most 60 CPU-s. A solver's sweep stops at the first n
# with a sample that is not (the remaining samples of that n are not run).
# GLPK and GLPK with triangle cuts are run only up to MIP_MIXED_GLPK_MAX
# (default 30) so the bench ends.
# Per node: CPU-s / nodes; per bound: CPU-s / bound evaluations (lp_solves).
# Run: nice -n 10 Rscript bench/gumbelmip/mip_mixed.R > bench/gumbelmip/mip_mixed.out
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP on mixed-sign cliques and RBMs: GLPK, roof duality, GLPK with triangle cuts")

glpk_max <- as.numeric(Sys.getenv("MIP_MIXED_GLPK_MAX", "30"))
cpu_cap <- 60

mixed_clique <- function(n) {
  set.seed(2000 + n)
  ising_clique(n, coupling = 1.5 / sqrt(n), field = 1, type = "mixed")
}
mixed_rbm <- function(n) {
  set.seed(3000 + n)
  nv <- n %/% 2
  nh <- n - nv
  rbm(matrix(stats::runif(nv * nh, -1.5, 1.5) / sqrt(nh), nv, nh),
      a = stats::runif(nv, -1, 1), b = stats::runif(nh, -1, 1))
}

run1 <- function(m, solver, seed, node_limit) {
  set.seed(seed)
  t <- timed(suppressWarnings(mip_sample(m, 1, lp_solver = solver, node_limit = node_limit,
                                         progress = FALSE)))
  list(s = t$val, cpu = t$cpu, wall = t$wall)
}
# the node cap of about 1.5 x 60 CPU-s for model m and solver (a pilot search)
node_cap <- function(m, solver) {
  pilot <- if (solver == "roof" || solver == "auto" || solver == "cut") 3000 else 10
  r <- run1(m, solver, 99, pilot)
  if (r$s$exact) return(Inf)   # the pilot finished: small enough
  ceiling(1.5 * cpu_cap * r$s$nodes / max(r$cpu, 1e-3))
}
one_sample <- function(m, solver, seed, cap) {
  r <- run1(m, solver, seed, cap)
  data.frame(solver = solver, seed = seed, exact = r$s$exact && r$cpu <= cpu_cap,
             nodes = r$s$nodes, bounds = r$s$lp_solves, cpu = r$cpu, wall = r$wall,
             node_cap = cap)
}

# Run `solver` over the sizes ns until a sample is not exact; rows per sample.
sweep <- function(family, make, ns, solver, nmax = Inf) {
  rows <- list()
  for (n in ns[ns <= nmax]) {
    m <- make(n)
    cap <- node_cap(m, solver)
    for (seed in 1:3) {
      r <- cbind(family = family, n = n, one_sample(m, solver, seed, cap))
      rows[[length(rows) + 1L]] <- r
      if (!r$exact) break
    }
    if (!all(vapply(rows[vapply(rows, function(x) x$n == n, logical(1))],
                    function(x) x$exact, logical(1)))) break
  }
  do.call(rbind, rows)
}

summarise <- function(runs) {
  key <- interaction(runs$family, runs$n, runs$solver, drop = TRUE, lex.order = TRUE)
  out <- do.call(rbind, lapply(split(runs, key), function(r) data.frame(
    family = r$family[1], n = r$n[1], solver = r$solver[1],
    exact = sprintf("%d/%d", sum(r$exact), nrow(r)),
    nodes = round(mean(r$nodes)), bounds = round(mean(r$bounds)),
    cpu_mean = signif(mean(r$cpu), 3), cpu_max = signif(max(r$cpu), 3),
    us_per_node = signif(1e6 * sum(r$cpu) / sum(r$nodes), 3),
    us_per_bound = signif(1e6 * sum(r$cpu) / sum(r$bounds), 3))))
  out <- out[order(out$family, out$n, out$solver), ]
  rownames(out) <- NULL
  out
}

ratios <- function(tab, other) {
  g <- tab[tab$solver == "glpk", ]
  r <- tab[tab$solver == other, ]
  j <- merge(g, r, by = c("family", "n"), suffixes = c("_glpk", "_x"))
  if (!nrow(j)) return(NULL)
  data.frame(family = j$family, n = j$n,
             cpu_per_node = signif(j$us_per_node_glpk / j$us_per_node_x, 3),
             cpu_per_sample = signif(j$cpu_mean_glpk / j$cpu_mean_x, 3),
             nodes = signif(j$nodes_glpk / j$nodes_x, 3))
}

cat(sprintf("Exact = finished within %g CPU-s (node caps from a pilot); GLPK solvers up to n = %g.\n\n",
            cpu_cap, glpk_max))
runs <- list()
fams <- list(clique = list(make = mixed_clique, ns = c(20, 25, 30, 35, 40, 45, 50)),
             rbm = list(make = mixed_rbm, ns = c(20, 30, 40, 50, 60, 70, 80, 90, 100)))
for (f in names(fams)) {
  runs[[length(runs) + 1L]] <- sweep(f, fams[[f]]$make, fams[[f]]$ns, "glpk", glpk_max)
  runs[[length(runs) + 1L]] <- sweep(f, fams[[f]]$make, fams[[f]]$ns, "roof")
  runs[[length(runs) + 1L]] <- sweep(f, fams[[f]]$make, fams[[f]]$ns, "cycle", glpk_max)
}
runs <- do.call(rbind, runs)
tab <- summarise(runs)
cat("Per size and solver (means over the samples run; us = CPU microseconds):\n")
print(tab, row.names = FALSE)
cat("\nRatios GLPK / roof duality (CPU per node, CPU per sample, nodes):\n")
print(ratios(tab, "roof"), row.names = FALSE)
cat("\nRatios GLPK / GLPK with triangle cuts (CPU per node, CPU per sample, nodes):\n")
print(ratios(tab, "cycle"), row.names = FALSE)
for (f in names(fams)) {
  ok <- tab[tab$family == f & tab$solver == "roof" & tab$exact == "3/3", ]
  cat(sprintf("\nLargest %s n with 3 of 3 samples exact within %g CPU-s (roof duality): %s",
              f, cpu_cap, if (nrow(ok)) max(ok$n) else "none"))
}
cat("\n\nAttractive clique (bench/gumbelmip/mip.R's model, n = 60): \"auto\" picks the min cut;\n")
cat("roof duality gives the same bound on a doubled graph (3 samples each, CPU-s per sample):\n")
m <- fig1a_clique(60)
att <- do.call(rbind, lapply(c("cut", "roof", "auto"), function(sv) do.call(rbind, lapply(1:3,
  function(seed) one_sample(m, sv, seed, Inf)))))
print(aggregate(cbind(nodes, bounds, cpu) ~ solver, data = att, FUN = function(x) signif(mean(x), 3)),
      row.names = FALSE)
cat("\nTotal CPU-s of the runs:", signif(sum(runs$cpu) + sum(att$cpu), 3), "\n")
