"""The SDK's version (``agentbrowser.__version__``), in a module of its own so that models can
compare it with the daemon's without importing the package."""

__version__ = "0.1.0"
