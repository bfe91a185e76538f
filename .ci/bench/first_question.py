#!/usr/bin/env python3
"""Time from starting `bgkb quiz` on a Content directory to its first question on the screen.

    first_question.py BGKB CONTENT_DIR

Starts the quiz with a fresh progress file and a fixed seed, reads its output until a line ends
with `?` (a question), prints the elapsed time, and ends the quiz.
"""
import os
import subprocess
import sys
import tempfile
import time


def main():
    bgkb, content = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        command = [bgkb, "quiz", "--content", content, "--seed", "1", "--count", "1",
                   "--progress", os.path.join(tmp, "progress.json")]
        env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
        start = time.monotonic()
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, env=env)
        seen = []
        try:
            for raw in process.stdout:
                line = raw.decode("utf-8", "replace").rstrip()
                seen.append(line)
                if line.endswith("?"):
                    print("first question after %.3f s" % (time.monotonic() - start))
                    return 0
            print("no question seen (exit %s): %s" % (process.wait(), " | ".join(seen[-3:])))
            return 1
        finally:
            process.kill()
            process.wait()


if __name__ == "__main__":
    sys.exit(main())
