import streamlit as st
def run():
    st.write("match")
