# Interrupt audit of the remaining long loops: runs each case of latency.R
# (the cases after "the audit of the remaining loops", plus the older cases
# named below) in a fresh R process under setTimeLimit(cpu = 0.5)
# (LOGZ_CPU_ONLY), with a library given on the command line, and a wall-time
# cap per process (a call that never reaches a check is killed: "killed").
#   Rscript bench/interrupts/latency_audit.R run LIB LABEL [regex]
#     -> bench/interrupts/latency_audit_LABEL.txt (latency.R's own lines)
#   Rscript bench/interrupts/latency_audit.R report OLD_LABEL NEW_LABEL
#     -> the table: CPU seconds used until the time-limit error, old and new
args <- commandArgs(TRUE)
dir <- "bench/interrupts"
cap <- as.numeric(Sys.getenv("LOGZ_AUDIT_CAP", "120"))
cases <- function() {
  src <- readLines(file.path(dir, "latency.R"))
  from <- grep("the audit of the remaining loops", src)
  nm <- sub("^  ([a-z0-9_]+) = quote.*", "\\1", grep("^  [a-z0-9_]+ = quote", src, value = TRUE))
  at <- grep("^  [a-z0-9_]+ = quote", src)
  c(nm[at > from], "rts", "rts_rbm_t2", "arm_rbm_t2", "exact_rbm_t2", "mip_t2", "raise",
    "ais_ising_t2", "blocked_gibbs")
}
if (args[1] == "run") {
  lib <- args[2]
  out <- file.path(dir, sprintf("latency_audit_%s.txt", args[3]))
  todo <- cases()
  if (length(args) > 3) todo <- todo[grepl(args[4], todo)]
  cat(sprintf("# latency.R under LOGZ_CPU_ONLY, library %s, %s, commit %s\n", lib, format(Sys.time()),
              system("git rev-parse --short HEAD", intern = TRUE)), file = out, append = TRUE)
  for (nm in todo) {
    t0 <- proc.time()[["elapsed"]]
    res <- suppressWarnings(system2("timeout", c(cap, "nice", "Rscript", file.path(dir, "latency.R"),
                                                 sprintf("'^%s$'", nm)),
                                    stdout = TRUE, stderr = FALSE,
                                    env = c(sprintf("R_LIBS=%s", lib), "LOGZ_CPU_ONLY=1")))
    line <- grep(sprintf("^%s ", nm), res, value = TRUE)
    if (!length(line)) line <- sprintf("%-20s %8s %8s %10s  killed after %.0f s wall", nm, "-", "-", "NA",
                                       proc.time()[["elapsed"]] - t0)
    if (!any(grepl("^\\[1\\]", readLines(out)))) cat(res[1], "\n", file = out, append = TRUE)
    cat(line, "\n", file = out, append = TRUE)
  }
} else if (args[1] == "report") {
  read <- function(label) {
    x <- readLines(file.path(dir, sprintf("latency_audit_%s.txt", label)))
    x <- grep("^[a-z0-9_]+ ", x, value = TRUE)
    nm <- sub(" .*", "", x)
    v <- sapply(strsplit(trimws(x), " +"), `[`, 4)
    msg <- sub("^\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+", "", trimws(x))
    # the last reading of each case
    keep <- !duplicated(nm, fromLast = TRUE)
    data.frame(case = nm[keep], cpu = v[keep], msg = msg[keep])
  }
  old <- read(args[2])
  new <- read(args[3])
  cat(sprintf("# Rscript bench/interrupts/latency_audit.R %s\n", paste(args, collapse = " ")))
  cat(sprintf("# %s, commit %s\n", format(Sys.time()), system("git rev-parse --short HEAD", intern = TRUE)))
  for (label in args[2:3]) {
    x <- readLines(file.path(dir, sprintf("latency_audit_%s.txt", label)))
    cat(grep("^# latency.R", x, value = TRUE), sep = "\n")
    cat("La_library():", unique(sub("^\\[1\\] ", "", grep("^\\[1\\]", x, value = TRUE))), "\n")
  }
  cat("CPU seconds used until the error under setTimeLimit(cpu = 0.5); NA with 'killed after N s\n")
  cat("wall': no check stopped the call before the process's wall-time cap; '-': not run.\n")
  cat(sprintf("%-20s %9s %9s  %-28s %s\n", "case", "old_cpu_s", "new_cpu_s", "old message", "new message"))
  for (nm in union(old$case, new$case)) {
    io <- match(nm, old$case)
    inew <- match(nm, new$case)
    cat(sprintf("%-20s %9s %9s  %-28s %s\n", nm, if (is.na(io)) "-" else old$cpu[io],
                if (is.na(inew)) "-" else new$cpu[inew],
                if (is.na(io)) "" else substr(old$msg[io], 1, 28),
                if (is.na(inew)) "" else substr(new$msg[inew], 1, 28)))
  }
}
