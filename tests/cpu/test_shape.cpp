// Strict parsing of --shape and P lists: a typo must fail, never measure something else.
#include <stdexcept>
#include <string>

#include "catch.hpp"
#include "core/shape.hpp"

namespace {

// The std::invalid_argument message, or "" when nothing was thrown.
template <class F>
std::string invalid_argument_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// "text" in quotes, built without operator+ on temporaries (g++ 12 -Wrestrict false positive).
static std::string quoted(const char* text) {
  std::string q = "\"";
  q += text;
  q += '"';
  return q;
}

TEST_CASE("parse_shape accepts MxN with positive integers", "[shape]") {
  const credit::Shape s = credit::parse_shape("4096x65536");
  CHECK(s.m == 4096);
  CHECK(s.n == 65536);
  const credit::Shape upper = credit::parse_shape("1X7");
  CHECK(upper.m == 1);
  CHECK(upper.n == 7);
  const credit::Shape big = credit::parse_shape("2147483647x1073741824");  // the kernels' limits
  CHECK(big.m == 2147483647LL);
  CHECK(big.n == 1073741824LL);
}

TEST_CASE("parse_shape refuses shapes the kernels cannot index", "[shape]") {
  const std::string n = invalid_argument_of([] { credit::parse_shape("99999999999x99999999999"); });
  CHECK(n.find("invalid shape \"99999999999x99999999999\": M exceeds 2^31 - 1") != std::string::npos);
  const std::string wide = invalid_argument_of([] { credit::parse_shape("4x1073741825"); });
  CHECK(wide.find("N exceeds 2^30 elements") != std::string::npos);
  const std::string tall = invalid_argument_of([] { credit::parse_shape("2147483648x4"); });
  CHECK(tall.find("M exceeds 2^31 - 1 rows") != std::string::npos);
  CHECK(invalid_argument_of([] { credit::parse_shape("9223372036854775807x3"); }).find("M exceeds") !=
        std::string::npos);
}

TEST_CASE("parse_int_list expands ranges: FIRST:LAST:pow2 and FIRST:LAST:+STEP", "[shape]") {
  CHECK(credit::parse_int_list("4096:65536:pow2") == std::vector<int>{4096, 8192, 16384, 32768, 65536});
  CHECK(credit::parse_int_list("3000:9000:pow2") == std::vector<int>{4096, 8192});  // powers of two inside
  CHECK(credit::parse_int_list("1024:4096:+1024") == std::vector<int>{1024, 2048, 3072, 4096});
  CHECK(credit::parse_int_list("1000:3500:+1000") == std::vector<int>{1000, 2000, 3000});
  CHECK(credit::parse_int_list("7:7:+1") == std::vector<int>{7});
  CHECK(credit::parse_int_list("2,16:64:pow2,100") == std::vector<int>{2, 16, 32, 64, 100});
  CHECK(credit::parse_int_list("1073741824:2147483647:pow2") == std::vector<int>{1073741824});
}

TEST_CASE("parse_int_list rejects malformed ranges", "[shape]") {
  const char* bad[] = {"4096:65536",    "4096:65536:pow3", "65536:4096:pow2", "5:7:pow2",  "1:10:+0",
                       "1:10:2",        "1:10:-1",         "0:8:pow2",        "1:2:3:+1",  "a:8:pow2",
                       "1:100000:+1",   "1:2147483648:+1", ":8:pow2",         "4:8:+"};
  for (const char* text : bad) {
    INFO("input: \"" << text << "\"");
    const std::string msg = invalid_argument_of([&] { credit::parse_int_list(text); });
    REQUIRE(!msg.empty());
    CHECK(msg.find(quoted(text)) != std::string::npos);
    CHECK(msg.find("FIRST:LAST:pow2") != std::string::npos);
  }
}

TEST_CASE("to_string writes what parse_shape reads", "[shape]") {
  CHECK(credit::to_string(credit::Shape{4096, 65536}) == "4096x65536");
  const credit::Shape s = credit::parse_shape(credit::to_string(credit::Shape{8, 32768}));
  CHECK(s.m == 8);
  CHECK(s.n == 32768);
}

TEST_CASE("parse_shape rejects everything but MxN", "[shape]") {
  const char* bad[] = {"",      "4096",  "0x4096", "4096x0", "-1x5",  "4x-5",  "4096x", "x4096",
                       "12ax3", "4x5x6", "+4x5",   " 4x5",   "4x5 ",  "4 x5",  "4x 5",  "4*5",
                       "x",     "4x5\n", "0x0",    "1.5x2",  "9223372036854775808x1",
                       "1x99999999999999999999"};
  for (const char* text : bad) {
    INFO("input: \"" << text << "\"");
    const std::string msg = invalid_argument_of([&] { credit::parse_shape(text); });
    REQUIRE(!msg.empty());
    CHECK(msg.find(quoted(text)) != std::string::npos);
    CHECK(msg.find("MxN, e.g. 4096x65536") != std::string::npos);
  }
}

TEST_CASE("parse_int_list reads comma-separated positive ints in order", "[shape]") {
  CHECK(credit::parse_int_list("2,4,8,16") == std::vector<int>{2, 4, 8, 16});
  CHECK(credit::parse_int_list("1") == std::vector<int>{1});
  CHECK(credit::parse_int_list("16,2,4") == std::vector<int>{16, 2, 4});
  CHECK(credit::parse_int_list("2147483647") == std::vector<int>{2147483647});
}

TEST_CASE("parse_int_list rejects malformed lists", "[shape]") {
  const char* bad[] = {"",   ",",   "2,",         ",2",    "2,,4", "2, 4", "2;4", "0,2",
                       "-2", "+2",  "2147483648", "a",     "2,4x", "2 ",   "1.5", "99999999999999999999"};
  for (const char* text : bad) {
    INFO("input: \"" << text << "\"");
    const std::string msg = invalid_argument_of([&] { credit::parse_int_list(text); });
    REQUIRE(!msg.empty());
    CHECK(msg.find(quoted(text)) != std::string::npos);
    CHECK(msg.find("comma-separated positive integers") != std::string::npos);
    // No example: the caller gives its own option's (--P's is not --widths').
    CHECK(msg.find("e.g.") == std::string::npos);
  }
}

TEST_CASE("parse_int_list rejects a value given twice, naming it", "[shape]") {
  // "--P 2,2" timed every candidate twice.
  for (const char* text : {"2,2", "16,2,4,2", "02,2", "4096,8192,4096"}) {
    INFO("input: \"" << text << "\"");
    const std::string msg = invalid_argument_of([&] { credit::parse_int_list(text); });
    REQUIRE(!msg.empty());
    CHECK(msg.find(quoted(text)) != std::string::npos);
    CHECK(msg.find("comma-separated positive integers") != std::string::npos);
  }
  CHECK(invalid_argument_of([] { credit::parse_int_list("8,2,8"); }).find(": 8 is given twice;") != std::string::npos);
  // Ranges include LAST, so where they meet another item the value is kept once, where it first appears.
  CHECK(credit::parse_int_list("1024:4096:+1024,4096:16384:pow2") == std::vector<int>{1024, 2048, 3072, 4096, 8192, 16384});
  CHECK(credit::parse_int_list("4096:16384:pow2,1024:4096:+1024") == std::vector<int>{4096, 8192, 16384, 1024, 2048, 3072});
  CHECK(credit::parse_int_list("8,2:16:pow2") == std::vector<int>{8, 2, 4, 16});
  CHECK(credit::parse_int_list("2:8:pow2,2:8:pow2,4") == std::vector<int>{2, 4, 8});
}
