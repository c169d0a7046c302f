# Before the default call's rows are rerun (run.R ... 'SMC hmc \(default\)', then
# run_equal_cost.R): keep the previous default's rows in the saved runs of the R
# models under a new name, so that summary.R shows both. Renames "SMC hmc (default)"
# to "SMC hmc (previous default: the SMC estimate)" and "bridgesampling at the
# default's cost" to "bridgesampling at the previous default's cost". Run once, from
# the package root: Rscript bench/evidence/retire_default.R
for (m in c("hierarchical", "mixture", "regression10", "regression50", "sonar")) {
  f <- sprintf("bench/evidence/runs_%s.rds", m)
  x <- readRDS(f)
  if (any(grepl("previous default", x$method))) stop(f, " has been renamed already")
  x$method[x$method == "SMC hmc (default)"] <- "SMC hmc (previous default: the SMC estimate)"
  x$method[x$method == "bridgesampling at the default's cost"] <-
    "bridgesampling at the previous default's cost"
  saveRDS(x, f)
  cat(f, ": ", paste(unique(x$method), collapse = "; "), "\n", sep = "")
}
