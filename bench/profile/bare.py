"""The floor: a bare Streamlit page of one button whose tap redraws one HTML block,
marked like the assistant's entry pad so the same page clock (harness.taps.ARM)
times it (``bench/app_profile.py --bare``). $BARE_FILL adds that many static
elements (a caption and 41 number buttons each) after the block, to see what a
page's other elements cost a tap."""
import os
import time

import streamlit as st

_start = time.perf_counter()


def _tap() -> None:
    st.session_state["n"] = st.session_state.get("n", 0) + 1


n = st.session_state.get("n", 0)


def _fill() -> None:
    for i in range(int(os.environ.get("BARE_FILL", "0"))):
        st.caption(f"static caption {i}")
        st.pills(f"numbers {i}", list(range(1, 42)), key=f"fill_{i}")


before = os.environ.get("BARE_FILL_BEFORE") == "1"  # the static elements come before the block
st.button("Tap", on_click=_tap)
if before:
    _fill()
st.html(f'<div data-testid="fg-pad" data-entries="{n}">{n}</div>')
if not before:
    _fill()
with open(os.environ["FUGITIVE_RUN_LOG"], "a") as _log:
    _log.write(f"{time.time():.4f} {1000 * (time.perf_counter() - _start):.2f}\n")
