#!/usr/bin/env bash
# Prints the `swift build` flags of a release binary as we ship it and benchmark it.
#
# On Linux, --static-swift-stdlib links the Swift runtime and Foundation into the executable. A
# build spends about a sixth of its CPU in swift_retain and swift_release; linked in, they are
# direct calls instead of calls through the shared library's PLT, and start-up loads no Swift
# libraries (12.4 to 7.5 ms for `bgkb --version`). A first build of 10,000 rules took 5-8 % less
# CPU and wall time (.ci/bench/RESULTS.md). macOS has no static Swift runtime: plain release.
#
#   swift build $(.ci/bench/release-flags.sh) --product bgkb
if [ "$(uname -s)" = Linux ]; then
  echo "-c release --static-swift-stdlib"
else
  echo "-c release"
fi
