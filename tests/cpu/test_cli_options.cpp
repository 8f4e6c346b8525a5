// Command-line options that cannot take effect, and the messages of the commands' own checks.
#include "catch.hpp"
