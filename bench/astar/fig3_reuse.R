# Figure 3 (right) of Maddison, Tarlow & Minka (2014): why OS* with reused
# bounds looked cheaper than A* with reused bounds in bench/astar/fig3.R.
# The paper's right panel: "draw 200 samples from the posterior ... with the
# variants that reuse bound information across samples", 5 random data sets;
# its axes are bound and likelihood evaluations, cost = lik + (D + 1) x bnd.
# Its text: "the extra refinement done by OS* early on allows it to use fewer
# likelihood evaluations at the expense of more bound computations, but A*
# sampling operates at a point that is not achievable by OS*".
# Readings measured here, for each method on the same data sets (fig3.R's
# right-panel seeds, quadratic bounds, N = 20):
#   * the amortised cost over the first n = 1, 10, 50, 200 samples (n = 1 is
#     the first sample, i.e. the left panel's one-sample-from-scratch cost;
#     n = 200 the paper's right panel), and over samples 101-200 (refined);
#   * likelihood and bound evaluations apart, and the paper's weighted cost.
# Methods: logz's A* with reused bounds, OS* with reused bounds (refine on a
# fraction rate of rejections), and an R restatement of the authors' released
# iterator (bench/astar/released_astar.R), a stream that keeps its queue.
# The script prints the logz library it loaded: run it against an older build
# (R_LIBS=... FIG3_BUILD_NOTE="built from ...") to see that build's A* under the
# same readings (fig3_reuse_before.out: main before the change to reused bounds).
# Run: Rscript bench/astar/fig3_reuse.R   (about 2 minutes; FIG3_DIMS=1,2 to subset)
suppressPackageStartupMessages(library(logz))
source(file.path("bench", "astar", "released_astar.R"))
cat("A* sampling, Figure 3 right: reused bounds, readings of the cost\n")
cat("LAPACK:", La_library(), "\n")
cat("logz", as.character(packageVersion("logz")), "from", find.package("logz"),
    Sys.getenv("FIG3_BUILD_NOTE"), "| script at git",
    tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"), "\n")
cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "\n\n")
t_start <- proc.time()[["elapsed"]]

N <- 20L
n_samples <- 200L
dims <- as.integer(strsplit(Sys.getenv("FIG3_DIMS", "1,2,3"), ",")[[1]])
windows <- list(`n=1` = 1L, `n=10` = 1:10, `n=50` = 1:50, `n=200` = 1:200, `101-200` = 101:200)

rows <- list()
for (D in dims) {
  for (ds in 1:5) {
    tg <- astar_example("cauchy_regression", D = D, N = N, bound = "quadratic",
                        seed = 2000L * D + ds)
    runs <- list()
    set.seed(ds)
    runs[["A* reuse"]] <- astar_sample(tg, n_samples)$cost
    for (rho in c(1, 0.5, 0.1)) {
      set.seed(ds)
      runs[[sprintf("OS* reuse %.1f", rho)]] <- os_star_sample(tg, n_samples, refine_rate = rho)$cost
    }
    set.seed(ds)
    runs[["released A* stream"]] <- released_astar_stream(tg, rep(-10, D), rep(10, D), n_samples)$cost
    for (m in names(runs)) for (w in names(windows)) {
      cw <- runs[[m]][windows[[w]], ]
      rows[[length(rows) + 1L]] <- data.frame(D = D, data_set = ds, method = m, window = w,
                                              lik = mean(cw$likelihood), bnd = mean(cw$bound))
    }
  }
}
res <- do.call(rbind, rows)
agg <- aggregate(cbind(lik, bnd) ~ D + method + window, data = res, FUN = mean)
agg$cost <- agg$lik + (agg$D + 1) * agg$bnd
agg$window <- factor(agg$window, levels = names(windows))
agg <- agg[order(agg$D, agg$window, agg$method), ]

cat("== evaluations per sample, mean over the samples of the window and over 5 data sets\n")
cat("   cost = lik + (D + 1) x bnd\n")
for (D in dims) {
  a <- agg[agg$D == D, ]
  tab <- reshape(a[, c("method", "window", "lik", "bnd", "cost")], idvar = "method",
                 timevar = "window", direction = "wide")
  cat("\nD =", D, "\n")
  for (w in names(windows)) {
    s <- a[a$window == w, ]
    cat(sprintf("  %-8s", w), paste(sprintf("%s %.3g/%.3g (%.3g)", s$method, s$lik, s$bnd, s$cost),
                                    collapse = "; "), "\n")
  }
}

cat("\n== the paper's ordering under each reading (A* = logz's A* with reused bounds)\n")
cat("   os1_fewer_lik / os1_more_bnd: OS* refining at every rejection (rate 1) uses fewer\n")
cat("   likelihood / more bound evaluations than A*; undominated: no OS* rate has both fewer\n")
cat("   lik and fewer bnd than A*; astar_cheaper: A*'s cost below every OS* rate's\n")
options(width = 120)
verdict <- list()
for (D in dims) for (w in names(windows)) {
  s <- agg[agg$D == D & agg$window == w, ]
  A <- s[s$method == "A* reuse", ]
  O <- s[startsWith(s$method, "OS*"), ]
  O1 <- s[s$method == "OS* reuse 1.0", ]
  verdict[[length(verdict) + 1L]] <- data.frame(
    D = D, window = w,
    astar = sprintf("%.3g/%.3g (%.3g)", A$lik, A$bnd, A$cost),
    best_os = sprintf("%.3g/%.3g (%.3g)", O$lik[which.min(O$cost)], O$bnd[which.min(O$cost)],
                      min(O$cost)),
    os1_fewer_lik = O1$lik < A$lik, os1_more_bnd = O1$bnd > A$bnd,
    undominated = !any(O$lik <= A$lik & O$bnd <= A$bnd),
    astar_cheaper = A$cost < min(O$cost),
    cost_ratio_os_astar = round(min(O$cost) / A$cost, 2))
}
print(do.call(rbind, verdict), row.names = FALSE)
cat("(paper, Fig. 3 right, 200 samples: OS* fewer likelihood and more bound evaluations;\n",
    " A* at a point OS* does not reach. Fig. 3 left, one sample: A* fewer of both.)\n")
cat(sprintf("\ntotal time %.1f s\n", proc.time()[["elapsed"]] - t_start))
