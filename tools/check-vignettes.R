#!/usr/bin/env Rscript
# Checks the shipped vignettes (vignettes/*.Rmd; the web-only articles in
# vignettes/articles/ are not shipped and not checked) against the rules for task
# documents: at most 1,500 words of prose (code chunks, inline code, the YAML header
# and HTML comments are not prose), no path into bench/ anywhere, and no number
# typed into the prose that a run computes. The last is a heuristic: a number with a
# decimal point or of three or more digits in the prose, outside inline code, is
# reported unless it appears literally in the vignette's code (an input, such as a
# sample size) or is a year in a reference. A vignette may list other numbers that
# are constants, not results, in an HTML comment: <!-- numbers: 0.7 0.1 -->. The
# reference list (a section headed References) is neither counted nor checked.
# Usage: Rscript tools/check-vignettes.R [dir]; exits with status 1 on a failure.

max_words <- 1500

strip_code <- function(lines) {
  fence <- grepl("^\\s*(```|~~~)", lines)
  inside <- (cumsum(fence) %% 2 == 1) | fence
  yaml_end <- if (length(lines) && lines[1] == "---") which(lines == "---")[2] else 0L
  if (is.na(yaml_end)) yaml_end <- 0L
  keep <- !inside
  keep[seq_len(yaml_end)] <- FALSE
  refs <- grep("^#+\\s*References?\\s*$", lines)          # the reference list is not prose
  if (length(refs)) keep[refs[1]:length(lines)] <- FALSE
  list(prose = lines[keep], code = lines[inside & !fence])
}

prose_text <- function(prose) {
  x <- paste(prose, collapse = "\n")
  x <- gsub("<!--.*?-->", " ", x, perl = TRUE)
  x <- gsub("`r [^`]*`", " ", x)            # inline R code
  x <- gsub("`[^`]*`", " ", x)              # inline code
  x <- gsub("\\]\\([^)]*\\)", "]", x)       # link targets
  x <- gsub("https?://\\S+", " ", x)
  x
}

allowed_numbers <- function(lines, code) {
  comments <- regmatches(lines, regexpr("<!--\\s*numbers:[^>]*-->", lines))
  listed <- unlist(strsplit(gsub("<!--\\s*numbers:|-->", "", comments), "[[:space:]]+"))
  in_code <- unlist(regmatches(code, gregexpr("[0-9][0-9,]*\\.?[0-9]*(e[-+]?[0-9]+)?", code)))
  norm <- function(v) sub("\\.$", "", gsub(",", "", v[nzchar(v)]))
  unique(c(norm(listed), norm(in_code)))
}

check_vignette <- function(file) {
  lines <- readLines(file, warn = FALSE)
  parts <- strip_code(lines)
  text <- prose_text(parts$prose)
  problems <- character()
  words <- length(grep("[[:alnum:]]", strsplit(text, "[[:space:]|]+")[[1]]))
  if (words > max_words)
    problems <- c(problems, sprintf("%d words of prose (at most %d)", words, max_words))
  bench <- grep("bench/", lines, fixed = TRUE)
  if (length(bench))
    problems <- c(problems, sprintf("line %d names a bench/ path: %s", bench, trimws(lines[bench])))
  nums <- unlist(regmatches(text, gregexpr(
    "(?<![[:alnum:]_.^])[0-9]{1,3}(,[0-9]{3})+(\\.[0-9]+)?|(?<![[:alnum:]_.^])[0-9]+\\.[0-9]+|(?<![[:alnum:]_.^,])[0-9]{3,}",
    text, perl = TRUE)))
  norm <- gsub(",", "", nums)
  year <- grepl("^(19|20)[0-9]{2}$", norm)
  bad <- unique(nums[!year & !(norm %in% allowed_numbers(lines, parts$code))])
  if (length(bad))
    problems <- c(problems, sprintf("number typed in the prose (compute it inline with `r `, or list it in <!-- numbers: -->): %s",
                                    paste(bad, collapse = ", ")))
  list(file = file, words = words, problems = problems)
}

args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "vignettes"
files <- list.files(dir, pattern = "\\.Rmd$", full.names = TRUE)
if (!length(files)) {
  cat("no vignettes in", dir, "\n")
  quit(status = 0)
}
res <- lapply(files, check_vignette)
failed <- FALSE
for (r in res) {
  cat(sprintf("%-40s %5d words  %s\n", basename(r$file), r$words,
              if (length(r$problems)) "FAIL" else "ok"))
  if (length(r$problems)) {
    failed <- TRUE
    cat(paste0("    ", r$problems, "\n"), sep = "")
  }
}
if (failed) quit(status = 1)
