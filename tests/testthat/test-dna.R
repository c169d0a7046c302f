# The bundled dna data against its source, mlbench::DNA.

test_that("dna holds mlbench's DNA as a 0/1 matrix with a fixed 2000 / 1186 split", {
  expect_identical(dim(dna$x), c(3186L, 180L))
  expect_true(is.integer(dna$x) && all(dna$x %in% 0:1))
  expect_identical(as.vector(table(dna$split)), c(2000L, 1186L))
  expect_identical(levels(dna$y), c("ei", "ie", "n"))
  skip_if_not_installed("mlbench")
  e <- new.env()
  utils::data("DNA", package = "mlbench", envir = e)
  src <- vapply(e$DNA[1:180], function(f) as.integer(as.character(f)), integer(3186))
  expect_identical(dna$x, unname(src))
  expect_identical(dna$y, e$DNA$Class)
})
