// Inputs: results files of every kind (gzipped or not) and sweep configs, their ranges and their errors.
#include "catch.hpp"
