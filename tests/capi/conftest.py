"""pytest set-up for the C API suite: its helper module capi_build is importable."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
