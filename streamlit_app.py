"""Fugitive: the Marshal's assistant, a digital match and learning (Streamlit).

A thin entry point: the pages live in the ``app`` package, and every rule, record
and probability comes from ``engine``, ``notepad``, ``solver`` (and ``advisor``).
Run with ``streamlit run streamlit_app.py`` (or ``make run``).
"""
from app.main import run

run()
