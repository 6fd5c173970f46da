"""IPython.core: the modules code imports from it directly."""
