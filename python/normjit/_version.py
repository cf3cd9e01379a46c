# The package version; its major.minor is the libnormjit ABI the binding loads (_library.py).
__version__ = "0.2.0"
