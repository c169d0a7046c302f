#!/usr/bin/env Rscript
# No call cycle among the C files of src/: reads `nm` of each compiled object
# src/*.o (T: functions it defines, U: symbols it uses), draws an edge from
# file a to file b when a uses a function that b defines, and fails (exit 1,
# printing every cycle found) if the graph of files has a cycle. Base R only.
#
# Usage: Rscript tools/check-call-cycles.R [src-dir]   (after building, e.g.
# R CMD INSTALL, which leaves the objects in src/)

tools_dir <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
source(file.path(tools_dir, "scc.R"))   # strongly_connected()
args <- commandArgs(trailingOnly = TRUE)
src <- if (length(args)) args[1] else "src"
objs <- sort(Sys.glob(file.path(src, "*.o")))
objs <- objs[file.exists(sub("\\.o$", ".c", objs))]   # C files only
if (!length(objs)) {
  message("check-call-cycles: no objects of C files in ", src, "/ (build the package first)")
  quit(status = 2)
}
nm <- Sys.which("nm")
if (!nzchar(nm)) {
  message("check-call-cycles: `nm` not found")
  quit(status = 2)
}

files <- sub("\\.o$", ".c", basename(objs))
symbols <- lapply(objs, function(o) {
  out <- system2(nm, c("-g", shQuote(o)), stdout = TRUE)
  f <- strsplit(trimws(out), "[[:space:]]+")
  type <- vapply(f, function(x) if (length(x) >= 2) x[length(x) - 1] else "", "")
  name <- vapply(f, function(x) x[length(x)], "")
  name <- sub("^_", "", name)   # Mach-O prefixes C symbols with _
  list(defined = name[type %in% c("T", "t")], used = name[type == "U"])
})
names(symbols) <- files

owner <- list()
for (f in files) for (s in symbols[[f]]$defined) owner[[s]] <- c(owner[[s]], f)
dup <- Filter(function(x) length(x) > 1, owner)
if (length(dup))
  message("check-call-cycles: defined in more than one file: ",
          paste(sprintf("%s (%s)", names(dup), vapply(dup, paste, "", collapse = ", ")),
                collapse = "; "))

calls <- lapply(files, function(f) {
  u <- symbols[[f]]$used
  u <- u[u %in% names(owner)]
  to <- unique(unlist(owner[u], use.names = FALSE))
  setdiff(to, f)
})
names(calls) <- files
why <- function(a, b) {
  u <- symbols[[a]]$used
  paste(sort(u[vapply(u, function(s) b %in% owner[[s]], NA)]), collapse = ", ")
}

# Strongly connected components (Tarjan); a component of more than one file
# holds a cycle, shown as one path through it.
comps <- strongly_connected(files, calls)
cyclic <- Filter(function(cmp) length(cmp) > 1L, comps)

# one cycle inside a component: walk from its first file until a file repeats
one_cycle <- function(cmp) {
  path <- cmp[1]
  repeat {
    nxt <- intersect(calls[[path[length(path)]]], cmp)[1]
    if (nxt %in% path) return(c(path[match(nxt, path):length(path)], nxt))
    path <- c(path, nxt)
  }
}

n_edges <- sum(lengths(calls))
if (!length(cyclic)) {
  cat(sprintf("check-call-cycles: no call cycle among %d C files (%d file-to-file edges)\n",
              length(files), n_edges))
  quit(status = 0)
}
cat(sprintf("check-call-cycles: %d group(s) of C files call each other in a cycle:\n",
            length(cyclic)))
for (cmp in cyclic) {
  cat("\n  files: ", paste(sort(cmp), collapse = " "), "\n", sep = "")
  cyc <- one_cycle(cmp)
  cat("  cycle:\n")
  for (i in seq_len(length(cyc) - 1L))
    cat(sprintf("    %s -> %s  (%s)\n", cyc[i], cyc[i + 1L], why(cyc[i], cyc[i + 1L])))
}
quit(status = 1)
