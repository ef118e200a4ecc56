import streamlit as st
def run():
    st.write("learning")
def tutorial():
    st.write("tutorial")
