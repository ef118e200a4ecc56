"""The Streamlit app: the Marshal's assistant, a digital match, learning and a tutorial.

The app is a thin layer: every rule, record and probability comes from ``engine``,
``notepad``, ``solver`` (and ``advisor`` when it is installed). Page modules:

- :mod:`app.main` - page setup, navigation (query parameters, no sidebar), language.
- :mod:`app.assistant` - the Marshal's assistant beside a real table.
- :mod:`app.match` - a full digital game (human/AI, hot-seat, AI vs AI).
- :mod:`app.learning` - replay and grading of saved games; the rules tutorial.
- :mod:`app.services` - store, cached solver, advice (advisor or solver fallback).
- :mod:`app.ui` - shared rendering (heat map, row, candidates, suggestions).
- :mod:`app.i18n` - English and Korean strings.
"""
