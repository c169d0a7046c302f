# Build data/dna.rda from the StatLog DNA data (primate splice-junction gene sequences) as the
# suggested package mlbench ships it (mlbench::DNA: 3,186 sequences, 180 binary indicator
# variables V1-V180 as factors with levels "0"/"1", and Class: "ei", "ie" or "n"), the "dna"
# data of Carlson et al. (2016), Section 4.4 / Figure 5 (180 binary features, an RBM with 500
# hidden units). Rows keep mlbench's order; `split` marks a fixed random 2,000 rows "train" and
# the other 1,186 "validation" (StatLog's sizes; which rows StatLog used for training is not
# recorded in mlbench).
#
# Run from the package root:  Rscript data-raw/dna.R
stopifnot(requireNamespace("mlbench", quietly = TRUE))
e <- new.env()
utils::data("DNA", package = "mlbench", envir = e)
d <- e$DNA
stopifnot(identical(dim(d), c(3186L, 181L)),
          all(vapply(d[1:180], function(f) identical(levels(f), c("0", "1")), TRUE)))
x <- vapply(d[1:180], function(f) as.integer(as.character(f)), integer(nrow(d)))
dimnames(x) <- NULL
stopifnot(all(x %in% 0:1))
set.seed(20160619)
split <- rep("validation", nrow(x))
split[sample.int(nrow(x), 2000L)] <- "train"
dna <- list(x = x, y = d$Class, split = factor(split, levels = c("train", "validation")))
save(dna, file = file.path("data", "dna.rda"), compress = "xz")
cat(sprintf("data/dna.rda: %d x %d, %d train, %d validation, %.0f%% ones\n", nrow(x), ncol(x),
            sum(split == "train"), sum(split == "validation"), 100 * mean(x)))
