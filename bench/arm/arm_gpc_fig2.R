# The paper's Figure 2 protocol (Fraccaro et al. 2016): sd of log Z over repeated
# runs against work, RM and ARM, with EP's log Z as the reference line. Runs are
# made by bench/arm/arm_gpc_fig2_run.R, which appends one row per run to
# bench/arm/arm_gpc_fig2_runs.csv, e.g.
#   R_LIBS=... OPENBLAS_NUM_THREADS=1 nohup nice -n 10 \
#     Rscript bench/arm/arm_gpc_fig2_run.R mnist767 rm133 101 102 ... &
# (or a queue of "problem setting seed" lines shared by workers,
# bench/arm/arm_gpc_fig2_queue.sh), and summarised here (also copies the csv to
# inst/extdata/ for vignette("arm")'s plot):
#   R_LIBS=... Rscript bench/arm/arm_gpc_fig2.R > bench/arm/arm_gpc_fig2.out
# Problems (bench/arm/gpc_problems.R): mnist767 = mnist35_gpc(767), MNIST 3 vs 5 binary
# pixels pooled 2 x 2; usps767 = usps35_gpc(767), USPS-like grey 16 x 16 in [-1, 1].
# Settings: rm<R> = RM; pool<R> = ARM, rule "pool_ess", i_max 50; block<R> = ARM,
# rule "per_block" (the text's), i_max 50. gamma_threshold 0.7, ess_threshold 0.9,
# one Gibbs sweep (random order) per move, data in a seeded random order, threads 1.
# Work = particle-moves (particle-sweeps) per run; cost per iteration = work / (N - 1) / R.
# Spread of log Z: sd; MAD (median absolute deviation, scaled to the sd of a normal)
# and IQR / 1.349 are robust to RM's rare collapsed runs.
# 1. Direct equal-work ratio: RM run with R chosen so its work matches an ARM cell's
#    (rm133 ~ pool100, rm680 ~ pool500; work within 5%), spread(RM) / spread(ARM), no scaling.
# 2. Secondary: sqrt-scaled ratio sd(RM) sqrt(work_RM) / (sd(ARM) sqrt(work_ARM)) at the
#    same R (assumes sd ~ work^-1/2), and "interpolated": RM's sd at ARM's work from the
#    power law through the two RM cells around it (sd ~ work^-a, a measured).
# Bootstrap 95% intervals: 4000 resamples of each set of runs (independently).
# hmcep<R> / hmcprior<R>: the paper's AIS baselines, ais.gpc(kernel = "hmc"), section 4.
# Target (issue 17): ARM's sd >= 1.5x smaller than RM's at equal work, bootstrap lower
# bound > 1, cost per iteration <= 2R, on at least one paper-sized problem.
library(logz)
options(width = 200)
commit <- suppressWarnings(tryCatch(system("git rev-parse --short HEAD", intern = TRUE, ignore.stderr = TRUE),
                                    error = function(e) "?"))
cat(sprintf("# command: R_LIBS=<lib> Rscript bench/arm/arm_gpc_fig2.R > bench/arm/arm_gpc_fig2.out\n# %s UTC; commit %s (+ working tree); logz %s\n",
            format(Sys.time(), tz = "UTC"), commit[1], packageVersion("logz")))
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
source("bench/arm/gpc_problems.R")
tab <- read.csv("bench/arm/arm_gpc_fig2_runs.csv")
invisible(file.copy("bench/arm/arm_gpc_fig2_runs.csv", "inst/extdata/arm_gpc_fig2_runs.csv", overwrite = TRUE))
N <- c(mnist767 = 767, usps767 = 767)
ep <- c(mnist767 = ep_log_z(mnist35_gpc(767)), usps767 = ep_log_z(usps35_gpc(767)))
B <- 4000
iqr <- function(x) IQR(x) / 1.349
spreads <- list(sd = sd, MAD = mad, IQR = iqr)
q95 <- function(b) quantile(b, c(0.025, 0.975), na.rm = TRUE)
fq <- function(q) sprintf("%.2f-%.2f", q[1], q[2])
boot1 <- function(x, f) { set.seed(1); replicate(B, f(sample(x, replace = TRUE))) }
boot2 <- function(x, y, f) {
  set.seed(1); replicate(B, f(sample(x, replace = TRUE)) / f(sample(y, replace = TRUE)))
}
verdict <- NULL
for (p in unique(tab$problem)) {
  cat(sprintf("\n===== %s: EP log Z %.3f =====\n", p, ep[[p]]))
  tp <- tab[tab$problem == p, ]
  res <- split(tp, tp$setting)
  res <- res[order(sub("[0-9]+$", "", names(res)) != "rm", sapply(res, function(r) r$R[1]))]
  work <- sapply(res, function(r) mean(r$work))
  cost <- sapply(res, function(r) mean(r$work) / (N[[p]] - 1) / r$R[1])
  cat("  setting   R    runs  mean log Z   sd (boot 95%)         MAD (boot 95%)        IQR/1.349  log mean Z  work/run  cost/iter  CPU-s/run  expanded/run  max pool (median)\n")
  for (s in names(res)) {
    x <- res[[s]]$log_z
    ci <- function(f) if (length(x) > 2) fq(q95(boot1(x, f))) else "-"
    cat(sprintf("  %-9s %3d  %4d  %9.2f  %6.2f (%-11s)  %6.2f (%-11s)  %8.2f  %9.2f  %8.0f  %5.2f R  %8.1f  %11.1f  %8.0f\n",
      s, res[[s]]$R[1], length(x), mean(x), sd(x), ci(sd), mad(x), ci(mad), iqr(x),
      logz:::log_sum_exp(x) - log(length(x)), work[[s]], cost[[s]], mean(res[[s]]$cpu),
      mean(res[[s]]$expanded), median(res[[s]]$max_pool)))
  }
  for (s in names(res)) cat(sprintf("  %-9s log Z: %s\n", s, paste(sprintf("%.2f", sort(res[[s]]$log_z)), collapse = " ")))
  arms <- grep("^(pool|block)", names(res), value = TRUE)
  rms <- grep("^rm", names(res), value = TRUE)
  rms <- rms[sapply(res[rms], nrow) >= 3]
  cat("\n  1. DIRECT equal-work ratios RM / ARM (RM's R set so its work matches ARM's; no scaling):\n")
  for (b in arms) for (a in rms) {
    if (abs(work[[a]] / work[[b]] - 1) > 0.05 || nrow(res[[b]]) < 3) next
    xa <- res[[a]]$log_z; xb <- res[[b]]$log_z
    r <- sapply(spreads, function(f) f(xa) / f(xb))
    ci <- lapply(spreads, function(f) q95(boot2(xa, xb, f)))
    cat(sprintf("  %s / %s (%d / %d runs; work %.0f / %.0f = %.3f; CPU-s %.1f / %.1f; ARM cost %.2f R):\n",
      a, b, length(xa), length(xb), work[[a]], work[[b]], work[[a]] / work[[b]],
      mean(res[[a]]$cpu), mean(res[[b]]$cpu), cost[[b]]))
    for (k in names(spreads)) cat(sprintf("    %-3s ratio %5.2f (bootstrap 95%% %s)\n", k, r[[k]], fq(ci[[k]])))
    met <- r[["sd"]] >= 1.5 && ci$sd[1] > 1 && cost[[b]] <= 2
    verdict <- rbind(verdict, data.frame(problem = p, RM = a, ARM = b, runs = sprintf("%d/%d", length(xa), length(xb)),
      sd_ratio = r[["sd"]], lower = ci$sd[1], upper = ci$sd[2], mad_ratio = r[["MAD"]],
      mad_lower = ci$MAD[1], cost = cost[[b]], met = met, row.names = NULL))
  }
  cat("\n  2. Secondary: RM's sd moved to ARM's work by an assumed or fitted power law:\n")
  for (b in arms) for (a in rms) {
    if (res[[a]]$R[1] != res[[b]]$R[1] || nrow(res[[b]]) < 3) next
    xa <- res[[a]]$log_z; xb <- res[[b]]$log_z
    k <- sqrt(work[[a]] / work[[b]])
    cat(sprintf("  sqrt-scaled sd(%s) / sd(%s) at equal work %.2f (bootstrap 95%% %s); MAD %.2f; unscaled %.2f; work ratio %.2f\n",
      a, b, k * sd(xa) / sd(xb), fq(k * q95(boot2(xa, xb, sd))), k * mad(xa) / mad(xb),
      sd(xa) / sd(xb), work[[b]] / work[[a]]))
  }
  if (length(rms) >= 2) for (i in seq_len(length(rms) - 1)) {
    lo <- res[[rms[i]]]$log_z; hi <- res[[rms[i + 1]]]$log_z
    cat(sprintf("  RM sd ~ work^-%.2f between %s and %s (sqrt law: 0.50)\n",
      log(sd(lo) / sd(hi)) / log(work[[rms[i + 1]]] / work[[rms[i]]]), rms[i], rms[i + 1]))
  }
  for (b in arms) {
    if (nrow(res[[b]]) < 3) next
    below <- rms[work[rms] < work[[b]] * 0.95]; above <- rms[work[rms] > work[[b]] * 1.05]
    if (!length(below) || !length(above)) next
    a1 <- below[length(below)]; a2 <- above[1]
    f <- log(work[[b]] / work[[a1]]) / log(work[[a2]] / work[[a1]])
    g <- function(s1, s2, s3) exp((1 - f) * log(s1) + f * log(s2)) / s3
    bs <- { set.seed(1); replicate(B, g(sd(sample(res[[a1]]$log_z, replace = TRUE)),
      sd(sample(res[[a2]]$log_z, replace = TRUE)), sd(sample(res[[b]]$log_z, replace = TRUE)))) }
    cat(sprintf("  RM sd interpolated (%s-%s) to %s's work %.0f: %.2f; / sd(%s) = %.2f (bootstrap 95%% %s)\n",
      a1, a2, b, work[[b]], g(sd(res[[a1]]$log_z), sd(res[[a2]]$log_z), 1), b,
      g(sd(res[[a1]]$log_z), sd(res[[a2]]$log_z), sd(res[[b]]$log_z)), fq(q95(bs))))
  }
  cat(sprintf("\n  3. Cost per iteration (work / (N - 1) / R): %s\n",
    paste(sprintf("%s %.2f R", arms, cost[arms]), collapse = ", ")))
  hmcs <- grep("^hmc", names(res), value = TRUE)
  if (length(hmcs)) {
    cat("\n  4. The paper's AIS baselines (Section 4.2) at ARM's work: AIS with HMC from EP's q (hmcep)\n",
        "    and from the prior (hmcprior); work = gradient evaluations (pilot included), each O(N^2)\n",
        "    like one particle-sweep. sd ratios need >= 3 runs of both settings.\n")
    for (h in hmcs) {
      x <- res[[h]]$log_z
      cat(sprintf("  %-11s %d runs  mean log Z %8.2f (EP %+.2f)  sd %s  work %.0f  CPU-s/run %.1f\n", h,
        length(x), mean(x), mean(x) - ep[[p]], if (length(x) > 1) sprintf("%.2f", sd(x)) else "-",
        work[[h]], mean(res[[h]]$cpu)))
      for (b in c(arms, rms)) {
        if (abs(work[[h]] / work[[b]] - 1) > 0.05 || length(x) < 3 || nrow(res[[b]]) < 3) next
        xb <- res[[b]]$log_z
        cat(sprintf("    sd(%s) / sd(%s) = %.2f (bootstrap 95%% %s)\n", h, b, sd(x) / sd(xb),
          fq(q95(boot2(x, xb, sd)))))
      }
    }
  }
}
cat("\n===== Verdict (target: direct sd ratio >= 1.5, bootstrap lower bound > 1, cost <= 2R) =====\n")
if (!is.null(verdict)) {
  print(verdict, digits = 3, row.names = FALSE)
  cat(if (any(verdict$met)) sprintf("Target MET by direct measurement on: %s\n",
        paste(unique(paste(verdict$problem[verdict$met], verdict$ARM[verdict$met])), collapse = ", "))
      else "Target NOT met by direct measurement on any problem\n")
}
