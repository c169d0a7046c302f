# Run the installed package's testthat suite and end with a line the CI reads:
# "N passed, N failed" (plus skipped). Exits non-zero on any failure or error.
library(testthat)
Sys.setenv(NOT_CRAN = "true")  # run snapshot tests too
library(logz)
filter <- Sys.getenv("LOGZ_TEST_FILTER")  # e.g. "astar|ising": run part of the suite
res <- as.data.frame(test_dir("tests/testthat", package = "logz", load_package = "installed",
                              filter = if (nzchar(filter)) filter else NULL,
                              reporter = ProgressReporter$new(show_praise = FALSE),
                              stop_on_failure = FALSE))
failed <- sum(res$failed) + sum(res$error)
passed <- sum(res$nb) - sum(res$failed) - sum(res$skipped)
skipped <- sum(res$skipped)
cat(sprintf("\n%d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0 || nrow(res) == 0) 1 else 0)
