"""scripts/run-contained: a command that leaves a process or a scratch directory behind fails."""

import os
import subprocess
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "run-contained")


def contained(shell):
    environment = dict(os.environ, RUN_CONTAINED_GRACE="0.5")
    return subprocess.run([SCRIPT, "bash", "-c", shell], capture_output=True, text=True, timeout=60, env=environment)


class RunContainedTests(unittest.TestCase):
    def test_a_clean_command_keeps_its_status(self):
        self.assertEqual(contained("exit 0").returncode, 0)
        self.assertEqual(contained("exit 7").returncode, 7)

    def test_a_process_left_running_is_named_killed_and_fails(self):
        result = contained("setsid sleep 123 >/dev/null 2>&1 & exit 0")
        self.assertEqual(result.returncode, 3)
        self.assertIn("sleep 123", result.stderr)
        listed = subprocess.run(["pgrep", "-f", "^sleep 123$"], capture_output=True)
        self.assertNotEqual(listed.returncode, 0, "the process left behind is still running")

    def test_a_scratch_directory_left_behind_is_named_removed_and_fails(self):
        path = f"/tmp/dt-test-contained-{os.getpid()}"
        result = contained(f"mkdir {path}")
        self.assertEqual(result.returncode, 3)
        self.assertIn(path, result.stderr)
        self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main()
