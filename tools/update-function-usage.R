# The usage of the methods on class "function" (ais, rts, smc) is written by hand as
# \method{generic}{function}(...) in their roxygen @usage, because roxygen2 writes
# {`function`}, which pkgdown cannot parse. After changing the arguments of one of these
# methods, run this from the package root to rewrite the @usage from the code (R CMD
# check's codoc fails until it matches): Rscript tools/update-function-usage.R
fmt_usage <- function(generic, f) {
  a <- formals(f)
  parts <- vapply(names(a), function(n) {
    if (n == "...") return("...")
    if (identical(a[[n]], quote(expr = ))) return(n)
    v <- a[[n]]
    paste(n, "=", paste(deparse(v, width.cutoff = 500L), collapse = " "))
  }, "")
  c(sprintf("\\method{%s}{function}(", generic), paste0("  ", parts, c(rep(",", length(parts) - 1L), "")), ")")
}
for (x in list(c("ais", "R/ais_function.R"), c("rts", "R/rts.R"), c("smc", "R/smc.R"))) {
  env <- new.env(); sys.source(x[2], envir = env, keep.source = FALSE)
  f <- get(paste0(x[1], ".function"), env)
  u <- fmt_usage(x[1], f)
  l <- readLines(x[2])
  i <- grep("^#' @usage$", l)
  stopifnot(length(i) == 1)
  j <- i + 1
  while (!grepl("^#' \\)$", l[j])) j <- j + 1
  l <- c(l[1:i], paste0("#' ", u), l[(j + 1):length(l)])
  writeLines(l, x[2])
}
