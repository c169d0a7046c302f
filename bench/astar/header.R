# The header every A* bench prints (title, BLAS/LAPACK, command, build, date),
# and the CPU clock the benches time with.
bench_header <- function(title, command) {
  cat(title, "\n", sep = "")
  cat("LAPACK:", La_library(), "\n")
  cat("command:", command, "\n")
  cat("logz from", find.package("logz"), "| script at git",
      tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"), "\n")
  cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "\n\n")
}
cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
