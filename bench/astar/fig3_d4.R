# Figure 3 of Maddison, Tarlow & Minka (2014) at D = 4 (the paper: "Results are
# similar over a range of N's and D = 1, ..., 4"), with the methods and data of
# bench/astar/fig3.R: left panel, one exact sample from scratch per method on
# up to 20 data sets; right panel, 200 samples with reused bounds on up to 20
# data sets, and the random-direction slice sampler at 10x A*'s budget (its
# density as plain R arithmetic, cauchy_log_density() in slice.R: the same
# draws and evaluation counts as astar_log_density(), without its checks).
# Resumable: every finished (panel, data set) appends its rows to
# bench/astar/fig3_d4_rows.csv, and a run skips what is there; a run stops
# starting new data sets once its CPU time passes FIG3_D4_BUDGET seconds
# (default 1200) and reports what did not fit. FIG3_D4_TIME=1 times one data
# set of each panel, method by method, and stops.
# Run: Rscript bench/astar/fig3_d4.R   (repeat to resume)
suppressPackageStartupMessages(library(logz))
source(file.path("bench", "astar", "slice.R"))
source(file.path("bench", "astar", "header.R"))
bench_header("A* sampling, Figure 3 at D = 4 (robust Bayesian regression)",
             "Rscript bench/astar/fig3_d4.R")
c0 <- cpu()

D <- 4L
N <- 20L
rates <- c(1, 0.5, 0.1)
budget <- as.numeric(Sys.getenv("FIG3_D4_BUDGET", "1200"))
time_only <- nzchar(Sys.getenv("FIG3_D4_TIME"))
store <- file.path("bench", "astar", "fig3_d4_rows.csv")
done <- if (file.exists(store) && !time_only) utils::read.csv(store, stringsAsFactors = FALSE) else NULL
row <- function(panel, ds, method, bound, rate, s, secs)
  data.frame(panel = panel, data_set = ds, method = method, bound = bound, rate = rate,
             lik = if (is.null(s)) NA else mean(s$cost$likelihood),
             bnd = if (is.null(s)) NA else mean(s$cost$bound), cpu_s = round(secs, 2),
             note = if (is.null(s)) "max_nodes exceeded" else "")
# one method run, timed; an error past max_nodes is recorded, not fatal
timed <- function(panel, ds, method, bound, rate, expr) {
  t0 <- cpu()
  s <- tryCatch(expr, error = function(e) if (grepl("max_nodes", conditionMessage(e))) NULL else stop(e))
  r <- row(panel, ds, method, bound, rate, s, cpu() - t0)
  if (time_only) cat(sprintf("  %-5s %-18s %-9s rate %.1f: %7.1f CPU s\n", panel, method, bound, rate, r$cpu_s))
  r
}

left_set <- function(ds) {
  tgs <- lapply(c(constant = "constant", linear = "linear", quadratic = "quadratic"),
                function(b) astar_example("cauchy_regression", D = D, N = N, bound = b,
                                          seed = 1000L * D + ds))
  set.seed(ds)
  out <- list()
  for (b in names(tgs)) {
    out[[length(out) + 1L]] <- timed("left", ds, "A*", b, 1, astar_sample(tgs[[b]], 1, reuse_bounds = FALSE))
    for (rho in rates)
      out[[length(out) + 1L]] <- timed("left", ds, "OS* sampled point", b, rho,
        os_star_sample(tgs[[b]], 1, reuse_bounds = FALSE, refine_rate = rho))
  }
  for (rho in rates[-1])
    out[[length(out) + 1L]] <- timed("left", ds, "A*", "quadratic", rho,
      astar_sample(tgs$quadratic, 1, reuse_bounds = FALSE, lower_bounds_per_node = 1 / rho,
                   lower_bounds_dist = "poisson"))
  for (rho in c(1, 0.1))
    out[[length(out) + 1L]] <- timed("left", ds, "OS* largest mass", "quadratic", rho,
      os_star_sample(tgs$quadratic, 1, refine = "largest_mass", reuse_bounds = FALSE,
                     refine_rate = rho, max_nodes = 2e5))
  do.call(rbind, out)
}

right_set <- function(ds) {
  tg <- astar_example("cauchy_regression", D = D, N = N, bound = "quadratic", seed = 2000L * D + ds)
  set.seed(ds)
  t0 <- cpu()
  a <- astar_sample(tg, 200)
  out <- list(row("right", ds, "A* reuse", "quadratic", 1, a, cpu() - t0))
  if (time_only) cat(sprintf("  right A* reuse: %.1f CPU s\n", out[[1]]$cpu_s))
  for (rho in rates)
    out[[length(out) + 1L]] <- timed("right", ds, "OS* reuse", "quadratic", rho,
                                     os_star_sample(tg, 200, refine_rate = rho))
  budget_evals <- 10 * sum(a$cost$likelihood + (D + 1) * a$cost$bound)
  t0 <- cpu()
  sl <- slice_random_direction(cauchy_log_density(tg), a$samples[1, ], n_evals = budget_evals)
  mode <- sign(rowSums(sl$samples))
  out[[length(out) + 1L]] <- data.frame(
    panel = "slice", data_set = ds, method = "slice 10x", bound = "", rate = NA,
    lik = sl$evals, bnd = sum(diff(mode) != 0), cpu_s = round(cpu() - t0, 2),
    note = sprintf("lik = density evaluations, bnd = mode switches; %d draws, %.3f in +mode (A*: %.3f)",
                   nrow(sl$samples), mean(mode > 0), mean(rowSums(a$samples) > 0)))
  if (time_only) cat(sprintf("  slice at 10x (%.0f evaluations): %.1f CPU s\n", budget_evals, cpu() - t0))
  do.call(rbind, out)
}

if (time_only) {
  cat("== timing one data set of each panel (D = 4)\n")
  invisible(left_set(1L))
  invisible(right_set(1L))
  cat(sprintf("\ntotal CPU %.1f s\n", cpu() - c0))
  quit(save = "no")
}

todo <- rbind(data.frame(panel = "left", ds = 1:20), data.frame(panel = "right", ds = 1:20))
have <- if (is.null(done)) character(0) else unique(paste(ifelse(done$panel == "slice", "right", done$panel),
                                                          done$data_set))
skipped <- character(0)
for (i in seq_len(nrow(todo))) {
  key <- paste(todo$panel[i], todo$ds[i])
  if (key %in% have) next
  if (cpu() - c0 > budget) { skipped <- c(skipped, key); next }
  t0 <- cpu()
  rows <- if (todo$panel[i] == "left") left_set(todo$ds[i]) else right_set(todo$ds[i])
  utils::write.table(rows, store, sep = ",", row.names = FALSE, append = file.exists(store),
                     col.names = !file.exists(store))
  cat(sprintf("%s data set %d: %.1f CPU s\n", todo$panel[i], todo$ds[i], cpu() - t0))
}

res <- utils::read.csv(store, stringsAsFactors = FALSE)
cat("\n== Fig. 3 left at D = 4: one exact sample from scratch, mean over the data sets done\n")
cat("   cost = lik + (D + 1) x bnd; vs_astar = cost relative to A* (rate 1) with the same bounds\n")
L <- res[res$panel == "left", ]
fails <- aggregate(is.na(lik) ~ method + bound + rate, data = L, FUN = sum)
names(fails)[4] <- "over_max_nodes"
agg <- aggregate(cbind(lik, bnd, cpu_s) ~ method + bound + rate, data = L, FUN = mean)
n_sets <- aggregate(lik ~ method + bound + rate, data = L, FUN = length)
agg$sets <- n_sets$lik[match(paste(agg$method, agg$bound, agg$rate),
                             paste(n_sets$method, n_sets$bound, n_sets$rate))]
agg <- merge(agg, fails, all = TRUE)
agg$cost <- agg$lik + (D + 1) * agg$bnd
ref <- agg[agg$method == "A*" & agg$rate == 1, c("bound", "cost")]
agg$vs_astar <- sprintf("%.2fx", agg$cost / ref$cost[match(agg$bound, ref$bound)])
agg <- agg[order(agg$bound, agg$method, -agg$rate), ]
agg$lik <- signif(agg$lik, 4); agg$bnd <- signif(agg$bnd, 4); agg$cost <- signif(agg$cost, 4)
print(agg, row.names = FALSE)
cat("(sets: data sets whose run finished; over_max_nodes: runs that passed max_nodes = 2e5 pieces\n",
    " and are left out of the means; cpu_s: mean CPU seconds per run on this loaded machine)\n")

R <- res[res$panel == "right", ]
if (nrow(R)) {
  cat("\n== Fig. 3 right at D = 4: 200 samples with bounds reused, per sample, mean over data sets\n")
  ra <- aggregate(cbind(lik, bnd, cpu_s) ~ method + rate, data = R, FUN = mean)
  ra$sets <- aggregate(lik ~ method + rate, data = R, FUN = length)$lik
  ra$cost <- ra$lik + (D + 1) * ra$bnd
  ra$lik <- signif(ra$lik, 4); ra$bnd <- signif(ra$bnd, 4); ra$cost <- signif(ra$cost, 4)
  print(ra[order(ra$method, -ra$rate), ], row.names = FALSE)
  cat("\n== random-direction slice sampler at 10x A*'s cost (200 samples)\n")
  S <- res[res$panel == "slice", c("data_set", "lik", "bnd", "cpu_s", "note")]
  names(S) <- c("data_set", "slice_evals", "mode_switches", "cpu_s", "note")
  print(S, row.names = FALSE)
  cat(sprintf("slice: %d data sets, mode switches median %g (range %g-%g), %d with none\n",
              nrow(S), stats::median(S$mode_switches), min(S$mode_switches), max(S$mode_switches),
              sum(S$mode_switches == 0)))
  cat("(cpu_s of the slice rows: its density as plain R arithmetic, not the package's checked call)\n")
}
cat("\nnot run in this call (CPU budget", budget, "s passed):",
    if (length(skipped)) paste(skipped, collapse = ", ") else "none", "\n")
missing <- setdiff(paste(todo$panel, todo$ds),
                   unique(paste(ifelse(res$panel == "slice", "right", res$panel), res$data_set)))
cat("still missing from", store, ":", if (length(missing)) paste(missing, collapse = ", ") else "none", "\n")
cat(sprintf("\nCPU time of this call %.1f s\n", cpu() - c0))
