# Read the committed benchmark outputs of the source tree (bench/**) for the
# reproduction articles. Every figure an article quotes comes through these.
bench_root <- function() {
  d <- normalizePath(getwd())
  for (i in 1:8) {
    if (file.exists(file.path(d, "bench", "README.md"))) return(d)
    d <- dirname(d)
  }
  stop("bench/README.md not found above ", getwd(), call. = FALSE)
}

bench_path <- function(...) file.path(bench_root(), ...)

# Lines of a committed output from the first line matching `from` up to the line
# before the next match of `to` (to the end when `to` is NULL or not found).
bench_lines <- function(file, from = NULL, to = NULL, skip_blank_end = TRUE) {
  x <- readLines(bench_path(file), warn = FALSE)
  i <- if (is.null(from)) 1L else grep(from, x)[1]
  if (is.na(i)) stop("'", from, "' not found in ", file, call. = FALSE)
  j <- length(x)
  if (!is.null(to)) {
    k <- grep(to, x[-seq_len(i)])[1]
    if (!is.na(k)) j <- i + k - 1L
  }
  out <- x[i:j]
  if (skip_blank_end) while (length(out) && !nzchar(trimws(out[length(out)]))) out <- out[-length(out)]
  out
}

bench_show <- function(file, from = NULL, to = NULL) {
  cat(bench_lines(file, from, to), sep = "\n")
  invisible()
}

# The number in capture group `group` of the `n`-th line matching `pattern`.
bench_value <- function(file, pattern, n = 1, group = 1) {
  x <- readLines(bench_path(file), warn = FALSE)
  m <- regmatches(x, regexec(pattern, x))
  m <- m[lengths(m) > 0]
  if (length(m) < n) stop("'", pattern, "' matched ", length(m), " lines of ", file, call. = FALSE)
  as.numeric(gsub(",", "", m[[n]][group + 1]))
}

# A whitespace-separated table of a committed output: the header line matching
# `header` and the rows after it up to the first blank line.
bench_table <- function(file, header, n_rows = NULL) {
  x <- readLines(bench_path(file), warn = FALSE)
  i <- grep(header, x)[1]
  if (is.na(i)) stop("'", header, "' not found in ", file, call. = FALSE)
  end <- which(!nzchar(trimws(x[-seq_len(i)])))[1]
  rows <- if (is.na(end)) x[-seq_len(i)] else x[i + seq_len(end - 1L)]
  if (!is.null(n_rows)) rows <- rows[seq_len(n_rows)]
  utils::read.table(text = c(x[i], rows), header = TRUE, stringsAsFactors = FALSE,
                    check.names = FALSE)
}

fmt <- function(x, digits = 2) formatC(x, format = "f", digits = digits, big.mark = ",")
