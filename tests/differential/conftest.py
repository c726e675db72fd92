"""Differential tests: Torsion (through torsion-sim) against MuJoCo 3.14 (in this process).

Every test is parametrized over the model corpus (harness/corpus.py); test ids name the
model, e.g. test_qacc[gym/ant]. Nothing is skipped and nothing is an expected failure: a
check Torsion cannot pass yet simply fails. docs/testing.md describes the checks.
"""
import os
import sys

# the harness package sits beside this file
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
