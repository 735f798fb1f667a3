"""scripts/slow-tests: the skip pattern names exactly the suites and tests tagged slow."""

import os
import re
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "slow-tests")

SOURCE = """
@Suite(.tags(.slow), .serialized) struct Restarts {
    @Test func comesBack() throws {}
}

/// A suite of quick tests with one slow one.
@Suite struct Mixed {
    @Test func quick() throws {}
    @Test(.tags(.slow)) func takesSeconds() throws {}
    @Test("a name", .tags(.other), arguments: [1, 2]) func parameterized(value: Int) throws {}
}
"""


class SlowTestsTests(unittest.TestCase):
    def test_the_pattern_names_slow_suites_and_tests_only(self):
        with tempfile.TemporaryDirectory() as tests:
            os.makedirs(os.path.join(tests, "SomeTests"))
            with open(os.path.join(tests, "SomeTests", "Some.swift"), "w") as handle:
                handle.write(SOURCE)
            pattern = subprocess.run([SCRIPT, tests], capture_output=True, text=True, check=True).stdout.strip()
        skipped = re.compile(pattern)
        self.assertTrue(skipped.search("SomeTests.Restarts/comesBack()"))
        self.assertTrue(skipped.search("SomeTests.Mixed/takesSeconds()"))
        self.assertFalse(skipped.search("SomeTests.Mixed/quick()"))
        self.assertFalse(skipped.search("SomeTests.Mixed/parameterized(value:)"))

    def test_no_slow_tests_skip_nothing(self):
        with tempfile.TemporaryDirectory() as tests:
            pattern = subprocess.run([SCRIPT, tests], capture_output=True, text=True, check=True).stdout.strip()
        self.assertFalse(re.compile(pattern).search("SomeTests.Mixed/quick()"))


if __name__ == "__main__":
    unittest.main()
