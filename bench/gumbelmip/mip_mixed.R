# GumbelMIP on models with couplings of both signs: the local-polytope LP bound
# by GLPK's dual simplex ("glpk"), the same bound by roof duality ("roof", one
# max-flow on two nodes per free variable, src/mip_roof.c), roof duality and a
# triangle bound by dual decomposition ("triangle", src/mip_tri.c, no LP
# solver) and GLPK's LP tightened by triangle cuts ("cycle", src/mip_cycle.c),
# side by side in one run.
# Models: mixed-sign cliques (weights U[-1.5, 1.5]/sqrt(n), fields U[-1, 1],
# drawn under set.seed(2000 + n)) and RBMs with n/2 visible and n/2 hidden
# units, weights of both signs U[-1.5, 1.5]/sqrt(n/2) and biases U[-1, 1]
# (set.seed(3000 + n)). One thread, uniform proposal.
# CPU seconds (process user + system around each one-sample call); the
# searches are capped by nodes, not by mip_sample()'s wall-clock time_limit:
# on the shared machine (load 15-20 on 2 cores while this ran) a process got
# 5-20% of a core, so wall seconds were 5-20 x the CPU seconds.
# Part 1, cost per node: one sample per model and solver stopped at a node
# budget (roof and triangle 3000, glpk 150, cycle 4 nodes; all give valid
# bounds, so CPU-s per node and per bound evaluation are comparable);
# interleaved by n. The triangle bound runs on cliques only (an RBM's graph
# has no triangle: the bound would be the roof dual at a higher cost).
# Part 2, exact samples: 3 samples (seeds 1, 2, 3) per n, each capped at the
# nodes of MIP_MIXED_CPU (default 60) CPU-s at the rate measured in part 1
# (x 1.2); a sample counts as exact when its search finished within that many
# CPU-s. A solver's sweep stops at the first n with a sample that is not (the
# other samples of that n are not run). The sizes of each sweep are set by
# environment variables (defaults below), so that a loaded machine can run a
# shorter plan; the plan run is printed.
# Run: nice -n 10 Rscript bench/gumbelmip/mip_mixed.R > bench/gumbelmip/mip_mixed.out
# The committed output ran the plan printed at its top (the defaults reach sizes
# that take hours on a loaded machine; MIP_MIXED_ATTRACTIVE=0 skips the
# attractive clique at the end).
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP on mixed-sign cliques and RBMs: GLPK, roof duality, GLPK with triangle cuts")

sizes <- function(var, default) as.numeric(strsplit(Sys.getenv(var, default), ",")[[1]])
cpu_cap <- as.numeric(Sys.getenv("MIP_MIXED_CPU", "60"))
plan <- list(
  cost = list(clique = sizes("MIP_MIXED_COST_CLIQUE", "20,30,40,50"),
              rbm = sizes("MIP_MIXED_COST_RBM", "20,40,60")),
  exact = list(clique = list(roof = sizes("MIP_MIXED_ROOF_CLIQUE", "20,25,30,35,40,45,50"),
                             triangle = sizes("MIP_MIXED_TRIANGLE_CLIQUE", "20,25,30,35,40,45,50"),
                             glpk = sizes("MIP_MIXED_GLPK_CLIQUE", "20,25,30"),
                             cycle = sizes("MIP_MIXED_CYCLE_CLIQUE", "20,25,30")),
               rbm = list(roof = sizes("MIP_MIXED_ROOF_RBM", "20,30,40,50,60,70"),
                          glpk = sizes("MIP_MIXED_GLPK_RBM", "20,30"),
                          cycle = sizes("MIP_MIXED_CYCLE_RBM", "20"))))
budget <- c(roof = 3000, triangle = 3000, glpk = 150, cycle = 4)
cat(sprintf("Plan: cost per node at clique n = %s, RBM n = %s; exact sweeps within %g CPU-s:\n",
            paste(plan$cost$clique, collapse = ","), paste(plan$cost$rbm, collapse = ","), cpu_cap))
for (f in names(plan$exact)) for (s in names(plan$exact[[f]]))
  cat(sprintf("  %-6s %-5s n = %s\n", f, s, paste(plan$exact[[f]][[s]], collapse = ",")))
cat("\n")

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
make <- list(clique = mixed_clique, rbm = mixed_rbm)

run1 <- function(m, solver, seed, node_limit) {
  set.seed(seed)
  t <- timed(suppressWarnings(mip_sample(m, 1, lp_solver = solver, node_limit = node_limit,
                                         progress = FALSE)))
  data.frame(solver = solver, seed = seed, finished = t$val$exact, nodes = t$val$nodes,
             bounds = t$val$lp_solves, cpu = t$cpu, wall = t$wall)
}

cat("Part 1: CPU per node and per bound evaluation (one sample stopped at a node budget)\n")
cost <- list()
for (f in names(plan$cost)) for (n in plan$cost[[f]]) {
  m <- make[[f]](n)
  for (s in setdiff(names(budget), if (f == "rbm") "triangle")) {
    r <- cbind(family = f, n = n, run1(m, s, 99, budget[[s]]))
    r$us_per_node <- signif(1e6 * r$cpu / r$nodes, 3)
    r$us_per_bound <- signif(1e6 * r$cpu / max(r$bounds, 1), 3)
    cost[[length(cost) + 1L]] <- r
    cat(sprintf("  %-6s n = %3d %-5s %6.0f nodes %6.0f bounds %7.2f CPU-s %9.0f us/node %9.0f us/bound\n",
                f, n, s, r$nodes, r$bounds, r$cpu, r$us_per_node, r$us_per_bound))
  }
}
cost <- do.call(rbind, cost)
w <- reshape(cost[, c("family", "n", "solver", "us_per_node")], idvar = c("family", "n"),
             timevar = "solver", direction = "wide")
names(w) <- sub("us_per_node.", "", names(w), fixed = TRUE)
w$glpk_over_roof <- signif(w$glpk / w$roof, 3)
w$triangle_over_roof <- signif(w$triangle / w$roof, 3)
w$cycle_over_roof <- signif(w$cycle / w$roof, 3)
cat("\nCPU microseconds per node and the ratios to roof duality:\n")
print(w, row.names = FALSE)

cat("\nPart 2: exact samples (3 per n, seeds 1-3)\n")
rate <- function(f, n, s) {            # CPU-s per node, from part 1 (nearest n measured)
  k <- cost[cost$family == f & cost$solver == s, ]
  if (!nrow(k)) return(NA)
  k$cpu[which.min(abs(k$n - n))] / k$nodes[which.min(abs(k$n - n))] * max(1, n / k$n[which.min(abs(k$n - n))])^2
}
runs <- list()
for (f in names(plan$exact)) for (s in names(plan$exact[[f]])) for (n in plan$exact[[f]][[s]]) {
  m <- make[[f]](n)
  cap <- ceiling(1.2 * cpu_cap / rate(f, n, s))
  ok <- TRUE
  for (seed in 1:3) {
    r <- cbind(family = f, n = n, run1(m, s, seed, cap), node_cap = cap)
    r$exact <- r$finished && r$cpu <= cpu_cap
    runs[[length(runs) + 1L]] <- r
    cat(sprintf("  %-6s n = %3d %-5s seed %d: %-5s %8.0f nodes %8.0f bounds %7.2f CPU-s (cap %.0f nodes)\n",
                f, n, s, seed, if (r$exact) "exact" else "NOT", r$nodes, r$bounds, r$cpu, cap))
    if (!r$exact) { ok <- FALSE; break }
  }
  if (!ok) break
}
runs <- do.call(rbind, runs)
key <- interaction(runs$family, runs$solver, runs$n, drop = TRUE, lex.order = TRUE)
tab <- do.call(rbind, lapply(split(runs, key), function(r) data.frame(
  family = r$family[1], solver = r$solver[1], n = r$n[1],
  exact = sprintf("%d/%d", sum(r$exact), nrow(r)), nodes = round(mean(r$nodes)),
  bounds = round(mean(r$bounds)), cpu_mean = signif(mean(r$cpu), 3), cpu_max = signif(max(r$cpu), 3),
  us_per_node = signif(1e6 * sum(r$cpu) / sum(r$nodes), 3))))
tab <- tab[order(tab$family, tab$solver, tab$n), ]
cat("\nPer family, solver and n (means over the samples run):\n")
print(tab, row.names = FALSE)
for (s in c("roof", "triangle")) {
  both <- merge(tab[tab$solver == "glpk" & tab$exact == "3/3", ], tab[tab$solver == s, ],
                by = c("family", "n"), suffixes = c("_glpk", "_b"))
  if (nrow(both)) {
    cat(sprintf("\nCPU per exact sample, GLPK / %s:\n", s))
    print(data.frame(family = both$family, n = both$n,
                     ratio = signif(both$cpu_mean_glpk / both$cpu_mean_b, 3)), row.names = FALSE)
  }
}
tr <- merge(tab[tab$solver == "triangle", ], tab[tab$solver == "roof", ], by = c("family", "n"),
            suffixes = c("_tri", "_roof"))
if (nrow(tr)) {
  cat("\nTriangle bound against roof duality on the same samples (ratios roof / triangle):\n")
  print(data.frame(family = tr$family, n = tr$n, exact_tri = tr$exact_tri, exact_roof = tr$exact_roof,
                   nodes = signif(tr$nodes_roof / tr$nodes_tri, 3),
                   cpu = signif(tr$cpu_mean_roof / tr$cpu_mean_tri, 3),
                   us_per_node = signif(tr$us_per_node_roof / tr$us_per_node_tri, 3)), row.names = FALSE)
}
for (f in names(plan$exact)) for (s in names(plan$exact[[f]])) {
  ok <- tab[tab$family == f & tab$solver == s & tab$exact == "3/3", ]
  cat(sprintf("Largest %s n of the plan with 3 of 3 samples exact within %g CPU-s, %s: %s\n",
              f, cpu_cap, s, if (nrow(ok)) max(ok$n) else "none"))
}

att <- data.frame(cpu = 0)
if (Sys.getenv("MIP_MIXED_ATTRACTIVE", "1") != "0") {
  cat("\nAttractive clique (bench/gumbelmip/mip.R's model, n = 60): \"auto\" picks the min cut;\n")
  cat("roof duality gives the same bound on a doubled graph (3 samples each, one call per sample):\n")
  m <- fig1a_clique(60)
  att <- do.call(rbind, lapply(1:3, function(seed) do.call(rbind, lapply(c("cut", "roof"),
    function(s) run1(m, s, seed, Inf)))))
  print(aggregate(cbind(nodes, bounds, cpu) ~ solver, data = att, FUN = function(x) signif(mean(x), 3)),
        row.names = FALSE)
}
cat("\nTotal CPU-s of the runs:", signif(sum(cost$cpu) + sum(runs$cpu) + sum(att$cpu), 3), "\n")
