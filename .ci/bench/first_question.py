#!/usr/bin/env python3
"""Time from starting `bgkb quiz` to its first question on screen (the quiz's start-up figure).

    first_question.py BGKB [CONTENT_DIR] [RUNS]

Without CONTENT_DIR the quiz runs on its built-in Content. Prints one line: the median, minimum
and maximum wall time over RUNS runs (default 5) and the median CPU time of the process, which
on a shared machine says more than wall time. Used by .ci/bench/run.sh and .ci/quiz-bench.sh.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    binary = sys.argv[1]
    content = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as work:
        for run in range(runs):
            args = [binary, "quiz", "--count", "10", "--seed", str(run)]
            if content:
                args += ["--content", content]
            env = dict(os.environ, BGKB_PROGRESS=os.path.join(work, f"progress-{run}.json"), NO_COLOR="1")
            start = time.perf_counter()
            child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
            seen = b""
            # The first question's header reads "1/N" (N is 10, or fewer on a small corpus).
            while b"\n1/" not in b"\n" + seen:
                chunk = os.read(child.stdout.fileno(), 65536)
                if not chunk:
                    print(f"no first question (output: {seen[:200]!r})")
                    return 1
                seen += chunk
            walls.append((time.perf_counter() - start) * 1000)
            child.stdin.write(b"q\n")
            child.stdin.close()
            _, _, usage = os.wait4(child.pid, 0)
            child.returncode = 0
            cpus.append((usage.ru_utime + usage.ru_stime) * 1000)
    print(f"first question in {statistics.median(walls):.0f} ms median (min {min(walls):.0f}, max {max(walls):.0f}) "
          f"over {runs} runs; CPU {statistics.median(cpus):.0f} ms median; load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
