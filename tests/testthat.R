library(testthat)
library(logz)
test_check("logz")
