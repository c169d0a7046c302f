# How many nodes would a perfect bound save on the mixed-sign cliques of
# bench/gumbelmip/mip_mixed.R? The search is run twice on the same draws:
# with the roof dual ("roof") and with the exact maximum of every
# sub-problem ("oracle": the roof dual replaced by the enumerated maximum of
# the node's free variables, the tightest valid bound there is). Both give the
# same sample (the bound only prunes); the oracle's node count is the floor
# any tighter bound (triangles, cycles, SDP) can reach under the uniform
# proposal. The oracle is not in the package: it needs a build patched by
# bench/gumbelmip/mip_mixed_oracle.patch (an environment variable turns it on).
# Run (from the package root, n up to 24: the enumeration is 2^n per root):
#   d=$(mktemp -d) && git archive HEAD | tar -x -C "$d" && (cd "$d" && patch -p1 < \
#     bench/gumbelmip/mip_mixed_oracle.patch) && mkdir -p /tmp/lib_oracle && \
#     R CMD INSTALL --library=/tmp/lib_oracle "$d" && \
#     MIP_ORACLE_LIB=/tmp/lib_oracle Rscript bench/gumbelmip/mip_mixed_oracle.R \
#     > bench/gumbelmip/mip_mixed_oracle.out
suppressPackageStartupMessages(library(logz, lib.loc = Sys.getenv("MIP_ORACLE_LIB")))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP on mixed-sign cliques: nodes with the roof dual and with an exact oracle bound")
sizes <- as.numeric(strsplit(Sys.getenv("MIP_ORACLE_SIZES", "16,18,20,22,24"), ",")[[1]])
rows <- list()
for (n in sizes) {
  set.seed(2000 + n)
  m <- ising_clique(n, coupling = 1.5 / sqrt(n), field = 1, type = "mixed")
  for (seed in 1:3) {
    Sys.unsetenv("LOGZ_ORACLE")
    set.seed(seed)
    a <- mip_sample(m, 1, lp_solver = "roof", progress = FALSE)
    Sys.setenv(LOGZ_ORACLE = "1")
    set.seed(seed)
    b <- mip_sample(m, 1, lp_solver = "roof", progress = FALSE)
    Sys.unsetenv("LOGZ_ORACLE")
    rows[[length(rows) + 1L]] <- data.frame(n = n, seed = seed, roof = a$nodes, oracle = b$nodes,
                                            same_sample = identical(a$states, b$states))
    cat(sprintf("  n = %2d seed %d: roof %7.0f nodes, oracle %7.0f nodes, same sample %s\n",
                n, seed, a$nodes, b$nodes, identical(a$states, b$states)))
  }
}
rows <- do.call(rbind, rows)
tab <- aggregate(cbind(roof, oracle) ~ n, data = rows, FUN = mean)
tab$roof_over_oracle <- signif(tab$roof / tab$oracle, 3)
cat("\nMean nodes per sample and the ratio roof / oracle:\n")
print(tab, row.names = FALSE)
