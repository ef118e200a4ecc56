"""Benchmarks (``make bench``): each ``bench/*_bench.py`` has a ``main()`` that prints its figures."""
