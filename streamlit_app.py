"""Fugitive: the Marshal's assistant, a digital match and learning (placeholder until the app issue)."""
import streamlit as st

st.set_page_config(page_title="Fugitive", layout="centered")
st.title("Fugitive")
st.write("The Marshal's assistant is being built.")
