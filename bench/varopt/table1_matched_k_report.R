# Report of bench/varopt/table1_matched_k.R: per model and schedule at the
# matched K*, mean ESS of M = 1000 runs over seeds beside the paper's Table 1
# ESS, the ratio to our LINEAR, and the RMSE of log Z against exact.
#   Rscript bench/varopt/table1_matched_k_report.R > bench/varopt/table1_matched_k.out
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
d <- read.csv("bench/varopt/table1_matched_k.csv")
cat(sprintf("%-6s %5s %-13s %5s %9s %10s %14s %8s\n", "model", "K*", "schedule", "seeds", "ESS/1000",
            "paper ESS", "ratio (paper)", "RMSE"))
for (m in unique(d$model)) {
  x <- d[d$model == m, ]
  lin <- mean(x$ess[x$schedule == "LINEAR"])
  for (sn in unique(x$schedule)) {
    y <- x[x$schedule == sn, ]
    p <- y$paper_ess[1]
    plin <- x$paper_ess[x$schedule == "LINEAR"][1]
    cat(sprintf("%-6s %5d %-13s %5d %9.0f %10s %6.2f (%s) %8.4f\n", m, y$K[1], sn, nrow(y),
                mean(y$ess), if (is.na(p)) "-" else format(p), mean(y$ess) / lin,
                if (is.na(p)) "  -  " else sprintf("%.2f", p / plin), sqrt(mean(y$err^2))))
  }
}
cat("K* = the K at which our LINEAR's ESS should match the paper's LINEAR ESS (log-normal scaling of a\n",
    "LINEAR run at K = 1000); the LINEAR row checks the match. Paper: Kiwaki (2015), Table 1.\n")
