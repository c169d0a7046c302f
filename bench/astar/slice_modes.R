# Why the slice sampler of bench/astar/fig3.R switches modes where the paper's
# did not (Maddison, Tarlow & Minka 2014, Section 6.4: "Across the five runs
# for D = 2, the sampler switched modes once, and it did not ever switch modes
# when D > 2"; the text does not state N, the panels of Figure 3 are titled
# "D=2, N=250"). On data sets 1-5 of fig3.R's right
# panel (the paper's count), for N = 20 (fig3.R) and larger N, the random-
# direction slice sampler gets 10x the cost of A* drawing 200 samples with
# reused bounds, as in fig3.R, and its switches are counted two ways:
#   sign:       changes of sign(sum(w)) between draws (fig3.R's count);
#   hysteresis: changes between the two modes' neighbourhoods, sum(w) > D and
#               sum(w) < -D (the modes sit near sum(w) = +-2D), so a chain
#               wandering across the plane sum(w) = 0 is not counted.
# Run: Rscript bench/astar/slice_modes.R   (SLICE_MODES_N = "20,50,100", SLICE_MODES_DIMS = "2,3")
#      SLICE_MODES_N=250 Rscript bench/astar/slice_modes.R > bench/astar/slice_modes_n250.out
suppressPackageStartupMessages(library(logz))
source(file.path("bench", "astar", "slice.R"))
source(file.path("bench", "astar", "header.R"))
bench_header("A* sampling, Figure 3: slice sampler mode switches against N",
             paste("Rscript bench/astar/slice_modes.R | SLICE_MODES_N =",
                   Sys.getenv("SLICE_MODES_N", "20,50,100"), "| SLICE_MODES_DIMS =",
                   Sys.getenv("SLICE_MODES_DIMS", "2,3")))
c0 <- cpu()

Ns <- as.integer(strsplit(Sys.getenv("SLICE_MODES_N", "20,50,100"), ",")[[1]])
dims <- as.integer(strsplit(Sys.getenv("SLICE_MODES_DIMS", "2,3"), ",")[[1]])
switches <- function(s, D) {
  sg <- sign(rowSums(s))
  h <- ifelse(rowSums(s) > D, 1, ifelse(rowSums(s) < -D, -1, NA))
  h <- h[!is.na(h)]
  c(sign = sum(diff(sg) != 0), hysteresis = sum(diff(h) != 0))
}
rows <- list()
for (D in dims) for (N in Ns) for (ds in 1:5) {
  t0 <- cpu()
  tg <- astar_example("cauchy_regression", D = D, N = N, bound = "quadratic", seed = 2000L * D + ds)
  set.seed(ds)
  a <- astar_sample(tg, 200)
  budget <- 10 * sum(a$cost$likelihood + (D + 1) * a$cost$bound)
  sl <- slice_random_direction(cauchy_log_density(tg), a$samples[1, ], n_evals = budget)
  sw <- switches(sl$samples, D)
  # the barrier: log density at the origin below the better mode's A* sample
  f <- cauchy_log_density(tg)
  best <- max(apply(a$samples, 1L, f))
  rows[[length(rows) + 1L]] <- data.frame(
    D = D, N = N, data_set = ds, astar_cost = round(budget / 10), slice_draws = nrow(sl$samples),
    switches_sign = sw[["sign"]], switches_hysteresis = sw[["hysteresis"]],
    frac_pos_slice = round(mean(rowSums(sl$samples) > 0), 3),
    barrier_nats = round(best - f(rep(0, D)), 1), cpu_s = round(cpu() - t0, 1))
}
res <- do.call(rbind, rows)
print(res, row.names = FALSE)
cat("\nper (D, N) over data sets 1-5: switches (sign / hysteresis), runs with no hysteresis switch\n")
for (D in dims) for (N in Ns) {
  r <- res[res$D == D & res$N == N, ]
  cat(sprintf("  D = %d, N = %3d: sign %s | hysteresis %s | %d of 5 with none | barrier %s nats\n", D, N,
              paste(r$switches_sign, collapse = ", "), paste(r$switches_hysteresis, collapse = ", "),
              sum(r$switches_hysteresis == 0), paste(r$barrier_nats, collapse = ", ")))
}
cat("(paper: five runs at D = 2 switched modes once in all; none for D > 2)\n")
cat("(barrier_nats: log density of the best of A*'s 200 samples minus that at w = 0)\n")
cat(sprintf("\ntotal CPU %.1f s\n", cpu() - c0))
