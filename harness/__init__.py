"""Tools for developers, shared by the tests and the benchmarks (not installed with
the project): :mod:`harness.browser` runs the app for real in a headless Chromium."""
